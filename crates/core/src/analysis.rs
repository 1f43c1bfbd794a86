//! One query, parsed and analysed, in SQL or KQL.

use sqlparser::ast::Statement;

use crate::kql::{self, KqlQuery};
use crate::language::Language;
use crate::scorecard::QueryReport;
use crate::sql::{self, ParseError, ParseLimits, Scopes, SqlDialect, TableName};

#[derive(Debug, Clone)]
pub struct Analysis {
    pub language: Language,
    pub tables: Vec<TableName>,
    /// The canonical text (see `sql::normalize`, `kql`).
    pub normalized: String,
    /// The SQL statements in canonical form, when the query is SQL and parses.
    pub statements: Option<Vec<Statement>>,
    /// What the names in `statements` refer to (`sql::scope`): empty for KQL and unparsed text.
    pub scopes: Scopes,
    /// The KQL query, when the query is KQL and parses.
    pub kql: Option<KqlQuery>,
    pub parse_error: Option<ParseError>,
}

/// Parses SQL and extracts what the metrics need. Never fails: a parse error is kept.
pub fn analyse(sql_text: &str, dialect: SqlDialect, limits: ParseLimits) -> Analysis {
    analyse_as(Language::Sql, sql_text, dialect, limits)
}

pub fn analyse_as(
    language: Language,
    text: &str,
    dialect: SqlDialect,
    limits: ParseLimits,
) -> Analysis {
    let empty = |normalized: String, err: ParseError| Analysis {
        language,
        tables: Vec::new(),
        normalized,
        statements: None,
        scopes: Scopes::default(),
        kql: None,
        parse_error: Some(err),
    };
    match language {
        Language::Sql => match sql::parse(text, dialect, limits) {
            Ok(mut statements) => {
                // Canonical form changes names' case, quotes and join spellings, never the
                // queries' structure or the names' meaning: the scopes hold for both forms.
                let scopes = Scopes::of(&statements);
                let tables = sql::tables_in(&statements, &scopes);
                sql::canonicalize(&mut statements);
                Analysis {
                    language,
                    tables,
                    normalized: sql::canonical_text(&statements),
                    scopes,
                    statements: Some(statements),
                    kql: None,
                    parse_error: None,
                }
            }
            Err(err) => empty(sql::normalize_tokens(text, dialect), err),
        },
        Language::Kql => match kql::parse(text, limits.max_bytes) {
            Ok(query) => Analysis {
                language,
                tables: query.tables.iter().map(|t| TableName::single(t)).collect(),
                normalized: query.normalized.clone(),
                statements: None,
                scopes: Scopes::default(),
                kql: Some(query),
                parse_error: None,
            },
            Err(err) => empty(text.split_whitespace().collect::<Vec<_>>().join(" "), err),
        },
    }
}

impl Analysis {
    /// True when both are the same query up to normalization: equal canonical forms, or, when
    /// neither parses, equal token-level text.
    pub fn same_query_as(&self, other: &Analysis) -> bool {
        if self.language != other.language {
            return false;
        }
        match (&self.statements, &other.statements, &self.kql, &other.kql) {
            (Some(mine), Some(theirs), _, _) => mine == theirs,
            (_, _, Some(mine), Some(theirs)) => mine.normalized == theirs.normalized,
            _ if self.parse_error.is_some() && other.parse_error.is_some() => {
                self.normalized == other.normalized
            }
            _ => false,
        }
    }

    pub fn report(&self) -> QueryReport {
        QueryReport {
            normalized: crate::words::echo(&self.normalized),
            tables: self.tables.clone(),
            parse_error: self.parse_error.clone(),
        }
    }
}
