//! Open a file N times (for instruction counts of one open): `open_n FILE N [prepare-only|list]`
//! (`list`: each open also builds the animation listing, as `list` does).
//!
//! The N inputs are copied before any open, and each document is dropped before the next open,
//! so `callgrind` on `N` minus `callgrind` on `N prepare-only` is N opens and drops.
//! `FILE` may be `demo` (the built-in demo files).

use boneyard_core::{Family, InputFile, NoCompanions, OpenOptions};

fn main() -> boneyard_core::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(n)) = (args.get(1), args.get(2).and_then(|n| n.parse::<usize>().ok())) else {
        eprintln!("usage: open_n FILE|demo N [prepare-only|list]");
        std::process::exit(2);
    };
    let files: Vec<InputFile> = if path == "demo" {
        boneyard_shenmue::demo_files()?.into_iter().map(|(n, b)| InputFile::new(n, b)).collect()
    } else {
        vec![InputFile::read(std::path::Path::new(path))?]
    };
    let inputs: Vec<Vec<InputFile>> = (0..n).map(|_| files.clone()).collect();
    if args.get(3).is_some_and(|a| a == "prepare-only") {
        std::hint::black_box(inputs);
        return Ok(());
    }
    let list = args.get(3).is_some_and(|a| a == "list");
    for f in inputs {
        let doc = std::hint::black_box(boneyard_shenmue::Shenmue.open(f, &OpenOptions::default(), &NoCompanions)?);
        if list {
            std::hint::black_box(doc.animations().len());
        }
    }
    Ok(())
}
