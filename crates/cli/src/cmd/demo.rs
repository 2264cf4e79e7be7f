//! `demo`: the whole pipeline on the built-in character. Each family that has an encoder
//! writes the character in its own format; the files are read back with the real reader,
//! sampled, exported to glTF and previewed.

use super::export::{write, Request};
use crate::args::Format;
use crate::output::{ensure_dir, write_atomic};
use anyhow::Result;
use boneyard_core::Document;
use std::path::{Path, PathBuf};

pub fn run(out: &Path) -> Result<()> {
    ensure_dir(out)?;
    let mut written: Vec<PathBuf> = Vec::new();
    let mut sources: Vec<(String, Box<dyn Document>)> = Vec::new();
    for family in crate::registry::FAMILIES {
        let files = family.demo_files()?;
        if files.is_empty() {
            continue;
        }
        let dir = out.join(family.name());
        ensure_dir(&dir)?;
        let mut paths = Vec::new();
        for (name, bytes) in files {
            let p = dir.join(crate::output::safe_name(&name));
            write_atomic(&p, &bytes)?;
            written.push(p.clone());
            paths.push(p);
        }
        // Read back through the same path a user's files take.
        let mut opened = crate::inputs::open(&paths)?;
        let doc = opened.docs.pop().ok_or_else(|| anyhow::anyhow!("{}: demo files did not open", family.name()))?;
        sources.push((family.name().to_string(), doc));
    }
    if sources.is_empty() {
        sources.push(("builtin".into(), Box::new(boneyard_core::demo::baked_document(30.0))));
    }
    // -q: warnings and errors only, as for every other command.
    let quiet = crate::progress::quiet();
    let say = |line: String| {
        if !quiet {
            println!("{line}");
        }
    };
    say("boneyard demo: the built-in 19-bone character with two clips (walk, wave)".into());
    for (family, doc) in &sources {
        let dir = out.join(family);
        let stem = format!("demo_{family}");
        let mut req = Request {
            anims: vec![],
            skeleton: None,
            format: Format::Glb,
            out: dir.clone(),
            frame: 0.0,
            in_place: false,
            subframes: 1,
            size: (480, 480),
            scale: 1.0,
        };
        written.extend(write(doc.as_ref(), &stem, &stem, &req)?);
        let walk = doc.animations().first().map(|a| format!("#{}", a.index));
        req.anims = walk.into_iter().collect();
        req.format = Format::Png;
        req.frame = (doc.animations().first().map(|a| a.frames).unwrap_or(1) / 4) as f64;
        written.extend(write(doc.as_ref(), &stem, &stem, &req)?);
        req.format = Format::Gif;
        written.extend(write(doc.as_ref(), &stem, &stem, &req)?);
        let anims: Vec<String> =
            doc.animations().iter().map(|a| format!("{} ({} frames at {} fps)", a.name, a.frames, a.fps)).collect();
        say(format!(
            "  {family}: read back {}, animations: {}",
            crate::progress::counted(doc.skeletons().len(), "skeleton", "skeletons"),
            anims.join(", ")
        ));
    }
    say("wrote:".into());
    for p in &written {
        say(format!("  {}", p.display()));
    }
    say("open the .glb in Blender (File > Import > glTF 2.0) or any glTF viewer, the .png/.gif in any image viewer;"
        .into());
    say("or browse the files with `boneyard view <file>`.".into());
    Ok(())
}
