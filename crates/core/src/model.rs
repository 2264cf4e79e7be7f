//! The common model: skeletons with rest transforms, and meshes bound to them.
//!
//! Conventions (the ones glTF uses, so export is a straight copy):
//! * a bone's local transform is `T * R * S` relative to its parent;
//! * bones are stored parents-first (`parent < index`), which [`Skeleton::new`] enforces;
//! * matrices are column-major `glam::Mat4`, column vectors.

use crate::error::{Error, Result};
use glam::{Mat4, Quat, Vec2, Vec3};

/// Translation, rotation, scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transform {
    pub translation: Vec3,
    pub rotation: Quat,
    pub scale: Vec3,
}

impl Default for Transform {
    fn default() -> Self {
        Transform::IDENTITY
    }
}

impl Transform {
    pub const IDENTITY: Transform = Transform { translation: Vec3::ZERO, rotation: Quat::IDENTITY, scale: Vec3::ONE };

    pub fn new(translation: Vec3, rotation: Quat) -> Self {
        Transform { translation, rotation, scale: Vec3::ONE }
    }
    pub fn matrix(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }
    /// Decompose an affine matrix (for families whose engine produces matrices, e.g. IK results).
    pub fn from_matrix(m: &Mat4) -> Self {
        let (scale, rotation, translation) = m.to_scale_rotation_translation();
        Transform { translation, rotation: rotation.normalize(), scale }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Bone {
    pub name: String,
    pub parent: Option<usize>,
    /// The bind/rest local transform.
    pub rest: Transform,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Skeleton {
    pub name: String,
    pub bones: Vec<Bone>,
}

impl Skeleton {
    /// Build a skeleton, checking that every parent precedes its child.
    pub fn new(name: impl Into<String>, bones: Vec<Bone>) -> Result<Self> {
        for (i, b) in bones.iter().enumerate() {
            if let Some(p) = b.parent {
                if p >= i {
                    return Err(Error::invalid(
                        0,
                        format!("bone {i} ({}) has parent {p}, which does not precede it", b.name),
                    ));
                }
            }
        }
        Ok(Skeleton { name: name.into(), bones })
    }
    pub fn len(&self) -> usize {
        self.bones.len()
    }
    pub fn is_empty(&self) -> bool {
        self.bones.is_empty()
    }
    pub fn children(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.bones.iter().enumerate().filter(move |(_, b)| b.parent == Some(i)).map(|(j, _)| j)
    }
    pub fn roots(&self) -> impl Iterator<Item = usize> + '_ {
        self.bones.iter().enumerate().filter(|(_, b)| b.parent.is_none()).map(|(j, _)| j)
    }
    pub fn rest_locals(&self) -> Vec<Transform> {
        self.bones.iter().map(|b| b.rest).collect()
    }
    /// World matrices of the rest pose.
    pub fn rest_world(&self) -> Vec<Mat4> {
        crate::fk::world_matrices(self, &self.rest_locals())
    }
    pub fn find(&self, name: &str) -> Option<usize> {
        self.bones.iter().position(|b| b.name == name)
    }
}

/// How a mesh follows the skeleton.
#[derive(Debug, Clone, PartialEq)]
pub enum MeshBinding {
    /// Every vertex follows one bone; positions/normals are in that bone's local space.
    Rigid { bone: usize },
    /// Up to four bones per vertex; positions/normals are in model space at the rest pose
    /// (the inverse bind matrices are the inverses of the rest world matrices).
    Skinned { joints: Vec<[u16; 4]>, weights: Vec<[f32; 4]> },
}

/// An RGBA8 texture.
#[derive(Debug, Clone, PartialEq)]
pub struct Texture {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
    /// How the format samples it (previews and the glTF sampler follow it).
    pub filter: TextureFilter,
}

/// Texture sampling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TextureFilter {
    /// Nearest texel.
    Point,
    /// Bilinear; on the N64 the RDP's 3-point filter (the triangle of the three nearest
    /// texels), which previews reproduce and glTF's LINEAR approximates.
    #[default]
    ThreePoint,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Mesh {
    pub name: String,
    pub positions: Vec<Vec3>,
    pub normals: Option<Vec<Vec3>>,
    pub uvs: Option<Vec<Vec2>>,
    /// Per-vertex RGBA colours (0..1), when the format has them.
    pub colors: Option<Vec<[f32; 4]>>,
    /// Triangle list.
    pub indices: Vec<u32>,
    pub binding: MeshBinding,
    /// A flat colour for previews and the glTF material.
    pub base_color: [f32; 4],
    pub texture: Option<Texture>,
}

impl Mesh {
    /// A rigid mesh with no normals/uvs.
    pub fn rigid(name: impl Into<String>, bone: usize, positions: Vec<Vec3>, indices: Vec<u32>) -> Self {
        Mesh {
            name: name.into(),
            positions,
            normals: None,
            uvs: None,
            colors: None,
            indices,
            binding: MeshBinding::Rigid { bone },
            base_color: [0.8, 0.8, 0.8, 1.0],
            texture: None,
        }
    }

    /// Check internal consistency (indices in range, attribute lengths, bones in range).
    pub fn validate(&self, bones: usize) -> Result<()> {
        let n = self.positions.len();
        let bad = |m: String| Err(Error::invalid(0, format!("mesh {}: {m}", self.name)));
        if !self.indices.len().is_multiple_of(3) {
            return bad("index count is not a multiple of 3".into());
        }
        if let Some(&i) = self.indices.iter().find(|&&i| i as usize >= n) {
            return bad(format!("index {i} out of {n} vertices"));
        }
        for (what, len) in [
            ("normals", self.normals.as_ref().map(|v| v.len())),
            ("uvs", self.uvs.as_ref().map(|v| v.len())),
            ("colors", self.colors.as_ref().map(|v| v.len())),
        ] {
            if let Some(l) = len {
                if l != n {
                    return bad(format!("{what} has {l} entries for {n} vertices"));
                }
            }
        }
        match &self.binding {
            MeshBinding::Rigid { bone } if *bone >= bones => bad(format!("bound to bone {bone} of {bones}")),
            MeshBinding::Skinned { joints, weights } => {
                if joints.len() != n || weights.len() != n {
                    return bad("joints/weights do not match the vertex count".into());
                }
                if joints.iter().flatten().any(|&j| j as usize >= bones) {
                    return bad("joint index out of range".into());
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// Make quaternion `q` continuous with `prev` (same hemisphere), as animation export needs.
pub fn continuous(prev: Quat, q: Quat) -> Quat {
    if prev.dot(q) < 0.0 {
        -q
    } else {
        q
    }
}
