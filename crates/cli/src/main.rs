//! `boneyard`: read the skeletons and animations of classic games exactly as their engines
//! play them, and hand them to today's tools. The command-line contract is cli.md.

mod args;
mod batch;
mod best_clip;
mod cmd;
mod inputs;
mod json;
mod output;
mod progress;
mod registry;
mod view;

use std::process::ExitCode;

fn main() -> ExitCode {
    restore_sigpipe();
    let cli = match args::parse() {
        Ok(c) => c,
        Err(code) => return code,
    };
    progress::init(cli.quiet, cli.verbose);
    output::remove_partial_files_on_interrupt();
    // A panic is a bug in boneyard, never the user's fault: report it in one line (exit 1)
    // rather than with a backtrace.
    std::panic::set_hook(Box::new(|_| {}));
    let result = std::panic::catch_unwind(|| cmd::run(cli)).unwrap_or_else(|p| {
        let what = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown".into());
        Err(anyhow::anyhow!("internal error (a bug in boneyard; please report it with the input file): {what}"))
    });
    progress::finish();
    inputs::say_unused_runtime();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let code = exit_code(&e);
            // One clear line; never a backtrace.
            eprintln!("boneyard: error: {}", one_line(&e));
            ExitCode::from(code)
        }
    }
}

/// Like `cat` or `grep`, end quietly when the reader of our output goes away
/// (`boneyard list big.bin | head`) instead of failing on a closed pipe.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to the default at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// 2 for usage errors (asking for something that is not there), 1 for invalid input.
pub(crate) fn exit_code(e: &anyhow::Error) -> u8 {
    if e.downcast_ref::<args::UsageError>().is_some() {
        return 2;
    }
    match e.downcast_ref::<boneyard_core::Error>() {
        Some(be) if be.is_not_found() => 2,
        _ => 1,
    }
}

/// An error and its causes on one line.
pub(crate) fn one_line(e: &anyhow::Error) -> String {
    let mut s = String::new();
    for (i, cause) in e.chain().enumerate() {
        if i > 0 {
            s.push_str(": ");
        }
        s.push_str(&cause.to_string());
    }
    s.replace('\n', " ")
}
