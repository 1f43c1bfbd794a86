//! `qeval-judge-double [--port N]`: runs the test double until killed, after printing its URL.

fn main() {
    let port = std::env::args()
        .skip_while(|arg| arg != "--port")
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    match qeval_judge_double::JudgeDouble::start_on(port) {
        Ok(double) => {
            println!("{}", double.url);
            loop {
                std::thread::park();
            }
        }
        Err(err) => {
            eprintln!("qeval-judge-double: cannot listen on port {port}: {err}");
            std::process::exit(2);
        }
    }
}
