//! Embed the viewer's page: three.js and `viewer/src` bundled into one script.
//!
//! - Where the viewer's npm packages are installed (`cd viewer && npm ci`, once), the bundle is
//!   built here from `viewer/src` by the pinned esbuild, into `OUT_DIR` (the source tree is not
//!   written), so every `cargo build` embeds the page as the sources are now: offline, about a
//!   tenth of a second.
//! - Otherwise a bundle built beforehand (`npm run build`: `viewer/dist/app.js`) is embedded;
//!   a warning says so if a source is newer than it.
//! - With neither (a fresh machine without node) the binary still builds, with a warning, and
//!   `boneyard view` serves the API and a page that says how to build the bundle.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let viewer = manifest.join("../../viewer");
    let src = viewer.join("src");
    let dist = viewer.join("dist/app.js");
    println!("cargo:rerun-if-changed=build.rs");
    // Watched: the sources and what npm installed (its lock file) or, before `npm ci`, the
    // viewer's folder, whose entries change when node_modules appears (watching that folder
    // once node_modules is in it would scan thousands of files every build; a path that does
    // not exist would run this script every build).
    let installed = viewer.join("node_modules/.package-lock.json");
    let dist_dir = viewer.join("dist");
    for watched in [&src, &installed, &dist_dir] {
        if watched.exists() {
            println!("cargo:rerun-if-changed={}", watched.display());
        }
    }
    if !installed.exists() {
        println!("cargo:rerun-if-changed={}", viewer.display());
    }
    let bundle = match built_here(&viewer, &out_dir) {
        Ok(Some(path)) => Some(path),
        Ok(None) if dist.is_file() => {
            if let Some(newer) = newer_source(&src, &dist) {
                println!(
                    "cargo:warning=the viewer's page embedded is viewer/dist/app.js, older than {}: rebuild it (cd viewer && npm run build)",
                    newer.display()
                );
            }
            Some(dist)
        }
        Ok(None) => {
            println!(
                "cargo:warning=boneyard view will serve no page (its API only): install the viewer's packages once (cd viewer && npm ci) and build again"
            );
            None
        }
        Err(why) => {
            println!(
                "cargo:warning=the viewer's page could not be built ({why}); boneyard view will serve its API only"
            );
            None
        }
    };
    let code = match bundle {
        Some(path) => format!("Some(include_str!({:?}))", path.display().to_string()),
        None => "None".to_string(),
    };
    std::fs::write(
        out_dir.join("viewer_bundle.rs"),
        format!("/// The viewer's bundle, when it was built.\npub const BUNDLE: Option<&str> = {code};\n"),
    )
    .expect("write OUT_DIR/viewer_bundle.rs");
}

/// The bundle built by the installed esbuild into `out_dir`, with the options of `npm run
/// build` (package.json); `None` when the packages are not installed.
fn built_here(viewer: &Path, out_dir: &Path) -> Result<Option<PathBuf>, String> {
    let esbuild =
        viewer.join(if cfg!(windows) { "node_modules/.bin/esbuild.cmd" } else { "node_modules/.bin/esbuild" });
    if !esbuild.is_file() || !viewer.join("node_modules/three").is_dir() {
        return Ok(None);
    }
    let out = out_dir.join("app.js");
    let status = Command::new(&esbuild)
        .current_dir(viewer)
        .args(["src/main.js", "--bundle", "--format=esm", "--target=es2020", "--minify", "--legal-comments=eof"])
        .arg(format!("--outfile={}", out.display()))
        .arg("--log-level=warning")
        .status()
        .map_err(|e| format!("{}: {e}", esbuild.display()))?;
    if !status.success() {
        return Err(format!("esbuild {status}"));
    }
    Ok(Some(out))
}

/// A file under `dir` modified after `than`, if any.
fn newer_source(dir: &Path, than: &Path) -> Option<PathBuf> {
    let built = std::fs::metadata(than).and_then(|m| m.modified()).ok()?;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).ok()?.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if entry.metadata().and_then(|m| m.modified()).is_ok_and(|t| t > built) {
                return Some(path);
            }
        }
    }
    None
}
