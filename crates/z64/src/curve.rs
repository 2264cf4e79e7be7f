//! Curve skeletons and animations (`SkelCurve`; zeldaret/oot `src/code/z_fcurve_data.c`,
//! `z_fcurve_data_skelanime.c`, `include/curve.h`), used by a few OoT objects (the treasure
//! chest lid, the time warp) and two MM skeletons.
//!
//! * Skeleton: a `SkeletonHeader`-like header; limbs `{u8 child; u8 sibling; Gfx* dList[2]}`
//!   without a position (it is animated). The draw walks child then sibling from limb 0 and,
//!   unlike SkelAnime, also draws the root's sibling.
//! * Animation: per limb 9 properties (scale xyz, rotation xyz, position xyz); `knotCounts[9N]`
//!   (u8): 0 takes the next constant (`s16`), N > 0 interpolates over the next N knots.
//!   `Curve_Interpolate(curFrame)` with the knot's flags: bit 0 hold, bit 1 linear, else the
//!   cubic Hermite `Curve_CubicHermiteSpline` (gradients scaled by `interval * (1/30)`).
//!   Interpolated values are stored as s16: scale `* 1024.0f`, rotation `DEG_TO_BINANG(deg)`,
//!   position `* 100`; constants are stored as they are.
//! * Time: `curFrame += playSpeed * R_UPDATE_RATE * 0.5f` (1.5 a game update: 30 a second),
//!   sampled unrounded; our frame `f` is `curFrame = f`.
//! * Drawing: `Matrix_TranslateRotateZYX(pos, rot)` then always `Matrix_Scale(s / 1024.0f)`;
//!   a scale of 0 hides the limb (exported as a zero scale with a valid rotation, see
//!   [`limb_transform`]). The callers read in the decomps (OoT's `Demo_Tre_Lgt`,
//!   `Demo_Effect`'s time warp and `Magic_Wind`; MM's `Demo_Effect`) pass lod 1, which draws `dList[0]` (opaque) and then `dList[1]`
//!   (translucent); lod 0 would draw `dList[0]` only.

use crate::joint_table::JointTable;
use crate::layout::*;
use crate::mtx::MtxF;
use crate::segment::Ctx;
use crate::skeleton::{Limb, LimbType, SkelDef, SkelType};
use boneyard_core::model::Transform;
use boneyard_core::Result;

/// One `CurveInterpKnot` (the record as [`crate::layout`] reads it).
pub type Knot = crate::layout::CurveInterpKnot;

/// `Curve_CubicHermiteSpline`, f32 operations in the game's order.
pub fn cubic_hermite(t: f32, interval: f32, y0: f32, y1: f32, m0: f32, m1: f32) -> f32 {
    let t2 = t * t;
    let t3 = t2 * t;
    let t3x2 = t3 * 2.0f32;
    let t2x3 = t2 * 3.0f32;
    let h00 = t3x2 - t2x3 + 1.0f32;
    let h01 = t2x3 - t3x2;
    let h10 = t3 - t2 * 2.0f32 + t;
    let h11 = t3 - t2;
    let mut ret = h00 * y0;
    ret += h01 * y1;
    ret += h10 * m0 * interval;
    ret += h11 * m1 * interval;
    ret
}

/// `Curve_Interpolate(x, knots, count)` over at least one knot: the game's walk from the first
/// knot (what [`CurveAnim::joint_table`]'s bisection is held to).
#[cfg(test)]
pub fn interpolate(x: f32, knots: &[Knot]) -> f32 {
    interpolate_past(x, knots, |x| (1..knots.len()).find(|&i| x < knots[i].abscissa as f32).unwrap_or(knots.len()))
}

/// [`interpolate`] with the search by bisection over the property's reaches
/// ([`crate::keysearch`]).
fn interpolate_bisected(x: f32, knots: &[Knot], reach: &[i16]) -> f32 {
    interpolate_past(x, knots, |x| crate::keysearch::first_past(reach, x))
}

