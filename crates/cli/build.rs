//! Embed the viewer's bundle (`viewer/dist/app.js`, built by `cd viewer && npm ci && npm run
//! build`) when it is there. Without it (a fresh machine without node) the binary still builds
//! and `boneyard view` serves a page that says how to build the bundle.

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let viewer = manifest.join("../../viewer");
    let bundle = viewer.join("dist/app.js");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("viewer_bundle.rs");
    let code = if bundle.is_file() {
        // Watch the bundle only: rebuilding it (npm run build) re-embeds it.
        println!("cargo:rerun-if-changed={}", bundle.display());
        format!("Some(include_str!({:?}))", bundle.display().to_string())
    } else {
        // Watch the folder it would appear in: dist/, or the viewer folder until dist/ exists.
        let dist = viewer.join("dist");
        println!("cargo:rerun-if-changed={}", if dist.is_dir() { dist } else { viewer }.display());
        "None".to_string()
    };
    println!("cargo:rerun-if-changed=build.rs");
    std::fs::write(
        &out,
        format!("/// The viewer's bundle, when it was built.\npub const BUNDLE: Option<&str> = {code};\n"),
    )
    .expect("write OUT_DIR/viewer_bundle.rs");
}
