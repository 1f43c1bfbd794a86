//! `qeval score --pairs FILE`: one scorecard per input line, with LLM judges when asked.

use crate::output::say;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::time::{Duration, Instant, SystemTime};

use qeval_core::MetricName;
use qeval_core::metrics::classification::{ClassificationInput, summarize_classification};
use qeval_core::metrics::efficiency::r_ves;
use qeval_core::pairs::pairs_file_line;
use qeval_core::profiles::Profile;
use qeval_core::run::agreement::{Labelled, agreement_of, scorecard_verdicts};
use qeval_core::run::record::test_key;
use qeval_core::score::JudgeOutcome;
use qeval_core::words::plural;
use qeval_core::{PairInput, ScoreOptions, add_equivalence, parse_pair_line, score_pair_judged};
use serde_json::Value;

use super::{Failure, Outcome, file_text};
use crate::execute::{Executor, equivalence_check};
use crate::langfuse::Langfuse;
use crate::progress::Progress;
use crate::{JudgeArgs, ScoreArgs, pool};
use qeval_native::judge::{Judge, JudgeSettings, default_cache_dir, judge_all};

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
        judge_prompt: args.judge.judge_prompt,
        schema: match &args.db.schema {
            Some(path) => Some(file_text(path)?),
            None => None,
        },
        ..ScoreOptions::default()
    })
}

/// The judge the flags ask for, if any.
pub fn judge(args: &JudgeArgs) -> Result<Option<Judge>, Failure> {
    let Some(provider) = args.judge else {
        return Ok(None);
    };
    let model = args
        .judge_model
        .clone()
        .ok_or("--judge needs --judge-model (the model to ask)")?;
    let timeout = Duration::try_from_secs_f64(args.judge_timeout)
        .ok()
        .filter(|timeout| !timeout.is_zero())
        .ok_or_else(|| {
            format!(
                "--judge-timeout takes a number of seconds above 0, not {}",
                args.judge_timeout
            )
        })?;
    let settings = JudgeSettings {
        provider,
        model,
        url: args.judge_url.clone(),
        key_env: args.judge_key_env.clone(),
        key_header: args.judge_key_header.clone(),
        query: args.judge_query.clone(),
        timeout,
        cache: (!args.no_cache).then(|| {
            let dir = args.cache_dir.clone().unwrap_or_else(default_cache_dir);
            (dir, *args.cache_ttl)
        }),
    };
    let judge = settings.judge();
    if !judge.has_key() {
        say!(
            "qeval: no key in ${}; calling {} without one (fine for a local server)",
            settings.key_variables().join(" or $"),
            judge.base_url()
        );
    }
    Ok(Some(judge))
}

/// A non-blank input line: the pair, or the record that says why it was rejected.
struct Line {
    number: usize,
    pair: Result<PairInput, Value>,
}

fn read_lines(args: &ScoreArgs) -> Result<Vec<Line>, Failure> {
    let input: Box<dyn BufRead> = if args.pairs.as_os_str() == "-" {
        Box::new(io::stdin().lock())
    } else {
        let file = File::open(&args.pairs)
            .map_err(|err| format!("cannot open {}: {err}", args.pairs.display()))?;
        Box::new(BufReader::new(file))
    };
    let mut lines = Vec::new();
    for (index, raw) in input.split(b'\n').enumerate() {
        let number = index + 1;
        let raw = raw.map_err(|err| format!("cannot read line {number}: {err}"))?;
        let pair = match pairs_file_line(number, &raw) {
            None => continue,
            Some(Err(record)) => Err(record),
            Some(Ok(line)) => parse_pair_line(line).map_err(|err| err.record(number)),
        };
        lines.push(Line { number, pair });
    }
    Ok(lines)
}

/// Every judging every pair needs, run `concurrency` at a time, with a progress line.
pub fn run_judgings(
    pairs: &[Option<&PairInput>],
    options: &ScoreOptions,
    judge: &Judge,
    concurrency: usize,
) -> Vec<BTreeMap<String, JudgeOutcome>> {
    let mut progress = Progress::new("judging");
    let progress_lock = std::sync::Mutex::new(&mut progress);
    let judged = judge_all(pairs, options, judge, concurrency, |done, total| {
        if let Ok(mut progress) = progress_lock.lock() {
            progress.tick_of(done, total);
        }
    });
    progress.finish();
    judged
}

