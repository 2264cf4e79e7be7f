//! Open files N times (for instruction counts of one open): `open_n N FILE... [--prepare-only]`.
//!
//! The files are given together (a level's `.dat` with its `.raw` and `.sep`), N copies are made
//! before any open, and each document is dropped before the next open, so `callgrind` on `N`
//! minus `callgrind` with `--prepare-only` is N opens and drops.

use boneyard_core::InputFile;

fn main() -> boneyard_core::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let prepare_only = args.iter().any(|a| a == "--prepare-only");
    let mut args = args.into_iter().filter(|a| a != "--prepare-only");
    let Some(n) = args.next().and_then(|n| n.parse::<usize>().ok()) else {
        eprintln!("usage: open_n N FILE... [--prepare-only]");
        std::process::exit(2);
    };
    let files: Vec<InputFile> = args.map(|p| InputFile::read(std::path::Path::new(&p))).collect::<Result<_, _>>()?;
    let inputs: Vec<Vec<InputFile>> = (0..n).map(|_| files.clone()).collect();
    if prepare_only {
        std::hint::black_box(inputs);
        return Ok(());
    }
    for f in inputs {
        drop(std::hint::black_box(boneyard_oni::open_files(f)?));
    }
    Ok(())
}
