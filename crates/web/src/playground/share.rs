//! The playground state as a URL fragment: `#s=1.<base64url(deflate(json))>`.
//!
//! The `1` is the format version, so links keep opening after the format changes. Links are
//! capped in size when written, and decompression is capped when read, so a hostile link cannot
//! make the page allocate without bound.

use std::fmt;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use qeval_core::{AnswerType, Language, Mode, ProfileName, SqlDialect};
use serde::{Deserialize, Serialize};

use crate::playground::state::{DEFAULT_CHECKS, Playground};

/// Longest fragment we write. Chat tools and browsers keep links far longer, but a link that
/// long is a file, not a link.
pub const MAX_FRAGMENT_BYTES: usize = 64 * 1024;
/// Most bytes a fragment may inflate to.
pub const MAX_STATE_BYTES: usize = 1024 * 1024;

const PREFIX: &str = "s=";
const VERSION: &str = "1";

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShareError {
    TooLarge { bytes: usize, limit: usize },
    UnknownVersion(String),
    Corrupt(String),
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShareError::TooLarge { bytes, limit } => write!(
                f,
                "too large to share as a link ({} KB compressed; the limit is {} KB)",
                bytes.div_ceil(1024),
                limit / 1024
            ),
            ShareError::UnknownVersion(version) => write!(
                f,
                "the link was made by a newer qeval (format {version}); this page reads format {VERSION}"
            ),
            ShareError::Corrupt(reason) => write!(f, "the link is damaged: {reason}"),
        }
    }
}

/// The wire form: short keys keep links short; fields added later default, so older links
/// still open.
#[derive(Serialize, Deserialize)]
struct Wire {
    #[serde(rename = "g", default)]
    generated: String,
    #[serde(rename = "e", default)]
    expected: String,
    #[serde(rename = "d", default)]
    dialect: SqlDialect,
    #[serde(rename = "l", default, skip_serializing_if = "is_default")]
    language: Language,
    #[serde(
        rename = "p",
        default = "default_profile",
        skip_serializing_if = "is_default_profile"
    )]
    profile: ProfileName,
    #[serde(rename = "m", default, skip_serializing_if = "Option::is_none")]
    mode: Option<Mode>,
    #[serde(rename = "er", default, skip_serializing_if = "String::is_empty")]
    expected_result: String,
    #[serde(rename = "gr", default, skip_serializing_if = "String::is_empty")]
    generated_result: String,
    #[serde(rename = "t", default, skip_serializing_if = "Option::is_none")]
    answer_type: Option<AnswerType>,
    /// The database file's name: the link says which file it needs, never carries it.
    #[serde(rename = "db", default, skip_serializing_if = "String::is_empty")]
    database: String,
    /// The SQL a database was built from, when it fits.
    #[serde(rename = "dbs", default, skip_serializing_if = "String::is_empty")]
    database_sql: String,
    #[serde(rename = "n", default, skip_serializing_if = "is_default")]
    suite: u32,
    #[serde(rename = "sd", default = "one", skip_serializing_if = "is_one")]
    seed: u64,
    /// A schema the user wrote for the equivalence check.
    #[serde(rename = "sc", default, skip_serializing_if = "String::is_empty")]
    schema: String,
    #[serde(
        rename = "k",
        default = "default_checks",
        skip_serializing_if = "is_default_checks"
    )]
    checks: u32,
    #[serde(rename = "q", default, skip_serializing_if = "String::is_empty")]
    question: String,
    #[serde(rename = "qc", default, skip_serializing_if = "String::is_empty")]
    query_category: String,
}

fn one() -> u64 {
    1
}

fn is_one(seed: &u64) -> bool {
    *seed == 1
}

fn default_checks() -> u32 {
    DEFAULT_CHECKS
}

fn is_default_checks(checks: &u32) -> bool {
    *checks == DEFAULT_CHECKS
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

fn default_profile() -> ProfileName {
    ProfileName::Qas
}

fn is_default_profile(profile: &ProfileName) -> bool {
    *profile == ProfileName::Qas
}

/// A link's fragment, and what it had to leave out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// Without its `#`.
    pub fragment: String,
    /// The SQL the database was built from did not fit: the size it would have made the link.
    pub database_sql_left_out: Option<usize>,
}

