//! qeval-web: the playground in the browser. The core does the scoring; this crate owns the page,
//! the URL and the clipboard.

mod app;
mod components;
mod connect_policy;
mod database;
mod download;
mod judge;
mod playground;
mod report;
mod theme;
mod workers;

fn main() {
    yew::Renderer::<app::App>::new().render();
}
