//! glTF 2.0 binary export.
//!
//! Layout of the file (what importers and the CI's `three_check.mjs` rely on):
//! * nodes `0..bones` are the skeleton's bones in the document's order, named after the bones
//!   (made unique, see `names`), each with its rest TRS and its children. Root bones are scene
//!   roots: there is no wrapper transform, so a joint's glTF world matrix is exactly the FK of
//!   the baked locals, i.e. `Document::pose`. When the skeleton has several roots and meshes,
//!   one identity node (no transform) groups them, because a skin needs a common root.
//! * one skin over every bone, inverse bind matrices = inverse rest world matrices, used by one
//!   node per mesh at the scene root (meshes become skinned primitives, see `mesh`). A
//!   skeleton without meshes gets a stick figure of boxes (`<skeleton>_bones`) so that viewers
//!   show it.
//! * one animation per requested clip, named after it, with every frame `f` of the clip as a
//!   key at `f / fps` seconds (LINEAR or STEP as `AnimInfo::interpolation` says; a LINEAR
//!   clip has `subframes` keys a frame, at `k / (subframes · fps)`, when asked), rotations
//!   kept in one hemisphere from key to key. Translation and rotation channels exist for
//!   every bone, scale only where a scale is not 1; a channel whose value never changes has a
//!   single key at 0 s. `extras` record `fps`, `frames`, the document's animation `index`,
//!   `format`, `source`, whether root motion was removed (`in_place`) and, where a clip has
//!   more than one key a frame, `subframes`.

mod anim;
mod buffer;
mod mesh;

use boneyard_core::error::ErrorKind;
use boneyard_core::{Document, Error, Mesh, MeshBinding, Result, Skeleton};
use glam::Mat4;
use gltf_json as json;
use json::accessor::{ComponentType, Type};

use crate::bake::{self, unit_rotation};
use crate::names;
use crate::ExportOptions;
use buffer::{f32_bytes, Builder};
use rayon::prelude::*;

pub(crate) use buffer::glb_container;
pub(crate) use buffer::Pixels;
pub(crate) use mesh::{clean_influences, texture_png};

/// JOINTS_0 holds u16 indices.
const MAX_JOINTS: usize = 65536;

/// Pass a JSON value as glTF `extras`.
pub(crate) fn extras(v: serde_json::Value) -> json::extras::Extras {
    serde_json::value::RawValue::from_string(v.to_string()).ok()
}

/// The inverse of an affine matrix with its last row exactly (0, 0, 0, 1), or None when the
/// matrix cannot be inverted.
pub(crate) fn affine_inverse(m: &Mat4) -> Option<Mat4> {
    if !m.is_finite() || m.determinant().abs() < 1e-30 {
        return None;
    }
    let mut inv = m.inverse();
    inv.x_axis.w = 0.0;
    inv.y_axis.w = 0.0;
    inv.z_axis.w = 0.0;
    inv.w_axis.w = 1.0;
    inv.is_finite().then_some(inv)
}

/// The skeleton as a skinned mesh of boxes, for skeletons without meshes: a file with only
/// joints shows nothing in most viewers.
fn stick_figure(skel: &Skeleton, rest_world: &[Mat4]) -> Mesh {
    let parents: Vec<Option<usize>> = skel.bones.iter().map(|b| b.parent).collect();
    let (positions, indices, bones) = crate::stick::boxes(&parents, rest_world);
    let mut m = Mesh::rigid(format!("{}_bones", skel.name), 0, positions, indices);
    m.binding = MeshBinding::Skinned {
        joints: bones.iter().map(|&b| [b as u16, 0, 0, 0]).collect(),
        weights: vec![[1.0, 0.0, 0.0, 0.0]; bones.len()],
    };
    m.base_color = [0.7, 0.7, 0.72, 1.0];
    m
}

