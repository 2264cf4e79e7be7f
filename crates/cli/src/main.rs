//! `boneyard`: read the skeletons and animations of classic games exactly as their engines
//! play them, and hand them to today's tools. The command-line contract is cli.md.

mod args;
mod cmd;
mod inputs;
mod json;
mod output;
mod registry;
mod view;

use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match args::parse() {
        Ok(c) => c,
        Err(code) => return code,
    };
    match cmd::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let code = exit_code(&e);
            // One clear line; never a backtrace.
            eprintln!("boneyard: error: {}", one_line(&e));
            ExitCode::from(code)
        }
    }
}

/// 2 for usage errors (asking for something that is not there), 1 for invalid input.
fn exit_code(e: &anyhow::Error) -> u8 {
    if e.downcast_ref::<args::UsageError>().is_some() {
        return 2;
    }
    match e.downcast_ref::<boneyard_core::Error>() {
        Some(be) if be.is_not_found() => 2,
        _ => 1,
    }
}

fn one_line(e: &anyhow::Error) -> String {
    let mut s = String::new();
    for (i, cause) in e.chain().enumerate() {
        if i > 0 {
            s.push_str(": ");
        }
        s.push_str(&cause.to_string());
    }
    s.replace('\n', " ")
}
