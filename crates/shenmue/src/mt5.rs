//! MT5 ("HRCM") models: the node tree, meshes (24-byte vertices, the strip opcode stream,
//! UVs), negative vertex indices that take the parent node's vertices, textures listed.
//!
//! Node transform (reference §2.2): `T · Rz · Ry · Rx · S` in column-vector form (X applied
//! first), rotations in turns × 65536 stored as i32, `world = parent · local`.
//!
//! Routing onto the runtime rig is by the node's signed low-16 *render key*
//! ([`control_for_render_key`]). No public MT5 exists; the tests use this module's own
//! writer ([`write()`]) and check the reader against values worked out by hand.

use crate::layout::mt5 as L;
use boneyard_core::{limit, Endian, Error, Limit, Limits, Reader, Result, Writer};
use glam::{Mat4, Quat, Vec2, Vec3};

// The caller's limits bound a model (`Limits`): `max_nodes` (Ryo has 37), `max_vertices` of one
// node's mesh, `max_strip_ops` of one mesh's strip stream, and `max_model_vertices`: vertices,
// strip indices and strip opcodes read from one model in all (nodes may share a mesh offset,
// so each read is charged: 4096 nodes sharing a stream of a million no-op opcodes would
// otherwise be 4·10⁹ reads of a 2 MB file).

/// The strip and strip-vertex counts are u16 fields: a fact of the format, not a limit.
const U16_COUNT: Limit = Limit::new("u16 count", 1 << 16);

/// An MT5 ("HRCM") model: its node tree with meshes and the texture ids it lists.
#[derive(Debug, Clone, PartialEq)]
pub struct Mt5 {
    /// Header +4: offset of the TEXD texture data (0: none).
    pub texture_offset: u32,
    /// Depth-first (parents first).
    pub nodes: Vec<Node>,
    /// Texture ids listed in TEXD (TEXN and NAME nodes), as 8-byte ids; PVR images are not
    /// decoded.
    pub textures: Vec<[u8; 8]>,
    /// What was read but is not carried further, or skipped, as (byte offset, message): TEXD
    /// nodes of other kinds, per-vertex colours of strips, the PVR images of TEXN nodes.
    pub skipped: Vec<(u64, String)>,
}

/// One node of the tree: its transform, links and mesh.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Absolute offset of the node record.
    pub offset: u32,
    /// The node's flags (the low 16 bits are its render key).
    pub flags: u32,
    /// Index of the parent node, in `Mt5::nodes`.
    pub parent: Option<usize>,
    /// Rotation in turns × 65536.
    pub rotation: [i32; 3],
    /// Scale.
    pub scale: Vec3,
    /// Position relative to the parent.
    pub position: Vec3,
    /// The node's name id.
    pub name: u32,
    /// Its mesh, when it has one.
    pub mesh: Option<MeshData>,
}

impl Node {
    /// The signed low 16 bits of the flags.
    pub fn render_key(&self) -> i16 {
        self.flags as u16 as i16
    }
    /// `T · Rz · Ry · Rx · S` of the node's own values.
    pub fn local_matrix(&self) -> Mat4 {
        node_matrix(self.position, self.rotation, self.scale)
    }
    /// The controller family a root node declares: low 16 bits above 0x7000 give
    /// `low16 - 0x7001` (reference §1.10).
    pub fn declared_family(&self) -> Option<u16> {
        // Read as the signed key: 0x7001..=0x7FFF (negative keys are hooks, not families).
        let key = i32::from(self.render_key());
        (key >= L::FAMILY_KEY_BASE).then(|| (key - L::FAMILY_KEY_BASE) as u16)
    }
    /// The rotation as a quaternion (Z · Y · X, X applied first).
    pub fn rotation_quat(&self) -> Quat {
        let r = self.rotation.map(|v| v as f32 * (std::f32::consts::TAU / 65536.0));
        Quat::from_rotation_z(r[2]) * Quat::from_rotation_y(r[1]) * Quat::from_rotation_x(r[0])
    }
}

