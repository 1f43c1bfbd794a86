//! Values as Python sees them, for the comparison modes that reproduce Python evaluators
//! (Spider's test-suite `result_eq`, BIRD's EX and Soft-F1) verdict for verdict.
//!
//! Those evaluators compare tuples with Python's `==` and `hash`: `1 == 1.0 == True`, `None ==
//! None`, strings exactly. Spider also sorts each row by `str(x) + str(type(x))`, so Python's
//! `str` of every value, floats included, must come out character for character.

use std::hash::{Hash, Hasher};

use super::Value;

/// Python's `a == b` for values that came from JSON via `json.loads`.
pub fn eq(a: &Value, b: &Value) -> bool {
    match (numeric(a), numeric(b)) {
        (Some(x), Some(y)) => x == y,
        (None, None) => match (a, b) {
            (Value::Null, Value::Null) => true,
            (Value::Text(x), Value::Text(y)) => x == y,
            _ => false,
        },
        _ => false,
    }
}

/// A number compared exactly, as Python compares `int` and `float`.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Num {
    Int(i128),
    /// A float that is not an integer (integral floats become `Int`).
    Frac(f64),
}

fn numeric(value: &Value) -> Option<Num> {
    match value {
        Value::Bool(b) => Some(Num::Int(i128::from(*b))),
        Value::Int(i) => Some(Num::Int(i128::from(*i))),
        Value::Float(f) => Some(float_num(*f)),
        _ => None,
    }
}

fn float_num(f: f64) -> Num {
    // Every integral f64 below 2^127 converts exactly.
    if f.is_finite() && f.fract() == 0.0 && f.abs() < 1.7e38 {
        Num::Int(f as i128)
    } else {
        Num::Frac(f)
    }
}

/// Feeds `value` to `state` so that values equal under [`eq`] hash alike.
pub fn hash<H: Hasher>(value: &Value, state: &mut H) {
    match numeric(value) {
        Some(Num::Int(i)) => {
            0u8.hash(state);
            i.hash(state);
        }
        Some(Num::Frac(f)) => {
            1u8.hash(state);
            // -0.0 is integral, so it never reaches here; NaN cannot come from JSON.
            f.to_bits().hash(state);
        }
        None => match value {
            Value::Text(s) => {
                2u8.hash(state);
                s.hash(state);
            }
            _ => 3u8.hash(state),
        },
    }
}

/// A row wrapped so `HashMap`/`HashSet` use Python's tuple equality.
#[derive(Debug, Clone, Copy)]
pub struct Row<'a>(pub &'a [Value]);

impl PartialEq for Row<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0.len() == other.0.len() && self.0.iter().zip(other.0).all(|(a, b)| eq(a, b))
    }
}

impl Eq for Row<'_> {}

impl Hash for Row<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.len().hash(state);
        for value in self.0 {
            hash(value, state);
        }
    }
}

/// `str(value) + str(type(value))`: Spider's sort key for the values of a row.
pub fn str_type_key(value: &Value) -> String {
    match value {
        Value::Null => "None<class 'NoneType'>".to_string(),
        Value::Bool(true) => "True<class 'bool'>".to_string(),
        Value::Bool(false) => "False<class 'bool'>".to_string(),
        Value::Int(i) => format!("{i}<class 'int'>"),
        Value::Float(f) => format!("{}<class 'float'>", float_repr(*f)),
        Value::Text(s) => format!("{s}<class 'str'>"),
    }
}

/// Python's `repr(float)` (also its `str`): the shortest digits that round-trip, in fixed
/// notation when the decimal point falls within 16 places left or 4 right, else scientific with
/// at least two exponent digits (`1e+16`, `1e-05`).
pub fn float_repr(f: f64) -> String {
    if f.is_nan() {
        return "nan".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    // Rust's `{:e}` prints the shortest round-tripping digits: "1.2345e-5".
    let scientific = format!("{:e}", f.abs());
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exponent: i32 = exponent.parse().unwrap_or(0);
    // Position of the decimal point counted from the start of `digits`.
    let point = exponent + 1;
    let sign = if f.is_sign_negative() { "-" } else { "" };
    let body = if (-3..=16).contains(&point) {
        if point <= 0 {
            format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
        } else if (point as usize) < digits.len() {
            format!(
                "{}.{}",
                &digits[..point as usize],
                &digits[point as usize..]
            )
        } else {
            format!("{digits}{}.0", "0".repeat(point as usize - digits.len()))
        }
    } else {
        let (first, rest) = digits.split_at(1);
        let fraction = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let exp_sign = if exponent < 0 { '-' } else { '+' };
        format!("{first}{fraction}e{exp_sign}{:02}", exponent.unsigned_abs())
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_repr_matches_python() {
        let cases = [
            (1.0, "1.0"),
            (0.1, "0.1"),
            (-2.5, "-2.5"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (123456789012345680.0, "1.2345678901234568e+17"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.5e-7, "1.5e-07"),
            (1e100, "1e+100"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (12.375, "12.375"),
            (100.0, "100.0"),
            (0.30000000000000004, "0.30000000000000004"),
        ];
        for (value, python) in cases {
            assert_eq!(float_repr(value), python, "{value:e}");
        }
    }

    #[test]
    fn python_equality_across_number_types() {
        assert!(eq(&Value::Int(1), &Value::Float(1.0)));
        assert!(eq(&Value::Bool(true), &Value::Int(1)));
        assert!(!eq(&Value::Int(1), &Value::Text("1".into())));
        assert!(eq(&Value::Null, &Value::Null));
        assert!(!eq(
            &Value::Int(9_007_199_254_740_993),
            &Value::Float(9_007_199_254_740_992.0)
        ));
    }
}
