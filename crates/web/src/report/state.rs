//! The report view's state and the actions that change it: the runs loaded, the work under way,
//! the open test. Loading, downloading and scoring run as tasks in the view; each reports here
//! through a [`ReportAction`], so what the page shows follows from this one value.

use std::rc::Rc;

use qeval_core::{EvaluationRecord, ProfileName};
use yew::Reducible;

use super::{LoadedRun, Shared};
use crate::playground::state::MAX_SUITE;

/// The work under way, shown as a progress bar.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Work {
    #[default]
    Idle,
    /// Reading dropped, picked or downloaded files: bytes read of `total`.
    Loading { done: f64, total: f64 },
    /// Downloading a linked run from `host`; `total` is 0 when the server does not say.
    Fetching { done: f64, total: f64, host: String },
    /// Scoring raw results: tests scored of `total`.
    Scoring { done: usize, total: usize },
}

/// Which run a load is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The run the report shows.
    Main,
    /// An earlier run of the same tests, to compare the shown one with.
    Compare,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ReportState {
    /// The run shown.
    pub run: Option<Rc<LoadedRun>>,
    /// The earlier run the shown one is compared with.
    pub earlier: Option<Rc<LoadedRun>>,
    pub work: Work,
    /// Why the last load, download or scoring could not be done.
    pub problem: Option<String>,
    /// The open test: an index into the shown run's records.
    pub selected: Option<usize>,
    /// The profile raw results are scored with.
    pub profile: ProfileName,
    /// Test-suite databases per test when raw results are scored on a loaded database (0: off).
    pub suite: u32,
    /// A link to a run on another site, waiting for the user to agree to load it.
    pub pending: Option<String>,
    /// The host the shown run was downloaded from, when a link loaded it.
    pub fetched_from: Option<String>,
    /// Counts changes to the judge's verdict cache, so its figures are drawn again.
    pub cache_revision: u32,
}

impl Default for ReportState {
    fn default() -> Self {
        ReportState {
            run: None,
            earlier: None,
            work: Work::Idle,
            problem: None,
            selected: None,
            profile: ProfileName::Qas,
            suite: 0,
            pending: None,
            fetched_from: None,
            cache_revision: 0,
        }
    }
}

#[derive(Debug, Clone)]
pub enum ReportAction {
    /// A load, download or scoring began: its work is shown and the last problem is cleared.
    Started(Work),
    /// The work under way got further.
    Progress(Work),
    /// The work under way failed, and says why.
    Failed(String),
    /// A run was read; `from` is the host a link downloaded it from.
    Loaded {
        slot: Slot,
        run: Rc<LoadedRun>,
        from: Option<String>,
    },
    /// Hardness levels computed for `of`'s records; dropped when another run is shown by then.
    Levelled {
        of: Rc<LoadedRun>,
        records: Vec<EvaluationRecord>,
    },
    /// Scoring `of`'s raw results ended: its records, or `None` when it was cancelled. Either
    /// way the judge's verdict cache may have changed.
    Scored {
        of: Rc<LoadedRun>,
        records: Option<Vec<EvaluationRecord>>,
    },
    /// A test opened (or, with `None`, closed).
    Select(Option<usize>),
    SetProfile(ProfileName),
    /// Test-suite databases per test (capped at the page's limit).
    SetSuite(u32),
    /// A link asks to load a run from another site.
    AskToFetch(String),
    /// The user answered that question.
    Answered,
    /// The judge's verdict cache changed (it was cleared).
    CacheChanged,
}

impl Reducible for ReportState {
    type Action = ReportAction;

    fn reduce(self: Rc<Self>, action: ReportAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            ReportAction::Started(work) => {
                next.work = work;
                next.problem = None;
            }
            ReportAction::Progress(work) => next.work = work,
            ReportAction::Failed(problem) => {
                next.work = Work::Idle;
                next.problem = Some(problem);
            }
            ReportAction::Loaded { slot, run, from } => {
                next.work = Work::Idle;
                match slot {
                    Slot::Main => {
                        next.run = Some(run);
                        next.selected = None;
                        next.fetched_from = from;
                    }
                    Slot::Compare => next.earlier = Some(run),
                }
            }
            ReportAction::Levelled { of, records } => next.replace_records(&of, records, false),
            ReportAction::Scored { of, records } => {
                next.work = Work::Idle;
                next.cache_revision += 1;
                if let Some(records) = records {
                    next.replace_records(&of, records, true);
                }
            }
            ReportAction::Select(index) => next.selected = index,
            ReportAction::SetProfile(profile) => next.profile = profile,
            ReportAction::SetSuite(count) => next.suite = count.min(MAX_SUITE),
            ReportAction::AskToFetch(url) => next.pending = Some(url),
            ReportAction::Answered => next.pending = None,
            ReportAction::CacheChanged => next.cache_revision += 1,
        }
        Rc::new(next)
    }
}

