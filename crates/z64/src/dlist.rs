//! F3DEX2 display lists of a skeleton's limbs, decoded into meshes: vertex loads (G_VTX),
//! triangles (G_TRI1, G_TRI2, G_QUAD), calls and branches (G_DL, G_ENDDL), and the matrix
//! loads flex skeletons use to reach other limbs' matrices (G_MTX from segment 0x0D, where
//! the game puts one `Mtx` per limb with a display list, in draw order). Textures, colours and
//! render state are not decoded. Display lists or vertices in segments no given file provides
//! (textures swapped at run time, eyes, ...) are skipped. Animated Skin limbs' lists read their
//! vertices from the buffer [`crate::skin`] computes (segment 8).

use crate::layout::*;
use crate::segment::{be32, Ctx};
use crate::skeleton::SkelDef;
use crate::texture;
use boneyard_core::model::{Mesh, MeshBinding};
use glam::{Mat4, Vec3};
use std::collections::HashMap;

const G_VTX: u8 = 0x01;
const G_TRI1: u8 = 0x05;
const G_TRI2: u8 = 0x06;
const G_QUAD: u8 = 0x07;
const G_POPMTX: u8 = 0xD8;
const G_MTX: u8 = 0xDA;
const G_DL: u8 = 0xDE;
const G_ENDDL: u8 = 0xDF;
/// Display-list call depth the RSP allows (F3DEX2: 10).
const MAX_DEPTH: usize = 10;
/// Commands decoded per limb at most (hostile loops).
const MAX_COMMANDS: usize = 1 << 16;
/// Commands all the skeletons of a document may run together, and texels they may decode:
/// without a shared budget, a small file of many 255-limb skeletons whose lists loop costs
/// 65536 commands a limb each (minutes), or decodes 64 textures a limb (gigabytes).
pub const MAX_DOCUMENT_COMMANDS: usize = 1 << 21;
/// Texels all the skeletons of a document may decode together (see [`MAX_DOCUMENT_COMMANDS`]).
pub const MAX_DOCUMENT_TEXELS: usize = 1 << 24;

/// What is left of a document's display-list budget (see [`MAX_DOCUMENT_COMMANDS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Display-list commands left.
    pub commands: usize,
    /// Texels left.
    pub texels: usize,
    /// Skin vertex and transformation entries ([`crate::skin::MAX_DOCUMENT_SKIN_ENTRIES`]).
    pub skin_entries: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            commands: MAX_DOCUMENT_COMMANDS,
            texels: MAX_DOCUMENT_TEXELS,
            skin_entries: crate::skin::MAX_DOCUMENT_SKIN_ENTRIES,
        }
    }
}
const VTX_CACHE: usize = 32;

/// Something the mesh decoder left out or could not follow: where (a byte offset in `file`,
/// when known) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeshNote {
    /// The file holding the bytes (None: the skeleton's own file).
    pub file: Option<String>,
    /// Byte offset of the display list, limb or data concerned.
    pub offset: Option<u64>,
    /// What was left out, and why.
    pub message: String,
}

/// A note before notes saying the same thing about the same bytes are merged: `subject` is
/// the limb or mesh it was met in.
struct RawNote {
    file: Option<String>,
    offset: Option<u64>,
    message: String,
    subject: String,
}

/// Notes one skeleton's meshes give at most (after merging), and limbs or meshes one note
/// names at most: a hostile skeleton of 255 broken limbs says so in a bounded text.
pub const MAX_NOTES_PER_SKELETON: usize = 32;
const MAX_SUBJECTS_PER_NOTE: usize = 16;

