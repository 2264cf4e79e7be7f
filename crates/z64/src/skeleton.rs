//! Skeleton headers and limbs: Standard, LOD, Skin limbs under Normal or Flex headers, and the
//! beta ("legacy") pointer trees of object_human. The limb tree is walked the way the game
//! draws it (`SkelAnime_DrawOpa`: the root, then its child; each limb's child before its
//! sibling; the root's sibling is never drawn), iteratively and with cycle detection.

use crate::layout::*;
use crate::segment::Ctx;
use boneyard_core::{Endian, Reader, Result};

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
    let h: SkeletonHeader = ctx.record(addr, ctx.home_offset(addr))?;
    let (table, count) = (h.segment, h.limb_count as usize);
    if count == 0 {
        return Err(ctx.error(addr, "skeleton header has 0 limbs"));
    }
    let mut ptrs =
        ctx.reader(table, count * 4, ctx.home_offset(addr)).map_err(|e| e.in_file(ctx.home_file().name.clone()))?;
    let limb_addrs: Vec<u32> = (0..count).map(|_| ptrs.u32()).collect::<Result<_>>()?;
    let limb_type = match limb_type {
        Some(t) => t,
        None => infer_limb_type(ctx, &limb_addrs),
    };
    if !matches!(limb_type, LimbType::Standard | LimbType::Lod | LimbType::Skin) {
        return Err(ctx.error(addr, format!("{} limbs have no SkeletonHeader", limb_type.name())));
    }
    let mut limbs = Vec::with_capacity(count);
    for (i, &la) in limb_addrs.iter().enumerate() {
        let at = ctx.home_offset(table) + 4 * i as u64;
        // Each limb type's record; the three share jointPos, child and sibling.
        let (joint_pos, child, sibling, dlists, skin) = match limb_type {
            LimbType::Standard => {
                let l: StandardLimb = ctx.record(la, at)?;
                (l.joint_pos, l.child, l.sibling, [l.dlist, 0], None)
            }
            LimbType::Lod => {
                let l: LodLimb = ctx.record(la, at)?;
                (l.joint_pos, l.child, l.sibling, l.dlists, None)
            }
            _ => {
                let l: SkinLimb = ctx.record(la, at)?;
                let dl = if l.segment_type == SKIN_LIMB_TYPE_NORMAL { l.segment } else { 0 };
                (l.joint_pos, l.child, l.sibling, [dl, 0], Some((l.segment_type, l.segment)))
            }
        };
        let link = |v: u8, o: usize| -> Result<Option<usize>> {
            match v {
                LIMB_DONE => Ok(None),
                v if (v as usize) < count => Ok(Some(v as usize)),
                v => Err(ctx.error(
                    la + o as u32,
                    format!("limb {i}: child/sibling index {v} is not below the limb count {count}"),
                )),
            }
        };
        limbs.push(Limb {
            addr: la,
            pos: joint_pos.map(|v| v as f32),
            rot: [0; 3],
            child: link(child, StandardLimb::CHILD)?,
            sibling: link(sibling, StandardLimb::SIBLING)?,
            dlists,
            skin,
        });
    }
    let with_dl = limbs.iter().filter(|l| l.dlists[0] != 0).count();
    let ty = match flex {
        Some(false) => SkelType::Normal,
        Some(true) => {
            let f: FlexSkeletonHeader = ctx.record(addr, ctx.home_offset(addr))?;
            SkelType::Flex { dlist_count: f.dlist_count }
        }
        None => match ctx.record::<FlexSkeletonHeader>(addr, 0) {
            Ok(f) if f.dlist_count as usize == with_dl && with_dl > 0 && f.pad == [0, 0, 0] => {
                SkelType::Flex { dlist_count: f.dlist_count }
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
    // A limb that does not read as a SkinLimb (past its segment) says "not Skin".
    let skin = limbs.iter().all(|&l| match ctx.record::<SkinLimb>(l, 0) {
        Ok(b) => (b.segment_type as u32) <= 255 && (b.segment == 0 || ctx.is_valid(b.segment)),
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
    let mut tail = Reader::new(ctx.tail(table, ctx.home_offset(table))?, Endian::Big);
    let max = count.unwrap_or(MAX_LIMBS + 1);
    let mut addrs = Vec::new();
    for i in 0..max {
        let Ok(a) = tail.u32() else {
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
        let b: LegacyLimb = ctx.record(la, ctx.home_offset(table))?;
        if let Some(k) = b.trans.iter().position(|v| !v.is_finite()) {
            return Err(ctx.error(la + (LegacyLimb::TRANS + 4 * k) as u32, "legacy limb translation is not finite"));
        }
        limbs.push(Limb {
            addr: la,
            pos: b.trans,
            rot: b.rot,
            sibling: index_of(b.sibling, la + LegacyLimb::SIBLING as u32)?,
            child: index_of(b.child, la + LegacyLimb::CHILD as u32)?,
            dlists: [b.dlist, 0],
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
        let files =
            [SegFile { name: "t".into(), stem: "t".into(), shown: "t".into(), segment: 6, data: d, lenient: false }];
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