/// The fragment (without `#`) that reproduces `state`. When the SQL a database was built from
/// makes the link too long, the link leaves it out (and says so) rather than failing: the
/// queries and results are worth sharing on their own.
pub fn encode(state: &Playground) -> Result<Link, ShareError> {
    match fragment(state) {
        Ok(fragment) => Ok(Link {
            fragment,
            database_sql_left_out: None,
        }),
        Err(ShareError::TooLarge { bytes, .. }) if !state.database_sql.is_empty() => {
            let without = Playground {
                database_sql: String::new(),
                ..state.clone()
            };
            Ok(Link {
                fragment: fragment(&without)?,
                database_sql_left_out: Some(bytes),
            })
        }
        Err(err) => Err(err),
    }
}

fn fragment(state: &Playground) -> Result<String, ShareError> {
    let wire = Wire {
        generated: state.generated.clone(),
        expected: state.expected.clone(),
        dialect: state.dialect,
        language: state.language,
        profile: state.profile,
        mode: state.mode,
        expected_result: state.expected_result.clone(),
        generated_result: state.generated_result.clone(),
        answer_type: state.answer_type,
        database: state.database.clone(),
        database_sql: state.database_sql.clone(),
        suite: state.suite,
        seed: state.seed,
        schema: state.schema.clone(),
        checks: state.checks,
        question: state.question.clone(),
        query_category: state.query_category.clone(),
    };
    let json = serde_json::to_vec(&wire).map_err(|err| ShareError::Corrupt(err.to_string()))?;
    let compressed = miniz_oxide::deflate::compress_to_vec(&json, 9);
    let fragment = format!("{PREFIX}{VERSION}.{}", URL_SAFE_NO_PAD.encode(compressed));
    if fragment.len() > MAX_FRAGMENT_BYTES {
        return Err(ShareError::TooLarge {
            bytes: fragment.len(),
            limit: MAX_FRAGMENT_BYTES,
        });
    }
    Ok(fragment)
}