impl ReportState {
    /// Gives the shown run new records, if it is still `of`: an answer about a run the user has
    /// since replaced is dropped. `scored`: the run's raw results are now scored.
    fn replace_records(
        &mut self,
        of: &Rc<LoadedRun>,
        records: Vec<EvaluationRecord>,
        scored: bool,
    ) {
        let Some(run) = &self.run else { return };
        if !Rc::ptr_eq(run, of) {
            return;
        }
        self.run = Some(Rc::new(LoadedRun {
            records: Shared(Rc::new(records)),
            raw: if scored { None } else { run.raw.clone() },
            ..(**run).clone()
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::RawRun;

    fn run(name: &str, raw: bool) -> Rc<LoadedRun> {
        Rc::new(LoadedRun {
            name: name.into(),
            raw: raw.then(|| Shared(Rc::new(RawRun::default()))),
            ..LoadedRun::default()
        })
    }

    fn record(id: &str) -> EvaluationRecord {
        serde_json::from_value(serde_json::json!({ "test_id": id })).expect("a record")
    }

    fn loaded(state: Rc<ReportState>, slot: Slot, run: &Rc<LoadedRun>) -> Rc<ReportState> {
        state.reduce(ReportAction::Loaded {
            slot,
            run: run.clone(),
            from: None,
        })
    }

    #[test]
    fn a_new_run_closes_the_open_test_and_says_where_it_came_from() {
        let first = run("first", false);
        let state = loaded(Rc::new(ReportState::default()), Slot::Main, &first);
        let state = state.reduce(ReportAction::Select(Some(3)));
        let state = state.reduce(ReportAction::Loaded {
            slot: Slot::Main,
            run: run("second", false),
            from: Some("data.example.com".into()),
        });
        assert_eq!(state.selected, None);
        assert_eq!(state.fetched_from.as_deref(), Some("data.example.com"));
        assert_eq!(state.run.as_ref().map(|r| r.name.as_str()), Some("second"));

        // A run loaded to compare with leaves the shown one and its open test alone.
        let state = state.reduce(ReportAction::Select(Some(1)));
        let state = loaded(state, Slot::Compare, &first);
        assert_eq!(state.selected, Some(1));
        assert_eq!(
            state.earlier.as_ref().map(|r| r.name.as_str()),
            Some("first")
        );
    }

    #[test]
    fn levels_for_a_run_no_longer_shown_are_dropped() {
        let first = run("first", false);
        let second = run("second", false);
        let state = loaded(Rc::new(ReportState::default()), Slot::Main, &first);
        let state = loaded(state, Slot::Main, &second);
        let state = state.reduce(ReportAction::Levelled {
            of: first,
            records: vec![record("late")],
        });
        assert!(state.run.as_ref().expect("a run").records.is_empty());
        let state = state.reduce(ReportAction::Levelled {
            of: second,
            records: vec![record("t1")],
        });
        assert_eq!(state.run.as_ref().expect("a run").records.len(), 1);
    }

    #[test]
    fn scoring_ends_the_work_and_replaces_raw_results_unless_cancelled() {
        let raw = run("raw", true);
        let state = loaded(Rc::new(ReportState::default()), Slot::Main, &raw);
        let state = state.reduce(ReportAction::Started(Work::Scoring { done: 0, total: 2 }));
        let cancelled = state.clone().reduce(ReportAction::Scored {
            of: raw.clone(),
            records: None,
        });
        assert_eq!(cancelled.work, Work::Idle);
        assert!(cancelled.run.as_ref().expect("a run").raw.is_some());
        assert_eq!(cancelled.cache_revision, 1);

        let scored = state.reduce(ReportAction::Scored {
            of: raw,
            records: Some(vec![record("t1"), record("t2")]),
        });
        let shown = scored.run.as_ref().expect("a run");
        assert!(shown.raw.is_none());
        assert_eq!((shown.name.as_str(), shown.records.len()), ("raw", 2));
    }

    #[test]
    fn a_failure_stops_the_work_and_the_next_start_clears_it() {
        let state = Rc::new(ReportState::default())
            .reduce(ReportAction::Started(Work::Loading {
                done: 0.0,
                total: 1.0,
            }))
            .reduce(ReportAction::Failed("no .jsonl file".into()));
        assert_eq!(
            (&state.work, state.problem.as_deref()),
            (&Work::Idle, Some("no .jsonl file"))
        );
        let state = state.reduce(ReportAction::Started(Work::Scoring { done: 0, total: 1 }));
        assert_eq!(state.problem, None);
    }
}
