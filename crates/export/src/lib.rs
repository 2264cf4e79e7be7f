//! boneyard-export: writing what a [`Document`] holds to files other programs open.
//!
//! * [`glb()`]: glTF 2.0 binary: the skeleton as a node hierarchy with rest TRS, the meshes
//!   (textures embedded as PNG) skinned over one skin of every bone, every requested clip
//!   baked at each engine frame (LINEAR or STEP as the engine plays it). At every frame time
//!   the joint nodes' glTF world matrices are the forward kinematics of the sampled locals,
//!   which the core's consistency rule makes [`Document::pose`] (within 1e-4).
//! * [`bvh()`]: Biovision hierarchy text, rotations as ZXY Euler angles in degrees.
//! * [`obj()`]: Wavefront OBJ of the posed meshes (or a stick figure of boxes).
//! * [`gltf_in`]: the other way: a glTF file's animations read back as [`boneyard_core::Clip`]s
//!   for a game skeleton (`boneyard import`).
//!
//! The exporters never sample on their own: they bake `Document::sample(anim, f).locals` at
//! every frame `f = 0..frames-1`, so whatever the family's engine numerics are, the file
//! reproduces them at the frame times.
#![deny(missing_docs)]

mod bake;
pub mod bvh;
pub mod glb;
pub mod gltf_in;
mod names;
pub mod obj;
mod stick;
#[doc(hidden)]
pub mod testing;

use boneyard_core::{Document, Result};

/// Options shared by the animation exporters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportOptions {
    /// Remove `Sample::root_motion` from the root bone's translation (an "in place" clip).
    /// Off by default: root motion is kept, so the glTF pose equals `Document::pose`.
    pub in_place: bool,
    /// Keys baked per engine frame for the clips the engine evaluates between frames
    /// ([`Interpolation::Linear`](boneyard_core::Interpolation::Linear): curves): key `k` is
    /// the document's pose at frame `k / subframes`, so the file follows the engine's curve
    /// between frames where one key a frame would cut it straight. Clips the engine holds frame
    /// by frame (STEP) are exact at every time with one key a frame and keep it. 1 (the
    /// default) is one key a frame; at most [`MAX_SUBFRAMES`].
    pub subframes: u32,
}

/// The most keys an engine frame may be baked into ([`ExportOptions::subframes`]).
pub const MAX_SUBFRAMES: u32 = 64;

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions { in_place: false, subframes: 1 }
    }
}

/// A binary glTF 2.0 file of skeleton `skeleton` with its meshes and the clips `anims`
/// (in that order, names kept). See the [`glb` module](mod@glb) for the layout.
pub fn glb(doc: &dyn Document, skeleton: usize, anims: &[usize], opts: &ExportOptions) -> Result<Vec<u8>> {
    glb::write_with(doc, skeleton, anims, opts, None)
}

/// A GLB and the clips that were left out of it.
#[derive(Debug, Clone)]
pub struct Exported {
    /// The GLB file.
    pub bytes: Vec<u8>,
    /// (animation index, why) for every requested clip that could not be baked.
    pub skipped: Vec<(usize, boneyard_core::Error)>,
}

/// Like [`glb()`], but a clip that cannot be baked (its sampling fails, it has no frames, its
/// values are not finite...) is left out and listed instead of failing the whole file. For
/// "export every animation" over large archives where a few clips use unsupported layouts.
/// Errors about the skeleton, the meshes or the file as a whole still fail.
pub fn glb_skipping(doc: &dyn Document, skeleton: usize, anims: &[usize], opts: &ExportOptions) -> Result<Exported> {
    let mut skipped = Vec::new();
    let bytes = glb::write_with(doc, skeleton, anims, opts, Some(&mut skipped))?;
    Ok(Exported { bytes, skipped })
}

/// A BVH file of clip `anim` playing on skeleton `skeleton`. See the [`bvh` module](mod@bvh)
/// for the conventions.
pub fn bvh(doc: &dyn Document, skeleton: usize, anim: usize, opts: &ExportOptions) -> Result<String> {
    bvh::write(doc, skeleton, anim, opts)
}

/// An OBJ of skeleton `skeleton`'s meshes posed by `anim` at `frame` (the rest pose when
/// `anim` is None), in world space from `Document::pose`; a stick figure of boxes when the
/// skeleton has no meshes.
pub fn obj(doc: &dyn Document, skeleton: usize, anim: Option<usize>, frame: f64) -> Result<String> {
    obj::write(doc, skeleton, anim, frame)
}

/// [`obj()`] with its material library `<stem>.mtl` and the textures as PNG files (see the
/// [`obj` module](mod@obj)).
pub fn obj_with_materials(
    doc: &dyn Document,
    skeleton: usize,
    anim: Option<usize>,
    frame: f64,
    stem: &str,
) -> Result<obj::ObjFiles> {
    obj::write_with_materials(doc, skeleton, anim, frame, stem)
}
