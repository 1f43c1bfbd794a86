//! The page's side of its two workers (the `qeval-worker` crate). The scoring worker parses and
//! scores every pair and run; the database worker adds SQLite, test suites and equivalence
//! checks. The page's own thread only shows what they answer, so it stays responsive however
//! long they take, and its bundle holds no SQL parser.
//!
//! The scoring worker starts with the page; the database worker on the first database action
//! (SQLite is as large as the rest of the page). In each, one job runs at a time;
//! of the jobs waiting, only the newest of each kind is kept (typing sends a job per pause, and
//! only the last one matters). Cancel terminates the worker (a query cannot be interrupted from
//! outside any other way), answers the running and the waiting jobs with [`Reply::Cancelled`]
//! and starts a new worker with the same database.
//!
//! Which worker does a job is the job's [`TaskKind`]'s to say ([`Workers::of`]).
//!
//! The plumbing is written here over `web_sys::Worker` rather than taken from `gloo-worker`:
//! its bridge offers no way to terminate a worker, which Cancel needs.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

use qeval_worker::protocol::{Answer, DatabaseForm, Request, Response, Task};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use web_sys::{ErrorEvent, MessageEvent, Worker};

/// What a job gets back.
#[allow(clippy::large_enum_variant)] // one per job, moved once
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Answer(Answer),
    /// Stopped by Cancel (or the worker failed to start): no answer will come.
    Cancelled,
}

/// Kinds of job; a waiting job is replaced by a newer one of the same kind, except for these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskKind {
    Open,
    Execute,
    Suite,
    Equivalence,
    /// A job of a run's pipeline (results its tests lack, their test-suite checks): never
    /// replaced, the run's scoring waits for each.
    RunJob,
    /// The playground's scorecard.
    Score,
    JudgeTasks,
    /// A batch of a run's tests.
    ScoreTests,
    /// The hardness levels of a loaded run's expected queries.
    Hardness,
}

impl TaskKind {
    fn replaceable(self) -> bool {
        // Not the judgings a pair needs: a run's scoring asks for those too, and waits for them.
        matches!(
            self,
            TaskKind::Execute | TaskKind::Suite | TaskKind::Equivalence | TaskKind::Score
        )
    }

    /// The worker that does jobs of this kind.
    pub fn role(self) -> Role {
        match self {
            TaskKind::Open
            | TaskKind::Execute
            | TaskKind::Suite
            | TaskKind::Equivalence
            | TaskKind::RunJob => Role::Database,
            TaskKind::Score | TaskKind::JudgeTasks | TaskKind::ScoreTests | TaskKind::Hardness => {
                Role::Scorer
            }
        }
    }
}

/// Which of the page's workers a handle drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Role {
    #[default]
    Database,
    Scorer,
}

impl Role {
    /// Its binary's name: the build hook names its loader in a `<meta>` of this name.
    fn binary(self) -> &'static str {
        match self {
            Role::Database => "qeval-worker",
            Role::Scorer => "qeval-scorer",
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Role::Database => "the database worker",
            Role::Scorer => "the scoring worker",
        }
    }
}

/// Both workers, as the page shares them with its components.
#[derive(Clone, Default, PartialEq)]
pub struct Workers {
    pub database: WorkerHandle,
    pub scorer: WorkerHandle,
}

impl Workers {
    pub fn new() -> Workers {
        Workers {
            database: WorkerHandle::new(Role::Database),
            scorer: WorkerHandle::new(Role::Scorer),
        }
    }

    /// The worker that does jobs of `kind`.
    pub fn of(&self, kind: TaskKind) -> &WorkerHandle {
        match kind.role() {
            Role::Database => &self.database,
            Role::Scorer => &self.scorer,
        }
    }
}

type OnReply = Box<dyn FnOnce(Reply)>;

struct QueuedTask {
    id: u64,
    kind: TaskKind,
    task: Task,
    bytes: Option<js_sys::Uint8Array>,
    on_reply: OnReply,
}

struct Started {
    worker: Worker,
    /// The worker has said Ready: messages sent before would find no handler there.
    ready: Cell<bool>,
    _on_message: Closure<dyn Fn(MessageEvent)>,
    _on_error: Closure<dyn Fn(ErrorEvent)>,
}

/// The job the worker is on.
struct Running {
    id: u64,
    kind: TaskKind,
    on_reply: OnReply,
    /// Page milliseconds when it was sent.
    since: f64,
    /// Its last progress report: (databases checked, databases in all).
    progress: Option<(usize, usize)>,
}

/// What a [`WorkerHandle`] and its clones share: one worker, its queue and its open database.
#[derive(Default)]
struct HandleState {
    role: Role,
    started: RefCell<Option<Started>>,
    next_id: Cell<u64>,
    running: RefCell<Option<Running>>,
    waiting: RefCell<VecDeque<QueuedTask>>,
    /// The open database's source, to open it again in a new worker after Cancel.
    database: RefCell<Option<(String, DatabaseForm, Option<js_sys::Uint8Array>)>>,
    sqlite_version: RefCell<Option<String>>,
    /// Told when the version arrives or a job starts or ends, so the page can re-render.
    on_change: RefCell<Option<Rc<dyn Fn()>>>,
    startup_error: RefCell<Option<String>>,
}