/// One note per (file, message), in first-met order, naming every limb or mesh it concerns
/// (the offset is the first one's): a texture missing from ten meshes is one note.
fn merge_notes(raw: Vec<RawNote>) -> Vec<MeshNote> {
    let mut out: Vec<(MeshNote, Vec<String>, usize)> = Vec::new();
    let mut index: HashMap<(Option<String>, String), usize> = HashMap::new();
    for r in raw {
        match index.get(&(r.file.clone(), r.message.clone())) {
            Some(&i) => {
                let (_, subjects, n) = &mut out[i];
                *n += 1;
                if subjects.len() < MAX_SUBJECTS_PER_NOTE {
                    subjects.push(r.subject);
                }
            }
            None => {
                index.insert((r.file.clone(), r.message.clone()), out.len());
                out.push((MeshNote { file: r.file, offset: r.offset, message: r.message }, vec![r.subject], 1));
            }
        }
    }
    let total = out.len();
    let mut notes: Vec<MeshNote> = out
        .into_iter()
        .take(MAX_NOTES_PER_SKELETON)
        .map(|(mut note, subjects, n)| {
            let more = if n > subjects.len() { format!(" and {} more", n - subjects.len()) } else { String::new() };
            note.message = format!("{} ({}{more})", note.message, subjects.join(", "));
            note
        })
        .collect();
    if total > MAX_NOTES_PER_SKELETON {
        let first = notes.first().map(|n| (n.file.clone(), n.offset)).unwrap_or((None, None));
        notes.push(MeshNote {
            file: first.0,
            offset: first.1,
            message: format!("{} more notes about these meshes not listed", total - MAX_NOTES_PER_SKELETON),
        });
    }
    notes
}

/// Decode the meshes of every limb with a display list (LOD: the near one). `rest_world` are
/// the rest-pose world matrices by limb, used to put skinned vertices in model space.
/// Animated Skin limbs (segmentType 4) become skinned meshes ([`crate::skin`]).
/// Returns the meshes and notes about what could not be decoded; errors in skin limb data are
/// errors when `strict` (a file the asset table names), notes otherwise. Meshes are named
/// after the display lists `names` (the asset table's reading chosen for the file) names.
/// Curve limbs draw both their display lists (`SkelCurve_DrawLimb` at lod 1).
pub fn skeleton_meshes(
    ctx: &Ctx,
    s: &SkelDef,
    rest_world: &[Mat4],
    budget: &mut Budget,
    strict: bool,
    names: Option<&crate::names::Variant>,
) -> boneyard_core::Result<(Vec<Mesh>, Vec<MeshNote>)> {
    let mut meshes = Vec::new();
    let mut notes = Vec::new();
    let limb_at = |l: usize| Some(ctx.home_offset(s.limbs[l].addr));
    // Flex matrix slots: limbs with a display list, in draw order.
    let slots: Vec<usize> = s.order.iter().copied().filter(|&l| s.limbs[l].dlists[0] != 0).collect();
    let flex = s.ty.binds_matrix_segment();
    let skin_mats = s
        .limbs
        .iter()
        .any(|l| matches!(l.skin, Some((SKIN_LIMB_TYPE_ANIMATED, seg)) if seg != 0))
        .then(|| crate::skin::limb_matrices(s, None));
    let curve = s.ty == crate::skeleton::SkelType::Curve;
    'limbs: for &l in &s.order {
        let skin = match (s.limbs[l].skin, &skin_mats) {
            (Some((SKIN_LIMB_TYPE_ANIMATED, seg)), Some(mats)) if seg != 0 => {
                match crate::skin::read_animated_limb(ctx, s, l, seg, mats, &mut budget.skin_entries) {
                    Ok(m) => Some(m),
                    Err(e) if strict => return Err(e),
                    Err(e) => {
                        notes.push(RawNote {
                            file: e.file.clone(),
                            offset: e.offset.or_else(|| limb_at(l)),
                            message: format!("skin data not read, the mesh is left out: {}", e.kind),
                            subject: format!("limb {l}"),
                        });
                        continue;
                    }
                }
            }
            _ => None,
        };
        // Curve limbs: `SkelCurve_DrawLimb` at lod 1 (what the game's callers pass) draws
        // dList[0] then dList[1]; other limbs draw their (near) display list.
        let lists: Vec<u32> = match &skin {
            Some(m) => vec![m.dlist],
            None if curve => s.limbs[l].dlists.to_vec(),
            None => vec![s.limbs[l].dlists[0]],
        };
        for dl in lists {
            if dl == 0 {
                continue;
            }
            if budget.commands == 0 {
                notes.push(RawNote {
                    file: None,
                    offset: limb_at(l),
                    message: format!(
                        "meshes not decoded, the document's budget of {MAX_DOCUMENT_COMMANDS} display list commands is used up"
                    ),
                    subject: format!("limb {l} and after"),
                });
                break 'limbs;
            }
            let vtx_buf = skin.as_ref().map(|m| m.vtx_bytes());
            let mut d = Decoder::new(ctx, l, &slots, flex, &mut budget.commands);
            d.skin_vertices = vtx_buf.as_deref();
            let run = d.run(dl);
            for (message, subject) in d.skipped.describe(l) {
                // At the limb's display list (the calls are in it or in what it calls).
                let (seg, off) = split_segmented(dl);
                let fi = ctx.map.get(seg as usize).copied().flatten();
                notes.push(RawNote {
                    file: fi.filter(|&fi| fi != ctx.home).map(|fi| ctx.files[fi].name.clone()),
                    offset: fi.map(|_| off as u64).or_else(|| limb_at(l)),
                    message,
                    subject: format!("{subject}, display list {dl:#010x}"),
                });
            }
            if let Err(msg) = run {
                // The display list's own offset, in the file its segment is bound to (none when
                // the segment is bound to no file).
                let (seg, off) = split_segmented(dl);
                let fi = ctx.map.get(seg as usize).copied().flatten();
                notes.push(RawNote {
                    file: fi.filter(|&fi| fi != ctx.home).map(|fi| ctx.files[fi].name.clone()),
                    offset: fi.map(|_| off as u64),
                    message: format!("display list {dl:#010x} not drawn past: {msg}"),
                    subject: format!("limb {l}"),
                });
            }
            let base = names
                .and_then(|v| v.name_at(dl & 0xFF_FFFF, 'D'))
                .map(str::to_string)
                .unwrap_or_else(|| format!("limb_{l:02}_dl_{:06X}", dl & 0xFF_FFFF));
            let groups: Vec<Group> = d.groups.into_iter().filter(|g| !g.indices.is_empty()).collect();
            let many = groups.len() > 1;
            for (gi, g) in groups.into_iter().enumerate() {
                let name = if many { format!("{base}_{gi}") } else { base.clone() };
                let mesh = match &skin {
                    Some(m) => g.into_skin_mesh(ctx, name, (s, l), m, &mut budget.texels, &mut notes),
                    None => g.into_mesh(ctx, name, (s, l), rest_world, &mut budget.texels, &mut notes),
                };
                meshes.push(mesh);
            }
        }
    }
    Ok((meshes, merge_notes(notes)))
}

