//! An independent BVH reader: assimp (`assimp export FILE.bvh OUT.json assjson`) must read
//! back, for every joint and frame, the document's sampled local rotation (up to sign) and
//! the root's translation. Skipped (with a SKIPPED line) when `assimp` is not installed
//! (Debian: `apt-get install assimp-utils`).

mod common;

use boneyard_core::Document;
use boneyard_export::{bvh, ExportOptions};
use glam::{Quat, Vec3};
use std::process::Command;

#[test]
fn assimp_reads_the_demo_bvh() {
    if !Command::new("assimp").arg("version").output().is_ok_and(|o| o.status.success()) {
        println!("SKIPPED (assimp_reads_the_demo_bvh): assimp is not installed");
        return;
    }
    let doc = common::demo_doc(30.0);
    let skel = &doc.skeletons[0].skeleton;
    let tmp = tempfile::Builder::new().prefix("boneyard-export-assimp-").tempdir().unwrap();
    let dir = tmp.path();
    for anim in 0..2 {
        let src = dir.join(format!("a{anim}.bvh"));
        let out = dir.join(format!("a{anim}.json"));
        std::fs::write(&src, bvh(&doc, 0, anim, &ExportOptions::default()).unwrap()).unwrap();
        let st = Command::new("assimp").arg("export").arg(&src).arg(&out).arg("assjson").output().unwrap();
        assert!(st.status.success(), "{}", String::from_utf8_lossy(&st.stderr));
        let j: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
        let a = &j["animations"][0];
        let frames = doc.animations()[anim].frames as usize;
        assert_eq!(a["tickspersecond"], 30.0);
        let channels = a["channels"].as_array().unwrap();
        assert_eq!(channels.len(), skel.len());
        let mut worst = 0f32;
        for c in channels {
            let b = skel.find(c["name"].as_str().unwrap()).unwrap();
            let keys = c["rotationkeys"].as_array().unwrap();
            assert_eq!(keys.len(), frames);
            for (f, k) in keys.iter().enumerate() {
                assert_eq!(k[0].as_f64().unwrap(), f as f64);
                let v: Vec<f32> = serde_json::from_value(k[1].clone()).unwrap(); // w, x, y, z
                let q = Quat::from_xyzw(v[1], v[2], v[3], v[0]);
                let want = doc.sample(anim, f as f64).unwrap().locals[b].rotation;
                worst = worst.max(1.0 - q.dot(want).abs());
            }
            if b == 0 {
                for (f, k) in c["positionkeys"].as_array().unwrap().iter().enumerate() {
                    let v: Vec<f32> = serde_json::from_value(k[1].clone()).unwrap();
                    let want = doc.sample(anim, f as f64).unwrap().locals[0].translation;
                    assert!((Vec3::from_slice(&v) - want).length() < 1e-4, "frame {f}: {v:?} vs {want}");
                }
            }
        }
        println!("assimp: anim {anim}: worst 1 - |q·q'| = {worst:e}");
        assert!(worst < 1e-6);
    }
}
