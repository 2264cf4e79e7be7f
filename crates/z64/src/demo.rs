//! The built-in demo character written as a Zelda 64 object file (`.zobj`, segment 6) by our
//! own encoder: a Normal skeleton of Standard limbs, one display list per limb (its box as
//! G_VTX + G_TRI2 + G_ENDDL), and each demo clip as a normal `AnimationHeader` baked at the
//! engine's 20 fps with s16 binary angles (rotations as the game's Z-Y-X angles).
//!
//! Lengths are in model units: the demo's units times [`SCALE`] (the game draws objects at
//! 0.01 scale, so characters are modelled in the hundreds), rounded to s16.
//!
//! Layout, as Nintendo's tools write it: display lists and vertices first, then the limbs,
//! the limb pointer table and the skeleton header; then per clip `frameData | jointIndices |
//! header`.

use crate::layout::*;
use boneyard_core::demo::{self, DemoClip};
use boneyard_core::{Endian, Result, Writer};
use glam::EulerRot;

/// Demo units to model units.
pub const SCALE: f32 = 100.0;
/// File name of the encoded demo object.
pub const DEMO_FILE: &str = "object_boneyard_demo.zobj";
/// [`DEMO_FILE`] without its extension: its stem, which limb names are looked up by (a
/// constant: trimming the name at every limb cost more than the lookup).
pub const DEMO_STEM: &str = "object_boneyard_demo";

fn seg(off: usize) -> u32 {
    (SEG_OBJECT as u32) << 24 | off as u32
}

fn q16(v: f32) -> i16 {
    (v * SCALE).round().clamp(-32768.0, 32767.0) as i16
}

/// Radians to a binary angle (0x10000 a turn), wrapping like the game's s16.
fn angle(rad: f32) -> i16 {
    (rad * 32768.0 / std::f32::consts::PI).round() as i32 as i16
}

/// Encode the demo character; returns (file name, bytes).
pub fn demo_files() -> Result<Vec<(String, Vec<u8>)>> {
    let skel = demo::skeleton();
    let meshes = demo::meshes(&skel);
    let n = skel.len();
    let mut w = Writer::new(Endian::Big);
    // Display lists (vertices first, then the commands), one per limb.
    let mut dls = vec![0u32; n];
    for m in &meshes {
        let boneyard_core::MeshBinding::Rigid { bone } = m.binding else { continue };
        let vtx_at = w.len();
        for p in &m.positions {
            w.i16(q16(p.x)).i16(q16(p.y)).i16(q16(p.z)).u16(0).i16(0).i16(0).bytes(&[0xFF, 0xFF, 0xFF, 0xFF]);
        }
        let dl_at = w.len();
        let nv = m.positions.len() as u32;
        w.u32(0x0100_0000 | nv << 12 | nv << 1).u32(seg(vtx_at));
        for t in m.indices.chunks(6) {
            let tri = |k: usize| -> u32 {
                t.get(k * 3..k * 3 + 3).map(|v| ((v[0] * 2) << 16) | ((v[1] * 2) << 8) | (v[2] * 2)).unwrap_or(0)
            };
            if t.len() == 6 {
                w.u32(0x0600_0000 | tri(0)).u32(tri(1));
            } else {
                w.u32(0x0500_0000 | tri(0)).u32(0);
            }
        }
        w.u32(0xDF00_0000).u32(0);
        dls[bone] = seg(dl_at);
    }
    // Limbs: jointPos, child (first child), sibling (next child of the same parent).
    w.align(4);
    let limbs_at = w.len();
    for (i, b) in skel.bones.iter().enumerate() {
        let child = skel.children(i).next().map(|c| c as u8).unwrap_or(LIMB_DONE);
        let sibling = b.parent.and_then(|p| skel.children(p).find(|&c| c > i)).map(|c| c as u8).unwrap_or(LIMB_DONE);
        let t = b.rest.translation;
        w.i16(q16(t.x)).i16(q16(t.y)).i16(q16(t.z)).u8(child).u8(sibling).u32(dls[i]);
    }
    let table_at = w.len();
    for i in 0..n {
        w.u32(seg(limbs_at + i * STANDARD_LIMB_SIZE));
    }
    w.u32(seg(table_at)).u8(n as u8).zeros(3);
    // Animations at 20 fps.
    for clip in DemoClip::ALL {
        let frames = clip.frames(20.0) as usize;
        // joints[j][axis] = the value at each frame.
        let mut series =
            vec![[Vec::with_capacity(frames), Vec::with_capacity(frames), Vec::with_capacity(frames)]; n + 1];
        for f in 0..frames {
            let pose = demo::pose(clip, f as f32 / 20.0);
            let root = pose[0].translation;
            for (c, v) in [root.x, root.y, root.z].into_iter().enumerate() {
                series[0][c].push(q16(v));
            }
            for (b, t) in pose.iter().enumerate() {
                let (z, y, x) = t.rotation.to_euler(EulerRot::ZYX);
                for (c, v) in [x, y, z].into_iter().enumerate() {
                    series[b + 1][c].push(angle(v));
                }
            }
        }
        // Constant series become static values (shared), the others run per frame after them.
        let mut statics: Vec<i16> = Vec::new();
        let mut index = vec![[0u16; 3]; n + 1];
        for (j, s) in series.iter().enumerate() {
            for c in 0..3 {
                if s[c].iter().all(|&v| v == s[c][0]) {
                    let at = statics.iter().position(|&v| v == s[c][0]).unwrap_or_else(|| {
                        statics.push(s[c][0]);
                        statics.len() - 1
                    });
                    index[j][c] = at as u16;
                }
            }
        }
        let static_max = statics.len();
        let mut values = statics;
        for (j, s) in series.iter().enumerate() {
            for c in 0..3 {
                if !s[c].iter().all(|&v| v == s[c][0]) {
                    index[j][c] = values.len() as u16;
                    values.extend_from_slice(&s[c]);
                }
            }
        }
        w.align(4);
        let fd_at = w.len();
        for v in &values {
            w.i16(*v);
        }
        w.align(2);
        let ji_at = w.len();
        for ix in &index {
            w.u16(ix[0]).u16(ix[1]).u16(ix[2]);
        }
        w.align(4);
        w.i16(frames as i16).u16(0).u32(seg(fd_at)).u32(seg(ji_at)).u16(static_max as u16).u16(0);
    }
    w.align(16);
    Ok(vec![(DEMO_FILE.to_string(), w.into_bytes())])
}

#[cfg(test)]
mod stem_tests {
    #[test]
    fn demo_stem_is_the_file_without_extension() {
        assert_eq!(super::DEMO_FILE.trim_end_matches(".zobj"), super::DEMO_STEM);
    }
}
