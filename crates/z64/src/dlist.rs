//! F3DEX2 display lists of a skeleton's limbs, decoded into meshes: vertex loads (G_VTX),
//! triangles (G_TRI1, G_TRI2, G_QUAD), calls and branches (G_DL, G_ENDDL), and the matrix
//! loads flex skeletons use to reach other limbs' matrices (G_MTX from segment 0x0D, where
//! the game puts one `Mtx` per limb with a display list, in draw order). Textures, colours and
//! render state are not decoded. Display lists or vertices in segments no given file provides
//! (textures swapped at run time, eyes, ...) are skipped.

use crate::layout::*;
use crate::segment::{be32, Ctx};
use crate::skeleton::{SkelDef, SkelType};
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
const VTX_CACHE: usize = 32;

/// Decode the meshes of every limb with a display list (LOD: the near one). `rest_world` are
/// the rest-pose world matrices by limb, used to put skinned vertices in model space.
/// Returns the meshes and notes about what could not be decoded.
pub fn skeleton_meshes(ctx: &Ctx, s: &SkelDef, rest_world: &[Mat4]) -> (Vec<Mesh>, Vec<String>) {
    let mut meshes = Vec::new();
    let mut notes = Vec::new();
    // Flex matrix slots: limbs with a display list, in draw order.
    let slots: Vec<usize> = s.order.iter().copied().filter(|&l| s.limbs[l].dlists[0] != 0).collect();
    let flex = matches!(s.ty, SkelType::Flex { .. });
    for &l in &s.order {
        let dl = s.limbs[l].dlists[0];
        if dl == 0 {
            continue;
        }
        let mut d =
            Decoder { ctx, limb: l, bone: l, slots: &slots, flex, cache: [None; VTX_CACHE], out: Out::default() };
        if let Err(msg) = d.run(dl) {
            notes.push(format!("limb {l}: display list {dl:#010x}: {msg}"));
        }
        let out = d.out;
        if out.indices.is_empty() {
            continue;
        }
        let name = crate::names::name_at(&ctx.home_file().stem, dl & 0xFF_FFFF, 'D')
            .map(str::to_string)
            .unwrap_or_else(|| format!("limb_{l:02}_dl_{:06X}", dl & 0xFF_FFFF));
        let rigid = out.bones.iter().all(|&b| b == l);
        let mut mesh = if rigid {
            Mesh::rigid(name, s.bone_of_limb[l], out.positions, out.indices)
        } else {
            let positions = out
                .positions
                .iter()
                .zip(&out.bones)
                .map(|(p, &b)| rest_world.get(b).map(|m| m.transform_point3(*p)).unwrap_or(*p))
                .collect();
            let joints = out.bones.iter().map(|&b| [s.bone_of_limb[b] as u16, 0, 0, 0]).collect();
            let weights = vec![[1.0, 0.0, 0.0, 0.0]; out.bones.len()];
            let mut m = Mesh::rigid(name, 0, positions, out.indices);
            m.binding = MeshBinding::Skinned { joints, weights };
            m
        };
        mesh.base_color = [0.75, 0.72, 0.65, 1.0];
        meshes.push(mesh);
    }
    (meshes, notes)
}

#[derive(Default)]
struct Out {
    positions: Vec<Vec3>,
    bones: Vec<usize>,
    indices: Vec<u32>,
    seen: HashMap<(u32, usize), u32>,
}

struct Decoder<'a, 'b> {
    ctx: &'b Ctx<'a>,
    limb: usize,
    /// The limb whose matrix is loaded (vertices are in its space).
    bone: usize,
    slots: &'b [usize],
    flex: bool,
    cache: [Option<u32>; VTX_CACHE],
    out: Out,
}

impl Decoder<'_, '_> {
    fn run(&mut self, start: u32) -> Result<(), String> {
        let mut stack: Vec<u32> = Vec::new();
        let mut pc = start;
        for _ in 0..MAX_COMMANDS {
            let Ok(cmd) = self.ctx.bytes(pc, 8, 0) else {
                // A display list in a segment nobody provides: skip it, as if it were empty.
                if stack.is_empty() && pc == start && !self.ctx.is_valid(pc) {
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
                G_DL => {
                    let call = (w0 >> 16) & 0xFF == 0;
                    if !self.ctx.is_valid(w1) {
                        continue; // unbound segment (run-time textures, eyes): skipped
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
        let data = self.ctx.bytes(addr, n * VTX_SIZE, 0).ok();
        for i in 0..n {
            self.cache[v0 + i] = data.map(|d| {
                let b = &d[i * VTX_SIZE..];
                let s = |o: usize| i16::from_be_bytes([b[o], b[o + 1]]) as f32;
                let key = (addr.wrapping_add((i * VTX_SIZE) as u32), self.bone);
                let out = &mut self.out;
                *out.seen.entry(key).or_insert_with(|| {
                    out.positions.push(Vec3::new(s(0), s(2), s(4)));
                    out.bones.push(self.bone);
                    (out.positions.len() - 1) as u32
                })
            });
        }
    }

    fn tri(&mut self, w: u32) {
        let idx = [(w >> 16) & 0xFF, (w >> 8) & 0xFF, w & 0xFF].map(|v| (v / 2) as usize);
        let vs: Option<Vec<u32>> = idx.iter().map(|&i| self.cache.get(i).copied().flatten()).collect();
        if let Some(vs) = vs {
            if vs[0] != vs[1] && vs[1] != vs[2] && vs[0] != vs[2] {
                self.out.indices.extend(vs);
            }
        }
    }
}
