//! Skeleton headers and limbs: Standard, LOD, Skin limbs under Normal or Flex headers, and the
//! beta ("legacy") pointer trees of object_human. The limb tree is walked the way the game
//! draws it (`SkelAnime_DrawOpa`: the root, then its child; each limb's child before its
//! sibling; the root's sibling is never drawn), iteratively and with cycle detection.

use crate::layout::*;
use crate::segment::{be16, be32, Ctx};
use boneyard_core::{Error, Result};

/// The skeleton header kinds (`SkeletonHeader`, `FlexSkeletonHeader`, the legacy and MM ones).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkelType {
    /// `SkeletonHeader`: a limb table and its count.
    Normal,
    /// `FlexSkeletonHeader`: limbs drawn through per-limb matrices in segment 0x0D.
    Flex {
        /// Limbs that have a display list (one matrix each).
        dlist_count: u8,
    },
    /// object_human's legacy limb table (f32 translations and default rotations).
    Legacy,
    /// MM keyframe skeleton (c_keyframe.c): standard or flex limbs.
    KeyFrame {
        /// Flex limbs (scale, rotation, translation) instead of standard ones.
        flex: bool,
        /// Limbs that have a display list.
        dlist_count: u8,
    },
    /// `SkelCurve` (z_fcurve_data_skelanime.c).
    Curve,
}

/// The limb structs a skeleton's table points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimbType {
    /// `StandardLimb`: jointPos, child, sibling, dList.
    Standard,
    /// `LodLimb`: two display lists (near, far).
    Lod,
    /// `SkinLimb`: a skin segment (animated vertices or a plain display list).
    Skin,
    /// object_human's legacy limb (f32 translation, default rotation).
    Legacy,
    /// MM keyframe standard limb.
    KeyFrameStandard,
    /// MM keyframe flex limb.
    KeyFrameFlex,
    /// `SkelCurve` limb.
    Curve,
}

impl LimbType {
    /// The decompilation's name for it ("Standard", "LOD", "Skin"...).
    pub fn name(self) -> &'static str {
        match self {
            LimbType::Standard => "Standard",
            LimbType::Lod => "LOD",
            LimbType::Skin => "Skin",
            LimbType::Legacy => "Legacy",
            LimbType::KeyFrameStandard => "KeyFrameStandard",
            LimbType::KeyFrameFlex => "KeyFrameFlex",
            LimbType::Curve => "Curve",
        }
    }
    /// The limb type of a decomp XML `LimbType` attribute (the four the XML uses).
    pub fn parse(s: &str) -> Option<LimbType> {
        Some(match s {
            "Standard" => LimbType::Standard,
            "LOD" => LimbType::Lod,
            "Skin" => LimbType::Skin,
            "Legacy" => LimbType::Legacy,
            _ => return None,
        })
    }
}

impl SkelType {
    /// The decompilation's name for it ("Normal", "Flex", "Legacy", "KeyFrame"...).
    pub fn name(self) -> &'static str {
        match self {
            SkelType::Normal => "Normal",
            SkelType::Flex { .. } => "Flex",
            SkelType::Legacy => "Legacy",
            SkelType::KeyFrame { flex: false, .. } => "KeyFrame",
            SkelType::KeyFrame { flex: true, .. } => "KeyFrameFlex",
            SkelType::Curve => "Curve",
        }
    }
    /// Skeletons whose draw binds one matrix per display-list limb to segment 0x0D.
    pub fn binds_matrix_segment(self) -> bool {
        matches!(self, SkelType::Flex { .. } | SkelType::KeyFrame { .. })
    }
}

/// One limb as the skeleton's table gives it.
#[derive(Debug, Clone, PartialEq)]
pub struct Limb {
    /// Segmented address of the limb.
    pub addr: u32,
    /// jointPos (Standard/LOD/Skin: s16 converted; Legacy: the f32 trans).
    pub pos: [f32; 3],
    /// Default rotation (Legacy limbs only; zero otherwise).
    pub rot: [i16; 3],
    /// Index of its first child limb (`LIMB_DONE` read as `None`).
    pub child: Option<usize>,
    /// Index of its next sibling limb.
    pub sibling: Option<usize>,
    /// Display lists: [near, far] for LOD, [dList, 0] otherwise (0 = none). Skin limbs with
    /// segmentType 11 put their plain Gfx* here.
    pub dlists: [u32; 2],
    /// Skin limbs: (segmentType, segment).
    pub skin: Option<(i32, u32)>,
}

