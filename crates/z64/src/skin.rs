//! Skin limbs' animated meshes (z_skin.c, z_skin_awb.c, z_skin_matrix.c; skin.h).
//!
//! A limb of segmentType 4 (`SkinAnimatedLimbData`) owns a Vtx buffer of `totalVtxCount`
//! vertices that the game rewrites every frame: for each `SkinLimbModif`, one model-space
//! point is computed from its `SkinTransformation`s (one: `limbMatrix * (x, y, z)`; several:
//! `sum(scale * 0.01f * (limbMatrix * (x, y, z)))`, `Skin_ApplyLimbModifications` with the
//! static flag off, as every draw entry point but `Skin_DrawPOTS` passes), stored to the s16
//! position of each of its `SkinVertex` entries (C float-to-int: truncation toward zero); the
//! normal is the static transformation's limb rotation applied to (normX, normY, normZ),
//! stored to s8. The limb's display list then reads that buffer through segment 8 and draws it
//! under the actor's matrix alone (model space). Texture coordinates and alpha come from the
//! `SkinVertex` entries (`Skin_InitAnimatedLimb`).
//!
//! The limb matrices are `Skin_ApplyAnimTransformations`'s: each limb's
//! `SkinMatrix_SetTranslateRotateZYX(rotation, jointPos)` multiplied onto its parent's. For the
//! rest pose the rotations are the limbs' defaults (0) and the root sits at its jointPos (as
//! the skeleton's rest does; the game takes `jointTable[0]` when drawing with a translation).

use crate::joint_table::JointTable;
use crate::layout::*;
use crate::mtx::MtxF;
use crate::segment::Ctx;
use crate::skeleton::SkelDef;
use boneyard_core::Result;

/// One vertex of an animated limb's buffer, as the game writes it for a pose.
#[derive(Debug, Clone, PartialEq)]
pub struct SkinVtx {
    /// `vtx->n.ob`: the model-space position, truncated to s16.
    pub pos: [i16; 3],
    /// `vtx->n.tc`.
    pub st: [i16; 2],
    /// `vtx->n.n`: the turned normal, truncated to s8.
    pub normal: [i8; 3],
    /// `vtx->n.a`: the vertex alpha.
    pub alpha: u8,
    /// (limb, weight) of the modification that wrote it: weights `scale * 0.01f`, or 1.0 for a
    /// single transformation (the game applies no weight then).
    pub influences: Vec<(usize, f32)>,
}

/// An animated skin limb read and evaluated for one set of limb matrices.
#[derive(Debug, Clone)]
pub struct SkinLimbMesh {
    /// `SkinAnimatedLimbData.dlist` (reads its vertices from segment 8).
    pub dlist: u32,
    /// The Vtx buffer (`totalVtxCount` entries); None where no modification writes.
    pub vertices: Vec<Option<SkinVtx>>,
}

impl SkinLimbMesh {
    /// The buffer as F3DEX2 `Vtx` bytes (what segment 8 points at when the list runs).
    pub fn vtx_bytes(&self) -> Vec<u8> {
        let mut out = vec![0u8; self.vertices.len() * VTX_SIZE];
        for (v, b) in self.vertices.iter().zip(out.chunks_exact_mut(VTX_SIZE)) {
            let Some(v) = v else { continue };
            for (i, p) in v.pos.iter().enumerate() {
                b[2 * i..2 * i + 2].copy_from_slice(&p.to_be_bytes());
            }
            b[8..10].copy_from_slice(&v.st[0].to_be_bytes());
            b[10..12].copy_from_slice(&v.st[1].to_be_bytes());
            for i in 0..3 {
                b[12 + i] = v.normal[i] as u8;
            }
            b[15] = v.alpha;
        }
        out
    }
}

