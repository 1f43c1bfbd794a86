//! The two query languages qeval reads.

/// The query language of a pair: SQL (in one of its dialects) or KQL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub enum Language {
    #[default]
    Sql,
    Kql,
}

impl std::str::FromStr for Language {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "sql" => Ok(Language::Sql),
            "kql" | "kusto" => Ok(Language::Kql),
            _ => Err(format!("unknown language \"{s}\" (expected sql or kql)")),
        }
    }
}