/// Texture state at a triangle: (image address, format, size, width, height, palette address).
type TexKey = (u32, u8, u8, usize, usize, Option<u32>);

/// One vertex as loaded into the vertex cache.
#[derive(Clone, Copy)]
struct Vtx {
    addr: u32,
    bone: usize,
    pos: Vec3,
    st: [i16; 2],
    /// Vertex colour (lighting off) or white with the vertex alpha (lighting on).
    color: [f32; 4],
}

/// Triangles sharing one texture.
struct Group {
    tex: Option<TexKey>,
    /// The G_SETTIMG command that named the texture.
    tex_cmd: u32,
    scale: [f32; 2],
    origin: [f32; 2],
    positions: Vec<Vec3>,
    bones: Vec<usize>,
    st: Vec<[i16; 2]>,
    colors: Vec<[f32; 4]>,
    indices: Vec<u32>,
    seen: HashMap<(u32, usize), u32>,
}

impl Group {
    fn into_mesh(
        mut self,
        ctx: &Ctx,
        name: String,
        (s, limb): (&SkelDef, usize),
        rest_world: &[Mat4],
        texels: &mut usize,
        notes: &mut Vec<RawNote>,
    ) -> Mesh {
        let rigid = self.bones.iter().all(|&b| b == limb);
        let mesh = if rigid {
            Mesh::rigid(
                name,
                s.bone_of_limb[limb],
                std::mem::take(&mut self.positions),
                std::mem::take(&mut self.indices),
            )
        } else {
            let positions = self
                .positions
                .iter()
                .zip(&self.bones)
                .map(|(p, &b)| rest_world.get(b).map(|m| m.transform_point3(*p)).unwrap_or(*p))
                .collect();
            let joints = self.bones.iter().map(|&b| [s.bone_of_limb[b] as u16, 0, 0, 0]).collect();
            let weights = vec![[1.0, 0.0, 0.0, 0.0]; self.bones.len()];
            let mut m = Mesh::rigid(name, 0, positions, std::mem::take(&mut self.indices));
            m.binding = MeshBinding::Skinned { joints, weights };
            m
        };
        self.finish(ctx, mesh, texels, notes)
    }

