//! A stick figure of boxes for skeletons without meshes (so that OBJ and glTF files show
//! something in any viewer): a thin box along every bone from its parent's joint to its own,
//! and a small cube on every joint.

use boneyard_core::demo::cuboid;
use glam::{Mat4, Vec3};

/// Triangles in world space, counter-clockwise seen from outside: (positions, indices, the
/// bone each vertex follows: a joint's cube follows its bone, a segment follows the parent,
/// in whose frame it is fixed).
pub(crate) fn boxes(parents: &[Option<usize>], world: &[Mat4]) -> (Vec<Vec3>, Vec<u32>, Vec<usize>) {
    let joints: Vec<Vec3> = world.iter().map(|m| m.w_axis.truncate()).collect();
    // Size the boxes after the figure: a small fraction of its extent.
    let (lo, hi) = joints
        .iter()
        .fold((Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)), |(a, b), p| (a.min(*p), b.max(*p)));
    let extent = (hi - lo).length();
    let r = if extent.is_finite() && extent > 0.0 { extent * 0.01 } else { 0.05 };
    let mut pos = Vec::new();
    let mut idx = Vec::new();
    let mut bones = Vec::new();
    let mut push = |frame: Mat4, lo: Vec3, hi: Vec3, bone: usize| {
        let (p, i) = cuboid(lo, hi);
        let base = pos.len() as u32;
        bones.extend([bone; 8]);
        pos.extend(p.into_iter().map(|v| frame.transform_point3(v)));
        idx.extend(i.into_iter().map(|k| base + k));
    };
    for (i, &j) in joints.iter().enumerate() {
        push(Mat4::from_translation(j), Vec3::splat(-1.5 * r), Vec3::splat(1.5 * r), i);
        let Some(p) = parents.get(i).copied().flatten() else { continue };
        let Some(&a) = joints.get(p) else { continue };
        let d = j - a;
        let len = d.length();
        if !(len.is_finite() && len > 0.0) {
            continue;
        }
        // A right-handed frame whose Y runs along the bone keeps the box's winding.
        let y = d / len;
        let x = y.any_orthonormal_vector();
        let z = x.cross(y);
        let frame = Mat4::from_cols(x.extend(0.0), y.extend(0.0), z.extend(0.0), a.extend(1.0));
        push(frame, Vec3::new(-r, 0.0, -r), Vec3::new(r, len, r), p);
    }
    (pos, idx, bones)
}
