//! Majora's Mask keyframe skeletons and animations (zeldaret/mm `src/code/c_keyframe.c`,
//! `include/z64keyframe.h`), the system MM uses for a handful of actors besides SkelAnime.
//!
//! * Skeleton: `{u8 limbCount; u8 dListCount; pad; limbs*}`. Limbs are stored in draw order
//!   (pre-order) and each says how many children follow it (`numChildren`), so limb 0 is the
//!   root and the tree is rebuilt by walking the array once. Standard limbs carry a jointPos,
//!   flex limbs none (their translation is animated).
//! * Animation (0x14 bytes): per limb bit flags (u8 for standard skeletons, u16 for flex), the
//!   keyframes, the keyframe count of each animated channel, the fixed values of the others,
//!   and frameCount. Channel order: standard = root translation xyz (flags bits 5..3 of limb 0),
//!   then every limb's rotation xyz (bits 2..0); flex = per limb scale xyz (bits 8..6),
//!   rotation xyz (bits 5..3), translation xyz (bits 2..0).
//! * A channel value at time `t` is `Keyframe_KeyCalc`: the first key's value up to its frame,
//!   the last key's from its frame on, in between the cubic Hermite `Keyframe_Interpolate` of
//!   the surrounding pair with the velocities scaled by `delta * (1/30)`, rounded by
//!   `nearbyint` (round half to even) and stored as s16. Rotations are tenths of a degree,
//!   turned into binary angles by `DEG_TO_BINANG(FMOD(v * 0.1f, 360))`; flex scales are
//!   hundredths (`v * 0.01f`).
//! * Time: `FrameCtrl_Update` advances `curTime` by `speed * 30/20` a game update (30 time
//!   units a second) over `1..=frameCount` and wraps (`< 1` → `+ frameCount - 1`), so the game
//!   samples fractional times. Our frame `f` is the time `f + 1`.
//! * Drawing (`Keyframe_DrawStandardLimb` / `Keyframe_DrawFlexLimb`): push, then
//!   `Matrix_TranslateRotateZYX(pos, rot)`; flex limbs then `Matrix_Scale` when any scale is not
//!   1; children inherit the matrix. Standard: the root's pos is `jointTable[0]`, the others'
//!   their jointPos, limb i's rotation jointTable[i + 1]. Flex: the joint table holds scale,
//!   rotation, translation for every limb (3 entries a limb).

use crate::joint_table::JointTable;
use crate::layout::*;
use crate::mtx::MtxF;
use crate::segment::Ctx;
use crate::skeleton::{Limb, LimbType, SkelDef, SkelType};
use boneyard_core::Result;

pub use crate::layout::KeyFrame;

/// `Keyframe_Interpolate` (cKF_HermitCalc): the cubic Hermite curve at `t` in 0..1, with the
/// game's f32 operations in its order.
pub fn interpolate(t: f32, delta: f32, x0: f32, x1: f32, v0: f32, v1: f32) -> f32 {
    let px1 = 3.0f32 * (t * t) - 2.0f32 * (t * t * t);
    let px0 = 1.0f32 - px1;
    let pv0 = t * t * t - 2.0f32 * (t * t) + t;
    let pv1 = t * t * t - t * t;
    px0 * x0 + px1 * x1 + (pv0 * v0 + pv1 * v1) * delta
}

/// libc64 `nearbyint(f64)` (`round.w.d`, the FPU's round-half-to-even) of the f32 result,
/// returned as the game's s16.
fn nearbyint_s16(v: f32) -> i16 {
    (v as f64).round_ties_even() as i32 as i16
}

/// `IS_ZERO(f)`: `fabsf(f) < 0.008f`.
fn is_zero(f: f32) -> bool {
    f.abs() < 0.008f32
}

