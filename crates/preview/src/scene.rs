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
