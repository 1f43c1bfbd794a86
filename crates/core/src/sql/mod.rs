//! SQL analysis: parsing, table extraction, normalization.

mod dialect;
mod normalize;
mod parse;
mod safety;
mod tables;

pub use dialect::{SqlDialect, UnknownDialect};
pub use normalize::{canonical_text, canonicalize, normalize, normalize_tokens};
pub use parse::{ParseError, ParseLimits, parse};
pub use safety::{SafetyReport, Violation, ViolationKind, check_read_only};
pub use tables::{TableName, TableNameError, extract_tables};