/// Clips baked at once by the worker threads: at most this many, holding at most
/// `BAKE_CHUNK_BYTES` of baked transforms (estimated from frames × bones) between them.
const BAKE_CHUNK: usize = 64;
const BAKE_CHUNK_BYTES: u64 = 64 << 20;

/// Split `anims` into runs to bake in parallel.
fn bake_chunks<'a>(doc: &dyn Document, anims: &'a [usize], subframes: u32) -> Vec<&'a [usize]> {
    let mut out = Vec::new();
    let (mut start, mut bytes) = (0, 0u64);
    for (i, &a) in anims.iter().enumerate() {
        // A baked key of a bone: translation, rotation, scale as f32 (40 bytes).
        let size = doc.animations().get(a).map_or(0, |x| {
            let per_frame = if x.interpolation == boneyard_core::Interpolation::Linear { subframes.max(1) } else { 1 };
            u64::from(x.frames).saturating_mul(x.bones as u64 * 40).saturating_mul(u64::from(per_frame))
        });
        if i > start && (i - start >= BAKE_CHUNK || bytes.saturating_add(size) > BAKE_CHUNK_BYTES) {
            out.push(&anims[start..i]);
            (start, bytes) = (i, 0);
        }
        bytes = bytes.saturating_add(size);
    }
    if start < anims.len() {
        out.push(&anims[start..]);
    }
    out
}

