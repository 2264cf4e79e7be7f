//! Blender as an independent importer (`.ci/gltf/blender_check.py`): the demo's GLB and BVH
//! imported headless must put every bone head where `Document::pose` puts the joint, at every
//! frame. Skipped (with a SKIPPED line) when `blender` is not installed.

mod common;

use boneyard_export::{bvh, glb, ExportOptions};
use std::path::Path;
use std::process::Command;

#[test]
fn blender_imports_glb_and_bvh() {
    if !Command::new("blender").arg("--version").output().is_ok_and(|o| o.status.success()) {
        println!("SKIPPED (blender_imports_glb_and_bvh): blender is not installed");
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.ci/gltf/blender_check.py");
    let tmp = tempfile::Builder::new().prefix("boneyard-export-blender-").tempdir().unwrap();
    let dir = tmp.path();
    let doc = common::demo_doc(30.0);
    let opts = ExportOptions::default();
    std::fs::write(dir.join("demo.glb"), glb(&doc, 0, &[0, 1], &opts).unwrap()).unwrap();
    std::fs::write(dir.join("walk.bvh"), bvh(&doc, 0, 0, &opts).unwrap()).unwrap();
    for a in 0..2 {
        std::fs::write(dir.join(format!("e{a}.json")), serde_json::to_vec(&common::pose_json(&doc, 0, a)).unwrap())
            .unwrap();
    }
    for (file, expected) in [("demo.glb", vec!["e0.json", "e1.json"]), ("walk.bvh", vec!["e0.json"])] {
        let out = Command::new("blender")
            .args(["--background", "--factory-startup", "--python"])
            .arg(&script)
            .arg("--")
            .arg(dir.join(file))
            .args(expected.iter().map(|e| dir.join(e)))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = text.lines().filter(|l| l.contains(" blender ")).collect();
        println!("{}", lines.join("\n"));
        assert!(out.status.success(), "{text}");
        assert_eq!(lines.iter().filter(|l| l.starts_with("ok")).count(), expected.len(), "{text}");
    }
}