pub fn run(args: &ScoreArgs) -> Result<Outcome, Failure> {
    let options = options(args)?;
    let judge = judge(&args.judge)?;
    let langfuse = langfuse(&args.judge)?;
    let output: Box<dyn Write> = match &args.output {
        Some(path) => Box::new(
            File::create(path).map_err(|err| format!("cannot create {}: {err}", path.display()))?,
        ),
        None => Box::new(io::stdout().lock()),
    };
    let mut output = BufWriter::new(output);
    let started = Instant::now();
    let mut lines = read_lines(args)?;
    let executor = Executor::open(&args.db)?;
    // With a database, its tables and columns are the names queries are checked against.
    let options = match &executor {
        Some(executor) if options.schema.is_none() => ScoreOptions {
            schema: Some(executor.schema.clone()),
            ..options
        },
        _ => options,
    };
    if let Some(executor) = &executor {
        executor.fill_all(lines.iter_mut().filter_map(|line| line.pair.as_mut().ok()));
        executor.report_truncated(executor.truncated());
    }
    let pairs: Vec<Option<&PairInput>> = lines.iter().map(|l| l.pair.as_ref().ok()).collect();
    let judged = match &judge {
        Some(judge) => run_judgings(&pairs, &options, judge, args.judge.concurrency),
        None => lines.iter().map(|_| BTreeMap::new()).collect(),
    };
    let equivalence = match equivalence_check(&args.db)? {
        Some(check) => pool::with_progress("checking equivalence", &pairs, |pair| {
            pair.and_then(|pair| check.metric(pair, &options))
        }),
        None => lines.iter().map(|_| None).collect(),
    };
    let suites = match &executor {
        Some(executor) if executor.checks_suites() => {
            pool::with_progress("test-suite checking", &pairs, |pair| {
                pair.and_then(|pair| executor.suite_metric(pair, &options))
            })
        }
        _ => lines.iter().map(|_| None).collect(),
    };
    // Scored on every core; written below in input order.
    let work: Vec<(Option<&PairInput>, &BTreeMap<String, JudgeOutcome>)> =
        pairs.iter().copied().zip(&judged).collect();
    let mut cards = pool::with_progress("scoring", &work, |(pair, judged)| {
        pair.map(|pair| score_pair_judged(pair, &options, judged))
    })
    .into_iter();

    let (mut scored, mut rejected, mut passed, mut failed) = (0usize, 0usize, 0usize, 0usize);
    let mut unsafe_queries = 0usize;
    // Each scored pair's classification fields and verdict, for the suite's tallies.
    let mut classified: Vec<(String, &ClassificationInput, Option<bool>)> = Vec::new();
    let mut rewards = Vec::new();
    let mut labelled: Vec<Labelled> = Vec::new();
    let mut to_send: Vec<(String, String, f64, String)> = Vec::new();
    let mut untraced = 0usize;
    for ((line, suite), equivalence) in lines.iter().zip(suites).zip(equivalence) {
        let card = cards.next().flatten();
        let record = match (&line.pair, card) {
            (Ok(pair), Some(mut card)) => {
                card.line = Some(line.number);
                if let Some(metric) = suite {
                    add_equivalence(&mut card, MetricName::TestSuite, metric, pair, &options);
                }
                if let Some(metric) = equivalence {
                    add_equivalence(&mut card, MetricName::Equivalence, metric, pair, &options);
                }
                scored += 1;
                unsafe_queries += usize::from(card.unsafe_query);
                if let Some(reward) = card
                    .metrics
                    .get(&MetricName::Efficiency)
                    .and_then(|m| m.score)
                {
                    rewards.push(reward);
                }
                // Tests are named by id, or by line when they have none.
                let id = || {
                    pair.id
                        .as_ref()
                        .map_or_else(|| format!("line {}", line.number), test_key)
                };
                if let Some(label) = pair.human_label {
                    labelled.push(Labelled {
                        id: id(),
                        human: label,
                        verdicts: scorecard_verdicts(&card),
                    });
                }
                if !pair.classification.is_empty() {
                    classified.push((
                        id(),
                        &pair.classification,
                        card.profile.as_ref().and_then(|p| p.passed),
                    ));
                }
                match card.profile.as_ref().and_then(|p| p.passed) {
                    Some(true) => passed += 1,
                    Some(false) => failed += 1,
                    None => {}
                }
                if langfuse.is_some() {
                    let trace = pair.trace_id.clone().or_else(|| {
                        pair.id
                            .as_ref()
                            .map(|id| id.as_str().map_or_else(|| id.to_string(), str::to_string))
                    });
                    match trace {
                        Some(trace) => to_send.extend(
                            card.named_scores()
                                .into_iter()
                                .map(|(n, v, c)| (trace.clone(), n, v, c)),
                        ),
                        None => untraced += 1,
                    }
                }
                serde_json::to_value(card)
                    .unwrap_or_else(|err| rejection(line.number, &format!("internal: {err}")))
            }
            (Ok(_), None) => rejection(line.number, "internal: the pair was not scored"),
            (Err(record), _) => {
                rejected += 1;
                say!(
                    "qeval: line {}: {}",
                    line.number,
                    describe(&record["error"])
                );
                record.clone()
            }
        };
        writeln!(output, "{record}").map_err(crate::output::write_error)?;
    }
    output.flush().map_err(crate::output::write_error)?;
    say!(
        "qeval: scored {scored} pair{}, rejected {rejected} line{}, in {:.2} s; {} profile: {passed} passed, {failed} failed, {} without a verdict",
        plural(scored),
        plural(rejected),
        started.elapsed().as_secs_f64(),
        options.profile.name,
        scored - passed - failed
    );
    if unsafe_queries > 0 {
        say!(
            "qeval: {unsafe_queries} UNSAFE generated quer{} (not read-only): failed whatever {} scored",
            if unsafe_queries == 1 { "y" } else { "ies" },
            if unsafe_queries == 1 { "it" } else { "they" }
        );
    }
    if let Some(e) = r_ves(rewards) {
        say!(
            "qeval: efficiency: R-VES {:.1} by SQLite VM steps over {} pair{}",
            e.r_ves,
            e.tests,
            plural(e.tests)
        );
    }
    for line in summarize_classification(classified).lines() {
        say!("qeval: {line}");
    }
    let judges = agreement_of(labelled);
    if !judges.is_empty() {
        say!("qeval: judges against the human labels:");
        for judge in &judges {
            say!("qeval:   {}", judge.sentence());
        }
    }
    // A run whose every judging failed is not a result: no metric carries the LLM's verdict.
    let judgings = judged.iter().map(BTreeMap::len).sum::<usize>();
    let failed_judgings = judged
        .iter()
        .flat_map(BTreeMap::values)
        .filter(|o| o.is_err())
        .count();
    let judge_failed = judgings > 0 && failed_judgings == judgings;
    if let Some(judge) = &judge {
        say!("qeval: {}", judge.summary());
        if judge_failed {
            say!(
                "qeval: every LLM judge call failed ({judgings} of {judgings}): the judged metrics carry the structural judge's score (details.llm_judge_error says why) or none, not the LLM's; check the endpoint {}",
                judge.describe()
            );
        }
    }
    if let Some(langfuse) = &langfuse {
        let results = pool::run(
            &to_send,
            args.judge.concurrency,
            |(trace, name, value, comment)| langfuse.send(trace, name, *value, comment),
            |_| {},
        );
        let errors: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
        say!(
            "qeval: Langfuse: sent {} scores, {} failed{}",
            results.len() - errors.len(),
            errors.len(),
            errors
                .first()
                .map(|e| format!(" ({e})"))
                .unwrap_or_default()
        );
        if untraced > 0 {
            say!(
                "qeval: Langfuse: {untraced} pairs have no trace_id or id, so their scores were not sent"
            );
        }
    }
    Ok(if rejected == 0 && !judge_failed {
        Outcome::Clean
    } else {
        Outcome::SomeInputRejected
    })
}

fn langfuse(args: &JudgeArgs) -> Result<Option<Langfuse>, Failure> {
    let Some(host) = &args.langfuse_host else {
        return Ok(None);
    };
    let read = |name: &str| {
        std::env::var(name)
            .ok()
            .filter(|v| !v.trim().is_empty())
            .ok_or(format!("--langfuse-host needs ${name}"))
    };
    Ok(Some(Langfuse::new(
        host,
        &read("LANGFUSE_PUBLIC_KEY")?,
        &read("LANGFUSE_SECRET_KEY")?,
    )))
}

fn rejection(line: usize, message: &str) -> Value {
    qeval_core::pairs::rejection(line, message, None, None)
}

fn describe(error: &Value) -> String {
    let message = error["message"].as_str().unwrap_or_default();
    match (error["field"].as_str(), error["column"].as_u64()) {
        (Some(field), _) => format!("field `{field}`: {message}"),
        (None, Some(column)) => format!("column {column}: {message}"),
        (None, None) => message.to_string(),
    }
}