/// `Curve_Interpolate` with `past(x)`: the index of the first knot after the first whose
/// abscissa is past `x`.
fn interpolate_past(x: f32, knots: &[Knot], past: impl Fn(f32) -> usize) -> f32 {
    let (Some(first), Some(last)) = (knots.first(), knots.last()) else { return 0.0 };
    if x <= first.abscissa as f32 {
        return first.ordinate;
    }
    if x >= last.abscissa as f32 || x.is_nan() {
        // (No knot is past a NaN: the game's walk ends at the last knot.)
        return last.ordinate;
    }
    // x lies after the current knot (or the search would have stopped before) and before the
    // last, so the denominators are positive and the search ends by the last knot.
    let i = past(x);
    let (Some(&cur), Some(&next)) = (knots.get(i.wrapping_sub(1)), knots.get(i)) else { return last.ordinate };
    let (a0, a1) = (cur.abscissa as f32, next.abscissa as f32);
    if cur.flags & 1 != 0 {
        return cur.ordinate;
    } else if cur.flags & 2 != 0 {
        return cur.ordinate + ((x - a0) / (a1 - a0)) * (next.ordinate - cur.ordinate);
    }
    let diff = a1 - a0;
    let t = (x - a0) / (a1 - a0);
    cubic_hermite(
        t,
        diff * (1.0f32 / 30.0f32),
        cur.ordinate,
        next.ordinate,
        cur.right_gradient as f32,
        next.left_gradient as f32,
    )
}

/// f32 to s16 as the game's stores do (`trunc.w.s`, low 16 bits); out-of-range values
/// saturate first (the console would raise an FPU exception there).
fn to_s16(v: f32) -> i16 {
    v as i32 as i16
}

/// The header fields of a `CurveAnimationHeader`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CurveHeader {
    /// Segmented address of the per-property knot counts (u8, 9 a limb).
    pub knot_counts: u32,
    /// Segmented address of the knots.
    pub knots: u32,
    /// Segmented address of the constant values (properties without knots).
    pub constants: u32,
    /// The header's unknown s16 at 0x0C (kept for `list --json`).
    pub unk_0c: i16,
    /// Number of frames (positive).
    pub frames: u16,
}

/// Read a `CurveAnimationHeader` at `addr`.
pub fn read_header(ctx: &Ctx, addr: u32) -> Result<CurveHeader> {
    let h: CurveAnimationHeader = ctx.record(addr, ctx.home_offset(addr))?;
    let frames = h.frame_count;
    if frames <= 0 {
        return Err(
            ctx.error(addr + CurveAnimationHeader::FRAME_COUNT as u32, format!("curve animation has {frames} frames"))
        );
    }
    Ok(CurveHeader {
        knot_counts: h.knot_counts,
        knots: h.interpolation_data,
        constants: h.constant_data,
        unk_0c: h.unk_0c,
        frames: frames as u16,
    })
}

/// A curve animation resolved for `limbs` limbs: per property Some((first knot, count)) or
/// None (constant), the knots and the constants, every range checked.
#[derive(Debug, Clone)]
pub struct CurveAnim {
    /// Limbs it drives.
    pub limbs: usize,
    /// Per property (9 a limb: scale, rotation, translation): Some((first knot, count)) or None.
    pub props: Vec<Option<(usize, usize)>>,
    /// The knots, every property's in order.
    pub knots: Vec<Knot>,
    /// The constant values, taken in order by the properties without knots.
    pub constants: Vec<i16>,
    /// Per knot, its reach in its property ([`crate::keysearch::reaches`]).
    reach: Vec<i16>,
}