    /// Colours and the texture (within the document's texel budget); a texture not decoded is
    /// a note.
    fn finish(self, ctx: &Ctx, mut mesh: Mesh, texels: &mut usize, notes: &mut Vec<RawNote>) -> Mesh {
        mesh.colors = Some(self.colors);
        mesh.base_color = [1.0, 1.0, 1.0, 1.0];
        let Some((addr, fmt, siz, w, h, tlut)) = self.tex else { return mesh };
        // Where the texture is, for the note when it is not decoded; in a segment bound to no
        // file, the command that names it.
        let (seg, off) = split_segmented(addr);
        let fi = ctx.map.get(seg as usize).copied().flatten();
        let (cmd_seg, cmd_off) = split_segmented(self.tex_cmd);
        let cmd_fi = ctx.map.get(cmd_seg as usize).copied().flatten();
        let (fi_at, off_at) = match fi {
            Some(_) => (fi, off),
            None => (cmd_fi, cmd_off),
        };
        let mut note = |why: String| {
            notes.push(RawNote {
                file: fi_at.filter(|&fi| fi != ctx.home).map(|fi| ctx.files[fi].name.clone()),
                offset: fi_at.map(|_| off_at as u64),
                message: format!("texture {addr:#010x} ({w}x{h}, format {fmt}, size {siz}) not decoded: {why}"),
                subject: mesh.name.clone(),
            })
        };
        if w.saturating_mul(h) > texture::MAX_TEXELS.min(*texels) {
            note(format!("more texels than the document's budget left ({})", texture::MAX_TEXELS.min(*texels)));
        } else {
            *texels -= w * h;
            let bytes = (w * h * texture::bits(siz)).div_ceil(8);
            let data = ctx.bytes(addr, bytes, 0).ok();
            let pal = tlut.and_then(|t| ctx.tail(t, 0).ok());
            let decoded = data.and_then(|d| texture::decode(fmt, siz, w, h, d, pal));
            if decoded.is_none() {
                note(match (data, fi) {
                    (_, None) => format!("segment {seg:#X} is bound to no file (the actor binds it at run time)"),
                    (None, _) => format!("its {bytes} bytes are not in the file"),
                    _ => "the format or its palette is not readable".to_string(),
                });
            }
            if let Some(t) = decoded {
                let (sx, sy) = (self.scale[0] / (32.0 * w as f32), self.scale[1] / (32.0 * h as f32));
                let (ox, oy) = (self.origin[0] / w as f32, self.origin[1] / h as f32);
                mesh.uvs = Some(
                    self.st.iter().map(|st| glam::Vec2::new(st[0] as f32 * sx - ox, st[1] as f32 * sy - oy)).collect(),
                );
                mesh.texture = Some(t);
            }
        }
        mesh
    }

