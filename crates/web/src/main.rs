//! qeval-web: the playground in the browser. The core does the scoring; this crate owns the page,
//! the URL and the clipboard.

mod app;
mod components;
mod connect_policy;
mod database;
mod download;
mod editor;
mod hooks;
mod judge;
mod report;
mod scorecard_file;
mod scoring;
mod share;
mod state;
mod theme;
mod workers;

fn main() {
    yew::Renderer::<app::App>::new().render();
}