/// Write the GLB. With `skipped`, clips that fail to bake are listed there instead of failing.
pub(crate) fn write_with(
    doc: &dyn Document,
    skeleton: usize,
    anims: &[usize],
    opts: &ExportOptions,
    mut skipped: Option<&mut Vec<(usize, Error)>>,
) -> Result<Vec<u8>> {
    let info = bake::skeleton(doc, skeleton)?;
    let skel = &info.skeleton;
    let invalid = |m: String| Error::new(ErrorKind::Invalid(m));
    if skel.is_empty() {
        return Err(invalid(format!("skeleton {} has no bones", info.name)));
    }
    if skel.len() > MAX_JOINTS {
        return Err(Error::new(ErrorKind::Ceiling(format!(
            "skeleton {} has {} bones; glTF joint indices stop at {MAX_JOINTS}",
            info.name,
            skel.len()
        ))));
    }
    let mut b = Builder::new();
    b.root.asset.generator = Some(format!("boneyard {}", env!("CARGO_PKG_VERSION")));

    // Bones: nodes 0..n, parents first like the skeleton.
    let names = names::unique(skel.bones.iter().map(|x| x.name.as_str()), "bone");
    let mut children: Vec<Vec<json::Index<json::Node>>> = vec![Vec::new(); skel.len()];
    for (i, bone) in skel.bones.iter().enumerate() {
        if let Some(p) = bone.parent {
            children[p].push(json::Index::new(i as u32));
        }
    }
    for ((i, bone), kids) in skel.bones.iter().enumerate().zip(children) {
        let r = &bone.rest;
        if !r.translation.is_finite() || !r.scale.is_finite() {
            return Err(invalid(format!("bone {i} ({}) has a rest transform that is not finite", bone.name)));
        }
        let q = unit_rotation(r.rotation)
            .ok_or_else(|| invalid(format!("bone {i} ({}) has a rest rotation that is not a quaternion", bone.name)))?;
        b.root.push(json::Node {
            name: Some(names[i].clone()),
            translation: (r.translation != glam::Vec3::ZERO).then(|| r.translation.to_array()),
            rotation: (q != glam::Quat::IDENTITY).then(|| json::scene::UnitQuaternion(q.to_array())),
            scale: (r.scale != glam::Vec3::ONE).then(|| r.scale.to_array()),
            children: if kids.is_empty() { None } else { Some(kids) },
            ..Default::default()
        });
    }
    let roots: Vec<json::Index<json::Node>> = skel.roots().map(|i| json::Index::new(i as u32)).collect();

    // Meshes, all skinned over one skin.
    let rest_world = skel.rest_world();
    let mut mesh_indices = Vec::new();
    let sticks;
    let real = info.meshes.iter().any(|m| !m.indices.is_empty());
    let meshes: &[Mesh] = if real {
        &info.meshes
    } else {
        sticks = [stick_figure(skel, &rest_world)];
        &sticks
    };
    // A real mesh's glTF extras name its place in `SkeletonInfo::meshes`, where the run-time
    // texture swaps (`Document::frame_textures`) point; the stick figure has none.
    for (i, m) in meshes.iter().enumerate() {
        if let Some(idx) = mesh::add(&mut b, m, &rest_world, real.then_some(i))? {
            mesh_indices.push(idx);
        }
    }
    let mut scene_nodes = roots.clone();
    if !mesh_indices.is_empty() {
        let mut ibm = Vec::with_capacity(rest_world.len() * 16);
        for (i, m) in rest_world.iter().enumerate() {
            let inv = affine_inverse(m).ok_or_else(|| {
                invalid(format!("bone {i} ({}) has a rest matrix that cannot be inverted", skel.bones[i].name))
            })?;
            ibm.extend(inv.to_cols_array());
        }
        let ibm = b.data(f32_bytes(&ibm), None, ComponentType::F32, Type::Mat4, rest_world.len(), None)?;
        let skeleton_root = if roots.len() == 1 {
            roots[0]
        } else {
            let group = b.root.push(json::Node {
                name: Some(format!("{}_roots", skel.name)),
                children: Some(roots.clone()),
                ..Default::default()
            });
            scene_nodes = vec![group];
            group
        };
        let skin = b.root.push(json::Skin {
            extensions: None,
            extras: Default::default(),
            name: Some(skel.name.clone()),
            inverse_bind_matrices: Some(ibm),
            joints: (0..skel.len()).map(|i| json::Index::new(i as u32)).collect(),
            skeleton: Some(skeleton_root),
        });
        // Node names distinct from the bones' (importers bind animation tracks by name).
        let mesh_names: Vec<String> =
            mesh_indices.iter().map(|m| b.root.meshes[m.value()].name.clone().unwrap_or_default()).collect();
        let all = names::unique(names.iter().chain(&mesh_names).map(|s| s.as_str()), "mesh");
        for (m, name) in mesh_indices.into_iter().zip(all.into_iter().skip(names.len())) {
            scene_nodes.push(b.root.push(json::Node {
                name: Some(name),
                mesh: Some(m),
                skin: Some(skin),
                ..Default::default()
            }));
        }
    }
    let scene = b.root.push(json::Scene {
        extensions: None,
        extras: extras(serde_json::json!({ "skeleton": info.id, "source": info.source })),
        name: Some(info.name.clone()),
        nodes: scene_nodes,
    });
    b.root.scene = Some(scene);

    // Animations.
    let anim_names =
        names::unique(anims.iter().map(|&a| doc.animations().get(a).map(|x| x.name.as_str()).unwrap_or("")), "anim");
    let rest_scales: Vec<glam::Vec3> = skel.bones.iter().map(|x| x.rest.scale).collect();
    // Clips are baked in parallel, a chunk at a time (bounded memory), and written in order,
    // so the file does not depend on the number of threads.
    let mut names = anim_names.into_iter();
    for chunk in bake_chunks(doc, anims, opts.subframes) {
        let baked: Vec<Result<bake::Baked>> = chunk.par_iter().map(|&a| bake::bake(doc, skeleton, a, opts)).collect();
        for ((&a, baked), name) in chunk.iter().zip(baked).zip(names.by_ref()) {
            let baked = match (baked, skipped.as_deref_mut()) {
                (Ok(b), _) => b,
                (Err(e), Some(list)) if !e.is_not_found() => {
                    list.push((a, e));
                    continue;
                }
                (Err(e), _) => return Err(e),
            };
            anim::add(&mut b, &baked, name, &rest_scales, opts)?;
        }
    }
    b.finish()
}
