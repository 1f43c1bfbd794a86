//! `qeval-bindgen --target <web|no-modules|nodejs> --out-dir <dir> --out-name <name> <input.wasm>`:
//! writes `<name>.js` and `<name>_bg.wasm` as `wasm-bindgen` would, and for `nodejs` (the npm
//! package) the TypeScript declarations `<name>.d.ts` too.
//! `cargo xtask` builds it (profile `tool`) and runs it for the Node package, and puts it on
//! Trunk's PATH as `wasm-bindgen` for the page: it reads Trunk's `--target=web` spelling and
//! `--no-typescript`, and says its version as wasm-bindgen does (`wasm-bindgen 0.2.130`), which
//! Trunk checks against Trunk.toml's.

use std::process::ExitCode;

use wasm_bindgen_cli_support::Bindgen;

const USAGE: &str = "usage: qeval-bindgen --target <web|no-modules|nodejs> --out-dir <dir> --out-name <name> [--no-typescript] <input.wasm>";

/// The wasm-bindgen whose library this binds with: the `=` version of Cargo.toml, which
/// Cargo.lock and Trunk.toml give too (a test holds them together).
const WASM_BINDGEN_VERSION: &str = "0.2.130";

/// What to bind, and how.
#[derive(Debug, Default)]
struct BindgenArgs {
    target: String,
    out_dir: String,
    out_name: String,
    input: String,
    /// No `.d.ts`, even for `nodejs`.
    no_typescript: bool,
}

fn slot_of<'a>(options: &'a mut BindgenArgs, flag: &str) -> Result<&'a mut String, String> {
    match flag {
        "--target" => Ok(&mut options.target),
        "--out-dir" => Ok(&mut options.out_dir),
        "--out-name" => Ok(&mut options.out_name),
        other => Err(format!("unknown option `{other}`")),
    }
}

fn parse(args: &[String]) -> Result<BindgenArgs, String> {
    let mut options = BindgenArgs::default();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        // `--target=web`, as Trunk writes it, is `--target web`.
        if let Some((flag, value)) = arg.split_once('=')
            && flag.starts_with("--")
        {
            *slot_of(&mut options, flag)? = value.to_string();
            continue;
        }
        if arg == "--no-typescript" {
            options.no_typescript = true;
            continue;
        }
        if !arg.starts_with("--") {
            options.input = arg.clone();
            continue;
        }
        let value = args
            .next()
            .ok_or_else(|| format!("`{arg}` needs a value"))?
            .clone();
        *slot_of(&mut options, arg)? = value;
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
        .typescript(options.target == "nodejs" && !options.no_typescript)
        .omit_default_module_path(false)
        .out_name(&options.out_name)
        .generate(&options.out_dir)
        .map_err(|err| format!("{}: {err:#}", options.input))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|arg| arg == "--version" || arg == "-V") {
        println!("wasm-bindgen {WASM_BINDGEN_VERSION}");
        return ExitCode::SUCCESS;
    }
    match parse(&args).and_then(|options| bind(&options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("qeval-bindgen: {message}\n{USAGE}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trunks_spelling_and_ours_read_alike() {
        let args = |list: &[&str]| list.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        let trunk = parse(&args(&[
            "--target=no-modules",
            "--out-dir=target/wasm-bindgen/release",
            "--out-name=qeval-scorer",
            "in.wasm",
            "--no-typescript",
        ]))
        .expect("reads Trunk's arguments");
        assert_eq!(
            (
                trunk.target.as_str(),
                trunk.out_name.as_str(),
                trunk.input.as_str()
            ),
            ("no-modules", "qeval-scorer", "in.wasm")
        );
        assert!(trunk.no_typescript);
        let ours = parse(&args(&[
            "--target",
            "nodejs",
            "--out-dir",
            "o",
            "--out-name",
            "n",
            "i.wasm",
        ]))
        .expect("reads ours");
        assert_eq!(
            (ours.target.as_str(), ours.no_typescript),
            ("nodejs", false)
        );
        assert!(parse(&args(&["--keep-debug=1"])).is_err());
    }

    /// Trunk takes the `wasm-bindgen` on PATH only when it says Trunk.toml's version, and the
    /// glue must match the wasm-bindgen the crates were compiled with (Cargo.lock's).
    #[test]
    fn the_version_it_says_is_cargo_locks_and_trunk_tomls() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let lock = std::fs::read_to_string(format!("{root}/Cargo.lock")).expect("Cargo.lock");
        let locked = lock
            .split("[[package]]")
            .find(|package| package.contains("name = \"wasm-bindgen\"\n"))
            .and_then(|package| package.lines().find(|l| l.starts_with("version = ")))
            .expect("wasm-bindgen in Cargo.lock");
        assert_eq!(locked, format!("version = \"{WASM_BINDGEN_VERSION}\""));
        let trunk = std::fs::read_to_string(format!("{root}/Trunk.toml")).expect("Trunk.toml");
        assert!(
            trunk.contains(&format!("wasm_bindgen = \"{WASM_BINDGEN_VERSION}\"")),
            "Trunk.toml's [tools] wasm_bindgen"
        );
    }
}