    /// An animated Skin limb's triangles: vertices from the limb's buffer (segment 8) are in
    /// model space and follow their modification's limbs; any other vertex is drawn under the
    /// actor's matrix alone, which the nearest a skin can say is the root bone.
    fn into_skin_mesh(
        mut self,
        ctx: &Ctx,
        name: String,
        (s, limb): (&SkelDef, usize),
        skin: &crate::skin::SkinLimbMesh,
        texels: &mut usize,
        notes: &mut Vec<RawNote>,
    ) -> Mesh {
        let mut addrs = vec![0u32; self.positions.len()];
        for (&(addr, _), &i) in &self.seen {
            if let Some(a) = addrs.get_mut(i as usize) {
                *a = addr;
            }
        }
        let n = addrs.len();
        let (mut joints, mut weights, mut normals) =
            (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
        let mut outside = 0;
        for &addr in &addrs {
            let (seg, off) = split_segmented(addr);
            let v = (seg == SEG_SKIN_VERTICES && (off as usize).is_multiple_of(VTX_SIZE))
                .then(|| skin.vertices.get(off as usize / VTX_SIZE))
                .flatten()
                .and_then(|v| v.as_ref());
            match v {
                Some(v) => {
                    let (j, w) = crate::skin::lbs_weights(s, &v.influences);
                    joints.push(j);
                    weights.push(w);
                    let nv = Vec3::new(v.normal[0] as f32, v.normal[1] as f32, v.normal[2] as f32);
                    normals.push(nv.try_normalize().unwrap_or(Vec3::Y));
                }
                None => {
                    outside += 1;
                    joints.push([s.bone_of_limb.first().copied().unwrap_or(0) as u16, 0, 0, 0]);
                    weights.push([1.0, 0.0, 0.0, 0.0]);
                    normals.push(Vec3::Y);
                }
            }
        }
        if outside > 0 {
            notes.push(RawNote {
                file: None,
                offset: Some(ctx.home_offset(s.limbs[limb].addr)),
                message: format!("{outside} vertices not from the skin buffer follow the root"),
                subject: name.clone(),
            });
        }
        let mut mesh = Mesh::rigid(name, 0, std::mem::take(&mut self.positions), std::mem::take(&mut self.indices));
        mesh.binding = MeshBinding::Skinned { joints, weights };
        mesh.normals = Some(normals);
        self.finish(ctx, mesh, texels, notes)
    }
}

#[derive(Clone, Copy, Default)]
struct Tile {
    fmt: u8,
    siz: u8,
    palette: u8,
    size: [u16; 4],
}

struct Decoder<'a, 'b> {
    ctx: &'b Ctx<'a>,
    limb: usize,
    /// The limb whose matrix is loaded (vertices are in its space).
    bone: usize,
    slots: &'b [usize],
    flex: bool,
    /// The document's commands left (shared by every limb and skeleton).
    commands_left: &'b mut usize,
    cache: [Option<Vtx>; VTX_CACHE],
    groups: Vec<Group>,
    /// G_SETTIMG: (address, format, size).
    timg: (u32, u8, u8),
    /// Where the last G_SETTIMG command is (for notes about its texture).
    timg_cmd: u32,
    /// The image last loaded into TMEM and the last palette.
    loaded: Option<u32>,
    tlut: Option<u32>,
    tiles: [Tile; 8],
    tex_on: bool,
    tex_scale: [f32; 2],
    lighting: bool,
    /// An animated Skin limb's Vtx buffer, which the game binds to segment 8.
    skin_vertices: Option<&'b [u8]>,
    /// What was not followed or drawn, told once per limb after the run.
    skipped: Skipped,
}

/// What one limb's display list run left out.
#[derive(Default)]
struct Skipped {
    /// Display lists in segments no file is bound to (bound at run time by the actor: eyes,
    /// materials), by segment: how many calls.
    unbound: std::collections::BTreeMap<u8, usize>,
    /// G_VTX loads whose bytes are not there, and the first one's address.
    vertex_loads: usize,
    first_vertex_load: Option<u32>,
    /// Triangles using a vertex not loaded.
    triangles_without_vertices: usize,
    /// Triangles past the limb's [`MAX_GROUPS`] textures.
    triangles_past_groups: usize,
}

impl Skipped {
    /// What was skipped, as (message, subject) pairs for limb `l`.
    fn describe(&self, l: usize) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .unbound
            .iter()
            .map(|(seg, n)| {
                let message = format!(
                    "display lists in segment {seg:#X}, which no file is bound to (the actor binds it at run time), not followed"
                );
                (message, format!("limb {l}: {n} calls"))
            })
            .collect();
        let mut parts = Vec::new();
        if self.vertex_loads > 0 {
            parts.push(format!(
                "{} vertex loads not readable (the first from {:#010x})",
                self.vertex_loads,
                self.first_vertex_load.unwrap_or(0)
            ));
        }
        if self.triangles_without_vertices > 0 {
            parts.push(format!("{} triangles using vertices not loaded left out", self.triangles_without_vertices));
        }
        if self.triangles_past_groups > 0 {
            parts.push(format!(
                "{} triangles past the limb's {MAX_GROUPS} textures left out",
                self.triangles_past_groups
            ));
        }
        if !parts.is_empty() {
            out.push((parts.join("; "), format!("limb {l}")));
        }
        out
    }
}

const G_TEXTURE: u8 = 0xD7;
const G_GEOMETRYMODE: u8 = 0xD9;
const G_LOADTLUT: u8 = 0xF0;
const G_SETTILESIZE: u8 = 0xF2;
const G_LOADBLOCK: u8 = 0xF3;
const G_LOADTILE: u8 = 0xF4;
const G_SETTILE: u8 = 0xF5;
const G_SETTIMG: u8 = 0xFD;
/// F3DEX2 G_LIGHTING geometry-mode bit.
const G_LIGHTING: u32 = 0x0020_0000;
/// Groups (textures) per limb at most.
const MAX_GROUPS: usize = 64;

