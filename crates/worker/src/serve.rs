//! A worker's message loop: reads each request, hands its task to the worker's handler, posts
//! the answer with the request's job number. Each message is `[json]` or `[json, bytes]`.

use std::cell::{Cell, RefCell};

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use crate::protocol::{Answer, Request, Response, Task};

thread_local! {
    /// The job running now, and when its progress was last sent (page milliseconds).
    static RUNNING: Cell<(u64, f64)> = const { Cell::new((0, 0.0)) };
}

/// Sends the running job's progress, at most every 100 ms (and always the last step).
pub fn progress(done: usize, total: usize) {
    let now = js_sys::Date::now();
    let (job, last) = RUNNING.with(Cell::get);
    if now - last < 100.0 && done < total {
        return;
    }
    RUNNING.with(|running| running.set((job, now)));
    post(&Response {
        job,
        answer: Answer::Progress { done, total },
    });
}

fn post(response: &Response) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    if let Ok(text) = serde_json::to_string(response) {
        let _ = scope.post_message(&text.into());
    }
}

/// Answers every request with `handle` for as long as the page keeps the worker, after saying
/// `ready` (the page sends nothing before: it would find no handler here).
pub fn serve(handle: impl FnMut(Task, Option<&[u8]>) -> Answer + 'static, ready: Answer) {
    let handle = RefCell::new(handle);
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
        let parts: js_sys::Array = event.data().unchecked_into();
        let text = parts.get(0).as_string().unwrap_or_default();
        let bytes = parts
            .get(1)
            .dyn_into::<js_sys::Uint8Array>()
            .ok()
            .map(|array| array.to_vec());
        let response = match serde_json::from_str::<Request>(&text) {
            Ok(request) => {
                RUNNING.with(|running| running.set((request.job, js_sys::Date::now())));
                Response {
                    job: request.job,
                    answer: (handle.borrow_mut())(request.task, bytes.as_deref()),
                }
            }
            // The job is answered even so: the page waits for it before sending the next.
            Err(err) => Response {
                job: serde_json::from_str::<serde_json::Value>(&text)
                    .ok()
                    .and_then(|value| value.get("job").and_then(serde_json::Value::as_u64))
                    .unwrap_or(0),
                answer: Answer::Refused(err.to_string()),
            },
        };
        post(&response);
    });
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The worker lives as long as the page keeps it; so does its handler.
    on_message.forget();
    post(&Response {
        job: 0,
        answer: ready,
    });
}