/// What the page shows of the worker: re-read after every change it reports.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WorkerStatus {
    /// The running job's kind and since when it runs (page milliseconds).
    pub running: Option<(TaskKind, f64)>,
    /// How far the running check is: (databases checked, databases in all).
    pub progress: Option<(usize, usize)>,
    /// Known once the worker has started.
    pub sqlite_version: Option<String>,
    /// Why the worker could not start or stopped.
    pub error: Option<String>,
}

/// A handle to one of the page's workers; clones share it.
#[derive(Clone, Default)]
pub struct WorkerHandle(Rc<HandleState>);

impl PartialEq for WorkerHandle {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl WorkerHandle {
    pub fn new(role: Role) -> WorkerHandle {
        WorkerHandle(Rc::new(HandleState {
            role,
            ..HandleState::default()
        }))
    }

    /// Calls `on_change` whenever the worker's state the page shows changes.
    pub fn set_on_change(&self, on_change: Rc<dyn Fn()>) {
        *self.0.on_change.borrow_mut() = Some(on_change);
    }

    pub fn status(&self) -> WorkerStatus {
        let running = self.0.running.borrow();
        WorkerStatus {
            running: running.as_ref().map(|job| (job.kind, job.since)),
            progress: running.as_ref().and_then(|job| job.progress),
            sqlite_version: self.0.sqlite_version.borrow().clone(),
            error: self.0.startup_error.borrow().clone(),
        }
    }

    /// Starts the worker now if it has not started: loading SQLite takes a moment, and a page
    /// that knows a database action is coming can hide it.
    pub fn warm_up(&self) {
        self.start();
    }

    /// Queues `task`; `on_reply` gets its answer.
    pub fn send(&self, kind: TaskKind, task: Task, on_reply: impl FnOnce(Reply) + 'static) {
        self.send_with_bytes(kind, task, None, Box::new(on_reply));
    }

    /// Opens a database in the worker (and, once it opened, again in every worker started after
    /// a Cancel; a database that fails to open leaves the one before it in place, there and
    /// here).
    pub fn open(
        &self,
        name: String,
        source: DatabaseForm,
        bytes: Option<js_sys::Uint8Array>,
        on_reply: impl FnOnce(Reply) + 'static,
    ) {
        let kept = (name.clone(), source.clone(), bytes.clone());
        let this = self.clone();
        let on_reply = move |reply: Reply| {
            if matches!(reply, Reply::Answer(Answer::Opened(Ok(_)))) {
                *this.0.database.borrow_mut() = Some(kept);
            }
            on_reply(reply);
        };
        self.send_with_bytes(
            TaskKind::Open,
            Task::Open { name, source },
            bytes,
            Box::new(on_reply),
        );
    }

    /// The answer to `task`, awaited.
    pub async fn ask(&self, kind: TaskKind, task: Task) -> Reply {
        let (sender, receiver) = futures::channel::oneshot::channel();
        self.send(kind, task, move |reply| {
            let _ = sender.send(reply);
        });
        receiver.await.unwrap_or(Reply::Cancelled)
    }

    /// Stops the running job at once: the worker is terminated and a new one started with the
    /// same database. Returns how long the stopped job had run (ms), if one was running.
    pub fn cancel(&self) -> Option<f64> {
        // Waiting jobs go too: they were asked for the same input, and would run the query
        // that was just stopped again.
        let ran = self.stop();
        let database = self.0.database.borrow().clone();
        if let Some((name, source, bytes)) = database {
            let id = self.next_id();
            self.0.waiting.borrow_mut().push_front(QueuedTask {
                id,
                kind: TaskKind::Open,
                task: Task::Open { name, source },
                bytes,
                on_reply: Box::new(|_| {}),
            });
        }
        self.pump();
        self.changed();
        ran
    }

    /// Terminates the worker and answers the running and every waiting job as cancelled.
    /// Returns how long the running job had run (ms), if one was running.
    fn stop(&self) -> Option<f64> {
        if let Some(started) = self.0.started.borrow_mut().take() {
            started.worker.terminate();
        }
        let running = self.0.running.borrow_mut().take();
        let ran = running.map(|job| {
            (job.on_reply)(Reply::Cancelled);
            js_sys::Date::now() - job.since
        });
        self.give_up_waiting();
        ran
    }

    /// Answers every waiting job as cancelled.
    fn give_up_waiting(&self) {
        let waiting: Vec<QueuedTask> = self.0.waiting.borrow_mut().drain(..).collect();
        for job in waiting {
            (job.on_reply)(Reply::Cancelled);
        }
    }

