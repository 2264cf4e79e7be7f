#![no_main]
//! MM keyframe and SkelCurve parsers given explicitly: the first 4 bytes pick a skeleton
//! header and an animation header offset in the rest (bound to segment 6); read, sample at a
//! few times (fractional ones included) and pose.
use boneyard_z64::segment::{Ctx, SegFile};
use boneyard_z64::{curve, document, keyframe};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let skel = 0x0600_0000 | u16::from_be_bytes([data[0], data[1]]) as u32;
    let anim = 0x0600_0000 | u16::from_be_bytes([data[2], data[3]]) as u32;
    let files = [SegFile { name: "f".into(), stem: "f".into(), segment: 6, data: data[4..].to_vec(), lenient: false }];
    let mut map = [None; 16];
    map[6] = Some(0);
    let ctx = Ctx::new(&files, map, 0);
    let times = [-2.0f32, 0.0, 1.0, 2.5, 7.25, 1e9];
    if let Ok(s) = keyframe::read_skeleton(&ctx, skel, 0, "s".into(), None) {
        let flex = matches!(s.ty, boneyard_z64::skeleton::SkelType::KeyFrame { flex: true, .. });
        if let Ok(h) = keyframe::read_header(&ctx, anim) {
            let shape = keyframe::KfShape { limbs: s.limbs.len(), flex };
            if let Ok(a) = keyframe::KfAnim::load(&ctx, anim, &h, shape) {
                for t in times {
                    let jt = a.joint_table(t);
                    let _ = document::world_matrices(&s, Some(&jt));
                }
            }
        }
    }
    if let Ok(s) = curve::read_skeleton(&ctx, skel, 0, "c".into()) {
        if let Ok(h) = curve::read_header(&ctx, anim) {
            if let Ok(a) = curve::CurveAnim::load(&ctx, anim, &h, s.limbs.len()) {
                for t in times {
                    let jt = a.joint_table(t);
                    let _ = document::world_matrices(&s, Some(&jt));
                }
            }
        }
    }
});