/// The limb matrices (limb -> model) of `Skin_ApplyAnimTransformations`, by limb: `jt` gives
/// the root translation (entry 0) and the rotations (entry limb + 1); None is the rest pose.
pub fn limb_matrices(s: &SkelDef, jt: Option<&JointTable>) -> Vec<MtxF> {
    let mut w = vec![MtxF::IDENTITY; s.limbs.len()];
    for &l in &s.order {
        let (pos, rot) = crate::limb_matrix::limb_pos_rot(s, l, jt);
        let local = MtxF::skin_translate_rotate_zyx(rot, pos);
        // func_800A698C: the parent's matrix (the identity for the root and its siblings) times
        // the limb's own.
        let parent = s.parent[l].map(|p| w[p]).unwrap_or(MtxF::IDENTITY);
        w[l] = MtxF::skin_mul(&parent, &local);
    }
    w
}

/// C's float-to-int conversion as the game stores `vtx->n.ob` (s16) and `vtx->n.n` (s8):
/// truncation toward zero, then the low bits.
fn trunc_i16(v: f32) -> i16 {
    v as i32 as i16
}
fn trunc_i8(v: f32) -> i8 {
    v as i32 as i8
}

/// Read limb `limb`'s `SkinAnimatedLimbData` at `data` and compute its vertex buffer for the
/// limb matrices `mats` (by limb). Every count, pointer and index is checked; `entries` is
/// what is left of the document's `Limits::max_skin_entries` (vertex and transformation entries
/// one document's skin limbs may read together: the counts are u16 and arrays may overlap, so
/// 65535 modifications naming one 65535-vertex array would be four billion steps from a 700 KB
/// file).
pub fn read_animated_limb(
    ctx: &Ctx,
    s: &SkelDef,
    limb: usize,
    data: u32,
    mats: &[MtxF],
    entries: &mut boneyard_core::Budget,
) -> Result<SkinLimbMesh> {
    let limb_addr = s.limbs.get(limb).map_or(0, |l| l.addr);
    let h: SkinAnimatedLimbData =
        ctx.record(data, ctx.home_offset(limb_addr.wrapping_add(SkinLimb::SEGMENT as u32)))?;
    let total = h.total_vtx_count as usize;
    let modif_count = h.limb_modif_count as usize;
    let (modifs_addr, dlist) = (h.limb_modifications, h.dlist);
    let mut modifs = ctx.reader(
        modifs_addr,
        modif_count * SKIN_LIMB_MODIF_SIZE,
        ctx.home_offset(data.wrapping_add(SkinAnimatedLimbData::LIMB_MODIFICATIONS as u32)),
    )?;
    let mut vertices: Vec<Option<SkinVtx>> = vec![None; total];
    for m in 0..modif_count {
        let at = modifs_addr.wrapping_add((m * SKIN_LIMB_MODIF_SIZE) as u32);
        let e = SkinLimbModif::read(&mut modifs)?;
        let vtx_count = e.vtx_count as usize;
        let transform_count = e.transform_count as usize;
        let static_index = e.unk_4 as usize;
        let verts_addr = e.skin_vertices;
        let trans_addr = e.limb_transformations;
        let n = (vtx_count + transform_count) as u64;
        if !entries.try_spend(n) {
            // At this modification, in its file.
            let place = ctx.error(at, "");
            let mut e = entries.limit().error_here(entries.spent() + n, "skin vertex and transformation entries");
            (e.offset, e.file) = (place.offset, place.file);
            return Err(e);
        }
        if transform_count == 0 {
            return Err(ctx.error(
                at.wrapping_add(SkinLimbModif::TRANSFORM_COUNT as u32),
                format!("skin limb {limb}: modification {m} has no transformations"),
            ));
        }
        if static_index >= transform_count {
            return Err(ctx.error(
                at.wrapping_add(SkinLimbModif::UNK_4 as u32),
                format!(
                    "skin limb {limb}: modification {m}: static transformation {static_index} is not below its {transform_count} transformations"
                ),
            ));
        }
        let mut verts = ctx.reader(
            verts_addr,
            vtx_count * SKIN_VERTEX_SIZE,
            ctx.home_offset(at.wrapping_add(SkinLimbModif::SKIN_VERTICES as u32)),
        )?;
        let mut trans = ctx.reader(
            trans_addr,
            transform_count * SKIN_TRANSFORMATION_SIZE,
            ctx.home_offset(at.wrapping_add(SkinLimbModif::LIMB_TRANSFORMATIONS as u32)),
        )?;
        // Each transformation: (limb, position in that limb's space, scale).
        let mut ts = Vec::with_capacity(transform_count);
        for t in 0..transform_count {
            let b = SkinTransformation::read(&mut trans)?;
            let li = b.limb_index as usize;
            if li >= s.limbs.len() {
                let ta = trans_addr.wrapping_add((t * SKIN_TRANSFORMATION_SIZE) as u32);
                return Err(ctx.error(
                    ta,
                    format!(
                        "skin limb {limb}: transformation {t}: limb index {li} is not below the limb count {}",
                        s.limbs.len()
                    ),
                ));
            }
            ts.push((li, b.pos.map(|v| v as f32), b.scale));
        }
        let point = if transform_count == 1 {
            mats[ts[0].0].skin_mult_xyz(ts[0].1)
        } else {
            let mut sum = [0.0f32; 3];
            for &(li, p, scale) in &ts {
                let w = scale as f32 * 0.01f32;
                let q = mats[li].skin_mult_xyz(p);
                for i in 0..3 {
                    sum[i] += q[i] * w;
                }
            }
            sum
        };
        let influences: Vec<(usize, f32)> = if transform_count == 1 {
            vec![(ts[0].0, 1.0)]
        } else {
            ts.iter().map(|&(li, _, scale)| (li, scale as f32 * 0.01f32)).collect()
        };
        // Skin_UpdateVertices: the normal turns with the static transformation's limb, its
        // translation zeroed.
        let mut rot = mats[ts[static_index].0];
        (rot.xw, rot.yw, rot.zw) = (0.0, 0.0, 0.0);
        let pos = point.map(trunc_i16);
        for v in 0..vtx_count {
            let b = SkinVertex::read(&mut verts)?;
            let index = b.index as usize;
            let Some(slot) = vertices.get_mut(index) else {
                let va = verts_addr.wrapping_add((v * SKIN_VERTEX_SIZE) as u32);
                return Err(
                    ctx.error(va, format!("skin limb {limb}: vertex index {index} is not below totalVtxCount {total}"))
                );
            };
            let n = b.normal.map(|v| v as f32);
            *slot = Some(SkinVtx {
                pos,
                st: b.st,
                normal: rot.skin_mult_xyz(n).map(trunc_i8),
                alpha: b.alpha,
                influences: influences.clone(),
            });
        }
    }
    Ok(SkinLimbMesh { dlist, vertices })
}

