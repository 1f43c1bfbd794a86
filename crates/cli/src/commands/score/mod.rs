//! `qeval score --pairs FILE`: one scorecard per input line, with LLM judges when asked.

use crate::output::say;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::sync::mpsc::{Receiver, sync_channel};
use std::time::{Duration, Instant, SystemTime};

use qeval_core::{
    JudgeOutcome, Labelled, MetricName, PairInput, Profile, ScoreOptions, Scorecard,
    add_equivalence, agreement_of, pairs_file_line, parse_pair_line, plural, r_ves,
    score_pair_judged, scorecard_verdicts, summarize_classification, test_key, too_long,
};
use serde_json::Value;

mod lines;
mod tally;

use lines::{PairLines, RawLine};
use tally::Tally;

use super::{Completion, Failure, file_text};
use crate::execute::{Executor, equivalence_check};
use crate::langfuse::Langfuse;
use crate::progress::Progress;
use crate::{JudgeArgs, ScoreArgs, pool};
use qeval_native::judge::{Judge, JudgeSettings, default_cache_dir, judge_all};
use qeval_sqlite::PairCheck;

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
        schema: crate::execute::schema_text(&args.db)?,
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
    /// The line's length in bytes.
    bytes: usize,
}

/// Lines scored together: enough to keep every core busy, few enough that memory stays bounded
/// whatever the file's length.
const BATCH_LINES: usize = 2048;
/// A batch also ends once its lines hold this many bytes...
const BATCH_BYTES: usize = 64 << 20;
/// ...or this long after its first line came, so that records appear as the input does when
/// pairs are piped in as they are made.
const BATCH_WAIT: Duration = Duration::from_millis(100);

/// Reads and parses the pairs file on its own thread, a few hundred lines ahead of the scoring.
fn read_in_background(args: &ScoreArgs) -> Result<Receiver<Result<Line, Failure>>, Failure> {
    let input: Box<dyn BufRead + Send> = if args.pairs.as_os_str() == "-" {
        Box::new(BufReader::new(io::stdin()))
    } else {
        let file = File::open(&args.pairs)
            .map_err(|err| format!("cannot open {}: {err}", args.pairs.display()))?;
        Box::new(BufReader::new(file))
    };
    let (send, receive) = sync_channel(256);
    std::thread::spawn(move || {
        let mut lines = PairLines::new(input);
        loop {
            let line = match lines.next_line() {
                Ok(Some((number, raw))) => parsed(number, raw),
                Ok(None) => return,
                Err(err) => {
                    let _ = send.send(Err(format!("cannot read the pairs file: {err}")));
                    return;
                }
            };
            if let Some(line) = line
                && send.send(line).is_err()
            {
                return;
            }
        }
    });
    Ok(receive)
}

/// A line read: `None` for a blank one.
fn parsed(number: usize, raw: RawLine) -> Option<Result<Line, Failure>> {
    let (pair, bytes) = match raw {
        RawLine::Text(raw) => {
            let pair = match pairs_file_line(number, &raw)? {
                Err(record) => Err(record),
                Ok(line) => parse_pair_line(line).map_err(|err| err.record(number)),
            };
            (pair, raw.len())
        }
        RawLine::TooLong => (Err(too_long(number)), 0),
        RawLine::Endless => {
            say!(
                "qeval: line {number} is longer than {} MB and has no end within 1 GB: reading stops there",
                qeval_core::MAX_LINE_BYTES >> 20
            );
            (Err(too_long(number)), 0)
        }
    };
    Some(Ok(Line {
        number,
        pair,
        bytes,
    }))
}

/// The next batch of lines (see [`BATCH_LINES`]); empty at the end of the input.
fn next_batch(lines: &Receiver<Result<Line, Failure>>) -> Result<Vec<Line>, Failure> {
    let mut batch: Vec<Line> = Vec::new();
    let Ok(first) = lines.recv() else {
        return Ok(batch);
    };
    batch.push(first?);
    let deadline = Instant::now() + BATCH_WAIT;
    let mut bytes = batch[0].bytes;
    while batch.len() < BATCH_LINES && bytes < BATCH_BYTES {
        let wait = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(wait) {
            Ok(line) => {
                let line = line?;
                bytes += line.bytes;
                batch.push(line);
            }
            Err(_) => break,
        }
    }
    Ok(batch)
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

/// What scoring a batch needs besides its lines.
struct BatchScoring<'a> {
    args: &'a ScoreArgs,
    options: &'a ScoreOptions,
    executor: Option<&'a Executor>,
    judge: Option<&'a Judge>,
    equivalence: Option<&'a PairCheck>,
    sends_to_langfuse: bool,
}

