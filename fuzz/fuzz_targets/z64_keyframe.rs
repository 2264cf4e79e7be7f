#![no_main]
//! MM keyframe and SkelCurve parsers given explicitly: the first 4 bytes pick a skeleton
//! header and an animation header offset in the rest (bound to segment 6); read, sample at a
//! few times (fractional ones included) and pose.
use boneyard_z64::{Ctx, SegFile};

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let skel = 0x0600_0000 | u16::from_be_bytes([data[0], data[1]]) as u32;
    let anim = 0x0600_0000 | u16::from_be_bytes([data[2], data[3]]) as u32;
    let files = [SegFile { name: "f".into(), stem: "f".into(), shown: "f".into(), segment: 6, data: data[4..].to_vec(), lenient: false }];
    let mut map = [None; 16];
    map[6] = Some(0);
    let ctx = Ctx::new(&files, map, 0);
    let times = [-2.0f32, 0.0, 1.0, 2.5, 7.25, 1e9];
    if let Ok(s) = boneyard_z64::read_keyframe_skeleton(&ctx, skel, 0, "s".into(), None) {
        let flex = matches!(s.ty, boneyard_z64::SkelType::KeyFrame { flex: true, .. });
        if let Ok(h) = boneyard_z64::read_keyframe_header(&ctx, anim) {
            let shape = boneyard_z64::KfShape { limbs: s.limbs.len(), flex };
            if let Ok(a) = boneyard_z64::KfAnim::load(&ctx, anim, &h, shape) {
                for t in times {
                    let jt = a.joint_table(t);
                    let _ = boneyard_z64::world_matrices(&s, Some(&jt));
                }
            }
        }
    }
    if let Ok(s) = boneyard_z64::read_curve_skeleton(&ctx, skel, 0, "c".into()) {
        if let Ok(h) = boneyard_z64::read_curve_header(&ctx, anim) {
            if let Ok(a) = boneyard_z64::CurveAnim::load(&ctx, anim, &h, s.limbs.len()) {
                for t in times {
                    let jt = a.joint_table(t);
                    let _ = boneyard_z64::world_matrices(&s, Some(&jt));
                }
            }
        }
    }
});
