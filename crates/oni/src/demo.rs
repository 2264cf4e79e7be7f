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
        tr.rotations = rot.into();
        tr.streams = streams;
        append(&mut inst, vec![tram_instance(&tr)?]);
    }
    let (dat, raw) = encode::write_level(&inst, 1)?;
    Ok(vec![("boneyard_demo.dat".into(), dat), ("boneyard_demo.raw".into(), raw)])
}

/// The shape of a synthetic level for benchmarks: as many TRAMs and frames as the retail game
/// holds over all its levels (8,604 TRAMs, 393,903 frames of 19 parts), in one level.
#[derive(Debug, Clone, Copy)]
pub struct CorpusShape {
    /// Number of TRAM instances.
    pub trams: usize,
    /// Frames over all of them (each gets about `frames / trams`, 2 at least).
    pub frames: usize,
    /// Parts (bones) per TRAM.
    pub parts: usize,
}

impl CorpusShape {
    /// The retail game's totals (over every level of the CD).
    pub const CD: CorpusShape = CorpusShape { trams: 8604, frames: 393_903, parts: 19 };
}

/// A level (`.dat`, `.raw`) with the demo body and `shape.trams` TRAMs written by the
/// project's own encoder: keys 1 to 4 frames apart chosen by a fixed pseudo-random sequence
/// (as the retail files drop keys), every third TRAM with 16-byte keys and the others 6-byte,
/// smooth rotations and root motion. Deterministic, so benchmarks are repeatable; the bytes
/// are generated, never the game's.
pub fn corpus_level(shape: CorpusShape) -> Result<(Vec<u8>, Vec<u8>)> {
    let body = demo_body();
    let mut inst = body_instances("demo_humanoid", &body, &body.meshes)?;
    let mut state = 0x2545_f491_u32;
    let mut next = move || {
        // xorshift32: a fixed sequence, no dependency.
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    let n = shape.trams.max(1);
    let mut left = shape.frames;
    for i in 0..n {
        // About the mean of what is left, so the total comes out exact.
        let even = left / (n - i);
        let frames = if i + 1 == n { left } else { (even / 2 + next() as usize % (even + 1)).min(left) }.max(2);
        left = left.saturating_sub(frames);
        let key_size = if i % 3 == 2 { 16 } else { 6 };
        let mut tr = new_tram(&format!("CORPUS_{i:05}"), key_size, shape.parts, frames);
        for f in 0..frames {
            let t = f as f32 / frames as f32;
            tr.heights[f] = 9.0 + (t * std::f32::consts::TAU).sin() * 0.3;
            tr.velocities[f] = [0.05 * (t * 3.1).cos(), 0.4];
        }
        let keys: Vec<Vec<(usize, crate::math::EQuat)>> = (0..shape.parts)
            .map(|p| {
                let mut at = Vec::new();
                let mut f = 0;
                while f < frames - 1 {
                    at.push(f);
                    f = (f + 1 + next() as usize % 4).min(frames - 1);
                }
                at.push(frames - 1);
                at.into_iter()
                    .map(|f| {
                        let a = 0.6 * ((f as f32 * 0.21) + p as f32).sin();
                        let axis = glam::Vec3::new(1.0, 0.3 * p as f32, 0.2).normalize();
                        (f, from_glam(glam::Quat::from_axis_angle(axis, a)))
                    })
                    .collect()
            })
            .collect();
        let (rot, streams) = rotation_block(tr.key_size, frames, &keys)?;
        tr.rotations = rot.into();
        tr.streams = streams;
        append(&mut inst, vec![tram_instance(&tr)?]);
    }
    encode::write_level(&inst, 1)
}