/// `T · Rz · Ry · Rx · S` (X applied first), rotations in turns × 65536.
pub fn node_matrix(position: Vec3, rotation: [i32; 3], scale: Vec3) -> Mat4 {
    let r = rotation.map(|v| v as f32 * (std::f32::consts::TAU / 65536.0));
    Mat4::from_translation(position)
        * Mat4::from_rotation_z(r[2])
        * Mat4::from_rotation_y(r[1])
        * Mat4::from_rotation_x(r[0])
        * Mat4::from_scale(scale)
}

/// A node's mesh: its own vertices and its strips.
#[derive(Debug, Clone, PartialEq)]
pub struct MeshData {
    /// The mesh header's polyType.
    pub poly_type: u32,
    /// The node's own vertex positions (in the node's space).
    pub positions: Vec<Vec3>,
    /// The node's own vertex normals.
    pub normals: Vec<Vec3>,
    /// Bounding sphere centre.
    pub center: Vec3,
    /// Bounding sphere radius.
    pub radius: f32,
    /// The triangle strips.
    pub strips: Vec<Strip>,
}

/// One triangle strip with its state at the time it was read.
#[derive(Debug, Clone, PartialEq)]
pub struct Strip {
    /// Index of the texture bound when the strip was read.
    pub texture: u16,
    /// Raw vertex indices: >= 0 this node's vertex, < 0 `parent.vertCount + idx`.
    pub indices: Vec<i16>,
    /// Per strip vertex, scaled (`/uvSize`, or `/65536` with UVH).
    pub uvs: Option<Vec<Vec2>>,
    /// Per strip vertex RGBA colours, for the colour opcodes.
    pub colors: Option<Vec<[u8; 4]>>,
    /// A negative stored length (winding hint).
    pub reversed: bool,
}

/// The rig control a render key routes to: 0..=36 the control of that index (the
/// convention of this crate's writer: the game's own key table is not published), -66 and
/// -65 the hands (30, 36), -67 the FACE hook on the head (24). Others: not routed.
pub fn control_for_render_key(key: i16) -> Option<usize> {
    match key {
        0..=36 => Some(key as usize),
        -66 => Some(30),
        -65 => Some(36),
        -67 => Some(24),
        _ => None,
    }
}

fn opt_ofs(v: u32) -> Option<usize> {
    (v != 0).then_some(v as usize)
}

impl Mt5 {
    /// Read an MT5 file: the node tree depth-first, each node's mesh and strips, the TEXD list.
    pub fn parse(data: &[u8]) -> Result<Mt5> {
        Self::parse_with(data, &Limits::default())
    }

