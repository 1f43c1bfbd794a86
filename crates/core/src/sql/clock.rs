//! Whether a query reads the clock: its result then depends on the day it runs, and a gold
//! written on one day can fail a right prediction on another.

use sqlparser::tokenizer::{Token, Tokenizer};

use super::SqlDialect;

/// The first construct of `sql` that reads the clock, as written: `CURRENT_DATE`,
/// `CURRENT_TIME`, `CURRENT_TIMESTAMP`, `LOCALTIME`, `LOCALTIMESTAMP`, a call of `now()`,
/// `curdate()`, `sysdate()`, `getdate()`, `unixepoch()` without arguments, or SQLite's `'now'`
/// time value (`date('now')`). Words inside strings other than `'now'` and inside comments do
/// not count.
pub(crate) fn reads_the_clock(sql: &str, dialect: SqlDialect) -> Option<String> {
    let tokens = Tokenizer::new(dialect.parser_dialect(), sql)
        .tokenize()
        .ok()?;
    let meaningful: Vec<&Token> = tokens
        .iter()
        .filter(|t| !matches!(t, Token::Whitespace(_)))
        .collect();
    for (i, token) in meaningful.iter().enumerate() {
        match token {
            Token::Word(word) if word.quote_style.is_none() => {
                let upper = word.value.to_ascii_uppercase();
                let next = meaningful.get(i + 1);
                let called = matches!(next, Some(Token::LParen));
                let without_arguments =
                    called && matches!(meaningful.get(i + 2), Some(Token::RParen));
                let found = match upper.as_str() {
                    "CURRENT_DATE" | "CURRENT_TIME" | "CURRENT_TIMESTAMP" | "LOCALTIME"
                    | "LOCALTIMESTAMP" => true,
                    "NOW" | "CURDATE" | "CURTIME" | "SYSDATE" | "GETDATE" => called,
                    "UNIXEPOCH" => without_arguments,
                    _ => false,
                };
                if found {
                    return Some(if called {
                        format!("{}()", word.value)
                    } else {
                        word.value.clone()
                    });
                }
            }
            Token::SingleQuotedString(text) if text.eq_ignore_ascii_case("now") => {
                return Some(format!("'{text}'"));
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_readings_are_found_and_lookalikes_are_not() {
        let found = |sql: &str| reads_the_clock(sql, SqlDialect::Sqlite);
        assert_eq!(
            found("SELECT * FROM t WHERE d > date('now', '-1 year')"),
            Some("'now'".into())
        );
        assert_eq!(
            found("SELECT current_date - 1"),
            Some("current_date".into())
        );
        assert_eq!(found("SELECT NOW() FROM t"), Some("NOW()".into()));
        assert_eq!(found("SELECT unixepoch()"), Some("unixepoch()".into()));
        assert_eq!(found("SELECT unixepoch(d) FROM t"), None);
        assert_eq!(found("SELECT now FROM t WHERE note = 'now and then'"), None);
        assert_eq!(found("SELECT \"current_date\" FROM t -- now()"), None);
    }
}
