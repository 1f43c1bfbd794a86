use std::rc::Rc;

use qeval_core::Scorecard;
use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use crate::components::TextField;
use crate::judge::langfuse;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub card: Rc<Scorecard>,
    pub host: AttrValue,
    pub public_key: AttrValue,
}

/// Sends the scorecard's scores to a Langfuse trace.
#[component]
pub fn LangfuseSend(props: &Props) -> Html {
    let trace = use_state(String::new);
    let status = use_state_eq(|| None::<(bool, String)>);
    let on_send = {
        let (trace, status) = (trace.clone(), status.clone());
        let (card, host, key) = (
            props.card.clone(),
            props.host.clone(),
            props.public_key.clone(),
        );
        Callback::from(move |_| {
            let trace_id = trace.trim().to_string();
            if trace_id.is_empty() {
                status.set(Some((
                    false,
                    "Give the trace id the scores belong to.".into(),
                )));
                return;
            }
            let (card, host, key, status) =
                (card.clone(), host.clone(), key.clone(), status.clone());
            status.set(Some((true, "Sending…".into())));
            spawn_local(async move {
                status.set(Some(
                    match langfuse::send(&host, &key, &trace_id, &card).await {
                        Ok(n) => (true, format!("Sent {n} scores to trace {trace_id}.")),
                        Err(err) => (false, err),
                    },
                ));
            });
        })
    };
    html! {
        <div class="row langfuse">
            <TextField id="langfuse-trace" label="Langfuse trace id" value={(*trace).clone()} on_change={Callback::from(move |v| trace.set(v))} />
            <button type="button" id="langfuse-send" onclick={on_send}>{ "Send scores to Langfuse" }</button>
            if let Some((ok, message)) = &*status {
                <span class={if *ok { "note" } else { "error-text" }} role="status" data-testid="langfuse-status">{ message.clone() }</span>
            }
        </div>
    }
}
