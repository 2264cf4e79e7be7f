//! One module per subcommand.

mod check;
mod demo;
pub(crate) mod export;
mod import;
mod info;
mod list;
mod pose;
mod sample;

use crate::args::{Cli, Command};
use anyhow::Result;

pub fn run(cli: Cli) -> Result<()> {
    let runtime = cli.runtime_state();
    // The CLI reads within the default limits (`boneyard_core::Limits::default()`); a library
    // user raises one through `OpenOptions::limits`.
    let options = boneyard_core::OpenOptions { pick: cli.pick, runtime, limits: Default::default() };
    // Import reads and writes whole game files, and writes no drawing: these would do nothing.
    if matches!(cli.command, Command::Import(_)) {
        if let Some(name) = &options.pick {
            return Err(crate::args::usage(format!(
                "--file {name:?}: import writes whole game files, not files inside a ROM or archive: give the file itself with --into"
            )));
        }
        if let Some(t) = &cli.tunic {
            return Err(crate::args::usage(format!(
                "--tunic {t:?}: import writes animations, which the tunic's colour does not change"
            )));
        }
        if let Some(t) = &cli.shield {
            return Err(crate::args::usage(format!(
                "--shield {t:?}: import writes animations, which the shield drawn does not change"
            )));
        }
    }
    // The demo reads only its own built-in files: these would do nothing (`demo --file foo`
    // was passed over without a word).
    if matches!(cli.command, Command::Demo { .. }) {
        let given = [("--file", &options.pick), ("--tunic", &cli.tunic), ("--shield", &cli.shield)];
        if let Some((flag, Some(v))) = given.iter().find(|(_, v)| v.is_some()) {
            return Err(crate::args::usage(format!(
                "{flag} {v:?}: demo reads only its own built-in files; give it to a command reading yours"
            )));
        }
    }
    if let Some(name) = &options.pick {
        // A folder walk would ask every file in it for one inner file: as many errors as files.
        let files: &[std::path::PathBuf] = match &cli.command {
            Command::Info { files, .. }
            | Command::List { files, .. }
            | Command::Sample { files, .. }
            | Command::Pose { files, .. }
            | Command::Export { files, .. }
            | Command::Check { files, .. }
            | Command::View { files, .. } => files,
            Command::Import(a) => &a.into,
            Command::Demo { .. } => &[],
        };
        if let Some(dir) = files.iter().find(|f| f.is_dir()) {
            return Err(crate::args::usage(format!(
                "--file {name:?} picks a file inside a ROM or archive, and {} is a folder: name the ROM or archive",
                dir.display()
            )));
        }
    }
    match cli.command {
        Command::Info { files, json } => info::run(&files, json, &options),
        Command::List { files, json } => list::run(&files, json, &options),
        Command::Sample { files, anim, frame, json } => {
            sample::run(&files, &anim, frame.unwrap_or(0.0), json, &options)
        }
        Command::Pose { files, anim, frame, all_frames, skeleton, json } => {
            // Said in pose's words, not as a missing argument: `--anim` is optional (the rest
            // pose), but the rest pose has no frames to pick.
            if anim.is_none() && (frame.is_some() || all_frames) {
                let flag = if all_frames { "--all-frames" } else { "--frame" };
                return Err(crate::args::usage(format!(
                    "{flag} needs --anim: without a clip, pose gives the rest pose, which has no frames"
                )));
            }
            pose::run(&files, anim.as_deref(), frame, all_frames, skeleton.as_deref(), json, &options)
        }
        Command::Export { files, anim, skeleton, format, out, frame, in_place, subframes, size, scale } => {
            // A factor out of range is the command's error, said once (not once a document).
            // Named as given: an f32 parse took `1e40` for inf and said `--scale inf`.
            let scale = scale
                .as_deref()
                .map(|s| boneyard_core::scaled::parse_factor(s).map_err(|e| crate::args::usage(e.kind.to_string())))
                .transpose()?;
            let flags = export::Flags { frame, size: size.is_some(), in_place, subframes, scale };
            export::check_flags(format, !anim.is_empty(), &flags)?;
            let req = export::Request {
                anims: anim,
                skeleton,
                format,
                out,
                frame: frame.unwrap_or(0.0),
                in_place,
                subframes: subframes.unwrap_or(1),
                size: crate::args::parse_size(size.as_deref().unwrap_or("480x480"))?,
                scale: scale.unwrap_or(1.0),
            };
            export::run(&files, &req, &options)
        }
        Command::Check { files, json } => check::run(&files, json, &options),
        Command::Import(a) => import::run(&a.request()?),
        Command::View { files, port } => crate::view::run(&files, port, &options),
        Command::Demo { out } => demo::run(&out),
    }
}

/// The skeleton animation `a` plays on; an animation that plays on none of the document's
/// is invalid input (exit 1), not a usage error: it is there, but cannot be played.
fn skeleton_of(doc: &dyn boneyard_core::Document, a: usize) -> Result<usize> {
    if let Some(sk) = doc.skeleton_for(a) {
        return Ok(sk);
    }
    // A clip the reader lists but cannot play says why in its own words, at its offset
    // (`MOTION.BIN`'s legacy-frame32 sequences were told to bring their skeleton's file).
    if let Err(e) = doc.sample(a, 0.0) {
        return Err(e.into());
    }
    Err(boneyard_core::Error::unsupported(format!(
        "animation #{a} {} has no skeleton to play on in these files (its skeleton is in another file: give it with them)",
        doc.animations().get(a).map_or("", |x| x.name.as_str())
    ))
    .into())
}

/// A reader's error about the document named by `files` (a clip it cannot sample): named
/// after the first file when the reader did not name one.
fn in_document(e: boneyard_core::Error, files: &[std::path::PathBuf]) -> boneyard_core::Error {
    match (&e.file, files.first()) {
        (None, Some(f)) => e.in_file(f.display().to_string()),
        _ => e,
    }
}

/// Frame numbers must be finite.
fn check_frame(frame: f64) -> Result<f64> {
    if frame.is_finite() {
        Ok(frame)
    } else {
        // (What was typed is gone by now: 1e400 parsed as inf.)
        let what = if frame.is_nan() { "not a number" } else { "beyond any frame (infinite, or too large to hold)" };
        Err(crate::args::usage(format!("--frame {frame}: {what}")))
    }
}

fn print_json(v: &impl serde::Serialize) -> Result<()> {
    use std::io::Write;
    // Written as it is formatted (a whole level's list is tens of megabytes of text).
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer_pretty(&mut out, v)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}