    /// [`Mt5::parse`] within the caller's limits (`max_nodes`, `max_vertices`,
    /// `max_model_vertices`, `max_strip_ops`, `max_texd_nodes`).
    pub fn parse_with(data: &[u8], limits: &Limits) -> Result<Mt5> {
        let mut r = Reader::new(data, Endian::Little);
        let magic = r.array::<4>()?;
        if &magic != L::MAGIC {
            return Err(Error::invalid(0, "not an MT5 model (no HRCM magic)"));
        }
        let texture_offset = r.u32()?;
        let first = r.u32()? as usize;
        let mut nodes: Vec<Node> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut budget = limits.max_model_vertices;
        // (node offset, parent index); iterative depth-first over child/sibling links.
        let mut stack = vec![(first, None::<usize>)];
        while let Some((ofs, parent)) = stack.pop() {
            if !seen.insert(ofs) {
                return Err(Error::invalid(ofs as u64, "node links form a cycle"));
            }
            limit!(limits, max_nodes).check(nodes.len() as u64 + 1, ofs as u64, "nodes")?;
            let mut n = Reader::new(data, Endian::Little).sub(ofs, L::NODE_SIZE)?;
            let flags = n.u32()?;
            let mesh_ofs = n.u32()?;
            let rotation = [n.i32()?, n.i32()?, n.i32()?];
            let scale = Vec3::from(finite3(&mut n)?);
            let position = Vec3::from(finite3(&mut n)?);
            let child = n.u32()?;
            let sibling = n.u32()?;
            let _parent_field = n.u32()?;
            let name = n.u32()?;
            let index = nodes.len();
            let parent_verts =
                parent.and_then(|p: usize| nodes.get(p)).and_then(|p| p.mesh.as_ref()).map(|m| m.positions.len());
            let mesh = match opt_ofs(mesh_ofs) {
                Some(m) => {
                    let (mesh, ops) = parse_mesh(data, m, parent_verts.unwrap_or(0), budget, limits)?;
                    let used = ops + mesh.positions.len() + mesh.strips.iter().map(|s| s.indices.len()).sum::<usize>();
                    budget = budget.checked_sub(used).ok_or_else(|| {
                        let lim = limit!(limits, max_model_vertices);
                        lim.error(
                            m as u64,
                            lim.max - budget as u64 + used as u64,
                            "vertices, indices and opcodes in the model",
                        )
                    })?;
                    Some(mesh)
                }
                None => None,
            };
            nodes.push(Node { offset: ofs as u32, flags, parent, rotation, scale, position, name, mesh });
            // Sibling after the child's subtree: push it first.
            if let Some(s) = opt_ofs(sibling) {
                stack.push((s, parent));
            }
            if let Some(c) = opt_ofs(child) {
                stack.push((c, Some(index)));
            }
        }
        let mut skipped = Vec::new();
        for (i, n) in nodes.iter().enumerate() {
            let coloured = n.mesh.as_ref().map_or(0, |m| m.strips.iter().filter(|s| s.colors.is_some()).count());
            if coloured > 0 {
                skipped.push((
                    u64::from(n.offset),
                    format!("node {i}: per-vertex colours of {coloured} strip(s) are read but not carried to the mesh"),
                ));
            }
        }
        let textures = match opt_ofs(texture_offset) {
            Some(t) => parse_texd(data, t, &mut skipped, limits)?,
            None => Vec::new(),
        };
        Ok(Mt5 { texture_offset, nodes, textures, skipped })
    }

    /// World matrices of the rest pose.
    pub fn rest_world(&self) -> Vec<Mat4> {
        let mut out: Vec<Mat4> = Vec::with_capacity(self.nodes.len());
        for n in &self.nodes {
            let m = match n.parent.and_then(|p| out.get(p)) {
                Some(p) => *p * n.local_matrix(),
                None => n.local_matrix(),
            };
            out.push(m);
        }
        out
    }
}

fn finite3(r: &mut Reader) -> Result<[f32; 3]> {
    Ok([r.f32_finite()?, r.f32_finite()?, r.f32_finite()?])
}

/// TEXD: `"TEXD", u32 header size, u32 count`, then from the header's end `count` nodes
/// `{fourcc, u32 size incl. 8}`: TEXN = an 8-byte texture id and an embedded PVRT (listed,
/// not decoded), NAME = `(size - 8) / 8` ids of textures kept in a PKF. Other nodes are skipped
/// by their size.
/// `limits.max_texd_nodes` bounds the node count.
fn parse_texd(data: &[u8], at: usize, skipped: &mut Vec<(u64, String)>, limits: &Limits) -> Result<Vec<[u8; 8]>> {
    let mut r = Reader::at(data, at, Endian::Little)?;
    let magic = r.array::<4>()?;
    if &magic != b"TEXD" {
        return Err(Error::invalid(at as u64, "texture offset does not point at TEXD"));
    }
    let header = r.u32()? as usize;
    let count = r.u32()?;
    let mut pos = at.checked_add(header).ok_or_else(|| Error::invalid(at as u64 + 4, "TEXD header size overflows"))?;
    let count = Reader::at(data, pos.min(data.len()), Endian::Little)?.check_count(
        u64::from(count),
        8,
        limit!(limits, max_texd_nodes),
        "TEXD nodes",
    )?;
    let mut ids = Vec::new();
    let (mut texn, mut others) = (0usize, 0usize);
    let mut other_nodes: Option<(usize, String)> = None;
    for _ in 0..count {
        let mut n = Reader::at(data, pos, Endian::Little)?;
        let tag = n.array::<4>()?;
        let size_at = n.offset();
        let size = n.u32()? as usize;
        if size < 8 || n.remaining() < size - 8 {
            return Err(Error::invalid(size_at, format!("TEXD node size {size} does not fit")));
        }
        match &tag {
            b"TEXN" => {
                ids.push(n.array::<8>()?);
                texn += 1;
            }
            b"NAME" => {
                for _ in 0..(size - 8) / 8 {
                    ids.push(n.array::<8>()?);
                }
            }
            other => {
                other_nodes.get_or_insert_with(|| (pos, String::from_utf8_lossy(other).into_owned()));
                others += 1;
            }
        }
        pos += size;
    }
    if texn > 0 {
        skipped.push((at as u64, format!("TEXD: the PVR images of {texn} TEXN node(s) are listed by id, not decoded")));
    }
    if let Some((first, tag)) = other_nodes {
        skipped.push((
            first as u64,
            format!("TEXD: {others} node(s) neither TEXN nor NAME skipped by their size (the first, here, is {tag:?})"),
        ));
    }
    Ok(ids)
}

