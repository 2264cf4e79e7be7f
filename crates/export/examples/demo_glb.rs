//! Write the demo character as `demo.glb`, `demo_walk.bvh`, `demo_rest.obj` and the expected
//! world matrices of each clip (`expected_<clip>.json`, as `boneyard pose --all-frames --json`
//! prints them) into a folder, for the CI's node scripts:
//!
//! ```text
//! cargo run -p boneyard-export --example demo_glb -- /tmp/out
//! node .ci/gltf/validate.mjs /tmp/out/demo.glb
//! node .ci/gltf/three_check.mjs /tmp/out/demo.glb /tmp/out/expected_*.json
//! ```

#[path = "../tests/common/mod.rs"]
mod common;

use boneyard_export::ExportOptions;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "demo-export".into()));
    let fps: f32 = std::env::args().nth(2).map(|s| s.parse()).transpose()?.unwrap_or(30.0);
    std::fs::create_dir_all(&dir)?;
    let doc = common::demo_doc(fps);
    let anims: Vec<usize> = (0..doc.clips.len()).collect();
    std::fs::write(dir.join("demo.glb"), boneyard_export::glb(&doc, 0, &anims, &ExportOptions::default())?)?;
    std::fs::write(dir.join("demo_walk.bvh"), boneyard_export::bvh(&doc, 0, 0, &ExportOptions::default())?)?;
    std::fs::write(dir.join("demo_rest.obj"), boneyard_export::obj(&doc, 0, None, 0.0)?)?;
    for (i, c) in doc.clips.iter().enumerate() {
        let v = common::pose_json(&doc, 0, i);
        std::fs::write(dir.join(format!("expected_{}.json", c.info.name)), serde_json::to_vec(&v)?)?;
    }
    println!("wrote {}", dir.display());
    Ok(())
}
