//! The worker's entry point: Trunk builds this binary as the page's second wasm module and the
//! page starts it on its first database action. Each message is `[json]` or `[json, bytes]`.

#[cfg(target_arch = "wasm32")]
thread_local! {
    /// The job running now, and when its progress was last sent (page milliseconds).
    static RUNNING: std::cell::Cell<(u64, f64)> = const { std::cell::Cell::new((0, 0.0)) };
}

/// Sends the running job's progress, at most every 100 ms (and always the last step).
#[cfg(target_arch = "wasm32")]
fn progress(done: usize, total: usize) {
    use qeval_worker::protocol::{Answer, Response};
    use wasm_bindgen::JsCast;

    let now = js_sys::Date::now();
    let (job, last) = RUNNING.with(std::cell::Cell::get);
    if now - last < 100.0 && done < total {
        return;
    }
    RUNNING.with(|running| running.set((job, now)));
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let response = Response {
        job,
        answer: Answer::Progress { done, total },
    };
    if let Ok(text) = serde_json::to_string(&response) {
        let _ = scope.post_message(&text.into());
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {
    use std::cell::RefCell;

    use qeval_worker::jobs::Jobs;
    use qeval_worker::protocol::{Answer, Request, Response};
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::Closure;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let post = |scope: &DedicatedWorkerGlobalScope, response: &Response| {
        if let Ok(text) = serde_json::to_string(response) {
            let _ = scope.post_message(&text.into());
        }
    };
    let jobs = RefCell::new(Jobs::with_progress(progress));
    let on_message = {
        let scope = scope.clone();
        Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
            let parts: js_sys::Array = event.data().unchecked_into();
            let text = parts.get(0).as_string().unwrap_or_default();
            let bytes = parts
                .get(1)
                .dyn_into::<js_sys::Uint8Array>()
                .ok()
                .map(|array| array.to_vec());
            let response = match serde_json::from_str::<Request>(&text) {
                Ok(request) => Response {
                    job: {
                        RUNNING.with(|running| running.set((request.job, js_sys::Date::now())));
                        request.job
                    },
                    answer: jobs.borrow_mut().run(request.task, bytes.as_deref()),
                },
                Err(err) => Response {
                    job: 0,
                    answer: Answer::Refused(err.to_string()),
                },
            };
            post(&scope, &response);
        })
    };
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The worker lives as long as the page keeps it; so does its handler.
    on_message.forget();
    post(
        &scope,
        &Response {
            job: 0,
            answer: Jobs::ready(),
        },
    );
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "qeval-worker runs in the browser, started by the qeval page; natively there is nothing to do."
    );
    std::process::exit(2);
}