/// A mesh and the number of strip opcodes read for it. `budget` bounds the opcodes read.
fn parse_mesh(
    data: &[u8],
    at: usize,
    parent_verts: usize,
    budget: usize,
    limits: &Limits,
) -> Result<(MeshData, usize)> {
    let mut r = Reader::new(data, Endian::Little).sub(at, L::MESH_HEADER)?;
    let poly_type = r.u32()?;
    let vert_ofs = r.u32()? as usize;
    let vcount_at = r.offset();
    let vert_count = r.i32()?;
    let strip_ofs = r.u32()? as usize;
    let center = Vec3::from(finite3(&mut r)?);
    let radius = r.f32_finite()?;
    if vert_count < 0 {
        return Err(Error::invalid(vcount_at, format!("negative vertex count {vert_count}")));
    }
    let mut v = Reader::at(data, vert_ofs, Endian::Little)?;
    let n = v.check_count(vert_count as u64, L::VERTEX_SIZE, limit!(limits, max_vertices), "vertices")?;
    let mut positions = Vec::with_capacity(n);
    let mut normals = Vec::with_capacity(n);
    for _ in 0..n {
        positions.push(Vec3::from(finite3(&mut v)?));
        normals.push(Vec3::from(finite3(&mut v)?));
    }
    let (strips, ops) = parse_strips(data, strip_ofs, n, parent_verts, budget.min(limits.max_strip_ops))?;
    Ok((MeshData { poly_type, positions, normals, center, radius, strips }, ops))
}