impl<'a, 'b> Decoder<'a, 'b> {
    fn new(ctx: &'b Ctx<'a>, limb: usize, slots: &'b [usize], flex: bool, commands_left: &'b mut usize) -> Self {
        Decoder {
            ctx,
            limb,
            bone: limb,
            slots,
            flex,
            commands_left,
            cache: [None; VTX_CACHE],
            groups: Vec::new(),
            timg: (0, 0, 0),
            timg_cmd: 0,
            loaded: None,
            tlut: None,
            tiles: [Tile::default(); 8],
            tex_on: false,
            tex_scale: [1.0; 2],
            lighting: true,
            skin_vertices: None,
            skipped: Skipped::default(),
        }
    }

    /// The group for the current texture state (created on first use).
    fn group(&mut self) -> Option<usize> {
        let t = self.tiles[0];
        let key = match (self.tex_on, self.loaded) {
            (true, Some(addr)) => {
                let w = ((t.size[2].saturating_sub(t.size[0])) >> 2) as usize + 1;
                let h = ((t.size[3].saturating_sub(t.size[1])) >> 2) as usize + 1;
                let pal = (t.fmt == texture::FMT_CI)
                    .then(|| self.tlut.map(|p| p.wrapping_add(if t.siz == 0 { t.palette as u32 * 32 } else { 0 })))
                    .flatten();
                Some((addr, t.fmt, t.siz, w, h, pal))
            }
            _ => None,
        };
        if let Some(i) = self.groups.iter().position(|g| g.tex == key) {
            return Some(i);
        }
        if self.groups.len() >= MAX_GROUPS {
            return None;
        }
        self.groups.push(Group {
            tex: key,
            tex_cmd: self.timg_cmd,
            scale: self.tex_scale,
            origin: [t.size[0] as f32 / 4.0, t.size[1] as f32 / 4.0],
            positions: Vec::new(),
            bones: Vec::new(),
            st: Vec::new(),
            colors: Vec::new(),
            indices: Vec::new(),
            seen: HashMap::new(),
        });
        Some(self.groups.len() - 1)
    }
    fn run(&mut self, start: u32) -> Result<(), String> {
        let mut stack: Vec<u32> = Vec::new();
        let mut pc = start;
        for _ in 0..MAX_COMMANDS {
            let Some(left) = self.commands_left.checked_sub(1) else {
                return Err(format!(
                    "stopped: the document's budget of {MAX_DOCUMENT_COMMANDS} display list commands is used up"
                ));
            };
            *self.commands_left = left;
            let Ok(cmd) = self.ctx.bytes(pc, 8, 0) else {
                // A display list in a segment nobody provides: skip it, as if it were empty.
                if stack.is_empty() && pc == start && !self.ctx.is_valid(pc) {
                    *self.skipped.unbound.entry(split_segmented(pc).0).or_default() += 1;
                    return Ok(());
                }
                return Err(format!("command at {pc:#010x} is outside its segment"));
            };
            let w0 = be32(cmd, 0).unwrap_or(0);
            let w1 = be32(cmd, 4).unwrap_or(0);
            pc = pc.wrapping_add(8);
            match cmd[0] {
                G_VTX => self.vtx(w0, w1),
                G_TRI1 => self.tri(w0),
                G_TRI2 | G_QUAD => {
                    self.tri(w0);
                    self.tri(w1);
                }
                G_MTX => {
                    let (seg, off) = split_segmented(w1);
                    // F3DEX2 param byte: G_MTX_PROJECTION (4) loads the projection, not ours.
                    let projection = w0 & 0x04 != 0;
                    if self.flex && !projection && seg == SEG_FLEX_MATRICES && off % MTX_SIZE == 0 {
                        if let Some(&l) = self.slots.get((off / MTX_SIZE) as usize) {
                            self.bone = l;
                        }
                    }
                }
                G_POPMTX => self.bone = self.limb,
                G_TEXTURE => {
                    self.tex_on = w0 & 0xFF != 0;
                    let sc = |v: u32| if v == 0 { 1.0 } else { v as f32 / 65536.0 };
                    self.tex_scale = [sc(w1 >> 16), sc(w1 & 0xFFFF)];
                }
                G_GEOMETRYMODE => {
                    let mode = if self.lighting { G_LIGHTING } else { 0 };
                    self.lighting = ((mode & w0) | w1) & G_LIGHTING != 0;
                }
                G_SETTIMG => {
                    self.timg = (w1, ((w0 >> 21) & 7) as u8, ((w0 >> 19) & 3) as u8);
                    self.timg_cmd = pc.wrapping_sub(8);
                }
                G_LOADBLOCK | G_LOADTILE => self.loaded = Some(self.timg.0),
                G_LOADTLUT => self.tlut = Some(self.timg.0),
                G_SETTILE => {
                    let t = &mut self.tiles[((w1 >> 24) & 7) as usize];
                    t.fmt = ((w0 >> 21) & 7) as u8;
                    t.siz = ((w0 >> 19) & 3) as u8;
                    t.palette = ((w1 >> 20) & 0xF) as u8;
                }
                G_SETTILESIZE => {
                    let t = &mut self.tiles[((w1 >> 24) & 7) as usize];
                    t.size = [
                        ((w0 >> 12) & 0xFFF) as u16,
                        (w0 & 0xFFF) as u16,
                        ((w1 >> 12) & 0xFFF) as u16,
                        (w1 & 0xFFF) as u16,
                    ];
                }
                G_DL => {
                    let call = (w0 >> 16) & 0xFF == 0;
                    if !self.ctx.is_valid(w1) {
                        // Unbound segment (run-time textures, eyes): skipped, and told.
                        *self.skipped.unbound.entry(split_segmented(w1).0).or_default() += 1;
                        continue;
                    }
                    if call {
                        if stack.len() >= MAX_DEPTH {
                            return Err("display list calls nest too deep".into());
                        }
                        stack.push(pc);
                    }
                    pc = w1;
                }
                G_ENDDL => match stack.pop() {
                    Some(ret) => pc = ret,
                    None => return Ok(()),
                },
                _ => {}
            }
        }
        Err(format!("more than {MAX_COMMANDS} commands (a loop?)"))
    }