pub fn run(args: &ScoreArgs) -> Result<Completion, Failure> {
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
    let lines = read_in_background(args)?;
    let executor = Executor::open(&args.db)?;
    // With a database, its tables and columns are the names queries are checked against.
    let options = match &executor {
        Some(executor) if options.schema.is_none() => ScoreOptions {
            schema: Some(executor.schema.clone()),
            ..options
        },
        _ => options,
    };
    let equivalence = equivalence_check(&args.db)?;
    let scoring = BatchScoring {
        args,
        options: &options,
        executor: executor.as_ref(),
        judge: judge.as_ref(),
        equivalence: equivalence.as_ref(),
        sends_to_langfuse: langfuse.is_some(),
    };
    let mut tally = Tally::default();
    loop {
        let mut batch = next_batch(&lines)?;
        if batch.is_empty() {
            break;
        }
        for record in scoring.batch(&mut batch, &mut tally) {
            writeln!(output, "{record}").map_err(crate::output::write_error)?;
        }
        // Each batch's records reach the file as soon as they are made.
        output.flush().map_err(crate::output::write_error)?;
    }
    if let Some(executor) = &executor {
        executor.report_truncated(executor.truncated());
    }
    summarize(&tally, &options, started);
    let judge_failed = tally.every_judging_failed();
    if let Some(judge) = &judge {
        say!("qeval: {}", judge.summary());
        if judge_failed {
            say!(
                "qeval: every LLM judge call failed ({0} of {0}): the judged metrics carry the structural judge's score (details.llm_judge_error says why) or none, not the LLM's; check the endpoint {1}",
                tally.judgings,
                judge.describe()
            );
        }
    }
    if let Some(langfuse) = &langfuse {
        send_to_langfuse(langfuse, &tally, args.judge.concurrency);
    }
    Ok(if tally.rejected == 0 && !judge_failed {
        Completion::Clean
    } else {
        Completion::SomeInputRejected
    })
}