/// `Keyframe_KeyCalc` over the keys of one channel (at least one) at time `t`: the game's walk
/// from the first key (what [`KfAnim::joint_table`]'s bisection is held to).
#[cfg(test)]
pub fn key_calc(keys: &[KeyFrame], t: f32) -> i16 {
    key_calc_past(keys, t, |t| (1..keys.len()).find(|&i| t < keys[i].frame as f32).unwrap_or(keys.len()))
}

/// [`key_calc`] with the search by bisection over the channel's reaches
/// ([`crate::keysearch`]).
fn key_calc_bisected(keys: &[KeyFrame], reach: &[i16], t: f32) -> i16 {
    key_calc_past(keys, t, |t| crate::keysearch::first_past(reach, t))
}

/// `Keyframe_KeyCalc` with `past(t)`: the index of the first key after the first whose frame
/// is past `t`.
fn key_calc_past(keys: &[KeyFrame], t: f32, past: impl Fn(f32) -> usize) -> i16 {
    let (Some(first), Some(last)) = (keys.first(), keys.last()) else { return 0 };
    if t <= first.frame as f32 {
        return first.value;
    }
    if last.frame as f32 <= t || t.is_nan() {
        // (No key is past a NaN: the game's walk ends at the last key.)
        return last.value;
    }
    // t lies before the last key's frame, so the search ends at the last key at the latest.
    let i = past(t);
    let (Some(&k1), Some(&k2)) = (keys.get(i.wrapping_sub(1)), keys.get(i)) else { return last.value };
    // s16 - s16 in int, then stored in an f32.
    let delta = (k2.frame as i32 - k1.frame as i32) as f32;
    if is_zero(delta) {
        return k1.value;
    }
    let v = interpolate(
        (t - k1.frame as f32) / delta,
        delta * (1.0f32 / 30.0),
        k1.value as f32,
        k2.value as f32,
        k1.velocity as f32,
        k2.velocity as f32,
    );
    nearbyint_s16(v)
}

/// `DEG_TO_BINANG(FMOD(v * 0.1f, 360))`: tenths of a degree to a binary angle, with
/// `FMOD(x, m) = x - (s32)(x * (1.0f / m)) * (f32)m` and `DEG_TO_BINANG(d) =
/// (s16)(s32)(d * (0x8000 / 180.0f))`, all in f32.
pub fn tenths_to_binang(v: i16) -> i16 {
    let x = v as f32 * 0.1f32;
    let m = x - ((x * (1.0f32 / 360.0)) as i32) as f32 * 360.0f32;
    ((m * (32768.0f32 / 180.0)) as i32) as i16
}

/// The limbs and channel layout an animation is read against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KfShape {
    /// Limbs of the skeleton.
    pub limbs: usize,
    /// Flex limbs (scale, rotation and translation each) instead of standard ones.
    pub flex: bool,
}

impl KfShape {
    /// Joint table entries: root translation + one rotation a limb, or 3 a limb for flex.
    pub fn joints(self) -> usize {
        if self.flex {
            3 * self.limbs
        } else {
            self.limbs + 1
        }
    }
    fn channels(self) -> usize {
        3 * self.joints()
    }
    fn flag_bytes(self) -> usize {
        if self.flex {
            2 * self.limbs
        } else {
            self.limbs
        }
    }
}

/// The header fields of a `KeyFrameAnimation`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KfHeader {
    /// Segmented address of the per-limb bit flags (which channels are animated).
    pub bit_flags: u32,
    /// Segmented address of the keys.
    pub key_frames: u32,
    /// Segmented address of the per-channel key counts.
    pub kf_nums: u32,
    /// Segmented address of the fixed values (channels without keys).
    pub fixed_values: u32,
    /// The header's u16 at 0x10 (kept for `list --json`).
    pub unk_10: u16,
    /// Number of frames (positive).
    pub frames: u16,
}

