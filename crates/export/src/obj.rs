//! Wavefront OBJ of a posed skeleton's meshes.
//!
//! Positions are in world space: rigid meshes are moved by their bone's world matrix from
//! `Document::pose` (so the engine's own matrices are used); skinned meshes by
//! `Σ weight · pose[joint] · rest_world[joint]⁻¹`. One `o` (and `g`) per mesh, `v`, `vt` when
//! the mesh has texture coordinates (OBJ's v runs up the image, so `vt u 1-v`), `vn` when it
//! has normals, `f` with 1-based indices (`v/vt/vn`, `v//vn`, `v/vt` or `v`).
//! With materials ([`write_with_materials`]) the OBJ names `<stem>.mtl`, which has one
//! material per mesh (`Kd` and `d` from its colour, `map_Kd <stem>_<n>.png` for its texture),
//! and the textures come as PNG files to write beside it.
//! A skeleton without meshes is written as a stick figure of boxes (`o skeleton`).

use std::fmt::Write;

use boneyard_core::error::ErrorKind;
use boneyard_core::model::TextureWrap;
use boneyard_core::{Document, Error, Mesh, MeshBinding, Result};
use glam::{Mat3, Mat4, Vec3};

use crate::glb::{affine_inverse, clean_influences, texture_png};

/// An OBJ with its material library and the textures the library names.
#[derive(Debug, Clone)]
pub struct ObjFiles {
    /// `<stem>.obj`.
    pub obj: String,
    /// `<stem>.mtl`.
    pub mtl: String,
    /// (file name, PNG bytes), to write beside the `.mtl`.
    pub textures: Vec<(String, Vec<u8>)>,
}

fn invalid(msg: String) -> Error {
    Error::new(ErrorKind::Invalid(msg))
}

/// The model matrix of every vertex of `mesh` posed by `pose`.
fn vertex_matrices(mesh: &Mesh, pose: &[Mat4], rest_inverse: &[Mat4]) -> Result<Vec<Mat4>> {
    let n = mesh.positions.len();
    match &mesh.binding {
        MeshBinding::Rigid { bone } => {
            let m = *pose.get(*bone).ok_or_else(|| invalid(format!("mesh {}: no bone {bone}", mesh.name)))?;
            Ok(vec![m; n])
        }
        MeshBinding::Skinned { joints, weights } => Ok(joints
            .iter()
            .zip(weights)
            .map(|(j, w)| {
                let (j, w) = clean_influences(*j, *w, pose.len());
                j.iter().zip(w).fold(Mat4::ZERO, |acc, (&j, w)| {
                    let j = j as usize;
                    if w == 0.0 {
                        acc
                    } else {
                        acc + (pose[j] * rest_inverse[j]) * w
                    }
                })
            })
            .collect()),
    }
}

/// One mesh's attributes, posed.
struct Object<'a> {
    name: &'a str,
    positions: &'a [Vec3],
    uvs: Option<&'a [glam::Vec2]>,
    normals: Option<&'a [Vec3]>,
    indices: &'a [u32],
    material: Option<&'a str>,
}

fn obj_name(name: &str) -> String {
    name.chars().map(|c| if c.is_whitespace() { '_' } else { c }).collect()
}

/// How many `v`, `vt` and `vn` lines the file has so far. OBJ numbers each kind on its own,
/// from the file's start (1-based): a mesh without uvs writes no `vt`, so the next mesh's
/// uvs are not numbered as its vertices are.
#[derive(Default, Clone, Copy)]
struct Written {
    v: usize,
    vt: usize,
    vn: usize,
}

/// Write an object's vertices and faces after what `before` counts, and count them in.
/// (Each attribute the object has holds one entry per vertex.)
fn write_object(out: &mut String, o: &Object, before: &mut Written) {
    let name = obj_name(o.name);
    let _ = writeln!(out, "o {name}\ng {name}");
    if let Some(m) = o.material {
        let _ = writeln!(out, "usemtl {}", obj_name(m));
    }
    for p in o.positions {
        let _ = writeln!(out, "v {} {} {}", p.x, p.y, p.z);
    }
    if let Some(uvs) = o.uvs {
        for t in uvs {
            let (u, v) = if t.is_finite() { (t.x, 1.0 - t.y) } else { (0.0, 0.0) };
            let _ = writeln!(out, "vt {u} {v}");
        }
    }
    if let Some(ns) = o.normals {
        for n in ns {
            let _ = writeln!(out, "vn {} {} {}", n.x, n.y, n.z);
        }
    }
    let b = *before;
    for t in o.indices.chunks_exact(3) {
        let corner = |i: u32| {
            let i = i as usize + 1;
            let v = b.v + i;
            match (o.uvs.is_some(), o.normals.is_some()) {
                (true, true) => format!("{v}/{}/{}", b.vt + i, b.vn + i),
                (false, true) => format!("{v}//{}", b.vn + i),
                (true, false) => format!("{v}/{}", b.vt + i),
                (false, false) => v.to_string(),
            }
        };
        let _ = writeln!(out, "f {} {} {}", corner(t[0]), corner(t[1]), corner(t[2]));
    }
    let n = o.positions.len();
    before.v += n;
    before.vt += o.uvs.map_or(0, |_| n);
    before.vn += o.normals.map_or(0, |_| n);
}

pub(crate) fn write(doc: &dyn Document, skeleton: usize, anim: Option<usize>, frame: f64) -> Result<String> {
    Ok(write_files(doc, skeleton, anim, frame, None)?.obj)
}

