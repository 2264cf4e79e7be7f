//! A limb's position, rotation and local matrix for a joint table, as the game's draw applies
//! them (`SkelAnime_DrawOpa`'s `Matrix_TranslateRotateZYX`, the keyframe and curve systems'
//! scaled limbs): the engine numeric below the document, the display lists and the Skin system,
//! which all pose limbs with it.

use crate::joint_table::JointTable;
use crate::mtx::MtxF;
use crate::skeleton::{SkelDef, SkelType};
use boneyard_core::model::Transform;

/// A limb's local matrix: `Matrix_TranslateRotateZYX` applied to the identity.
pub fn local_matrix(pos: [f32; 3], rot: [i16; 3]) -> MtxF {
    let mut m = MtxF::IDENTITY;
    m.translate_rotate_zyx(pos, rot);
    m
}

/// Position and rotation of limb `l` for joint table `jt` (None: the rest pose, i.e. the
/// limb's own jointPos and its default rotation). The root (limb 0) takes `jointTable[0]` as
/// its position (`SkelAnime_DrawOpa`); limb i takes `jointTable[i + 1]` as its rotation.
pub fn limb_pos_rot(s: &SkelDef, l: usize, jt: Option<&JointTable>) -> ([f32; 3], [i16; 3]) {
    let limb = &s.limbs[l];
    match jt {
        None => (limb.pos, limb.rot),
        Some(jt) => {
            let pos = match (l, jt.joints.first()) {
                (0, Some(p)) => [p[0] as f32, p[1] as f32, p[2] as f32],
                _ => limb.pos,
            };
            (pos, jt.joints.get(l + 1).copied().unwrap_or(limb.rot))
        }
    }
}

/// The local transform of limb `l` of a skeleton whose limbs are scaled (curve, flex keyframe),
/// from the joint table's numbers (a zero scale keeps a valid rotation); None for the others,
/// whose matrices are rotations and translations only.
pub fn scaled_transform(s: &SkelDef, l: usize, jt: Option<&JointTable>) -> Option<Transform> {
    match s.ty {
        SkelType::Curve => Some(crate::curve::limb_transform(l, jt)),
        SkelType::KeyFrame { flex: true, .. } => Some(crate::keyframe::flex_limb_transform(l, jt)),
        _ => None,
    }
}

/// Apply limb `l`'s transform for joint table `jt` to `m`, as the game's draw does:
/// `Matrix_TranslateRotateZYX`, and for flex keyframe limbs the `Matrix_Scale` after it.
pub fn apply_limb(m: &mut MtxF, s: &SkelDef, l: usize, jt: Option<&JointTable>) {
    match s.ty {
        SkelType::KeyFrame { flex: true, .. } => return crate::keyframe::apply_flex_limb(m, l, jt),
        SkelType::Curve => return crate::curve::apply_limb(m, l, jt),
        _ => {}
    }
    let (pos, rot) = limb_pos_rot(s, l, jt);
    m.translate_rotate_zyx(pos, rot);
}