impl CurveAnim {
    /// Read the knot counts, knots and constants for `limbs` limbs, checking every range.
    pub fn load(ctx: &Ctx, addr: u32, h: &CurveHeader, limbs: usize) -> Result<CurveAnim> {
        let at = ctx.home_offset(addr);
        if limbs == 0 || limbs > MAX_LIMBS {
            return Err(ctx.error(addr, format!("curve skeleton of {limbs} limbs")));
        }
        let counts = ctx.bytes(h.knot_counts, 9 * limbs, at)?;
        let mut props = Vec::with_capacity(9 * limbs);
        let (mut start, mut n_const) = (0usize, 0usize);
        for &c in counts {
            if c == 0 {
                props.push(None);
                n_const += 1;
            } else {
                props.push(Some((start, c as usize)));
                start += c as usize;
            }
        }
        let knots = read_table::<Knot>(&mut ctx.reader(h.knots, start * CURVE_KNOT_SIZE, at)?, start)?;
        if let Some(i) = knots.iter().position(|k| !k.ordinate.is_finite()) {
            let off = h.knots.wrapping_add((i * CURVE_KNOT_SIZE + CurveInterpKnot::ORDINATE) as u32);
            return Err(ctx.error(off, format!("curve knot {i}: ordinate is not finite")));
        }
        let mut cb = ctx.reader(h.constants, n_const * 2, at)?;
        let constants = (0..n_const).map(|_| cb.i16()).collect::<Result<_>>()?;
        let reach = crate::keysearch::reaches(knots.len(), props.iter().flatten().copied(), |k| knots[k].abscissa);
        Ok(CurveAnim { limbs, props, knots, constants, reach })
    }

    /// The bytes it holds (what a document's `Limits::max_animation_bytes` charges).
    pub fn decoded_bytes(&self) -> usize {
        self.knots.len() * (std::mem::size_of::<Knot>() + 2)
            + self.constants.len() * 2
            + self.props.len() * std::mem::size_of::<Option<(usize, usize)>>()
    }

    /// Are every property's knots in abscissa order, as `Curve_Interpolate`'s search assumes and
    /// real data has them? (The structural scan takes only such animations.)
    pub fn knots_sorted(&self) -> bool {
        self.props.iter().flatten().all(|&(s, n)| {
            self.knots.get(s..s + n).is_some_and(|k| k.windows(2).all(|w| w[0].abscissa <= w[1].abscissa))
        })
    }

    /// The joint table (`s16[9]` a limb, as 3 Vec3s: scale, rotation, position) at `cur_frame`
    /// (`SkelCurve_Update` after its frame step).
    pub fn joint_table(&self, cur_frame: f32) -> JointTable {
        let mut out = Vec::with_capacity(self.props.len());
        let mut constants = self.constants.iter();
        for (p, prop) in self.props.iter().enumerate() {
            let v = match prop {
                None => constants.next().copied().unwrap_or(0),
                Some((s, n)) => {
                    let v = match (self.knots.get(*s..s + n), self.reach.get(*s..s + n)) {
                        (Some(k), Some(r)) => interpolate_bisected(cur_frame, k, r),
                        _ => 0.0,
                    };
                    match (p % 9) / 3 {
                        0 => to_s16(v * 1024.0f32),
                        1 => to_s16(v * (32768.0f32 / 180.0f32)),
                        _ => to_s16(v * 100.0f32),
                    }
                }
            };
            out.push(v);
        }
        JointTable { joints: out.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect(), face: None }
    }
}