/// The u16 opcode stream (reference §2.3) up to 0x8000, reading at most `max_ops` opcodes.
/// Returns the strips and the opcodes read.
fn parse_strips(data: &[u8], at: usize, own: usize, parent: usize, max_ops: usize) -> Result<(Vec<Strip>, usize)> {
    let mut r = Reader::at(data, at, Endian::Little)?;
    let mut out = Vec::new();
    let mut texture = 0u16;
    let mut uv_size = L::DEFAULT_UV_SIZE;
    // High-resolution UVs until an attribute block says otherwise (ShenmueDKSharp's reading
    // of the game's code; the reference gives no default).
    let mut uvh = true;
    for ops in 1..=max_ops {
        let op_at = r.offset();
        let op = r.u16()?;
        match op {
            L::STRIP_END => return Ok((out, ops)),
            0x0000 | 0xFFFF => {}
            0x0002..=0x0007 => {
                let size = usize::from(r.u16()?);
                let d = r.bytes(size)?;
                if let Some(&b) = d.first() {
                    uvh = b & 1 != 0;
                }
            }
            0x0008 | 0x000A => {
                r.u16()?;
            }
            0x0009 => texture = r.u16()?,
            0x000B => {
                uv_size = r.u16()?;
                if uv_size == 0 {
                    return Err(Error::invalid(op_at, "UV size 0"));
                }
            }
            0x000E | 0x000F => r.skip(10)?,
            L::STRIP_FIRST..=L::STRIP_LAST => {
                let has_uv = L::STRIP_UV.contains(&op);
                let has_col = L::STRIP_COLOR.contains(&op);
                let _unk = r.u16()?;
                let n = usize::from(r.u16()?);
                let per = 2 + if has_uv { 4 } else { 0 } + if has_col { 4 } else { 0 };
                let n = r.check_count(n as u64, 2 + 3 * per, U16_COUNT, "strips")?;
                let scale = if uvh { 1.0 / 65536.0 } else { 1.0 / f32::from(uv_size) };
                for _ in 0..n {
                    let len_at = r.offset();
                    let len = r.i16()?;
                    let count = usize::from(len.unsigned_abs());
                    let count = r.check_count(count as u64, per, U16_COUNT, "strip vertices")?;
                    let mut indices = Vec::with_capacity(count);
                    let mut uvs = has_uv.then(|| Vec::with_capacity(count));
                    let mut colors = has_col.then(|| Vec::with_capacity(count));
                    for _ in 0..count {
                        let i_at = r.offset();
                        let i = r.i16()?;
                        let ok = if i >= 0 { (i as usize) < own } else { usize::from(i.unsigned_abs()) <= parent };
                        if !ok {
                            return Err(Error::invalid(
                                i_at,
                                format!(
                                    "vertex index {i} is outside this node's {own} and the parent's {parent} vertices"
                                ),
                            ));
                        }
                        indices.push(i);
                        if let Some(u) = uvs.as_mut() {
                            let (a, b) = (r.i16()?, r.i16()?);
                            u.push(Vec2::new(f32::from(a) * scale, f32::from(b) * scale));
                        }
                        if let Some(c) = colors.as_mut() {
                            c.push(r.array::<4>()?);
                        }
                    }
                    if count < 3 {
                        return Err(Error::invalid(len_at, format!("strip of {count} vertices")));
                    }
                    out.push(Strip { texture, indices, uvs, colors, reversed: len < 0 });
                }
            }
            other => return Err(Error::invalid(op_at, format!("unknown strip opcode {other:#06x}"))),
        }
    }
    // `max_ops` is `max_strip_ops`, or what is left of `max_model_vertices` when less.
    let what = "strip opcodes without the 0x8000 end";
    Err(Limit::new("max_strip_ops", max_ops as u64).error(at as u64, max_ops as u64 + 1, what))
}