/// The OBJ with its `.mtl` and textures; `stem` names the files (`<stem>.mtl`,
/// `<stem>_<n>.png`).
pub fn write_with_materials(
    doc: &dyn Document,
    skeleton: usize,
    anim: Option<usize>,
    frame: f64,
    stem: &str,
) -> Result<ObjFiles> {
    write_files(doc, skeleton, anim, frame, Some(stem))
}

fn write_files(
    doc: &dyn Document,
    skeleton: usize,
    anim: Option<usize>,
    frame: f64,
    stem: Option<&str>,
) -> Result<ObjFiles> {
    let info = crate::bake::skeleton(doc, skeleton)?;
    let skel = &info.skeleton;
    let pose = doc.pose(skeleton, anim, frame)?;
    if pose.len() != skel.len() || pose.iter().any(|m| !m.is_finite()) {
        return Err(invalid(format!("the pose of skeleton {} is not {} finite matrices", info.name, skel.len())));
    }
    let mut out = String::new();
    let what = match anim.and_then(|a| doc.animations().get(a)) {
        Some(a) => format!("animation {} frame {frame}", a.name),
        None => "rest pose".to_string(),
    };
    let _ = writeln!(out, "# boneyard {}: skeleton {}, {what}", env!("CARGO_PKG_VERSION"), info.name);
    let mut files = ObjFiles { obj: String::new(), mtl: String::new(), textures: Vec::new() };
    if let Some(stem) = stem {
        let _ = writeln!(out, "mtllib {stem}.mtl");
        let _ = writeln!(files.mtl, "# boneyard {}: materials of {stem}.obj", env!("CARGO_PKG_VERSION"));
    }

    let meshes: Vec<&Mesh> = info.meshes.iter().filter(|m| !m.indices.is_empty()).collect();
    if meshes.is_empty() {
        let parents: Vec<Option<usize>> = skel.bones.iter().map(|b| b.parent).collect();
        let (p, i, _) = crate::stick::boxes(&parents, &pose);
        let o = Object { name: "skeleton", positions: &p, uvs: None, normals: None, indices: &i, material: None };
        write_object(&mut out, &o, &mut Written::default());
        files.obj = out;
        return Ok(files);
    }
    let rest_inverse: Vec<Mat4> = skel
        .rest_world()
        .iter()
        .enumerate()
        .map(|(i, m)| affine_inverse(m).ok_or_else(|| invalid(format!("bone {i}: rest matrix cannot be inverted"))))
        .collect::<Result<_>>()?;
    let mut written = Written::default();
    let mut images = Images::new();
    for (k, mesh) in meshes.into_iter().enumerate() {
        mesh.validate(skel.len()).map_err(|e| invalid(format!("cannot export: {}", e.kind)))?;
        let ms = vertex_matrices(mesh, &pose, &rest_inverse)?;
        let p: Vec<Vec3> = mesh.positions.iter().zip(&ms).map(|(p, m)| m.transform_point3(*p)).collect();
        let n: Option<Vec<Vec3>> = mesh.normals.as_ref().map(|ns| {
            ns.iter()
                .zip(&ms)
                .map(|(n, m)| (Mat3::from_mat4(*m).inverse().transpose() * *n).normalize_or_zero())
                .collect()
        });
        let material = match stem {
            Some(stem) => Some(add_material(&mut files, &mut images, stem, mesh, k)?),
            None => None,
        };
        let uvs = mesh.uvs.as_deref().filter(|u| u.len() == p.len());
        let o = Object {
            name: &mesh.name,
            positions: &p,
            uvs,
            normals: n.as_deref(),
            indices: &mesh.indices,
            material: material.as_deref(),
        };
        write_object(&mut out, &o, &mut written);
    }
    files.obj = out;
    Ok(files)
}

/// The texture files written so far, by their pixels (width, height, RGBA).
type Images = std::collections::HashMap<crate::glb::Pixels, String>;

/// Mesh `k`'s material in the `.mtl` (and its texture as `<stem>_<k>.png`, unless an earlier
/// mesh's file holds the same pixels: then that file); its name.
fn add_material(files: &mut ObjFiles, images: &mut Images, stem: &str, mesh: &Mesh, k: usize) -> Result<String> {
    let name = format!("{}_{k}", obj_name(&mesh.name));
    let c = mesh.base_color.map(|x| if x.is_finite() { x.clamp(0.0, 1.0) } else { 1.0 });
    let _ = writeln!(files.mtl, "newmtl {name}\nKd {} {} {}\nd {}\nillum 1", c[0], c[1], c[2], c[3]);
    let same = mesh
        .texture
        .as_ref()
        .filter(|_| mesh.uvs.is_some())
        .and_then(|t| images.get(&(t.width, t.height, t.rgba.clone())).cloned());
    let png = match same {
        Some(file) => Some((file, None)),
        None => texture_png(mesh)?.map(|png| (format!("{stem}_{k}.png"), Some(png))),
    };
    if let Some((file, png)) = png {
        // MTL's one wrap option clamps both axes; a mirror it cannot say, so the file says so
        // where a reader of it will look (the glb carries both).
        let wrap = mesh.texture.as_ref().map(|t| t.wrap).unwrap_or_default();
        if wrap.contains(&TextureWrap::MirroredRepeat) {
            let _ = writeln!(files.mtl, "# {file} is mirrored past its edges in the game (MTL repeats it)");
        }
        let clamp = if wrap == [TextureWrap::ClampToEdge; 2] { "-clamp on " } else { "" };
        let _ = writeln!(files.mtl, "map_Kd {clamp}{file}");
        if let (Some(png), Some(t)) = (png, &mesh.texture) {
            images.insert((t.width, t.height, t.rgba.clone()), file.clone());
            files.textures.push((file, png));
        }
    }
    Ok(name)
}
