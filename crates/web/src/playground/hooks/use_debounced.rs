use gloo_timers::callback::Timeout;
use yew::prelude::*;

/// `value`, once it has stopped changing for `millis` milliseconds. Typing stays instant while the
/// work that depends on the value runs once per pause.
#[hook]
pub fn use_debounced<T>(value: T, millis: u32) -> T
where
    T: Clone + PartialEq + 'static,
{
    let settled = use_state_eq(|| value.clone());
    {
        let settled = settled.clone();
        use_effect_with(value, move |value| {
            let value = value.clone();
            let timeout = Timeout::new(millis, move || settled.set(value));
            move || drop(timeout)
        });
    }
    (*settled).clone()
}
