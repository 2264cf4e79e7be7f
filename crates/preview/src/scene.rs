//! Posing a skeleton's meshes with the world matrices a document hands out.

use boneyard_core::{Document, Error, Mesh, MeshBinding, Result, SkeletonInfo};
use glam::{Mat4, Vec3};

/// A skeleton with its meshes, checked once and ready to be posed at any frame.
pub(crate) struct Scene<'a> {
    pub info: &'a SkeletonInfo,
    /// Inverse rest world matrices (the inverse bind matrices), when a mesh is skinned.
    inverse_rest: Vec<Mat4>,
}

impl<'a> Scene<'a> {
    pub fn new(doc: &'a dyn Document, skeleton: usize) -> Result<Self> {
        let count = doc.skeletons().len();
        let info = doc
            .skeletons()
            .get(skeleton)
            .ok_or_else(|| Error::not_found(format!("no skeleton #{skeleton} (there are {count})")))?;
        let bones = info.skeleton.len();
        for m in &info.meshes {
            m.validate(bones)?;
        }
        let skinned = info.meshes.iter().any(|m| matches!(m.binding, MeshBinding::Skinned { .. }));
        let inverse_rest =
            if skinned { info.skeleton.rest_world().iter().map(|m| m.inverse()).collect() } else { Vec::new() };
        Ok(Scene { info, inverse_rest })
    }

    /// World matrices at `frame` of `anim` (rest pose for None), one per bone.
    pub fn world(&self, doc: &dyn Document, skeleton: usize, anim: Option<usize>, frame: f64) -> Result<Vec<Mat4>> {
        let world = doc.pose(skeleton, anim, frame)?;
        if world.len() != self.info.skeleton.len() {
            return Err(Error::invalid(
                0,
                format!(
                    "pose of skeleton {} returned {} matrices for {} bones",
                    self.info.name,
                    world.len(),
                    self.info.skeleton.len()
                ),
            ));
        }
        Ok(world)
    }

    /// World positions of `mesh`'s vertices: rigid meshes follow their bone
    /// (`world[bone] * p`), skinned ones blend `Σ w · world[j] · inverse(rest_world[j]) · p`.
    pub fn pose_mesh(&self, mesh: &Mesh, world: &[Mat4], out: &mut Vec<Vec3>) {
        out.clear();
        match &mesh.binding {
            MeshBinding::Rigid { bone } => {
                let m = world.get(*bone).copied().unwrap_or(Mat4::IDENTITY);
                out.extend(mesh.positions.iter().map(|&p| m.transform_point3(p)));
            }
            MeshBinding::Skinned { joints, weights } => {
                // One skinning matrix per bone for this pose.
                let skin: Vec<Mat4> = world.iter().zip(&self.inverse_rest).map(|(w, inv)| *w * *inv).collect();
                for ((&p, js), ws) in mesh.positions.iter().zip(joints).zip(weights) {
                    let mut sum = Vec3::ZERO;
                    let mut total = 0.0;
                    for (&j, &w) in js.iter().zip(ws) {
                        if w != 0.0 && w.is_finite() {
                            sum += skin.get(j as usize).unwrap_or(&Mat4::IDENTITY).transform_point3(p) * w;
                            total += w;
                        }
                    }
                    // Weights should sum to 1; normalise so stray data cannot shrink the mesh.
                    out.push(if total.abs() > 1e-6 { sum / total } else { p });
                }
            }
        }
    }

    /// Each bone's world origin.
    pub fn joints(world: &[Mat4]) -> Vec<Vec3> {
        world.iter().map(|m| m.w_axis.truncate()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boneyard_core::document::{AnimInfo, Interpolation};
    use boneyard_core::memory::{BakedClip, BakedDocument};
    use boneyard_core::{Bone, Skeleton, Transform};
    use glam::Quat;

    /// Two bones one unit apart along X; frame 0 moves bone 1 up by 2 and turns bone 0 by 90°
    /// about Z.
    fn doc(binding: MeshBinding, positions: Vec<Vec3>) -> BakedDocument {
        let rest = [Transform::IDENTITY, Transform::new(Vec3::X, Quat::IDENTITY)];
        let skel = Skeleton::new(
            "two",
            vec![
                Bone { name: "a".into(), parent: None, rest: rest[0] },
                Bone { name: "b".into(), parent: Some(0), rest: rest[1] },
            ],
        )
        .unwrap();
        let mut mesh = Mesh::rigid("m", 0, positions, vec![]);
        mesh.binding = binding;
        let posed = vec![
            Transform::new(Vec3::ZERO, Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
            Transform::new(Vec3::new(1.0, 2.0, 0.0), Quat::IDENTITY),
        ];
        let info = AnimInfo {
            index: 0,
            name: "c".into(),
            frames: 1,
            fps: 30.0,
            bones: 2,
            format: "test".into(),
            source: String::new(),
            skeleton: Some(0),
            interpolation: Interpolation::Linear,
            extra: Default::default(),
        };
        let s = SkeletonInfo {
            id: "s".into(),
            name: "two".into(),
            source: String::new(),
            skeleton: skel,
            meshes: vec![mesh],
            extra: Default::default(),
        };
        BakedDocument::new("test", vec![], vec![s], vec![BakedClip { info, frames: vec![posed], root_motion: None }])
    }

    fn posed(d: &BakedDocument) -> Vec<Vec3> {
        let scene = Scene::new(d, 0).unwrap();
        let world = scene.world(d, 0, Some(0), 0.0).unwrap();
        let mut out = Vec::new();
        scene.pose_mesh(&d.skeletons[0].meshes[0], &world, &mut out);
        out
    }

    fn close(a: Vec3, b: Vec3) -> bool {
        (a - b).length() < 1e-5
    }

    #[test]
    fn rigid_vertices_follow_their_bone() {
        // Bone b's local (1, 0, 0): rotated 90° by a, b sits at R(1,2,0) = (-2, 1, 0); plus R(1,0,0) = (0, 1, 0).
        let d = doc(MeshBinding::Rigid { bone: 1 }, vec![Vec3::X]);
        assert!(close(posed(&d)[0], Vec3::new(-2.0, 2.0, 0.0)), "{:?}", posed(&d));
    }

    #[test]
    fn skinned_vertices_blend_by_weight() {
        // A vertex at the rest position of bone b, (1, 0, 0) in model space:
        // all on a -> rotated about the origin to (0, 1, 0);
        // all on b -> at b's posed origin (-2, 1, 0);
        // half and half -> the mean (-1, 1, 0).
        let cases = [
            ([1.0, 0.0], Vec3::new(0.0, 1.0, 0.0)),
            ([0.0, 1.0], Vec3::new(-2.0, 1.0, 0.0)),
            ([0.5, 0.5], Vec3::new(-1.0, 1.0, 0.0)),
        ];
        for (w, expect) in cases {
            let d = doc(
                MeshBinding::Skinned { joints: vec![[0, 1, 0, 0]], weights: vec![[w[0], w[1], 0.0, 0.0]] },
                vec![Vec3::X],
            );
            assert!(close(posed(&d)[0], expect), "{w:?}: {:?}", posed(&d));
        }
        // Weights that do not sum to 1 are normalised: (2, 2) acts as (0.5, 0.5).
        let d = doc(
            MeshBinding::Skinned { joints: vec![[0, 1, 0, 0]], weights: vec![[2.0, 2.0, 0.0, 0.0]] },
            vec![Vec3::X],
        );
        assert!(close(posed(&d)[0], Vec3::new(-1.0, 1.0, 0.0)));
    }
}