/// A skeleton found in a file: header, limbs, and the parents the draw walk gives them.
#[derive(Debug, Clone)]
pub struct SkelDef {
    /// Segmented address of the header (or of the limb table for Legacy).
    pub addr: u32,
    /// Index of the segment context (document-level) it was read in.
    pub ctx: usize,
    /// Its name (from the asset table, or made from file and offset).
    pub name: String,
    /// Which header kind.
    pub ty: SkelType,
    /// The kind of every limb of its table.
    pub limb_type: LimbType,
    /// The limbs in table order.
    pub limbs: Vec<Limb>,
    /// Parent limb of each limb as the draw walk nests them.
    pub parent: Vec<Option<usize>>,
    /// Limbs in draw order (the root first), then limbs the walk never reaches.
    pub order: Vec<usize>,
    /// Bone index of each limb (position in `order`).
    pub bone_of_limb: Vec<usize>,
}

impl SkelDef {
    /// Number of limbs that have a (near) display list: the matrices a Flex skeleton allocates.
    pub fn dlist_limbs(&self) -> usize {
        self.limbs.iter().filter(|l| l.dlists[0] != 0).count()
    }
}

/// Read a Normal or Flex skeleton header at `addr`. `limb_type`/`flex` come from the asset
/// table when known; otherwise they are inferred as Z64Utils does (distance between the first
/// two limbs; Flex when the byte after the header equals the number of display lists).
pub fn read_skeleton(
    ctx: &Ctx,
    addr: u32,
    ctx_index: usize,
    name: String,
    limb_type: Option<LimbType>,
    flex: Option<bool>,
) -> Result<SkelDef> {
    let h = ctx.bytes(addr, SKELETON_HEADER_SIZE, ctx.home_offset(addr))?;
    let table = be32(h, 0).unwrap_or(0);
    let count = h[4] as usize;
    if count == 0 {
        return Err(ctx.error(addr, "skeleton header has 0 limbs"));
    }
    let ptrs =
        ctx.bytes(table, count * 4, ctx.home_offset(addr)).map_err(|e| e.in_file(ctx.home_file().name.clone()))?;
    let limb_addrs: Vec<u32> = (0..count).map(|i| be32(ptrs, i * 4).unwrap_or(0)).collect();
    let limb_type = match limb_type {
        Some(t) => t,
        None => infer_limb_type(ctx, &limb_addrs),
    };
    let size = match limb_type {
        LimbType::Standard => STANDARD_LIMB_SIZE,
        LimbType::Lod | LimbType::Skin => LOD_LIMB_SIZE,
        _ => return Err(ctx.error(addr, format!("{} limbs have no SkeletonHeader", limb_type.name()))),
    };
    let mut limbs = Vec::with_capacity(count);
    for (i, &la) in limb_addrs.iter().enumerate() {
        let b = ctx.bytes(la, size, ctx.home_offset(table) + 4 * i as u64)?;
        let s16 = |o: usize| be16(b, o).unwrap_or(0) as i16;
        let link = |o: usize| -> Result<Option<usize>> {
            match b[o] {
                LIMB_DONE => Ok(None),
                v if (v as usize) < count => Ok(Some(v as usize)),
                v => Err(ctx.error(
                    la + o as u32,
                    format!("limb {i}: child/sibling index {v} is not below the limb count {count}"),
                )),
            }
        };
        let w8 = be32(b, 8).unwrap_or(0);
        let (dlists, skin) = match limb_type {
            LimbType::Standard => ([w8, 0], None),
            LimbType::Lod => ([w8, be32(b, 12).unwrap_or(0)], None),
            _ => {
                let seg_type = w8 as i32;
                let seg = be32(b, 12).unwrap_or(0);
                let dl = if seg_type == SKIN_LIMB_TYPE_NORMAL { seg } else { 0 };
                ([dl, 0], Some((seg_type, seg)))
            }
        };
        limbs.push(Limb {
            addr: la,
            pos: [s16(0) as f32, s16(2) as f32, s16(4) as f32],
            rot: [0; 3],
            child: link(6)?,
            sibling: link(7)?,
            dlists,
            skin,
        });
    }
    let with_dl = limbs.iter().filter(|l| l.dlists[0] != 0).count();
    let ty = match flex {
        Some(false) => SkelType::Normal,
        Some(true) => {
            let b = ctx.bytes(addr, FLEX_SKELETON_HEADER_SIZE, ctx.home_offset(addr))?;
            SkelType::Flex { dlist_count: b[8] }
        }
        None => match ctx.bytes(addr, FLEX_SKELETON_HEADER_SIZE, 0) {
            Ok(b) if b[8] as usize == with_dl && with_dl > 0 && b[9..12] == [0, 0, 0] => {
                SkelType::Flex { dlist_count: b[8] }
            }
            _ => SkelType::Normal,
        },
    };
    finish(ctx, addr, ctx_index, name, ty, limb_type, limbs, 0)
}

