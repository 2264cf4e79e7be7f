//! What a run tells the person watching it, on stderr: a progress bar (documents and outputs,
//! with an ETA) when stderr is a terminal, none when it is not or with `--quiet`; with
//! `--verbose` each output is named as it is written. Warnings, errors and the batch summary
//! go through here so they print above the bar instead of through it.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::Path;
use std::sync::OnceLock;

struct Progress {
    bar: ProgressBar,
    quiet: bool,
    verbose: bool,
}

static PROGRESS: OnceLock<Progress> = OnceLock::new();

/// Set up once, from the global flags.
pub fn init(quiet: bool, verbose: bool) {
    let bar = if quiet || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} {msg} (ETA {eta})")
        {
            bar.set_style(style);
        }
        bar
    };
    let _ = PROGRESS.set(Progress { bar, quiet, verbose });
}

fn get() -> Option<&'static Progress> {
    PROGRESS.get()
}

/// More work is known: `n` more steps of what `what` names ("documents", "outputs").
pub fn add(n: u64, what: &str) {
    if let Some(p) = get() {
        p.bar.inc_length(n);
        p.bar.set_message(what.to_string());
    }
}

/// `n` steps done.
pub fn step(n: u64) {
    if let Some(p) = get() {
        p.bar.inc(n);
    }
}

/// A warning or an error: always printed (above the bar).
pub fn eprint(line: &str) {
    // One line whatever a file's name holds: a newline in it made a warning two lines (and
    // could forge one), as `check` and `list` escape them on stdout.
    let line = boneyard_core::text::escape_controls(line);
    match get() {
        Some(p) => p.bar.suspend(|| eprintln!("{line}")),
        None => eprintln!("{line}"),
    }
}

/// A note (`boneyard: note: ...`) on stderr: something worth knowing that is neither a
/// warning nor an error, so `--quiet` leaves it out.
pub fn note(line: &str) {
    if !quiet() {
        eprint(&format!("boneyard: note: {line}"));
    }
}

/// How many of one document's warnings are printed before the rest are counted (all of them
/// with `--verbose`; every one is in the `--json` outputs either way).
const WARNINGS_SHOWN: usize = 8;

/// A document's warnings on stderr: the first few, then how many more there are.
pub fn warnings(ws: &[boneyard_core::Warning]) {
    let shown = if verbose() { ws.len() } else { ws.len().min(WARNINGS_SHOWN) };
    for w in &ws[..shown] {
        eprint(&format!("boneyard: warning: {w}"));
    }
    if ws.len() > shown {
        // Named after the file of the ones left out (in a batch, the lines around it are
        // other documents').
        let of = ws[shown..].first().map(|w| format!(" of {}", w.file)).unwrap_or_default();
        eprint(&format!(
            "boneyard: warning: ... and {} more warnings{of} (--verbose prints them all; --json outputs carry every one)",
            ws.len() - shown
        ));
    }
}

/// A closing summary: printed unless `--quiet`.
pub fn summary(line: &str) {
    if !get().is_some_and(|p| p.quiet) {
        eprint(line);
    }
}

/// True when `--verbose` names outputs as they are written (then they are not listed again
/// at the end).
pub fn verbose() -> bool {
    get().is_some_and(|p| p.verbose)
}

/// True with `--quiet`.
pub fn quiet() -> bool {
    get().is_some_and(|p| p.quiet)
}

/// An output file was written.
pub fn wrote(path: &Path) {
    if let Some(p) = get() {
        if p.verbose {
            p.bar.suspend(|| println!("wrote {}", path.display()));
        }
    }
}

/// The run is over: the bar goes away.
pub fn finish() {
    if let Some(p) = get() {
        p.bar.finish_and_clear();
    }
}

/// `n` and the noun for it: "1 skeleton", "2 skeletons" (summaries count things of any number).
pub fn counted(n: usize, one: &str, many: &str) -> String {
    boneyard_core::text::counted(n, one, many)
}