/// Reads a fragment (with or without its `#`). `Ok(None)` means it holds no playground state.
pub fn decode(fragment: &str) -> Result<Option<Playground>, ShareError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let Some(payload) = fragment.strip_prefix(PREFIX) else {
        return Ok(None);
    };
    if payload.len() > MAX_FRAGMENT_BYTES * 2 {
        return Err(ShareError::TooLarge {
            bytes: payload.len(),
            limit: MAX_FRAGMENT_BYTES,
        });
    }
    let (version, data) = payload
        .split_once('.')
        .ok_or_else(|| ShareError::Corrupt("no format version".to_string()))?;
    if version != VERSION {
        return Err(ShareError::UnknownVersion(version.to_string()));
    }
    let compressed = URL_SAFE_NO_PAD
        .decode(data.trim_end_matches('='))
        .map_err(|err| ShareError::Corrupt(format!("not base64url ({err})")))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&compressed, MAX_STATE_BYTES)
        .map_err(|err| match err.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => ShareError::TooLarge {
                bytes: MAX_STATE_BYTES + 1,
                limit: MAX_STATE_BYTES,
            },
            status => ShareError::Corrupt(format!("cannot decompress ({status:?})")),
        })?;
    let wire: Wire = serde_json::from_slice(&json)
        .map_err(|err| ShareError::Corrupt(format!("unreadable state ({err})")))?;
    Ok(Some(Playground {
        generated: wire.generated,
        expected: wire.expected,
        dialect: wire.dialect,
        language: wire.language,
        profile: wire.profile,
        mode: wire.mode,
        expected_result: wire.expected_result,
        generated_result: wire.generated_result,
        answer_type: wire.answer_type,
        database: wire.database,
        database_sql: wire.database_sql,
        suite: wire.suite,
        seed: wire.seed,
        schema: wire.schema,
        checks: wire.checks,
        question: wire.question,
        query_category: wire.query_category,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let state = Playground {
            generated: "SELECT 'ünïcode' FROM t -- é\n".to_string(),
            expected: "SELECT 1".to_string(),
            dialect: SqlDialect::Snowflake,
            language: Language::Kql,
            profile: ProfileName::KqlBatch,
            mode: Some(Mode::Bag),
            expected_result: "[1]".to_string(),
            generated_result: "[{\"a\": 1}]".to_string(),
            answer_type: Some(AnswerType::Table),
            database: "built from SQL".to_string(),
            database_sql: "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1);".to_string(),
            suite: 20,
            seed: 7,
            schema: "CREATE TABLE t (a INTEGER PRIMARY KEY)".to_string(),
            checks: 12,
            question: "Which users signed up first, sorted by date?".to_string(),
            query_category: "order_by".to_string(),
        };
        let link = encode(&state).unwrap();
        assert_eq!(link.database_sql_left_out, None);
        let fragment = link.fragment;
        assert!(fragment.starts_with("s=1."));
        assert!(
            fragment
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"=._-".contains(&b))
        );
        assert_eq!(decode(&format!("#{fragment}")), Ok(Some(state)));
    }

    #[test]
    fn links_from_before_the_result_fields_still_open() {
        let old = Wire0 {
            g: "SELECT 1".into(),
            e: "SELECT 2".into(),
            d: SqlDialect::Sqlite,
        };
        let json = serde_json::to_vec(&old).unwrap();
        let fragment = format!(
            "s=1.{}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&json, 9))
        );
        let state = decode(&fragment).unwrap().unwrap();
        assert_eq!(state.dialect, SqlDialect::Sqlite);
        assert_eq!(state.profile, ProfileName::Qas);
        assert_eq!(state.generated_result, "");
    }

    #[derive(Serialize)]
    struct Wire0 {
        g: String,
        e: String,
        d: SqlDialect,
    }

    #[test]
    fn other_fragments_hold_no_state() {
        assert_eq!(decode(""), Ok(None));
        assert_eq!(decode("#top"), Ok(None));
    }

    #[test]
    fn newer_versions_are_named() {
        assert_eq!(
            decode("s=2.abc"),
            Err(ShareError::UnknownVersion("2".into()))
        );
    }

    #[test]
    fn damage_is_reported_not_panicked() {
        assert!(matches!(decode("s=1.!!!"), Err(ShareError::Corrupt(_))));
        assert!(matches!(decode("s=1.AAAA"), Err(ShareError::Corrupt(_))));
        assert!(matches!(decode("s=1"), Err(ShareError::Corrupt(_))));
    }

    #[test]
    fn a_decompression_bomb_is_refused() {
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; 8 * MAX_STATE_BYTES], 9);
        let fragment = format!("s=1.{}", URL_SAFE_NO_PAD.encode(bomb));
        assert!(fragment.len() < MAX_FRAGMENT_BYTES);
        assert!(matches!(
            decode(&fragment),
            Err(ShareError::TooLarge { .. })
        ));
    }

    #[test]
    fn an_oversized_state_is_not_encoded() {
        // Random-looking text barely compresses.
        let mut seed = 7u64;
        let noise: String = (0..200_000)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                char::from(b'a' + (seed >> 59) as u8 % 26)
            })
            .collect();
        let state = Playground {
            generated: noise.clone(),
            ..Playground::default()
        };
        assert!(matches!(encode(&state), Err(ShareError::TooLarge { .. })));

        // Too much database SQL is left out, and the rest is shared.
        let state = Playground {
            database: "built from SQL".into(),
            database_sql: format!("INSERT INTO t VALUES ('{noise}');"),
            ..Playground::example()
        };
        let link = encode(&state).expect("shared without the SQL");
        assert!(
            link.database_sql_left_out
                .is_some_and(|bytes| bytes > MAX_FRAGMENT_BYTES)
        );
        let opened = decode(&link.fragment).unwrap().unwrap();
        assert_eq!(opened.database_sql, "");
        assert_eq!(opened.database, "built from SQL");
        assert_eq!(opened.generated, state.generated);
    }
}
