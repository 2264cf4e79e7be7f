//! The CI's node scripts (`.ci/gltf`) run on exported files: the Khronos validator must report
//! 0 errors and 0 warnings, and three.js must reproduce `Document::pose` at every frame.
//! Skipped (with a SKIPPED line) when `node` or `.ci/gltf/node_modules` is missing.

mod common;

use boneyard_export::{glb, ExportOptions};
use std::path::{Path, PathBuf};
use std::process::Command;
use tempfile::TempDir;

fn tools() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.ci/gltf");
    let node = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    if node && dir.join("node_modules/gltf-validator").is_dir() && dir.join("node_modules/three").is_dir() {
        Some(dir)
    } else {
        println!("SKIPPED (node scripts): node or .ci/gltf/node_modules missing (cd .ci/gltf && npm ci)");
        None
    }
}

fn run(dir: &Path, script: &str, args: &[PathBuf]) -> (bool, String) {
    let out = Command::new("node").arg(dir.join(script)).args(args).output().expect("node runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    println!("{text}");
    (out.status.success(), text)
}

/// A new empty folder, removed when the returned value is dropped unless KEEP is set (its
/// path is then printed, to look at the files).
fn temp_dir(name: &str) -> TempDir {
    let keep = std::env::var_os("KEEP").is_some();
    let d =
        tempfile::Builder::new().prefix(&format!("boneyard-export-{name}-")).disable_cleanup(keep).tempdir().unwrap();
    if keep {
        println!("KEEP: the files stay in {}", d.path().display());
    }
    d
}

#[test]
fn validator_and_three_js_agree() {
    let Some(tools) = tools() else { return };
    let tmp = temp_dir("node");
    let dir = tmp.path();
    let opts = ExportOptions::default();
    let demo = common::demo_doc(30.0);
    let mut files = Vec::new();
    let mut write = |name: &str, bytes: Vec<u8>| {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        files.push(p.clone());
        p
    };
    let demo_glb = write("demo.glb", glb(&demo, 0, &[0, 1], &opts).unwrap());
    write(
        "demo_in_place.glb",
        glb(&demo, 0, &[0, 1], &ExportOptions { in_place: true, ..Default::default() }).unwrap(),
    );
    let textured = common::with_texture(common::two_bones(["a", "b"]));
    let textured_glb = write("textured.glb", glb(&textured, 0, &[0], &opts).unwrap());
    // Clip 0 scales b, clip 1 does not: three.js must not carry the scale over.
    let mut scaled = common::two_bones(["a", "b"]);
    for (f, fr) in scaled.clips[0].frames.iter_mut().enumerate() {
        fr[1].scale = glam::Vec3::new(1.0 + f as f32, 2.0, 0.5);
    }
    let scaled_glb = write("scaled.glb", glb(&scaled, 0, &[0, 1], &opts).unwrap());
    let two = common::two_bones(["a", "a"]);
    let two_glb = write("two.glb", glb(&two, 0, &[0, 1], &opts).unwrap());
    let mut roots = common::two_bones(["a", "b"]);
    roots.skeletons[0].skeleton.bones[1].parent = None;
    write("roots.glb", glb(&roots, 0, &[0, 1], &opts).unwrap());
    let mut bare = common::two_bones(["a", "b"]);
    bare.skeletons[0].meshes.clear();
    write("bare.glb", glb(&bare, 0, &[0, 1], &opts).unwrap());

    let (ok, text) = run(&tools, "validate.mjs", &files);
    assert!(ok, "validator: {text}");
    assert_eq!(text.matches("errors=0 warnings=0").count(), files.len());

    let mut expected = Vec::new();
    for (doc, glb_path, n) in
        [(&demo, &demo_glb, 2), (&two, &two_glb, 2), (&textured, &textured_glb, 1), (&scaled, &scaled_glb, 2)]
    {
        let mut e = Vec::new();
        for a in 0..n {
            let p = dir.join(format!("{}_{a}.json", glb_path.file_stem().unwrap().to_string_lossy()));
            std::fs::write(&p, serde_json::to_vec(&common::pose_json(doc, 0, a)).unwrap()).unwrap();
            e.push(p);
        }
        let mut args = vec![glb_path.clone()];
        args.extend(e.iter().cloned());
        let (ok, text) = run(&tools, "three_check.mjs", &args);
        assert!(ok, "three.js: {text}");
        assert_eq!(text.matches("\nok ").count() + text.starts_with("ok ") as usize, n);
        expected.push(e);
    }
    // The check has teeth: the in-place export does not match the poses with root motion.
    let mut args = vec![dir.join("demo_in_place.glb")];
    args.push(expected[0][0].clone());
    let (ok, text) = run(&tools, "three_check.mjs", &args);
    assert!(!ok && text.contains("FAIL demo_walk"), "{text}");
}
