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
    /// Offset from the parent's origin, in the parent's space (engine units).
    pub translation: Vec3,
    /// Rotation relative to the parent (unit quaternion).
    pub rotation: Quat,
    /// Scale along the bone's own axes (1 for every game boneyard reads).
    pub scale: Vec3,
}

impl Default for Transform {
    fn default() -> Self {
        Transform::IDENTITY
    }
}

impl Transform {
    /// No translation, no rotation, unit scale.
    pub const IDENTITY: Transform = Transform { translation: Vec3::ZERO, rotation: Quat::IDENTITY, scale: Vec3::ONE };

    /// A translation and rotation with unit scale.
    pub fn new(translation: Vec3, rotation: Quat) -> Self {
        Transform { translation, rotation, scale: Vec3::ONE }
    }
    /// The local matrix `T * R * S`.
    pub fn matrix(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }
    /// Decompose an affine matrix (for families whose engine produces matrices, e.g. IK results).
    pub fn from_matrix(m: &Mat4) -> Self {
        // glam's decomposition, bit for bit, without its out-of-line libm square root.
        let (scale, rotation, translation) = crate::ieee::to_scale_rotation_translation(m);
        Transform { translation, rotation: rotation.normalize(), scale }
    }
}

/// One joint of a skeleton.
#[derive(Debug, Clone, PartialEq)]
pub struct Bone {
    /// The engine's name for it, or one made from its index when the format has none.
    pub name: String,
    /// Index of the parent bone (always lower than this bone's); `None` for a root.
    pub parent: Option<usize>,
    /// The bind/rest local transform.
    pub rest: Transform,
}

/// Bones stored parents-first, each with its rest transform.
#[derive(Debug, Clone, PartialEq)]
pub struct Skeleton {
    /// The skeleton's name (from the file, or its source).
    pub name: String,
    /// The bones, parents before children (checked by [`Skeleton::new`]).
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
    /// Number of bones.
    pub fn len(&self) -> usize {
        self.bones.len()
    }
    /// True for a skeleton of no bones.
    pub fn is_empty(&self) -> bool {
        self.bones.is_empty()
    }
    /// Indices of the bones whose parent is `i`, in order.
    pub fn children(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.bones.iter().enumerate().filter(move |(_, b)| b.parent == Some(i)).map(|(j, _)| j)
    }
    /// Indices of the bones with no parent.
    pub fn roots(&self) -> impl Iterator<Item = usize> + '_ {
        self.bones.iter().enumerate().filter(|(_, b)| b.parent.is_none()).map(|(j, _)| j)
    }
    /// Every bone's rest local transform, in bone order.
    pub fn rest_locals(&self) -> Vec<Transform> {
        self.bones.iter().map(|b| b.rest).collect()
    }
    /// World matrices of the rest pose.
    pub fn rest_world(&self) -> Vec<Mat4> {
        crate::fk::world_matrices(self, &self.rest_locals())
    }
    /// The index of the first bone named `name`.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.bones.iter().position(|b| b.name == name)
    }
}

/// How a mesh follows the skeleton.
#[derive(Debug, Clone, PartialEq)]
pub enum MeshBinding {
    /// Every vertex follows one bone; positions/normals are in that bone's local space.
    Rigid {
        /// Index of the bone every vertex follows.
        bone: usize,
    },
    /// Up to four bones per vertex; positions/normals are in model space at the rest pose
    /// (the inverse bind matrices are the inverses of the rest world matrices).
    Skinned {
        /// Per vertex, up to four bone indices.
        joints: Vec<[u16; 4]>,
        /// Per vertex, the weights of those bones (summing to 1).
        weights: Vec<[f32; 4]>,
    },
}

/// An RGBA8 texture.
#[derive(Debug, Clone, PartialEq)]
pub struct Texture {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Pixels row by row from the top, four bytes each (R, G, B, A). Shared: meshes that draw
    /// the same texels (one image on many limbs, as Zelda's objects do) hold one copy, and a
    /// copy of the texture is a count more, not the pixels again.
    pub rgba: std::sync::Arc<[u8]>,
    /// How the format samples it (previews and the glTF sampler follow it).
    pub filter: TextureFilter,
    /// How uvs outside 0..1 sample it, across (u) and down (v): previews and the glTF
    /// sampler follow it.
    pub wrap: [TextureWrap; 2],
}

/// What a texture coordinate outside 0..1 samples, along one axis (glTF's wrap modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TextureWrap {
    /// The image again (glTF REPEAT).
    #[default]
    Repeat,
    /// The image again, every other time mirrored (glTF MIRRORED_REPEAT; the N64's mirror bit).
    MirroredRepeat,
    /// The edge texel (glTF CLAMP_TO_EDGE; the N64's clamp bit where the tile is no wider than
    /// one period of its wrap mask, or has none).
    ClampToEdge,
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

/// A triangle mesh bound to a skeleton.
#[derive(Debug, Clone, PartialEq)]
pub struct Mesh {
    /// Name for exporters (the format's own, or made from the bone it hangs on).
    pub name: String,
    /// Vertex positions (bone-local for rigid meshes, model space for skinned ones).
    pub positions: Vec<Vec3>,
    /// Vertex normals in the same space as the positions, when the format has them.
    pub normals: Option<Vec<Vec3>>,
    /// Texture coordinates (0..1, V down as glTF has it), when the format has them.
    pub uvs: Option<Vec<Vec2>>,
    /// Per-vertex RGBA colours (0..1), when the format has them.
    pub colors: Option<Vec<[f32; 4]>>,
    /// Triangle list.
    pub indices: Vec<u32>,
    /// How the vertices follow the bones.
    pub binding: MeshBinding,
    /// A flat colour for previews and the glTF material.
    pub base_color: [f32; 4],
    /// The image the uvs index, decoded to RGBA8, when the format has one and it was read.
    pub texture: Option<Texture>,
    /// How the texture's and colours' alpha draws (the render state the format sets).
    pub alpha_mode: AlphaMode,
}

/// How a mesh's alpha is drawn: as glTF's `alphaMode` has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AlphaMode {
    /// Alpha ignored: every texel draws (glTF OPAQUE; a base colour with alpha below 1 is
    /// still written as BLEND by the exporter, as before).
    #[default]
    Opaque,
    /// Cut-out: texels of alpha below one half are not drawn (glTF MASK, cutoff 0.5); the
    /// N64's "texture edge" render modes, whose coverage is the texel's alpha.
    Mask,
    /// Blended over what is behind (glTF BLEND); the N64's translucent render modes.
    Blend,
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
            alpha_mode: AlphaMode::Opaque,
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