fn infer_limb_type(ctx: &Ctx, limbs: &[u32]) -> LimbType {
    if limbs.len() < 2 || limbs[1].wrapping_sub(limbs[0]) != 0x10 {
        return LimbType::Standard;
    }
    let skin = limbs.iter().all(|&l| match ctx.bytes(l, SKIN_LIMB_SIZE, 0) {
        Ok(b) => {
            let t = be32(b, 8).unwrap_or(u32::MAX);
            let seg = be32(b, 12).unwrap_or(1);
            t <= 255 && (seg == 0 || ctx.is_valid(seg))
        }
        Err(_) => false,
    });
    if skin {
        LimbType::Skin
    } else {
        LimbType::Lod
    }
}

/// Read a legacy (beta) skeleton from its limb pointer table at `table` (`count` entries, or
/// up to a NULL entry when `count` is None). Children and siblings are limb pointers.
pub fn read_legacy_skeleton(
    ctx: &Ctx,
    table: u32,
    count: Option<usize>,
    ctx_index: usize,
    name: String,
) -> Result<SkelDef> {
    let tail = ctx.tail(table, ctx.home_offset(table))?;
    let max = count.unwrap_or(MAX_LIMBS + 1);
    let mut addrs = Vec::new();
    for i in 0..max {
        let Some(a) = be32(tail, i * 4) else {
            return Err(ctx.error(table + 4 * i as u32, "legacy limb table runs past the end of the file"));
        };
        if a == 0 && count.is_none() {
            break;
        }
        addrs.push(a);
    }
    if addrs.is_empty() || addrs.len() > MAX_LIMBS {
        return Err(ctx.error(table, format!("legacy limb table has {} limbs (1..=255 accepted)", addrs.len())));
    }
    let index_of = |p: u32, at: u32| -> Result<Option<usize>> {
        if p == 0 {
            return Ok(None);
        }
        addrs
            .iter()
            .position(|&a| a == p)
            .map(Some)
            .ok_or_else(|| ctx.error(at, format!("legacy limb pointer {p:#010x} is not in the limb table")))
    };
    let mut limbs = Vec::with_capacity(addrs.len());
    for &la in &addrs {
        let b = ctx.bytes(la, LEGACY_LIMB_SIZE, ctx.home_offset(table))?;
        let f = |o: usize| -> Result<f32> {
            let v = f32::from_bits(be32(b, o).unwrap_or(0));
            if v.is_finite() {
                Ok(v)
            } else {
                Err(ctx.error(la + o as u32, "legacy limb translation is not finite"))
            }
        };
        let s16 = |o: usize| be16(b, o).unwrap_or(0) as i16;
        limbs.push(Limb {
            addr: la,
            pos: [f(4)?, f(8)?, f(12)?],
            rot: [s16(0x10), s16(0x12), s16(0x14)],
            sibling: index_of(be32(b, 0x18).unwrap_or(0), la + 0x18)?,
            child: index_of(be32(b, 0x1C).unwrap_or(0), la + 0x1C)?,
            dlists: [be32(b, 0).unwrap_or(0), 0],
            skin: None,
        });
    }
    finish(ctx, table, ctx_index, name, SkelType::Legacy, LimbType::Legacy, limbs, 0)
}