/// Read a `KeyFrameAnimation` header at `addr`.
pub fn read_header(ctx: &Ctx, addr: u32) -> Result<KfHeader> {
    let h: KeyFrameAnimation = ctx.record(addr, ctx.home_offset(addr))?;
    let frames = h.frame_count;
    if frames <= 0 {
        return Err(
            ctx.error(addr + KeyFrameAnimation::FRAME_COUNT as u32, format!("keyframe animation has {frames} frames"))
        );
    }
    Ok(KfHeader {
        bit_flags: h.bit_flags,
        key_frames: h.key_frames,
        kf_nums: h.kf_nums,
        fixed_values: h.fixed_values,
        unk_10: h.unk_10,
        frames: frames as u16,
    })
}

/// An animation resolved against a skeleton shape: which channels are animated, the keys of
/// each animated channel (start, count) and the fixed values, every range checked.
#[derive(Debug, Clone)]
pub struct KfAnim {
    /// The limbs and channel layout it was read against.
    pub shape: KfShape,
    /// Per channel in game order: Some((first key, key count)) or None (fixed).
    pub channels: Vec<Option<(usize, usize)>>,
    /// The keys, every animated channel's in order.
    pub keys: Vec<KeyFrame>,
    /// The fixed values, taken in order by the channels without keys.
    pub fixed: Vec<i16>,
    /// Bit flags set beyond the layout's channels (ignored, as by the game).
    pub stray_bits: bool,
    /// Per key, its reach in its channel ([`crate::keysearch::reaches`]).
    reach: Vec<i16>,
}

impl KfAnim {
    /// Read and check everything the game reads for `h` on a skeleton of `shape`.
    pub fn load(ctx: &Ctx, addr: u32, h: &KfHeader, shape: KfShape) -> Result<KfAnim> {
        let at = ctx.home_offset(addr);
        if shape.limbs == 0 || shape.limbs > MAX_LIMBS {
            return Err(ctx.error(addr, format!("keyframe skeleton of {} limbs", shape.limbs)));
        }
        let mut flags = ctx.reader(h.bit_flags, shape.flag_bytes(), at)?;
        let mut animated = Vec::with_capacity(shape.channels());
        // Bits the game never tests (it ignores them; the scan takes them as a sign of a
        // misread).
        let mut stray_bits = false;
        if shape.flex {
            for _ in 0..shape.limbs {
                let f = flags.u16()?;
                stray_bits |= f > 0x1FF;
                animated.extend((0..9).rev().map(|b| f & (1 << b) != 0));
            }
        } else {
            for l in 0..shape.limbs {
                let f = flags.u8()?;
                if l == 0 {
                    // Limb 0's byte also holds the root translation's bits 5..3.
                    animated.extend((3..6).rev().map(|b| f & (1 << b) != 0));
                }
                stray_bits |= f > if l == 0 { 0x3F } else { 0x07 };
                animated.extend((0..3).rev().map(|b| f & (1 << b) != 0));
            }
        }
        let n_anim = animated.iter().filter(|&&a| a).count();
        let n_fixed = animated.len() - n_anim;
        let mut nums = ctx.reader(h.kf_nums, n_anim * 2, at)?;
        let mut channels = Vec::with_capacity(animated.len());
        let mut start = 0usize;
        let mut k = 0usize;
        for &a in &animated {
            if !a {
                channels.push(None);
                continue;
            }
            let n = nums.i16()?;
            if n <= 0 {
                // The game would read the key before the channel's first (kfNum - 1 = -1).
                return Err(ctx.error(h.kf_nums + 2 * k as u32, format!("channel {k} has {n} keyframes")));
            }
            channels.push(Some((start, n as usize)));
            start += n as usize;
            k += 1;
        }
        let keys = read_table::<KeyFrame>(&mut ctx.reader(h.key_frames, start * KEYFRAME_SIZE, at)?, start)?;
        let mut fb = ctx.reader(h.fixed_values, n_fixed * 2, at)?;
        let fixed = (0..n_fixed).map(|_| fb.i16()).collect::<Result<_>>()?;
        let reach = crate::keysearch::reaches(keys.len(), channels.iter().flatten().copied(), |k| keys[k].frame);
        Ok(KfAnim { shape, channels, keys, fixed, stray_bits, reach })
    }