/// Triangles of a strip as (corner a, b, c) positions into the strip, alternating winding
/// (a negative stored length starts the other way). Degenerate triangles are dropped.
pub fn strip_triangles(s: &Strip) -> Vec<[usize; 3]> {
    let mut out = Vec::new();
    for k in 0..s.indices.len().saturating_sub(2) {
        let flip = (k % 2 == 1) ^ s.reversed;
        let t = if flip { [k + 1, k, k + 2] } else { [k, k + 1, k + 2] };
        let [a, b, c] = t.map(|i| s.indices[i]);
        if a != b && b != c && a != c {
            out.push(t);
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Writer (the project's own: fixtures, the demo body).

/// Strips to write: raw indices with optional UVs in 1/1024 units.
pub type StripSpec = Vec<(Vec<i16>, Option<Vec<[i16; 2]>>)>;

/// A node to write.
#[derive(Debug, Clone)]
pub struct NodeSpec {
    /// The node's render key (low 16 bits of its flags).
    pub render_key: i16,
    /// Index of the parent node among the nodes written.
    pub parent: Option<usize>,
    /// Rotation in turns × 65536.
    pub rotation: [i32; 3],
    /// Scale.
    pub scale: Vec3,
    /// Position relative to the parent.
    pub position: Vec3,
    /// Own vertices (position, normal).
    pub vertices: Vec<(Vec3, Vec3)>,
    /// Strips of raw indices (negative = the parent's vertices), with optional UVs in
    /// 1/1024 units.
    pub strips: StripSpec,
}

/// Write an MT5: header, nodes (parents before children; children linked by child/sibling
/// in the order given), meshes, a TEXD with `textures`.
pub fn write(nodes: &[NodeSpec], textures: &[[u8; 8]]) -> Vec<u8> {
    let mut w = Writer::new(Endian::Little);
    w.bytes(L::MAGIC).u32(0).u32(0);
    let node_base = w.len();
    w.zeros(nodes.len() * L::NODE_SIZE);
    let node_at = |i: usize| (node_base + i * L::NODE_SIZE) as u32;
    let mut mesh_ofs = vec![0u32; nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        if n.vertices.is_empty() && n.strips.is_empty() {
            continue;
        }
        w.align(4);
        let vert_ofs = w.len() as u32;
        for (p, nrm) in &n.vertices {
            for v in p.to_array().into_iter().chain(nrm.to_array()) {
                w.f32(v);
            }
        }
        let strip_ofs = w.len() as u32;
        for (idx, uv) in &n.strips {
            if let Some(uv) = uv {
                // Attributes with UVH clear, then UVs in 1/1024 units.
                w.u16(0x0002).u16(4).u32(0);
                w.u16(0x000B).u16(1024);
                w.u16(0x11).u16(0).u16(1).i16(idx.len() as i16);
                for (i, t) in idx.iter().zip(uv) {
                    w.i16(*i).i16(t[0]).i16(t[1]);
                }
            } else {
                w.u16(0x10).u16(0).u16(1).i16(idx.len() as i16);
                for i in idx {
                    w.i16(*i);
                }
            }
        }
        w.u16(L::STRIP_END);
        w.align(4);
        mesh_ofs[i] = w.len() as u32;
        let (center, radius) = bounds(&n.vertices);
        w.u32(2).u32(vert_ofs).i32(n.vertices.len() as i32).u32(strip_ofs);
        w.f32(center.x).f32(center.y).f32(center.z).f32(radius);
    }
    let tex_ofs = if textures.is_empty() {
        0
    } else {
        w.align(4);
        let at = w.len() as u32;
        // One NAME node listing every id (textures kept in a PKF).
        w.bytes(b"TEXD").u32(12).u32(1);
        w.bytes(b"NAME").u32((8 + 8 * textures.len()) as u32);
        for t in textures {
            w.bytes(t);
        }
        at
    };
    for (i, n) in nodes.iter().enumerate() {
        let child = nodes.iter().position(|c| c.parent == Some(i)).map_or(0, node_at);
        let sibling =
            nodes.iter().enumerate().skip(i + 1).find(|(_, s)| s.parent == n.parent).map_or(0, |(j, _)| node_at(j));
        let parent = n.parent.map_or(0, node_at);
        let at = node_at(i) as usize;
        let mut rec = Writer::new(Endian::Little);
        rec.u32(u32::from(n.render_key as u16)).u32(mesh_ofs[i]);
        for r in n.rotation {
            rec.i32(r);
        }
        for v in n.scale.to_array().into_iter().chain(n.position.to_array()) {
            rec.f32(v);
        }
        rec.u32(child).u32(sibling).u32(parent).u32(0).u32(0);
        w.buf[at..at + L::NODE_SIZE].copy_from_slice(&rec.buf);
    }
    w.patch_u32(4, tex_ofs);
    w.patch_u32(8, if nodes.is_empty() { 0 } else { node_at(0) });
    w.into_bytes()
}

fn bounds(v: &[(Vec3, Vec3)]) -> (Vec3, f32) {
    if v.is_empty() {
        return (Vec3::ZERO, 0.0);
    }
    let (lo, hi) =
        v.iter().fold((Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)), |(a, b), (p, _)| (a.min(*p), b.max(*p)));
    let c = (lo + hi) * 0.5;
    (c, v.iter().map(|(p, _)| (*p - c).length()).fold(0.0, f32::max))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_nodes() -> Vec<u8> {
        let quad = vec![
            (Vec3::new(0.0, 0.0, 0.0), Vec3::Z),
            (Vec3::new(1.0, 0.0, 0.0), Vec3::Z),
            (Vec3::new(0.0, 1.0, 0.0), Vec3::Z),
            (Vec3::new(1.0, 1.0, 0.0), Vec3::Z),
        ];
        let nodes = vec![
            NodeSpec {
                render_key: 0,
                parent: None,
                rotation: [0, 0, 16384],
                scale: Vec3::ONE,
                position: Vec3::new(0.0, 2.0, 0.0),
                vertices: quad.clone(),
                strips: vec![(vec![0, 1, 2, 3], Some(vec![[0, 0], [1024, 0], [0, 512], [1024, 512]]))],
            },
            NodeSpec {
                render_key: -67,
                parent: Some(0),
                rotation: [0, 0, 0],
                scale: Vec3::ONE,
                position: Vec3::new(3.0, 0.0, 0.0),
                vertices: quad[..2].to_vec(),
                // Two of its own vertices and the parent's last one (-1 = parent vertex 3).
                strips: vec![(vec![0, 1, -1], None)],
            },
        ];
        write(&nodes, &[*b"TEX0\0\0\0\0"])
    }

    #[test]
    fn reads_nodes_meshes_and_parent_vertices() {
        let d = two_nodes();
        let m = Mt5::parse(&d).unwrap();
        assert_eq!(m.nodes.len(), 2);
        assert_eq!(m.nodes[1].parent, Some(0));
        assert_eq!(m.nodes[1].render_key(), -67);
        assert_eq!(control_for_render_key(m.nodes[1].render_key()), Some(24));
        assert_eq!(m.textures, vec![*b"TEX0\0\0\0\0"]);
        let s = &m.nodes[0].mesh.as_ref().unwrap().strips[0];
        assert_eq!(s.uvs.as_ref().unwrap()[2], Vec2::new(0.0, 0.5));
        assert_eq!(strip_triangles(s), vec![[0, 1, 2], [2, 1, 3]]);
        assert_eq!(m.nodes[1].mesh.as_ref().unwrap().strips[0].indices, vec![0, 1, -1]);
        // Rest world by hand: node 0 turns a quarter about Z at (0,2,0); node 1 sits 3 units
        // along node 0's X, i.e. at world (0, 5, 0).
        let w = m.rest_world();
        assert!((w[1].w_axis.truncate() - Vec3::new(0.0, 5.0, 0.0)).length() < 1e-6);
    }

    #[test]
    fn strip_stream_opcodes_by_hand() {
        // A hand-written stream: skip words, 0x0E + 10 bytes, texture 3, 0x08 + u16, then a
        // 0x1C strip (UV + BGRA) of 3 vertices with UVH still at its default (/65536), then
        // attributes clearing UVH, UV size 256, and a reversed 0x11 strip, then the end.
        let mut s: Vec<u8> = Vec::new();
        let mut u16s = |v: &[u16]| v.iter().for_each(|x| s.extend_from_slice(&x.to_le_bytes()));
        u16s(&[0x0000, 0xFFFF, 0x000E, 0, 0, 0, 0, 0, 0x0009, 3, 0x0008, 7]);
        u16s(&[0x001C, 0, 1, 3]);
        u16s(&[0, 0x8000, 0x4000]);
        u16s(&[0x0201, 0x0403]);
        u16s(&[1, 0, 0xFFFF, 0, 0]);
        u16s(&[2, 0, 0, 0, 0]);
        u16s(&[0x0002, 2, 0x0000, 0x000B, 256, 0x0011, 0, 1, (-3i16) as u16, 0, 128, 0, 1, 0, 0, 2, 0, 0]);
        u16s(&[0x8000]);
        // Ten opcodes: 0x0000, 0xFFFF, 0x0E, 0x09, 0x08, 0x1C, 0x02, 0x0B, 0x11, 0x8000.
        let (strips, ops) = parse_strips(&s, 0, 3, 0, Limits::default().max_strip_ops).unwrap();
        assert_eq!(ops, 10);
        assert!(parse_strips(&s, 0, 3, 0, 10).is_ok());
        let e = parse_strips(&s, 0, 3, 0, 9).unwrap_err();
        assert!(e.to_string().contains("limit `max_strip_ops` (9) exceeded"), "{e}");
        assert_eq!(strips.len(), 2);
        assert_eq!(strips[0].texture, 3);
        assert_eq!(strips[0].indices, vec![0, 1, 2]);
        // 0x8000 and 0x4000 read as signed i16: -0.5 and 0.25 of 65536.
        assert_eq!(strips[0].uvs.as_ref().unwrap()[0], Vec2::new(-0.5, 0.25));
        assert_eq!(strips[0].colors.as_ref().unwrap()[0], [1, 2, 3, 4]);
        assert_eq!(strips[0].uvs.as_ref().unwrap()[1], Vec2::new(0.0, -1.0 / 65536.0));
        assert!(strips[1].reversed);
        assert_eq!(strips[1].uvs.as_ref().unwrap()[0], Vec2::new(0.5, 0.0));
        assert_eq!(strip_triangles(&strips[1]), vec![[1, 0, 2]]);
        // An index past this node's 3 vertices (and no parent) is an error at its offset.
        let e = parse_strips(&s, 0, 2, 0, Limits::default().max_strip_ops).unwrap_err();
        assert_eq!(e.offset, Some(24 + 8 + 10 + 10));
        // An unknown opcode too.
        let e = parse_strips(&[0x01, 0x00, 0x00, 0x80], 0, 3, 0, Limits::default().max_strip_ops).unwrap_err();
        assert!(e.to_string().contains("unknown strip opcode 0x0001"), "{e}");
    }

    #[test]
    fn texd_lists_texn_and_name_ids() {
        // Written by hand from the layout: a 16-byte TEXD header, a TEXN node (id + a stub
        // PVRT), a NAME node with two ids.
        let mut d = Vec::new();
        d.extend_from_slice(b"TEXD");
        d.extend_from_slice(&16u32.to_le_bytes());
        d.extend_from_slice(&2u32.to_le_bytes());
        d.extend_from_slice(&[0; 4]);
        d.extend_from_slice(b"TEXN");
        d.extend_from_slice(&24u32.to_le_bytes());
        d.extend_from_slice(b"ID000001PVRT\0\0\0\0");
        d.extend_from_slice(b"NAME");
        d.extend_from_slice(&24u32.to_le_bytes());
        d.extend_from_slice(b"ID000002ID000003");
        // A node of another kind, skipped by its size (and said so).
        d[8] = 3;
        d.extend_from_slice(b"PVRT");
        d.extend_from_slice(&12u32.to_le_bytes());
        d.extend_from_slice(&[0; 4]);
        let mut skipped = Vec::new();
        let ids = parse_texd(&d, 0, &mut skipped, &Limits::default()).unwrap();
        assert_eq!(ids, vec![*b"ID000001", *b"ID000002", *b"ID000003"]);
        // Three nodes against `max_texd_nodes` = 2: an error naming it, at the first node.
        let low = Limits { max_texd_nodes: 2, ..Limits::default() };
        let e = parse_texd(&d, 0, &mut Vec::new(), &low).unwrap_err();
        assert_eq!(e.limit_name(), Some("max_texd_nodes"), "{e}");
        assert_eq!(e.offset, Some(0x10), "{e}");
        assert_eq!(skipped.len(), 2, "{skipped:?}");
        assert_eq!(skipped[0].0, 0);
        assert!(skipped[0].1.contains("1 TEXN node(s)"), "{skipped:?}");
        assert_eq!(skipped[1].0, 0x10 + 24 + 24);
        assert!(skipped[1].1.contains("1 node(s) neither TEXN nor NAME") && skipped[1].1.contains("PVRT"));
        // A node size that runs past the end is an error at that size field.
        d[0x10 + 24 + 4 + 1] = 0xFF;
        assert_eq!(parse_texd(&d, 0, &mut skipped, &Limits::default()).unwrap_err().offset, Some(0x10 + 24 + 4));
    }

    #[test]
    fn rejects_bad_indices_and_cycles() {
        let mut d = two_nodes();
        // Point node 0's child at itself: a cycle.
        let first = u32::from_le_bytes(d[8..12].try_into().unwrap()) as usize;
        let me = (first as u32).to_le_bytes();
        d[first + 0x2C..first + 0x30].copy_from_slice(&me);
        let e = Mt5::parse(&d).unwrap_err();
        assert!(e.to_string().contains("cycle"), "{e}");
    }
}
