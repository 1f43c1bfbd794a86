//! `qeval-bindgen --target <web|no-modules|nodejs> --out-dir <dir> --out-name <name> <input.wasm>`:
//! writes `<name>.js` and `<name>_bg.wasm` as `wasm-bindgen` would, and for `nodejs` (the npm
//! package) the TypeScript declarations `<name>.d.ts` too.
//! `cargo xtask` builds it (profile `tool`) and runs it for the page and the Node package.

use std::process::ExitCode;

use wasm_bindgen_cli_support::Bindgen;

const USAGE: &str = "usage: qeval-bindgen --target <web|no-modules|nodejs> --out-dir <dir> --out-name <name> <input.wasm>";

/// What to bind, and how.
#[derive(Debug, Default)]
struct BindgenArgs {
    target: String,
    out_dir: String,
    out_name: String,
    input: String,
}

fn parse(args: &[String]) -> Result<BindgenArgs, String> {
    let mut options = BindgenArgs::default();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let slot = match arg.as_str() {
            "--target" => &mut options.target,
            "--out-dir" => &mut options.out_dir,
            "--out-name" => &mut options.out_name,
            flag if flag.starts_with("--") => return Err(format!("unknown option `{flag}`")),
            input => {
                options.input = input.to_string();
                continue;
            }
        };
        *slot = args
            .next()
            .ok_or_else(|| format!("`{arg}` needs a value"))?
            .clone();
    }
    for (value, name) in [
        (&options.target, "--target"),
        (&options.out_dir, "--out-dir"),
        (&options.out_name, "--out-name"),
        (&options.input, "the input .wasm"),
    ] {
        if value.is_empty() {
            return Err(format!("{name} is missing"));
        }
    }
    Ok(options)
}

fn bind(options: &BindgenArgs) -> Result<(), String> {
    let mut bindgen = Bindgen::new();
    bindgen.input_path(&options.input);
    let chosen = match options.target.as_str() {
        "web" => bindgen.web(true),
        "no-modules" => bindgen.no_modules(true),
        "nodejs" => bindgen.nodejs(true),
        other => {
            return Err(format!(
                "unknown target `{other}`: web, no-modules or nodejs"
            ));
        }
    };
    chosen.map_err(|err| err.to_string())?;
    // As the wasm-bindgen program does by default: the glue knows where its `.wasm` is.
    bindgen
        .typescript(options.target == "nodejs")
        .omit_default_module_path(false)
        .out_name(&options.out_name)
        .generate(&options.out_dir)
        .map_err(|err| format!("{}: {err:#}", options.input))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parse(&args).and_then(|options| bind(&options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("qeval-bindgen: {message}\n{USAGE}");
            ExitCode::FAILURE
        }
    }
}
