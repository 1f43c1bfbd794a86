//! SQL analysis: parsing, table extraction, normalization.

mod dialect;
mod normalize;
mod parse;
mod tables;

pub use dialect::{SqlDialect, UnknownDialect};
pub use normalize::{canonical_text, canonicalize, normalize, normalize_tokens};
pub use parse::{ParseError, ParseLimits, parse};
pub use tables::{TableName, TableNameError, extract_tables};