    fn vtx(&mut self, w0: u32, addr: u32) {
        let n = ((w0 >> 12) & 0xFF) as usize;
        let end = ((w0 >> 1) & 0x7F) as usize;
        if n == 0 || n > end || end > VTX_CACHE {
            return;
        }
        let v0 = end - n;
        let data = match (split_segmented(addr), self.skin_vertices) {
            ((SEG_SKIN_VERTICES, off), Some(buf)) => {
                (off as usize).checked_add(n * VTX_SIZE).and_then(|end| buf.get(off as usize..end))
            }
            _ => self.ctx.bytes(addr, n * VTX_SIZE, 0).ok(),
        };
        if data.is_none() {
            self.skipped.vertex_loads += 1;
            self.skipped.first_vertex_load.get_or_insert(addr);
        }
        for i in 0..n {
            self.cache[v0 + i] = data.map(|d| {
                let b = &d[i * VTX_SIZE..(i + 1) * VTX_SIZE];
                let s = |o: usize| i16::from_be_bytes([b[o], b[o + 1]]);
                let c = |o: usize| b[o] as f32 / 255.0;
                let color = if self.lighting { [1.0, 1.0, 1.0, c(15)] } else { [c(12), c(13), c(14), c(15)] };
                Vtx {
                    addr: addr.wrapping_add((i * VTX_SIZE) as u32),
                    bone: self.bone,
                    pos: Vec3::new(s(0) as f32, s(2) as f32, s(4) as f32),
                    st: [s(8), s(10)],
                    color,
                }
            });
        }
    }

    fn tri(&mut self, w: u32) {
        let idx = [(w >> 16) & 0xFF, (w >> 8) & 0xFF, w & 0xFF].map(|v| (v / 2) as usize);
        let Some(vs) = idx.iter().map(|&i| self.cache.get(i).copied().flatten()).collect::<Option<Vec<Vtx>>>() else {
            self.skipped.triangles_without_vertices += 1;
            return;
        };
        // A degenerate triangle draws nothing: nothing is left out.
        if idx[0] == idx[1] || idx[1] == idx[2] || idx[0] == idx[2] {
            return;
        }
        let Some(gi) = self.group() else {
            self.skipped.triangles_past_groups += 1;
            return;
        };
        let g = &mut self.groups[gi];
        for v in vs {
            let next = g.positions.len() as u32;
            let at = *g.seen.entry((v.addr, v.bone)).or_insert(next);
            if at == next {
                g.positions.push(v.pos);
                g.bones.push(v.bone);
                g.st.push(v.st);
                g.colors.push(v.color);
            }
            g.indices.push(at);
        }
    }
}