impl BatchScoring<'_> {
    /// The batch's records, in input order, counted into `tally`.
    fn batch(&self, lines: &mut [Line], tally: &mut Tally) -> Vec<Value> {
        let options = self.options;
        if let Some(executor) = self.executor {
            executor.fill_all(lines.iter_mut().filter_map(|line| line.pair.as_mut().ok()));
        }
        let pairs: Vec<Option<&PairInput>> = lines.iter().map(|l| l.pair.as_ref().ok()).collect();
        let judged = match self.judge {
            Some(judge) => run_judgings(&pairs, options, judge, self.args.judge.concurrency),
            None => lines.iter().map(|_| BTreeMap::new()).collect(),
        };
        tally.judged(&judged);
        let equivalence = match self.equivalence {
            Some(check) => pool::with_progress("checking equivalence", &pairs, |pair| {
                pair.and_then(|pair| check.metric(pair, options))
            }),
            None => lines.iter().map(|_| None).collect(),
        };
        let suites = match self.executor {
            Some(executor) if executor.checks_suites() => {
                pool::with_progress("test-suite checking", &pairs, |pair| {
                    pair.and_then(|pair| executor.suite_metric(pair, options))
                })
            }
            _ => lines.iter().map(|_| None).collect(),
        };
        // Scored on every core; returned in input order.
        let work: Vec<(Option<&PairInput>, &BTreeMap<String, JudgeOutcome>)> =
            pairs.iter().copied().zip(&judged).collect();
        let cards = pool::with_progress("scoring", &work, |(pair, judged)| {
            pair.map(|pair| score_pair_judged(pair, options, judged))
        });
        lines
            .iter()
            .zip(cards)
            .zip(suites.into_iter().zip(equivalence))
            .map(
                |((line, card), (suite, equivalence))| match (&line.pair, card) {
                    (Ok(pair), Some(mut card)) => {
                        card.line = Some(line.number);
                        if let Some(metric) = suite {
                            add_equivalence(
                                &mut card,
                                MetricName::TestSuite,
                                metric,
                                pair,
                                options,
                            );
                        }
                        if let Some(metric) = equivalence {
                            add_equivalence(
                                &mut card,
                                MetricName::Equivalence,
                                metric,
                                pair,
                                options,
                            );
                        }
                        self.count(tally, line.number, pair, &card);
                        serde_json::to_value(card).unwrap_or_else(|err| {
                            rejection(line.number, &format!("internal: {err}"))
                        })
                    }
                    (Ok(_), None) => rejection(line.number, "internal: the pair was not scored"),
                    (Err(record), _) => {
                        tally.rejected += 1;
                        say!(
                            "qeval: line {}: {}",
                            line.number,
                            describe(&record["error"])
                        );
                        record.clone()
                    }
                },
            )
            .collect()
    }

    /// Counts a scored pair into the run's tallies.
    fn count(&self, tally: &mut Tally, number: usize, pair: &PairInput, card: &Scorecard) {
        tally.scored += 1;
        tally.unsafe_queries += usize::from(card.unsafe_query);
        if let Some(reward) = card
            .metrics
            .get(&MetricName::Efficiency)
            .and_then(|m| m.score)
        {
            tally.rewards.push(reward);
        }
        // Tests are named by id, or by line when they have none.
        let id = || {
            pair.id
                .as_ref()
                .map_or_else(|| format!("line {number}"), test_key)
        };
        let passed = card.profile.as_ref().and_then(|p| p.passed);
        if let Some(label) = pair.human_label {
            tally.labelled.push(Labelled {
                id: id(),
                human: label,
                verdicts: scorecard_verdicts(card),
            });
        }
        if !pair.classification.is_empty() {
            tally
                .classified
                .push((id(), pair.classification.clone(), passed));
        }
        match passed {
            Some(true) => tally.passed += 1,
            Some(false) => tally.failed += 1,
            None => {}
        }
        if self.sends_to_langfuse {
            let trace = pair.trace_id.clone().or_else(|| {
                pair.id
                    .as_ref()
                    .map(|id| id.as_str().map_or_else(|| id.to_string(), str::to_string))
            });
            match trace {
                Some(trace) => tally.to_send.extend(
                    card.named_scores()
                        .into_iter()
                        .map(|(n, v, c)| (trace.clone(), n, v, c)),
                ),
                None => tally.untraced += 1,
            }
        }
    }
}

/// The run's summary lines on standard error.
fn summarize(tally: &Tally, options: &ScoreOptions, started: Instant) {
    let Tally {
        scored,
        rejected,
        passed,
        failed,
        unsafe_queries,
        ..
    } = *tally;
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
    if let Some(e) = r_ves(tally.rewards.iter().copied()) {
        say!(
            "qeval: efficiency: R-VES {:.1} by SQLite VM steps over {} pair{}",
            e.r_ves,
            e.tests,
            plural(e.tests)
        );
    }
    let classified = tally
        .classified
        .iter()
        .map(|(id, input, passed)| (id.clone(), input, *passed));
    for line in summarize_classification(classified).lines() {
        say!("qeval: {line}");
    }
    let judges = agreement_of(tally.labelled.clone());
    if !judges.is_empty() {
        say!("qeval: judges against the human labels:");
        for judge in &judges {
            say!("qeval:   {}", judge.sentence());
        }
    }
}

fn send_to_langfuse(langfuse: &Langfuse, tally: &Tally, concurrency: usize) {
    let results = pool::run(
        &tally.to_send,
        concurrency,
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
    if tally.untraced > 0 {
        say!(
            "qeval: Langfuse: {} pairs have no trace_id or id, so their scores were not sent",
            tally.untraced
        );
    }
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
    qeval_core::rejection(line, message, None, None)
}

fn describe(error: &Value) -> String {
    let message = error["message"].as_str().unwrap_or_default();
    match (error["field"].as_str(), error["column"].as_u64()) {
        (Some(field), _) => format!("field `{field}`: {message}"),
        (None, Some(column)) => format!("column {column}: {message}"),
        (None, None) => message.to_string(),
    }
}