/// Linear-blend-skinning joints and weights for a vertex: its influences merged by limb,
/// the four largest kept, normalised to sum 1 (the game's scales usually sum to 100; the
/// normalisation keeps the rest pose where the game puts it). All-zero scales fall back to the
/// first limb.
pub fn lbs_weights(s: &SkelDef, influences: &[(usize, f32)]) -> ([u16; 4], [f32; 4]) {
    let mut merged: Vec<(usize, f32)> = Vec::new();
    for &(l, w) in influences {
        match merged.iter_mut().find(|m| m.0 == l) {
            Some(m) => m.1 += w,
            None => merged.push((l, w)),
        }
    }
    merged.sort_by(|a, b| b.1.total_cmp(&a.1));
    merged.truncate(4);
    let sum: f32 = merged.iter().map(|m| m.1).sum();
    let mut joints = [0u16; 4];
    let mut weights = [0.0f32; 4];
    if sum <= 0.0 {
        let l = influences.first().map_or(0, |i| i.0);
        joints[0] = s.bone_of_limb.get(l).copied().unwrap_or(0) as u16;
        weights[0] = 1.0;
        return (joints, weights);
    }
    for (i, &(l, w)) in merged.iter().enumerate() {
        joints[i] = s.bone_of_limb.get(l).copied().unwrap_or(0) as u16;
        weights[i] = w / sum;
    }
    (joints, weights)
}
