//! MT5 models in the common model: the node tree as its own skeleton, and the same meshes
//! routed onto the runtime rig by render key.
//!
//! Each node's own vertices ride the node's matrix; a negative strip index takes a vertex of
//! the parent node's mesh, which rides the *parent's* matrix (not the rest transform). So the
//! meshes are `Skinned` with one joint per vertex, positions in model space at the rest pose.

use crate::mt5::{control_for_render_key, strip_triangles, Mt5};
use boneyard_core::{Bone, Mesh, MeshBinding, Result, Skeleton, SkeletonInfo, Transform};
use glam::{Mat4, Vec2, Vec3};
use serde_json::{json, Map};

/// Where each node's geometry goes: the bone it rides and the matrix from that bone's space
/// to the node's space.
struct Placement {
    bone: Vec<usize>,
    rel: Vec<Mat4>,
}

fn meshes(model: &Mt5, place: &Placement, bone_rest: &[Mat4], prefix: &str) -> Vec<Mesh> {
    let mut out = Vec::new();
    // Each node's matrix from its bone's rest, once (not once a vertex: the same product).
    let node_matrix: Vec<Mat4> = place.bone.iter().zip(&place.rel).map(|(&b, rel)| bone_rest[b] * *rel).collect();
    for (i, node) in model.nodes.iter().enumerate() {
        let Some(mesh) = &node.mesh else { continue };
        let parent = node.parent.and_then(|p| model.nodes.get(p).and_then(|n| n.mesh.as_ref()).map(|m| (p, m)));
        let vertices: usize = mesh.strips.iter().map(|s| s.indices.len()).sum();
        let mut positions = Vec::with_capacity(vertices);
        let mut normals = Vec::with_capacity(vertices);
        let mut uvs = Vec::with_capacity(vertices);
        let mut joints = Vec::with_capacity(vertices);
        let mut indices = Vec::with_capacity(3 * vertices);
        let any_uv = mesh.strips.iter().any(|s| s.uvs.is_some());
        for s in &mesh.strips {
            let base = positions.len() as u32;
            for (k, &raw) in s.indices.iter().enumerate() {
                // The reader checked every index against this node's and the parent's counts.
                let (owner, p, n) = if raw >= 0 {
                    let v = raw as usize;
                    (i, mesh.positions[v], mesh.normals[v])
                } else if let Some((pi, pm)) = parent {
                    let v = pm.positions.len() - usize::from(raw.unsigned_abs());
                    (pi, pm.positions[v], pm.normals[v])
                } else {
                    (i, Vec3::ZERO, Vec3::Z)
                };
                let bone = place.bone[owner];
                let m = node_matrix[owner];
                positions.push(m.transform_point3(p));
                normals.push(m.transform_vector3(n).normalize_or(Vec3::Y));
                joints.push([bone as u16, 0, 0, 0]);
                uvs.push(s.uvs.as_ref().and_then(|u| u.get(k)).copied().unwrap_or(Vec2::ZERO));
            }
            for t in strip_triangles(s) {
                indices.extend(t.map(|c| base + c as u32));
            }
        }
        let n = positions.len();
        out.push(Mesh {
            name: format!("{prefix}node{i}_key{}", node.render_key()),
            positions,
            normals: Some(normals),
            uvs: any_uv.then_some(uvs),
            colors: None,
            indices,
            binding: MeshBinding::Skinned { joints, weights: vec![[1.0, 0.0, 0.0, 0.0]; n] },
            base_color: [0.75, 0.7, 0.65, 1.0],
            texture: None,
            alpha_mode: boneyard_core::model::AlphaMode::Opaque,
        });
    }
    out
}

/// How each node takes the rig's matrices (see [`crate::document::route_pose`]).
pub fn node_routes(model: &Mt5) -> Vec<crate::document::NodeRoute> {
    model
        .nodes
        .iter()
        .map(|n| crate::document::NodeRoute {
            parent: n.parent,
            local: n.local_matrix(),
            control: control_for_render_key(n.render_key()).filter(|&c| c < crate::rig::CONTROLS),
        })
        .collect()
}