    /// The bytes it holds (what a document's `Limits::max_animation_bytes` charges).
    pub fn decoded_bytes(&self) -> usize {
        self.keys.len() * (std::mem::size_of::<KeyFrame>() + 2)
            + self.fixed.len() * 2
            + self.channels.len() * std::mem::size_of::<Option<(usize, usize)>>()
    }

    /// Are every channel's keys in frame order, as `Keyframe_KeyCalc`'s search assumes and real
    /// data has them, and no stray flag bits set? (The structural scan takes only such
    /// animations.)
    pub fn keys_sorted(&self) -> bool {
        !self.stray_bits
            && self
                .channels
                .iter()
                .flatten()
                .all(|&(s, n)| self.keys.get(s..s + n).is_some_and(|k| k.windows(2).all(|w| w[0].frame <= w[1].frame)))
    }

    /// The joint table at time `t` (`Keyframe_UpdateStandard` / `Keyframe_UpdateFlex`, no
    /// morph, no rotation offsets).
    pub fn joint_table(&self, t: f32) -> JointTable {
        let mut out = Vec::with_capacity(self.channels.len());
        let mut fixed = self.fixed.iter();
        for (c, ch) in self.channels.iter().enumerate() {
            let v = match ch {
                Some((s, n)) => match (self.keys.get(*s..s + n), self.reach.get(*s..s + n)) {
                    (Some(k), Some(r)) => key_calc_bisected(k, r, t),
                    _ => 0,
                },
                None => fixed.next().copied().unwrap_or(0),
            };
            let joint = c / 3;
            let rotation = if self.shape.flex { joint % 3 == 1 } else { joint > 0 };
            out.push(if rotation { tenths_to_binang(v) } else { v });
        }
        JointTable { joints: out.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect(), face: None }
    }
}

/// Read a keyframe skeleton header at `addr`; `flex` None infers the limb kind (the one whose
/// limb array walks into a consistent tree with `dListCount` display lists).
pub fn read_skeleton(ctx: &Ctx, addr: u32, ctx_index: usize, name: String, flex: Option<bool>) -> Result<SkelDef> {
    let h: KeyFrameSkeleton = ctx.record(addr, ctx.home_offset(addr))?;
    let (count, dl_count, table) = (h.limb_count as usize, h.dlist_count, h.limbs);
    if count == 0 {
        return Err(ctx.error(addr, "keyframe skeleton has 0 limbs"));
    }
    match flex {
        Some(f) => read_limbs(ctx, addr, table, count, dl_count, f, ctx_index, name),
        None => read_limbs(ctx, addr, table, count, dl_count, false, ctx_index, name.clone())
            .or_else(|_| read_limbs(ctx, addr, table, count, dl_count, true, ctx_index, name)),
    }
}

/// Whether [`read_skeleton`] with no layout given (`flex: None`) can read a skeleton at `addr`:
/// the checks its limb loop makes (each limb's display list 0 or inside a bound segment, draw
/// flags 0 or 1), on the bytes, for either layout, without building anything. The structural
/// scan asks this first: its candidates are mostly display-list words (`FD10 0000 06oooooo`
/// reads as a header), and reading one to its error costs the limb vectors and the message.
pub fn may_read_skeleton(ctx: &Ctx, addr: u32) -> bool {
    let Some(h) = ctx.record_if_there::<KeyFrameSkeleton>(addr) else { return false };
    let count = h.limb_count as usize;
    count > 0
        && [KF_STANDARD_LIMB_SIZE, KF_FLEX_LIMB_SIZE].into_iter().any(|size| {
            ctx.bytes_if_there(h.limbs, count * size).is_some_and(|b| {
                b.chunks_exact(size).all(|l| {
                    let d = KeyFrameStandardLimb::DLIST;
                    let dl = u32::from_be_bytes([l[d], l[d + 1], l[d + 2], l[d + 3]]);
                    (dl == 0 || ctx.is_valid(dl)) && l[KeyFrameStandardLimb::DRAW_FLAGS] <= 1
                })
            })
        })
}

