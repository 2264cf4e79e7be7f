//! Shared by the tests and the `demo_glb` example: the demo character as a document, and the
//! world matrices `boneyard pose --all-frames --json` prints for it.
#![allow(dead_code)]

use boneyard_core::demo::{self, DemoClip};
use boneyard_core::memory::{BakedClip, BakedDocument};
use boneyard_core::{AnimInfo, Document, Interpolation, SkeletonInfo};
use serde_json::{json, Value};

/// The demo character with both clips baked at `fps`, root motion included. The walk is
/// LINEAR, the wave STEP (to exercise both).
pub fn demo_doc(fps: f32) -> BakedDocument {
    let skel = demo::skeleton();
    let meshes = demo::meshes(&skel);
    let clips = DemoClip::ALL
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let n = c.frames(fps);
            let t = |f: u32| f as f32 / fps;
            BakedClip {
                info: AnimInfo {
                    index: i,
                    name: c.name().into(),
                    frames: n,
                    fps: fps as f64,
                    bones: skel.len(),
                    format: "demo".into(),
                    source: "built-in".into(),
                    skeleton: Some(0),
                    interpolation: if c == DemoClip::Walk { Interpolation::Linear } else { Interpolation::Step },
                    extra: Default::default(),
                },
                frames: (0..n).map(|f| demo::pose(c, t(f))).collect(),
                root_motion: Some((0..n).map(|f| demo::root_motion(c, t(f))).collect()),
            }
        })
        .collect();
    let info = SkeletonInfo {
        id: "demo".into(),
        name: skel.name.clone(),
        source: "built-in".into(),
        skeleton: skel,
        meshes,
        extra: Default::default(),
    };
    BakedDocument::new("demo", vec![], vec![info], clips)
}

/// What `boneyard pose FILE --anim #anim --all-frames --json` prints (the CLI contract).
pub fn pose_json(doc: &dyn Document, skeleton: usize, anim: usize) -> Value {
    let a = &doc.animations()[anim];
    let skel = &doc.skeletons()[skeleton].skeleton;
    let frames: Vec<Value> = (0..a.frames)
        .map(|f| {
            let world = doc.pose(skeleton, Some(anim), f as f64).unwrap();
            let bones: Vec<Value> = skel
                .bones
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    json!({"index": i, "name": b.name, "parent": b.parent, "matrix": world[i].to_cols_array().to_vec()})
                })
                .collect();
            json!({"frame": f, "bones": bones})
        })
        .collect();
    json!({"animation": {"index": anim, "name": a.name, "frames": a.frames, "fps": a.fps}, "frames": frames})
}