/// Walk the tree from `root` as the game draws it; compute parents and the bone order.
#[allow(clippy::too_many_arguments)]
fn finish(
    ctx: &Ctx,
    addr: u32,
    ctx_index: usize,
    name: String,
    ty: SkelType,
    limb_type: LimbType,
    limbs: Vec<Limb>,
    root: usize,
) -> Result<SkelDef> {
    let n = limbs.len();
    if n > MAX_LIMBS {
        return Err(ctx.error(addr, format!("{n} limbs (at most {MAX_LIMBS})")));
    }
    let mut parent = vec![None; n];
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    // (limb, parent) pairs still to visit; the root's sibling is not drawn by the game.
    let mut stack: Vec<(usize, Option<usize>)> = vec![(root, None)];
    while let Some((l, p)) = stack.pop() {
        if seen[l] {
            return Err(ctx.error(limbs[l].addr, format!("cyclic limb tree: limb {l} is reached twice")));
        }
        seen[l] = true;
        parent[l] = p;
        order.push(l);
        // Child first (drawn before the sibling), so push the sibling first.
        if l != root {
            if let Some(s) = limbs[l].sibling {
                stack.push((s, p));
            }
        }
        if let Some(c) = limbs[l].child {
            stack.push((c, Some(l)));
        }
    }
    for (l, s) in seen.iter().enumerate() {
        if !s {
            order.push(l);
        }
    }
    let mut bone_of_limb = vec![0; n];
    for (b, &l) in order.iter().enumerate() {
        bone_of_limb[l] = b;
    }
    Ok(SkelDef { addr, ctx: ctx_index, name, ty, limb_type, limbs, parent, order, bone_of_limb })
}

/// Map an error's offset into the home file.
pub fn err_in(ctx: &Ctx, e: Error) -> Error {
    e.in_file(ctx.home_file().name.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segment::SegFile;

    /// Two Skin limbs 0x10 apart (segmentType 11 = plain Gfx*, 4 = animated skin data), a
    /// limb table and a Normal header, written by hand.
    #[test]
    fn skin_limbs_are_recognised() {
        let mut d = Vec::new();
        // limb 0 at 0: pos (1,2,3), child 1, sibling none, type 11, Gfx* 0x06000040
        d.extend_from_slice(&[0, 1, 0, 2, 0, 3, 1, 0xFF, 0, 0, 0, 11, 0x06, 0, 0, 0x40]);
        // limb 1 at 0x10: pos (0,10,0), no child/sibling, type 4, data 0x06000048
        d.extend_from_slice(&[0, 0, 0, 10, 0, 0, 0xFF, 0xFF, 0, 0, 0, 4, 0x06, 0, 0, 0x48]);
        // limb table at 0x20, header at 0x28
        d.extend_from_slice(&[0x06, 0, 0, 0, 0x06, 0, 0, 0x10]);
        d.extend_from_slice(&[0x06, 0, 0, 0x20, 2, 0, 0, 0]);
        d.resize(0x50, 0);
        let files = [SegFile { name: "t".into(), stem: "t".into(), segment: 6, data: d, lenient: false }];
        let mut map = [None; 16];
        map[6] = Some(0);
        let ctx = Ctx::new(&files, map, 0);
        let s = read_skeleton(&ctx, 0x0600_0028, 0, "t".into(), None, None).unwrap();
        assert_eq!(s.limb_type, LimbType::Skin);
        assert_eq!(s.ty, SkelType::Normal);
        assert_eq!(s.limbs[0].skin, Some((11, 0x0600_0040)));
        assert_eq!(s.limbs[0].dlists, [0x0600_0040, 0]);
        assert_eq!(s.limbs[1].skin, Some((4, 0x0600_0048)));
        assert_eq!(s.limbs[1].dlists, [0, 0]);
        assert_eq!(s.parent, vec![None, Some(0)]);
        assert_eq!(s.limbs[0].pos, [1.0, 2.0, 3.0]);
    }
}
