//! `qeval compare`: two result sets, one comparison.

use std::io::Read as _;
use std::path::Path;

use qeval_core::{
    CompareOptions, LinesStream, QueryContext, ResultError, ResultSet, ResultStream, StreamOptions,
    compare_results, read_result_text,
};

use super::{Completion, Failure, file_text};
use crate::{CompareArgs, QueryContextArgs};

pub fn run(
    expected: &Path,
    generated: &Path,
    args: &CompareArgs,
    order_matters: bool,
    context: &QueryContextArgs,
) -> Result<Completion, Failure> {
    // Both files are read at once: reading is most of the work for large results.
    let (expected, generated) = std::thread::scope(|scope| {
        let other = scope.spawn(|| read_result_file(generated));
        let expected = read_result_file(expected);
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
        query_context: QueryContext {
            question: context.question.clone(),
            query_category: context.query_category.clone(),
            expected_sql: context.expected_sql.clone(),
            generated_sql: context.generated_sql.clone(),
        },
        ..CompareOptions::default()
    };
    let comparison = compare_results(&expected, &generated, &options);
    println!(
        "{}",
        serde_json::to_string_pretty(&comparison).map_err(|err| err.to_string())?
    );
    Ok(if comparison.equal {
        Completion::Clean
    } else {
        Completion::SomeInputRejected
    })
}

/// The result set in a file, read in blocks (see `ResultStream`, and `LinesStream` for JSON
/// Lines): the rows are parsed as the file is read, so the file's whole text is never in memory
/// beside its table. What the streams do not take (other shapes, invalid JSON) is read whole,
/// and an error names its place.
fn read_result_file(path: &Path) -> Result<ResultSet, Failure> {
    let streamed = if path.as_os_str() == "-" {
        None
    } else {
        stream_file(path).map_err(|err| format!("cannot read {}: {err}", path.display()))?
    };
    let result = match streamed {
        Some(result) => result,
        None => read_result_text(&file_text(path)?),
    };
    result.map_err(|err| format!("{}: {err}", path.display()))
}

/// The file read in blocks as one document of a common shape, else as JSON Lines; `None` when
/// neither stream takes it. Each stream stops reading once it has refused the file.
fn stream_file(path: &Path) -> std::io::Result<Option<Result<ResultSet, ResultError>>> {
    let mut document = ResultStream::new(StreamOptions {
        total_bytes: Some(std::fs::metadata(path)?.len()),
        ..StreamOptions::default()
    });
    for_each_block(path, |block| {
        document.push(block);
        !document.gave_up()
    })?;
    if let Some(result) = document.finish() {
        return Ok(Some(Ok(result)));
    }
    let mut lines = LinesStream::new();
    for_each_block(path, |block| {
        lines.push(block);
        !lines.settled()
    })?;
    Ok(lines.finish())
}

/// Gives the file's bytes to `push` in blocks of 1 MiB, in order, until the file ends or `push`
/// answers `false` (it needs no more).
fn for_each_block(path: &Path, mut push: impl FnMut(&[u8]) -> bool) -> std::io::Result<()> {
    let mut file = std::fs::File::open(path)?;
    let mut block = vec![0u8; 1 << 20];
    loop {
        let read = file.read(&mut block)?;
        if read == 0 || !push(&block[..read]) {
            return Ok(());
        }
    }
}
