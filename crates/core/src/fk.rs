//! Forward kinematics over the common model. Families whose engines compute matrices their
//! own way (Zelda's sine table, Oni's transposed quaternion matrices, Shenmue's IK) provide
//! their own `Document::pose`; this is the generic path and the glTF reference.

use crate::model::{Skeleton, Transform};
use glam::Mat4;

/// World matrices for local transforms `locals` (one per bone, parents first).
/// Bones beyond `locals.len()` take their rest transform.
pub fn world_matrices(skel: &Skeleton, locals: &[Transform]) -> Vec<Mat4> {
    let mut world: Vec<Mat4> = Vec::with_capacity(skel.bones.len());
    for (i, b) in skel.bones.iter().enumerate() {
        let local = locals.get(i).unwrap_or(&b.rest).matrix();
        // Skeleton::new guarantees parent < i; a skeleton built by hand with a bad parent
        // is treated as rooted there rather than indexing out of range.
        let m = match b.parent.and_then(|p| world.get(p)) {
            Some(parent) => *parent * local,
            None => local,
        };
        world.push(m);
    }
    world
}

/// Local transforms from world matrices (inverse FK), for engines that produce world matrices.
pub fn locals_from_world(skel: &Skeleton, world: &[Mat4]) -> Vec<Transform> {
    skel.bones
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let own = world.get(i).copied().unwrap_or(glam::Mat4::IDENTITY);
            let m = match b.parent.and_then(|p| world.get(p)) {
                Some(parent) => parent.inverse() * own,
                None => own,
            };
            Transform::from_matrix(&m)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Bone, Transform};
    use glam::{Quat, Vec3};

    fn chain() -> Skeleton {
        let b = |name: &str, parent, t: Vec3, r: Quat| Bone { name: name.into(), parent, rest: Transform::new(t, r) };
        Skeleton::new(
            "chain",
            vec![
                b("root", None, Vec3::new(0.0, 1.0, 0.0), Quat::IDENTITY),
                b("a", Some(0), Vec3::new(1.0, 0.0, 0.0), Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
                b("b", Some(1), Vec3::new(1.0, 0.0, 0.0), Quat::IDENTITY),
            ],
        )
        .unwrap()
    }

    #[test]
    fn fk_by_hand() {
        // root at (0,1,0); a at (1,1,0) rotated 90° about Z; b one unit along a's X = world +Y.
        let w = world_matrices(&chain(), &chain().rest_locals());
        let p = w[2].transform_point3(Vec3::ZERO);
        assert!((p - Vec3::new(1.0, 2.0, 0.0)).length() < 1e-6, "{p}");
    }

    #[test]
    fn inverse_fk_recovers_locals() {
        let s = chain();
        let w = world_matrices(&s, &s.rest_locals());
        let l = locals_from_world(&s, &w);
        for (a, b) in l.iter().zip(s.rest_locals()) {
            assert!((a.translation - b.translation).length() < 1e-5);
            assert!(a.rotation.dot(b.rotation).abs() > 1.0 - 1e-6);
        }
    }

    #[test]
    fn parents_must_precede_children() {
        let bad = vec![Bone { name: "x".into(), parent: Some(0), rest: Transform::IDENTITY }];
        assert!(Skeleton::new("bad", bad).is_err());
    }
}