/// Read a curve skeleton header at `addr`.
pub fn read_skeleton(ctx: &Ctx, addr: u32, ctx_index: usize, name: String) -> Result<SkelDef> {
    let h: CurveSkeletonHeader = ctx.record(addr, ctx.home_offset(addr))?;
    let (table, count) = (h.limbs, h.limb_count as usize);
    if count == 0 {
        return Err(ctx.error(addr + CurveSkeletonHeader::LIMB_COUNT as u32, "curve skeleton has 0 limbs"));
    }
    let mut ptrs = ctx.reader(table, 4 * count, ctx.home_offset(addr))?;
    let mut limbs = Vec::with_capacity(count);
    for i in 0..count {
        let la = ptrs.u32()?;
        let b: SkelCurveLimb = ctx.record(la, ctx.home_offset(table) + 4 * i as u64)?;
        let link = |v: u8, o: usize| -> Result<Option<usize>> {
            match v {
                LIMB_DONE => Ok(None),
                v if (v as usize) < count => Ok(Some(v as usize)),
                v => Err(ctx.error(la + o as u32, format!("curve limb {i}: child/sibling {v} not below {count}"))),
            }
        };
        let dl = b.dlists;
        for (k, &d) in dl.iter().enumerate() {
            if d != 0 && !ctx.is_valid(d) {
                return Err(ctx.error(
                    la + (SkelCurveLimb::DLISTS + 4 * k) as u32,
                    format!("curve limb {i}: display list {d:#010x} outside the given segments"),
                ));
            }
        }
        limbs.push(Limb {
            addr: la,
            pos: [0.0; 3],
            rot: [0; 3],
            child: link(b.child, SkelCurveLimb::CHILD)?,
            sibling: link(b.sibling, SkelCurveLimb::SIBLING)?,
            dlists: dl,
            skin: None,
        });
    }
    // SkelCurve_DrawLimb from limb 0: child (nested), then sibling (same parent), the root's
    // sibling included. Iterative, each limb at most once.
    let mut parent = vec![None; count];
    let mut seen = vec![false; count];
    let mut order = Vec::with_capacity(count);
    let mut stack: Vec<(usize, Option<usize>)> = vec![(0, None)];
    while let Some((l, p)) = stack.pop() {
        if seen[l] {
            return Err(ctx.error(limbs[l].addr, format!("cyclic curve limb tree: limb {l} is reached twice")));
        }
        seen[l] = true;
        parent[l] = p;
        order.push(l);
        if let Some(s) = limbs[l].sibling {
            stack.push((s, p));
        }
        if let Some(c) = limbs[l].child {
            stack.push((c, Some(l)));
        }
    }
    order.extend((0..count).filter(|&l| !seen[l]));
    let mut bone_of_limb = vec![0; count];
    for (b, &l) in order.iter().enumerate() {
        bone_of_limb[l] = b;
    }
    Ok(SkelDef {
        addr,
        ctx: ctx_index,
        name,
        ty: SkelType::Curve,
        limb_type: LimbType::Curve,
        limbs,
        parent,
        order,
        bone_of_limb,
    })
}

/// Limb `l`'s entries of joint table `jt`: scale (x1024), rotation (binary angles), position.
fn limb_entries(l: usize, jt: &JointTable) -> ([i16; 3], [i16; 3], [i16; 3]) {
    let get = |k: usize| jt.joints.get(3 * l + k).copied().unwrap_or([0; 3]);
    (get(0), get(1), get(2))
}

/// `jointData[i] / SKELCURVE_SCALE_SCALE` (an s16 over 1024.0f, f32 division).
fn scale_of(s: [i16; 3]) -> [f32; 3] {
    s.map(|v| v as f32 / 1024.0f32)
}

/// Apply curve limb `l`'s transform for joint table `jt` to `m` (`SkelCurve_DrawLimb`).
pub fn apply_limb(m: &mut MtxF, l: usize, jt: Option<&JointTable>) {
    let Some(jt) = jt else { return };
    let (s, r, p) = limb_entries(l, jt);
    m.translate_rotate_zyx([p[0] as f32, p[1] as f32, p[2] as f32], r);
    let [sx, sy, sz] = scale_of(s);
    m.scale(sx, sy, sz);
}

/// Curve limb `l`'s local transform for joint table `jt` (None: identity), from the engine's
/// position, binary angles and `s / 1024.0f` ([`crate::mtx::scaled_limb_transform`]): a limb
/// the animation hides keys its scale to 0, which stays exactly 0 with a valid rotation.
pub fn limb_transform(l: usize, jt: Option<&JointTable>) -> Transform {
    let Some(jt) = jt else { return Transform::IDENTITY };
    let (s, r, p) = limb_entries(l, jt);
    crate::mtx::scaled_limb_transform([p[0] as f32, p[1] as f32, p[2] as f32], r, scale_of(s))
}

/// The rest (bind) pose of a curve skeleton from the joint table of its first animation's
/// frame 0: a scale the frame keys to 0 (a limb hidden at the start) rests at 1024 (1.0), so
/// that the rest matrices can be inverted to bind meshes; the animation keys the 0 itself.
pub fn bind_table(jt: JointTable) -> JointTable {
    unhide_scales(jt, 1024)
}