#[allow(clippy::too_many_arguments)]
fn read_limbs(
    ctx: &Ctx,
    addr: u32,
    table: u32,
    count: usize,
    dl_count: u8,
    flex: bool,
    ctx_index: usize,
    name: String,
) -> Result<SkelDef> {
    let size = if flex { KF_FLEX_LIMB_SIZE } else { KF_STANDARD_LIMB_SIZE };
    let mut b = ctx.reader(table, count * size, ctx.home_offset(addr) + KeyFrameSkeleton::LIMBS as u64)?;
    let mut limbs = Vec::with_capacity(count);
    let mut children = Vec::with_capacity(count);
    for i in 0..count {
        // The two limb records share dList, numChildren and drawFlags at the same offsets.
        let (dl, num_children, draw_flags, pos) = if flex {
            let l = KeyFrameFlexLimb::read(&mut b)?;
            (l.dlist, l.num_children, l.draw_flags, [0.0; 3])
        } else {
            let l = KeyFrameStandardLimb::read(&mut b)?;
            (l.dlist, l.num_children, l.draw_flags, l.joint_pos.map(|v| v as f32))
        };
        let la = table + (i * size) as u32;
        if dl != 0 && !ctx.is_valid(dl) {
            return Err(ctx.error(la, format!("limb {i}: display list {dl:#010x} is outside the given segments")));
        }
        if draw_flags > 1 {
            return Err(ctx.error(
                la + KeyFrameStandardLimb::DRAW_FLAGS as u32,
                format!("limb {i}: draw flags {draw_flags:#x} (0 opaque, 1 translucent)"),
            ));
        }
        children.push(num_children as usize);
        limbs.push(Limb { addr: la, pos, rot: [0; 3], child: None, sibling: None, dlists: [dl, 0], skin: None });
    }
    // The draw recursion, iteratively: limb indices are handed out in pre-order; each limb
    // takes its numChildren next subtrees.
    let mut parent = vec![None; count];
    let mut order = vec![0usize];
    let mut stack: Vec<(usize, usize)> = vec![(0, children[0])];
    let mut next = 1usize;
    let mut last_child: Vec<Option<usize>> = vec![None; count];
    while let Some(top) = stack.last_mut() {
        if top.1 == 0 {
            stack.pop();
            continue;
        }
        top.1 -= 1;
        let p = top.0;
        if next >= count {
            return Err(
                ctx.error(limbs[p].addr + 4, format!("limb {p}: numChildren leads past the skeleton's {count} limbs"))
            );
        }
        parent[next] = Some(p);
        match last_child[p] {
            None => limbs[p].child = Some(next),
            Some(prev) => limbs[prev].sibling = Some(next),
        }
        last_child[p] = Some(next);
        order.push(next);
        stack.push((next, children[next]));
        next += 1;
    }
    // Limbs the walk never reaches are not drawn; they stay as extra roots.
    order.extend(next..count);
    let with_dl = limbs.iter().filter(|l| l.dlists[0] != 0).count();
    if with_dl != dl_count as usize {
        return Err(ctx.error(
            addr + 1,
            format!(
                "dListCount {dl_count} but {with_dl} limbs have a display list ({} limbs)",
                if flex { "flex" } else { "standard" }
            ),
        ));
    }
    let mut bone_of_limb = vec![0; count];
    for (b, &l) in order.iter().enumerate() {
        bone_of_limb[l] = b;
    }
    Ok(SkelDef {
        addr,
        ctx: ctx_index,
        name,
        ty: SkelType::KeyFrame { flex, dlist_count: dl_count },
        limb_type: if flex { LimbType::KeyFrameFlex } else { LimbType::KeyFrameStandard },
        limbs,
        parent,
        order,
        bone_of_limb,
    })
}