/// The model's own node skeleton with its meshes.
pub fn model_skeleton(model: &Mt5, id: &str, source: &str) -> Result<SkeletonInfo> {
    let bones = model
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| Bone {
            name: format!("node{i}_key{}", n.render_key()),
            parent: n.parent,
            rest: Transform { translation: n.position, rotation: n.rotation_quat(), scale: n.scale },
        })
        .collect();
    let skeleton = Skeleton::new(format!("{id} nodes"), bones)?;
    let rest = model.rest_world();
    let place = Placement { bone: (0..model.nodes.len()).collect(), rel: vec![Mat4::IDENTITY; model.nodes.len()] };
    let meshes = meshes(model, &place, &rest, "");
    let mut extra = Map::new();
    extra.insert("render_keys".into(), json!(model.nodes.iter().map(|n| n.render_key()).collect::<Vec<_>>()));
    extra.insert("textures".into(), json!(model.textures.len()));
    Ok(SkeletonInfo {
        id: id.to_string(),
        name: format!("MT5 {id}"),
        source: source.to_string(),
        skeleton,
        meshes,
        extra,
    })
}

/// The model's meshes routed onto the rig: a node whose render key routes to a control rides
/// that control; other nodes ride their nearest routed ancestor through their local chain
/// (control 0 when none is routed). Returns the meshes and how many nodes were routed (no
/// meshes when none is).
pub fn rig_meshes(model: &Mt5, rig_rest: &[Mat4]) -> (Vec<Mesh>, usize) {
    let n = model.nodes.len();
    let mut bone = vec![0usize; n];
    let mut rel = vec![Mat4::IDENTITY; n];
    let mut routed = 0;
    for (i, node) in model.nodes.iter().enumerate() {
        match control_for_render_key(node.render_key()).filter(|&c| c < rig_rest.len()) {
            Some(c) => {
                bone[i] = c;
                routed += 1;
            }
            None => {
                if let Some(p) = node.parent {
                    bone[i] = bone[p];
                    rel[i] = rel[p] * node.local_matrix();
                } else {
                    rel[i] = node.local_matrix();
                }
            }
        }
    }
    // A model no node of which rides the rig has no rig meshes (the caller keeps none).
    if routed == 0 {
        return (Vec::new(), 0);
    }
    (meshes(model, &Placement { bone, rel }, rig_rest, "rig_"), routed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mt5::{write, NodeSpec};

    #[test]
    fn parent_vertices_ride_the_parent_control() {
        let v = |x: f32| (Vec3::new(x, 0.0, 0.0), Vec3::Y);
        let node = |key: i16, parent, vertices, strips| NodeSpec {
            render_key: key,
            parent,
            rotation: [0; 3],
            scale: Vec3::ONE,
            position: Vec3::ZERO,
            vertices,
            strips,
        };
        let bytes = write(
            &[
                node(7, None, vec![v(0.0), v(1.0), v(2.0)], vec![(vec![0, 1, 2], None)]),
                // Own vertices 0 and 1, then the parent's last vertex (3 + -1 = 2).
                node(8, Some(0), vec![v(5.0), v(6.0)], vec![(vec![0, 1, -1], None)]),
            ],
            &[],
        );
        let m = Mt5::parse(&bytes).unwrap();
        let rest: Vec<Mat4> = (0..37).map(|i| Mat4::from_translation(Vec3::new(0.0, i as f32, 0.0))).collect();
        let (meshes, routed) = rig_meshes(&m, &rest);
        assert_eq!(routed, 2);
        let child = &meshes[1];
        let MeshBinding::Skinned { joints, .. } = &child.binding else { panic!("skinned") };
        assert_eq!(joints.iter().map(|j| j[0]).collect::<Vec<_>>(), vec![8, 8, 7]);
        // The parent's vertex 2 (x = 2) posed by control 7's matrix (y = 7).
        assert_eq!(child.positions[2], Vec3::new(2.0, 7.0, 0.0));
        assert_eq!(child.positions[0], Vec3::new(5.0, 8.0, 0.0));
        assert_eq!(child.indices, vec![0, 1, 2]);
        // Posing: routed nodes take the control matrices.
        let routes = node_routes(&m);
        let posed = crate::document::route_pose(&routes, &rest);
        assert_eq!(posed[1], rest[8]);
    }
}
