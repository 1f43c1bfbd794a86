//! `cargo xtask serve`: `trunk serve` on 127.0.0.1, which builds the page, serves it and
//! rebuilds it when a source changes (Trunk.toml's `[watch]`).

use crate::steps::Steps;
use crate::web::{self, WebBuild};

pub fn serve(steps: &mut Steps, port: u64, build: WebBuild) -> Result<(), String> {
    steps.summary();
    println!(
        "\nqeval will be served at http://127.0.0.1:{port}/ once Trunk has built it; edits rebuild \
         the page: reload it then. Ctrl+C stops.\n"
    );
    // Trunk's reload script gets the server's address once served, after the page's Content
    // Security Policy has hashed it, so the policy would block it: the page is reloaded by hand.
    web::trunk("serve", build)?
        .args(["--port", &port.to_string(), "--address", "127.0.0.1"])
        .args(["--no-autoreload"])
        .status_ok("trunk serve")
}
