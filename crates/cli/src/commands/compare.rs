//! `qeval compare`: two result sets, one comparison.

use std::path::Path;

use qeval_core::results::compare::{CompareOptions, compare};
use qeval_core::results::read_result_text;

use super::{Failure, Outcome, file_text};
use crate::CompareArgs;

pub fn run(
    expected: &Path,
    generated: &Path,
    args: &CompareArgs,
    order_matters: bool,
) -> Result<Outcome, Failure> {
    let read = |path: &Path| -> Result<_, Failure> {
        read_result_text(&file_text(path)?).map_err(|err| format!("{}: {err}", path.display()))
    };
    // Both files are read at once: reading is most of the work for large results.
    let (expected, generated) = std::thread::scope(|scope| {
        let other = scope.spawn(|| read(generated));
        let expected = read(expected);
        let generated = other
            .join()
            .unwrap_or_else(|_| Err("reading the generated result failed".to_string()));
        (expected, generated)
    });
    let (expected, generated) = (expected?, generated?);
    let options = CompareOptions {
        mode: args.mode.unwrap_or_default(),
        tolerance: args.tolerance,
        order_matters,
        ignore_case: args.ignore_case,
        ..CompareOptions::default()
    };
    let comparison = compare(&expected, &generated, &options);
    println!(
        "{}",
        serde_json::to_string_pretty(&comparison).map_err(|err| err.to_string())?
    );
    Ok(if comparison.equal {
        Outcome::Clean
    } else {
        Outcome::SomeInputRejected
    })
}
