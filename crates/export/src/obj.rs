//! Wavefront OBJ of a posed skeleton's meshes.
//!
//! Positions are in world space: rigid meshes are moved by their bone's world matrix from
//! `Document::pose` (so the engine's own matrices are used); skinned meshes by
//! `Σ weight · pose[joint] · rest_world[joint]⁻¹`. One `o` (and `g`) per mesh, `v`, `vn` when
//! the mesh has normals, `f` with 1-based indices (`v//vn` with normals). No materials.
//! A skeleton without meshes is written as a stick figure of boxes (`o skeleton`).

use std::fmt::Write;

use boneyard_core::error::ErrorKind;
use boneyard_core::{Document, Error, Mesh, MeshBinding, Result};
use glam::{Mat3, Mat4, Vec3};

use crate::glb::{affine_inverse, clean_influences};

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

/// Write `name`'s vertices and faces; `base` is the number of vertices written before.
fn write_object(
    out: &mut String,
    name: &str,
    positions: &[Vec3],
    normals: Option<&[Vec3]>,
    indices: &[u32],
    base: usize,
) {
    let name: String = name.chars().map(|c| if c.is_whitespace() { '_' } else { c }).collect();
    let _ = writeln!(out, "o {name}\ng {name}");
    for p in positions {
        let _ = writeln!(out, "v {} {} {}", p.x, p.y, p.z);
    }
    if let Some(ns) = normals {
        for n in ns {
            let _ = writeln!(out, "vn {} {} {}", n.x, n.y, n.z);
        }
    }
    for t in indices.chunks_exact(3) {
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| base + i as usize + 1);
        if normals.is_some() {
            let _ = writeln!(out, "f {a}//{a} {b}//{b} {c}//{c}");
        } else {
            let _ = writeln!(out, "f {a} {b} {c}");
        }
    }
}

pub(crate) fn write(doc: &dyn Document, skeleton: usize, anim: Option<usize>, frame: f64) -> Result<String> {
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

    let meshes: Vec<&Mesh> = info.meshes.iter().filter(|m| !m.indices.is_empty()).collect();
    if meshes.is_empty() {
        let parents: Vec<Option<usize>> = skel.bones.iter().map(|b| b.parent).collect();
        let (p, i, _) = crate::stick::boxes(&parents, &pose);
        write_object(&mut out, "skeleton", &p, None, &i, 0);
        return Ok(out);
    }
    let rest_inverse: Vec<Mat4> = skel
        .rest_world()
        .iter()
        .enumerate()
        .map(|(i, m)| affine_inverse(m).ok_or_else(|| invalid(format!("bone {i}: rest matrix cannot be inverted"))))
        .collect::<Result<_>>()?;
    let mut base = 0;
    for mesh in meshes {
        mesh.validate(skel.len()).map_err(|e| invalid(format!("cannot export: {}", e.kind)))?;
        let ms = vertex_matrices(mesh, &pose, &rest_inverse)?;
        let p: Vec<Vec3> = mesh.positions.iter().zip(&ms).map(|(p, m)| m.transform_point3(*p)).collect();
        let n: Option<Vec<Vec3>> = mesh.normals.as_ref().map(|ns| {
            ns.iter()
                .zip(&ms)
                .map(|(n, m)| (Mat3::from_mat4(*m).inverse().transpose() * *n).normalize_or_zero())
                .collect()
        });
        write_object(&mut out, &mesh.name, &p, n.as_deref(), &mesh.indices, base);
        base += p.len();
    }
    Ok(out)
}
