//! The built-in demo character encoded as a real Oni level: `boneyard_demo.dat` and
//! `boneyard_demo.raw` holding a TRBS/TRCM body (one M3GM box per part) and the two clips as
//! TRAMs baked at the engine's 60 fps (the walk with 6-byte keys, the wave with 16-byte keys).

use crate::body::{links_from_parents, Body};
use crate::encode::{self, append, body_instances, new_tram, rotation_block, tram_instance};
use crate::layout::tram::ENGINE_FPS;
use crate::math::from_glam;
use boneyard_core::demo::{self, DemoClip};
use boneyard_core::Result;

/// Key size used for each demo clip.
pub fn demo_key_size(clip: DemoClip) -> u16 {
    match clip {
        DemoClip::Walk => 6,
        DemoClip::Wave => 16,
    }
}

/// The demo's body: the demo skeleton with the pelvis at the origin (the height track lifts
/// it, as in Oni).
pub fn demo_body() -> Body {
    let skel = demo::skeleton();
    let parents: Vec<Option<usize>> = skel.bones.iter().map(|b| b.parent).collect();
    let translations = skel
        .bones
        .iter()
        .enumerate()
        .map(|(i, b)| if i == 0 { [0.0; 3] } else { b.rest.translation.to_array() })
        .collect();
    Body {
        name: "demo_humanoid".into(),
        source: "boneyard demo".into(),
        index_blocks: links_from_parents(&parents),
        translations,
        parents,
        meshes: demo::meshes(&skel),
        strips: vec![Vec::new(); demo::BONES.len()],
        polygon_count: 0,
        debug_name: "demo_humanoid".into(),
        generic: false,
    }
}

/// (file name, bytes) of the demo level.
pub fn demo_files() -> Result<Vec<(String, Vec<u8>)>> {
    let body = demo_body();
    let mut inst = body_instances("demo_humanoid", &body, &body.meshes)?;
    let fps = ENGINE_FPS as f32;
    for clip in DemoClip::ALL {
        let frames = clip.frames(fps) as usize;
        let poses: Vec<_> = (0..=frames).map(|f| demo::pose(clip, f as f32 / fps)).collect();
        let parts = demo::BONES.len();
        let mut tr = new_tram(clip.name(), demo_key_size(clip), parts, frames);
        for f in 0..frames {
            let (a, b) = (poses[f][0].translation, poses[f + 1][0].translation);
            tr.heights[f] = a.y;
            tr.velocities[f] = [b.x - a.x, b.z - a.z];
        }
        let keys: Vec<Vec<(usize, crate::math::EQuat)>> =
            (0..parts).map(|p| (0..frames).map(|f| (f, from_glam(poses[f][p].rotation))).collect()).collect();
        let (rot, streams) = rotation_block(tr.key_size, frames, &keys)?;
        tr.rotations = rot;
        tr.streams = streams;
        append(&mut inst, vec![tram_instance(&tr)?]);
    }
    let (dat, raw) = encode::write_level(&inst, 1)?;
    Ok(vec![("boneyard_demo.dat".into(), dat), ("boneyard_demo.raw".into(), raw)])
}