    fn next_id(&self) -> u64 {
        let id = self.0.next_id.get() + 1;
        self.0.next_id.set(id);
        id
    }

    fn send_with_bytes(
        &self,
        kind: TaskKind,
        task: Task,
        bytes: Option<js_sys::Uint8Array>,
        on_reply: OnReply,
    ) {
        let id = self.next_id();
        {
            let mut waiting = self.0.waiting.borrow_mut();
            if kind.replaceable() {
                waiting.retain(|job| job.kind != kind);
            }
            waiting.push_back(QueuedTask {
                id,
                kind,
                task,
                bytes,
                on_reply,
            });
        }
        self.pump();
    }

    /// Sends the next waiting job when none is running.
    fn pump(&self) {
        if self.0.running.borrow().is_some() {
            return;
        }
        if self.0.waiting.borrow().is_empty() {
            return;
        }
        let Some(worker) = self.start() else {
            self.give_up_waiting();
            self.changed();
            return;
        };
        if !self.ready() {
            return;
        }
        let Some(job) = self.0.waiting.borrow_mut().pop_front() else {
            return;
        };
        let text = match serde_json::to_string(&Request {
            job: job.id,
            task: job.task,
        }) {
            Ok(text) => text,
            Err(err) => {
                // Never sent, so never answered: answered here, and the next job goes.
                (job.on_reply)(Reply::Answer(Answer::Refused(format!(
                    "the page could not write this job for {}: {err}",
                    self.0.role.noun()
                ))));
                self.pump();
                return;
            }
        };
        let message = js_sys::Array::of1(&text.into());
        if let Some(bytes) = &job.bytes {
            message.push(bytes);
        }
        *self.0.running.borrow_mut() = Some(Running {
            id: job.id,
            kind: job.kind,
            on_reply: job.on_reply,
            since: js_sys::Date::now(),
            progress: None,
        });
        let _ = worker.post_message(&message);
        self.changed();
    }

    fn ready(&self) -> bool {
        self.0
            .started
            .borrow()
            .as_ref()
            .is_some_and(|started| started.ready.get())
    }

    fn changed(&self) {
        let on_change = self.0.on_change.borrow().clone();
        if let Some(on_change) = on_change {
            on_change();
        }
    }

    /// The running worker, started if need be; `None` when it cannot start.
    fn start(&self) -> Option<Worker> {
        if let Some(started) = self.0.started.borrow().as_ref() {
            return Some(started.worker.clone());
        }
        let role = self.0.role;
        let worker = match Worker::new(&loader_url(role)) {
            Ok(worker) => worker,
            Err(err) => {
                *self.0.startup_error.borrow_mut() =
                    Some(format!("{} could not start: {err:?}", role.noun()));
                return None;
            }
        };
        let on_message = {
            let this = self.clone();
            Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
                let text = event.data().as_string().unwrap_or_default();
                if let Ok(response) = serde_json::from_str::<Response>(&text) {
                    this.received(response);
                }
            })
        };
        let on_error = {
            let this = self.clone();
            Closure::<dyn Fn(ErrorEvent)>::new(move |event: ErrorEvent| {
                *this.0.startup_error.borrow_mut() =
                    Some(format!("{} stopped: {}", role.noun(), event.message()));
                // Nothing running or waiting will be answered by a worker that is gone.
                this.stop();
                this.changed();
            })
        };
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        *self.0.started.borrow_mut() = Some(Started {
            worker: worker.clone(),
            ready: Cell::new(false),
            _on_message: on_message,
            _on_error: on_error,
        });
        *self.0.startup_error.borrow_mut() = None;
        Some(worker)
    }

    fn received(&self, response: Response) {
        if let Answer::Ready { sqlite_version } = &response.answer {
            sqlite_version.clone_into(&mut self.0.sqlite_version.borrow_mut());
            if let Some(started) = self.0.started.borrow().as_ref() {
                started.ready.set(true);
            }
            self.pump();
            self.changed();
            return;
        }
        if let Answer::Progress { done, total } = response.answer {
            let reported = match self.0.running.borrow_mut().as_mut() {
                Some(job) if job.id == response.job => {
                    job.progress = Some((done, total));
                    true
                }
                _ => false,
            };
            if reported {
                self.changed();
            }
            return;
        }
        let running = self.0.running.borrow_mut().take();
        match running {
            Some(job) if job.id == response.job => (job.on_reply)(Reply::Answer(response.answer)),
            other => *self.0.running.borrow_mut() = other,
        }
        self.pump();
        self.changed();
    }
}

/// A worker's loader script, as the build hook named it (with its content hash) in the page.
fn loader_url(role: Role) -> String {
    let binary = role.binary();
    web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| {
            document
                .query_selector(&format!("meta[name={binary}]"))
                .ok()
                .flatten()
        })
        .and_then(|meta| meta.get_attribute("content"))
        .unwrap_or_else(|| format!("./{binary}_loader.js"))
}
