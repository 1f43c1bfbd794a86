//! `qeval score --pairs FILE`: one scorecard per input line.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::time::{Instant, SystemTime};

use qeval_core::pairs::clean_line;
use qeval_core::profiles::Profile;
use qeval_core::{ScoreOptions, parse_pair_line, score_pair};
use serde_json::{Value, json};

use super::{Failure, Outcome, file_text};
use crate::ScoreArgs;
use crate::progress::Progress;

fn options(args: &ScoreArgs) -> Result<ScoreOptions, Failure> {
    let profile = match &args.profile_file {
        Some(path) => Profile::custom_from_json(&file_text(path)?)
            .map_err(|err| format!("{}: {err}", path.display()))?,
        None => Profile::preset(args.profile),
    };
    Ok(ScoreOptions {
        language: args.language.language.into(),
        dialect: args.language.dialect,
        table_match: args.table_match.into(),
        profile,
        mode: args.compare.mode,
        tolerance: args.compare.tolerance,
        numeric_tolerance: args.numeric_tolerance,
        ignore_case: args.compare.ignore_case,
        evaluated_at: Some(humantime::format_rfc3339_seconds(SystemTime::now()).to_string()),
        ..ScoreOptions::default()
    })
}

pub fn run(args: &ScoreArgs) -> Result<Outcome, Failure> {
    let options = options(args)?;
    let input: Box<dyn BufRead> = if args.pairs.as_os_str() == "-" {
        Box::new(io::stdin().lock())
    } else {
        let file = File::open(&args.pairs)
            .map_err(|err| format!("cannot open {}: {err}", args.pairs.display()))?;
        Box::new(BufReader::new(file))
    };
    let output: Box<dyn Write> = match &args.output {
        Some(path) => Box::new(
            File::create(path).map_err(|err| format!("cannot create {}: {err}", path.display()))?,
        ),
        None => Box::new(io::stdout().lock()),
    };
    let mut output = BufWriter::new(output);

    let started = Instant::now();
    let mut progress = Progress::new("scoring");
    let (mut scored, mut rejected) = (0usize, 0usize);
    let (mut passed, mut failed) = (0usize, 0usize);
    for (index, raw) in input.split(b'\n').enumerate() {
        let line_number = index + 1;
        let raw = raw.map_err(|err| format!("cannot read line {line_number}: {err}"))?;
        let record = match std::str::from_utf8(&raw) {
            Err(err) => Some(rejection(
                line_number,
                &format!("not UTF-8 text: {err}"),
                None,
            )),
            Ok(text) => clean_line(text).map(|line| match parse_pair_line(line) {
                Ok(pair) => {
                    let mut card = score_pair(&pair, &options);
                    card.line = Some(line_number);
                    scored += 1;
                    match card.profile.as_ref().and_then(|p| p.passed) {
                        Some(true) => passed += 1,
                        Some(false) => failed += 1,
                        None => {}
                    }
                    serde_json::to_value(card).unwrap_or_else(|err| {
                        rejection(line_number, &format!("internal: {err}"), None)
                    })
                }
                Err(err) => {
                    let mut record = rejection(line_number, &err.message, err.field.as_deref());
                    if let Some(column) = err.column {
                        record["error"]["column"] = json!(column);
                    }
                    record
                }
            }),
        };
        let Some(record) = record else { continue };
        if record.get("error").is_some() {
            rejected += 1;
            eprintln!("qeval: line {line_number}: {}", describe(&record["error"]));
        }
        writeln!(output, "{record}").map_err(|err| format!("cannot write the output: {err}"))?;
        progress.tick(scored + rejected);
    }
    output
        .flush()
        .map_err(|err| format!("cannot write the output: {err}"))?;
    progress.finish();
    eprintln!(
        "qeval: scored {scored} pair{}, rejected {rejected} line{}, in {:.2} s; {} profile: {passed} passed, {failed} failed, {} without a verdict",
        plural(scored),
        plural(rejected),
        started.elapsed().as_secs_f64(),
        options.profile.name,
        scored - passed - failed
    );
    Ok(if rejected == 0 {
        Outcome::Clean
    } else {
        Outcome::SomeInputRejected
    })
}

fn rejection(line: usize, message: &str, field: Option<&str>) -> Value {
    let mut error = json!({ "message": message });
    if let Some(field) = field {
        error["field"] = json!(field);
    }
    json!({ "line": line, "error": error })
}

fn describe(error: &Value) -> String {
    let message = error["message"].as_str().unwrap_or_default();
    match (error["field"].as_str(), error["column"].as_u64()) {
        (Some(field), _) => format!("field `{field}`: {message}"),
        (None, Some(column)) => format!("column {column}: {message}"),
        (None, None) => message.to_string(),
    }
}

fn plural(count: usize) -> &'static str {
    if count == 1 { "" } else { "s" }
}
