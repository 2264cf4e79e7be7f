use crate::batch::Doc;
use anyhow::Result;
use boneyard_core::OpenOptions;
use serde_json::json;
use std::path::PathBuf;

/// Each family prints its own line per animation (see the README for the formats); the last
/// line is `all: hash=XXXXXXXX`, the CRC-32 of every line before it. In a batch each
/// document's lines follow a line `document <name>` (a walked file's path below the folder
/// given, a named file's name), and the hash covers them all.
pub fn run(files: &[PathBuf], json: bool, options: &OpenOptions) -> Result<()> {
    let plan = crate::inputs::plan(files)?;
    let run = crate::batch::run(plan, options, true, |d: Doc| Ok((d.doc.check()?, d.doc.animations().len())));
    let done = run.collect()?;
    let mut lines = Vec::new();
    let mut animations = 0;
    for ((_, (l, n)), name) in done.ok.iter().zip(&done.names) {
        // A newline in a file's name (or a name inside it) made a line of its own, a forged
        // `all: hash=` among them: control characters are escaped (no real file has one).
        let escaped = |x: &str| boneyard_core::text::escape_controls(x).into_owned();
        if done.batch {
            // Named as it is wherever the files lie: the hash does not depend on the machine.
            lines.push(format!("document {}", escaped(name)));
        }
        lines.extend(l.iter().map(|x| escaped(x)));
        animations += n;
    }
    let hash = format!("{:08x}", boneyard_core::check::hash_lines(&lines));
    if json {
        let warnings: Vec<_> = done.warnings.iter().map(crate::json::warning).collect();
        let mut v = json!({"lines": lines, "hash": hash, "warnings": warnings});
        if done.batch {
            v["errors"] = json!(done.errors);
            v["skipped"] = done.skipped_json();
        }
        super::print_json(&v)?;
    } else {
        for x in &lines {
            println!("{x}");
        }
        println!("all: hash={hash}");
    }
    done.close("checked", &format!("{animations} animations"))
}