/// A joint table of 3 entries a limb (scale first) with every zero scale set to `one`.
pub(crate) fn unhide_scales(mut jt: JointTable, one: i16) -> JointTable {
    for (i, v) in jt.joints.iter_mut().enumerate() {
        if i % 3 == 0 {
            for c in v.iter_mut().filter(|c| **c == 0) {
                *c = one;
            }
        }
    }
    jt
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(flags: u16, x: i16, l: i16, r: i16, y: f32) -> Knot {
        Knot { flags, abscissa: x, left_gradient: l, right_gradient: r, ordinate: y }
    }

    /// Worked by hand from z_fcurve_data.c:
    /// * cubic, knots (0, 0.0, gradients 0) and (10, 1.0): x = 5: t = 0.5, t2 = 0.25,
    ///   t3 = 0.125, h00 = 0.25 - 0.75 + 1 = 0.5, h01 = 0.75 - 0.25 = 0.5 -> 0.5 * 1.0 = 0.5.
    /// * x = 2.5: t = 0.25, t2 = 0.0625, t3 = 0.015625; h01 = 0.1875 - 0.03125 = 0.15625.
    /// * linear (flags 2), (0, 10.0) (4, 30.0): x = 1: 10 + (1/4) * 20 = 15.
    /// * hold (flags 1): x = 3 -> 10.
    /// * gradients: (0, 0, right 3) (10, 0, left 3): x = 5: h10 = 0.125 - 0.5 + 0.5 = 0.125,
    ///   h11 = 0.125 - 0.25 = -0.125; interval = 10 * (1/30f) = 0.33333334; ret = 0 + 0 +
    ///   0.125 * 3 * 0.33333334 + -0.125 * 3 * 0.33333334 = 0.125 - 0.125 = 0.
    #[test]
    fn interpolation_by_hand() {
        let cubic = [k(0, 0, 0, 0, 0.0), k(0, 10, 0, 0, 1.0)];
        assert_eq!(interpolate(5.0, &cubic), 0.5);
        assert_eq!(interpolate(2.5, &cubic), 0.15625);
        assert_eq!(interpolate(-1.0, &cubic), 0.0);
        assert_eq!(interpolate(12.0, &cubic), 1.0);
        let lin = [k(2, 0, 0, 0, 10.0), k(0, 4, 0, 0, 30.0)];
        assert_eq!(interpolate(1.0, &lin), 15.0);
        let hold = [k(1, 0, 0, 0, 10.0), k(0, 4, 0, 0, 30.0)];
        assert_eq!(interpolate(3.0, &hold), 10.0);
        let grad = [k(0, 0, 0, 3, 0.0), k(0, 10, 3, 0, 0.0)];
        assert_eq!(interpolate(5.0, &grad), 0.0);
    }

    /// Stores: scale 1.5 * 1024 = 1536; rotation 90 deg * 182.04445 = 16384.0 -> 0x4000 and
    /// 180 deg -> 32768 -> (s16) -0x8000; position 2.5 * 100 = 250; 0.999 * 100 = 99.9 -> 99
    /// (truncation).
    #[test]
    fn stores_by_hand() {
        assert_eq!(to_s16(1.5 * 1024.0), 1536);
        assert_eq!(to_s16(90.0 * (32768.0f32 / 180.0)), 0x4000);
        assert_eq!(to_s16(180.0 * (32768.0f32 / 180.0)), -0x8000);
        assert_eq!(to_s16(2.5 * 100.0), 250);
        assert_eq!(to_s16(0.999 * 100.0), 99);
    }

    proptest::proptest! {
        /// The bisection samples what the game's walk does, on knots in any order, of every
        /// kind (constant, linear, cubic), at whole, half and odd times.
        #[test]
        fn bisected_knots_sample_as_the_walk_does(
            knots in proptest::collection::vec((0u16..4, -20i16..60, -90i16..90, -90i16..90, -100.0f32..100.0), 1..24),
            x in -30.0f32..80.0,
        ) {
            let knots: Vec<Knot> = knots.into_iter().map(|(f, a, l, r, y)| k(f, a, l, r, y)).collect();
            let reach = crate::keysearch::reaches(knots.len(), std::iter::once((0, knots.len())), |i| knots[i].abscissa);
            for x in [x, x.round(), x.round() + 0.5] {
                let (fast, walk) = (interpolate_bisected(x, &knots, &reach), interpolate(x, &knots));
                proptest::prop_assert_eq!(fast.to_bits(), walk.to_bits(), "x = {}", x);
            }
        }
    }
}
