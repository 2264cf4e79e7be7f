//! Says, in the output of a plain `cargo build`/`cargo test`, whether the real game data the
//! tests read is there. Test output is captured by cargo, so a test's own SKIPPED line is
//! easy to miss; a build script's `cargo:warning` is always shown.
//! The folder is looked for as `testdata::data_dir` looks for it: `$BONEYARD_DATA`, else the
//! first `shared/data` above this crate.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=BONEYARD_DATA");
    println!("cargo:rerun-if-changed=build.rs");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let found = match std::env::var_os("BONEYARD_DATA") {
        Some(p) => Some(PathBuf::from(p)).filter(|p| p.is_dir()),
        None => manifest.ancestors().map(|d| d.join("shared").join("data")).find(|c| c.is_dir()),
    };
    match found {
        // Run again if the data goes away. (No watch when it is absent: a path that does not
        // exist would rerun this, and rebuild every crate above core, at every build; the
        // warning shows on the first build of a fresh checkout.)
        Some(dir) => println!("cargo:rerun-if-changed={}", dir.display()),
        None => println!(
            "cargo:warning=the real game files (../shared/data or $BONEYARD_DATA) are not here: the tests that read them print SKIPPED and pass"
        ),
    }
}