/// Apply flex limb `l`'s transform for joint table `jt` to `m` (`Keyframe_DrawFlexLimb`):
/// translate/rotate, then scale by `value * 0.01f` unless all three scales are 1.
pub fn apply_flex_limb(m: &mut MtxF, l: usize, jt: Option<&JointTable>) {
    let Some(jt) = jt else { return };
    let (s, r, t) = flex_entries(l, jt);
    m.translate_rotate_zyx([t[0] as f32, t[1] as f32, t[2] as f32], r);
    let scale = flex_scale(s);
    if scale != [1.0; 3] {
        m.scale(scale[0], scale[1], scale[2]);
    }
}

/// Limb `l`'s entries of a flex joint table: scale (x100), rotation, translation.
fn flex_entries(l: usize, jt: &JointTable) -> ([i16; 3], [i16; 3], [i16; 3]) {
    let get = |k: usize| jt.joints.get(3 * l + k).copied().unwrap_or([0; 3]);
    (get(0), get(1), get(2))
}

/// `value * 0.01f`.
fn flex_scale(s: [i16; 3]) -> [f32; 3] {
    s.map(|v| v as f32 * 0.01f32)
}

/// Flex limb `l`'s local transform for joint table `jt` (None: identity), from the engine's
/// numbers ([`crate::mtx::scaled_limb_transform`]): a scale keyed to 0 stays exactly 0 with a
/// valid rotation.
pub fn flex_limb_transform(l: usize, jt: Option<&JointTable>) -> boneyard_core::model::Transform {
    let Some(jt) = jt else { return boneyard_core::model::Transform::IDENTITY };
    let (s, r, t) = flex_entries(l, jt);
    crate::mtx::scaled_limb_transform([t[0] as f32, t[1] as f32, t[2] as f32], r, flex_scale(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two keys, worked by hand from the decomp's formulas.
    /// Keys (frame 1, value 0, velocity 0) and (frame 11, value 100, velocity 0):
    /// delta = 10. At t = 6: u = (6 - 1) / 10 = 0.5; px1 = 3 * 0.25 - 2 * 0.125 = 0.5,
    /// px0 = 0.5, pv0 = 0.125 - 0.5 + 0.5 = 0.125, pv1 = 0.125 - 0.25 = -0.125; velocities 0,
    /// so the value is 0.5 * 0 + 0.5 * 100 = 50 exactly -> 50.
    /// At t = 3.5: u = 2.5 / 10 = 0.25 (exact in f32); t^2 = 0.0625, t^3 = 0.015625;
    /// px1 = 0.1875 - 0.03125 = 0.15625 -> 15.625 -> nearbyint 16.
    /// At t = 1 or before: 0 (first key); at 11 or after: 100 (last key).
    #[test]
    fn two_key_curve_by_hand() {
        let keys = [KeyFrame { frame: 1, value: 0, velocity: 0 }, KeyFrame { frame: 11, value: 100, velocity: 0 }];
        assert_eq!(key_calc(&keys, 6.0), 50);
        assert_eq!(key_calc(&keys, 3.5), 16);
        assert_eq!(key_calc(&keys, 1.0), 0);
        assert_eq!(key_calc(&keys, -4.0), 0);
        assert_eq!(key_calc(&keys, 11.0), 100);
        assert_eq!(key_calc(&keys, 30.0), 100);
    }

    /// Velocities: keys (0, 0, v0 = 30) and (10, 0, v1 = 30), t = 5: u = 0.5, delta = 10,
    /// delta * (1/30f) = 10 * 0.033333335 = 0.33333334 (f32); pv0 = 0.125, pv1 = -0.125, so
    /// (0.125 * 30 + -0.125 * 30) * 0.333 = 0 -> 0. At t = 2.5: u = 0.25, pv0 = 0.015625 -
    /// 0.125 + 0.25 = 0.140625, pv1 = 0.015625 - 0.0625 = -0.046875; (4.21875 - 1.40625) =
    /// 2.8125 * 0.33333334 = 0.93750001 -> f32 0.9375 -> 1. With v1 = -30 instead at t = 5:
    /// (3.75 + 3.75) * 0.33333334 = 2.50000007 -> f32 2.5 exactly, a tie: nearbyint rounds
    /// half to even -> 2 (C's round() would give 3).
    #[test]
    fn velocities_and_rounding_by_hand() {
        let k = |f, v, w| KeyFrame { frame: f, value: v, velocity: w };
        assert_eq!(key_calc(&[k(0, 0, 30), k(10, 0, 30)], 5.0), 0);
        assert_eq!(key_calc(&[k(0, 0, 30), k(10, 0, 30)], 2.5), 1);
        assert_eq!(key_calc(&[k(0, 0, 30), k(10, 0, -30)], 5.0), 2);
        assert_eq!(nearbyint_s16(2.5), 2);
        assert_eq!(nearbyint_s16(3.5), 4);
        assert_eq!(nearbyint_s16(-2.5), -2);
        // Three keys: t = 15 falls between the 2nd (10, 100) and 3rd (20, 300): u = 0.5 ->
        // 0.5 * 100 + 0.5 * 300 = 200.
        assert_eq!(key_calc(&[k(0, 0, 0), k(10, 100, 0), k(20, 300, 0)], 15.0), 200);
        // Two keys on the same frame: delta 0 -> the first one's value.
        assert_eq!(key_calc(&[k(0, 7, 0), k(0, 9, 0), k(5, 1, 0)], 0.0), 7);
    }

    /// Tenths of a degree: 900 * 0.1f = 90.0000013 -> f32 90.0; FMOD keeps 90; 90 *
    /// 182.04445 (f32 of 32768/180) = 16384.0004 -> f32 16384.0 -> 0x4000. -450 -> -45 ->
    /// -0x2000. 3600 -> 360.0; 360 * (1/360f) = 1.00000002 -> f32 1.0 -> (s32) 1 -> 360 - 360 =
    /// 0. 1800 -> 180 * 182.04445 = 32768.0008 -> 32768.0 -> (s32) 32768 -> (s16) -32768.
    /// 4500 -> 450; (s32)(1.25) = 1 -> 90 -> 0x4000.
    #[test]
    fn tenths_of_degree_by_hand() {
        assert_eq!(tenths_to_binang(900), 0x4000);
        assert_eq!(tenths_to_binang(-450), -0x2000);
        assert_eq!(tenths_to_binang(3600), 0);
        assert_eq!(tenths_to_binang(1800), -0x8000);
        assert_eq!(tenths_to_binang(4500), 0x4000);
        assert_eq!(tenths_to_binang(0), 0);
    }

    proptest::proptest! {
        /// The bisection samples what the game's walk does, on keys in any order (the asset
        /// table names clips whose keys are not sorted), at whole, half and odd times.
        #[test]
        fn bisected_keys_sample_as_the_walk_does(
            keys in proptest::collection::vec((-20i16..60, -3000i16..3000, -500i16..500), 1..24),
            t in -30.0f32..80.0,
        ) {
            let keys: Vec<KeyFrame> =
                keys.into_iter().map(|(frame, value, velocity)| KeyFrame { frame, value, velocity }).collect();
            let reach = crate::keysearch::reaches(keys.len(), std::iter::once((0, keys.len())), |k| keys[k].frame);
            for t in [t, t.round(), t.round() + 0.5] {
                proptest::prop_assert_eq!(key_calc_bisected(&keys, &reach, t), key_calc(&keys, t), "t = {}", t);
            }
        }
    }
}
