//! `check`'s pass over one part: every frame's rotation by the engine's walk
//! (`TRrQuatArray_SetAnimationInternal`), verified unit (`MUmQuat_VerifyUnit`) without being
//! collected. The values are those of [`Tram::part_rotations`] bit for bit; on x86-64 they are
//! computed in SSE2 registers (`lanes`), where every instruction rounds as the scalar one
//! (IEEE-754 double and single, no fused operations), and:
//!
//! - a segment's two keys are widened and the dot product's sign flip applied once for all the
//!   frames between them (the same doubles `MUrQuat_Lerp` computes at each frame);
//! - the normalizations' square roots and divisions are paid once for two lerps;
//! - 6-byte keys are combined from their sine/cosine tables two doubles at a time.

use super::Tram;
use crate::keys;

impl Tram {
    /// True when every frame of `part` walks inside its stream to a unit quaternion
    /// (`keys::is_unit`): the values of [`part_rotations`](Self::part_rotations), bit for bit,
    /// checked without being collected. `check` walks every part of every TRAM this way; false
    /// sends it to `part_rotations` to name the fault.
    pub fn part_all_unit(&self, part: usize) -> bool {
        let Some(stream) = self.streams.get(part).and_then(|s| self.rotations.get(s.start..s.end)) else {
            return false;
        };
        let frames = self.frames;
        match self.key_size {
            16 => walk::<16>(stream, frames, |b| Some(lanes::Key::floats(b))),
            6 => walk::<6>(stream, frames, |b| Some(lanes::Key::angles6(b))),
            8 => walk::<8>(stream, frames, |b| keys::decode(8, b).map(lanes::Key::quat)),
            4 => walk::<4>(stream, frames, |b| keys::decode(4, b).map(lanes::Key::quat)),
            3 => walk::<3>(stream, frames, |b| keys::decode(3, b).map(lanes::Key::quat)),
            _ => false,
        }
    }
}

/// The walk of one stream of `KS`-byte keys over `frames` frames: frame 0 is the first key;
/// after it, each (gap, key) pair covers the frames up to the key (lerps, then the key).
fn walk<const KS: usize>(stream: &[u8], frames: usize, key: impl Fn(&[u8; KS]) -> Option<lanes::Key>) -> bool {
    let key_at = |pos: usize| -> Option<lanes::Key> {
        let bytes: &[u8; KS] = stream.get(pos..pos.checked_add(KS)?)?.try_into().ok()?;
        key(bytes)
    };
    let Some(first) = key_at(0) else { return false };
    let mut ok = first.is_unit();
    let last_frame = frames.saturating_sub(1);
    let (mut p, mut last_q, mut current_frame) = (KS, first, 0usize);
    let mut lerps = lanes::Lerps::default();
    while current_frame < last_frame {
        let (Some(&gap), Some(current_q)) = (stream.get(p), key_at(p + 1)) else { return false };
        let gap = usize::from(gap);
        p += 1 + KS;
        // Frames current_frame + 1 ..= current_frame + reach: lerps, then the key itself when
        // the gap ends inside the animation (a gap of 0 covers no frame).
        let reach = gap.min(last_frame - current_frame);
        let lerp_frames = if reach == gap { gap.saturating_sub(1) } else { reach };
        if reach == gap && gap > 0 {
            ok &= current_q.is_unit();
        }
        if lerp_frames > 0 {
            let ends = lanes::Ends::new(&last_q, &current_q);
            let g = gap as f32;
            for into in 1..=lerp_frames {
                lerps.push(&ends, into as f32 / g);
            }
        }
        current_frame += gap;
        last_q = current_q;
    }
    ok & lerps.finish()
}

#[cfg(target_arch = "x86_64")]
mod lanes {
    //! The SSE2 kernels. SAFETY (every `unsafe` block here): SSE2 is part of the x86-64
    //! baseline, so the intrinsics are always available; the only memory accesses are loads
    //! of 16 bytes from a `[u8; 16]`, of 16 from a `[f64; 2]`, of 8 from a `[f32; 2]`, and
    //! stores of 16 into a `[f32; 4]`.
    use crate::keys;
    use crate::math::EQuat;
    use std::arch::x86_64::*;

    /// A decoded key: `[x, y, z, w]` in one register.
    #[derive(Clone, Copy)]
    pub struct Key(__m128);

    /// The sign bit of the lanes selected (lane 0, lane 1) of a pair of doubles.
    #[inline(always)]
    fn sign_pd(lane0: bool, lane1: bool) -> __m128d {
        let s = |on: bool| if on { -0.0 } else { 0.0 };
        unsafe { _mm_set_pd(s(lane1), s(lane0)) }
    }

    /// `(float)(double)x` of each lane: the product stored as a float, read back wide.
    #[inline(always)]
    fn round_to_f32(v: __m128d) -> __m128d {
        unsafe { _mm_cvtps_pd(_mm_cvtpd_ps(v)) }
    }

    impl Key {
        /// A 16-byte key: four little-endian floats.
        #[inline(always)]
        pub fn floats(b: &[u8; 16]) -> Key {
            #[cfg(target_endian = "little")]
            unsafe {
                Key(_mm_loadu_ps(b.as_ptr().cast()))
            }
        }

        /// A key already decoded.
        #[inline(always)]
        pub fn quat(q: EQuat) -> Key {
            unsafe { Key(_mm_loadu_ps(q.as_ptr())) }
        }

        /// A 6-byte key through the tables of `keys::decode6_tabled`, the products and sums of
        /// `math::xyzr_euler_combine` two at a time.
        #[inline(always)]
        pub fn angles6(b: &[u8; 6]) -> Key {
            let t = keys::angle6_trig();
            let u = |i: usize| usize::from(u16::from_le_bytes([b[i], b[i + 1]]));
            let (hx, hz, jy) = (&t.half[u(0)], &t.half[u(4)], &t.y[u(2)]);
            unsafe {
                let h = _mm_loadu_pd(hx.as_ptr()); // (sh, ch)
                let i = _mm_loadu_pd(hz.as_ptr()); // (si, ci)
                let j = _mm_cvtps_pd(_mm_castpd_ps(_mm_load_sd(jy.as_ptr().cast()))); // (sj, cj)
                let i_rev = _mm_shuffle_pd(i, i, 0b01); // (ci, si)
                let a = round_to_f32(_mm_mul_pd(i_rev, _mm_unpackhi_pd(h, h))); // (cc, sc)
                let bb = round_to_f32(_mm_mul_pd(i_rev, _mm_unpacklo_pd(h, h))); // (cs, ss)
                let (sj, cj) = (_mm_unpacklo_pd(j, j), _mm_unpackhi_pd(j, j));
                // (x, z) = cj·(cs, sc) − sj·(sc, cs)
                let xz = _mm_sub_pd(
                    _mm_mul_pd(cj, _mm_shuffle_pd(bb, a, 0b10)),
                    _mm_mul_pd(sj, _mm_shuffle_pd(a, bb, 0b01)),
                );
                // y = (−cj)·ss − sj·cc; w = −(cj·cc + sj·ss), as cj·cc − (−(sj·ss)) negated
                // (x − (−y) is x + y exactly; the negations flip sign bits only).
                let r = _mm_mul_pd(_mm_xor_pd(cj, sign_pd(true, false)), _mm_shuffle_pd(bb, a, 0b01));
                let s = _mm_xor_pd(_mm_mul_pd(sj, _mm_shuffle_pd(a, bb, 0b10)), sign_pd(false, true));
                let yw = _mm_xor_pd(_mm_sub_pd(r, s), sign_pd(false, true));
                Key(_mm_unpacklo_ps(_mm_cvtpd_ps(xz), _mm_cvtpd_ps(yw)))
            }
        }

        /// The key's four floats.
        #[inline(always)]
        pub fn get(&self) -> EQuat {
            let mut q = [0f32; 4];
            unsafe { _mm_storeu_ps(q.as_mut_ptr(), self.0) };
            q
        }

        /// `keys::is_unit` of the key.
        #[inline(always)]
        pub fn is_unit(&self) -> bool {
            keys::is_unit(self.get())
        }
    }

    /// One segment's lerp operands (`MUrQuat_Lerp`'s): `from` and `to` widened, `to` negated
    /// when their dot product is negative ((−t)·b and t·(−b) are the same double).
    pub struct Ends {
        a: [__m128d; 2],
        b: [__m128d; 2],
    }

    impl Ends {
        /// The operands of lerps from `from` to `to`.
        #[inline(always)]
        pub fn new(from: &Key, to: &Key) -> Ends {
            unsafe {
                let wide = |q: __m128| [_mm_cvtps_pd(q), _mm_cvtps_pd(_mm_movehl_ps(q, q))];
                let (a, b) = (wide(from.0), wide(to.0));
                // ((a0·b0 + a1·b1) + a2·b2) + a3·b3, in the C loop's order.
                let (p01, p23) = (_mm_mul_pd(a[0], b[0]), _mm_mul_pd(a[1], b[1]));
                let c = _mm_add_sd(_mm_add_sd(p01, _mm_unpackhi_pd(p01, p01)), p23);
                let cosom = _mm_add_sd(c, _mm_unpackhi_pd(p23, p23));
                // All ones where cosom < 0 (false for NaN, as the C comparison).
                let negative = _mm_cmplt_sd(cosom, _mm_setzero_pd());
                let flip = _mm_and_pd(_mm_unpacklo_pd(negative, negative), _mm_set1_pd(-0.0));
                Ends { a, b: [_mm_xor_pd(b[0], flip), _mm_xor_pd(b[1], flip)] }
            }
        }

        /// The lerp's blend at `t`, each component rounded to float.
        #[inline(always)]
        fn blend(&self, t: f32) -> Blend {
            unsafe {
                let tt = _mm_set1_pd(t as f64);
                let s0 = _mm_sub_pd(_mm_set1_pd(1.0), tt);
                let half = |i: usize| _mm_cvtpd_ps(_mm_add_pd(_mm_mul_pd(s0, self.a[i]), _mm_mul_pd(tt, self.b[i])));
                let (xy, zw) = (half(0), half(1));
                Blend { r: _mm_movelh_ps(xy, zw), wide: [_mm_cvtps_pd(xy), _mm_cvtps_pd(zw)] }
            }
        }
    }

    /// A blended quaternion before `MUrQuat_Normalize`: its floats, and them widened.
    #[derive(Clone, Copy)]
    struct Blend {
        r: __m128,
        wide: [__m128d; 2],
    }

    /// `MUrQuat_Normalize` of two blends at once: their normalized quaternions (before the
    /// zero-length case) and their squared lengths as floats (lanes 0 and 1).
    #[inline(always)]
    fn normalize_pair(p: &Blend, q: &Blend) -> (__m128, __m128, __m128) {
        unsafe {
            let (p01, p23) = (_mm_mul_pd(p.wide[0], p.wide[0]), _mm_mul_pd(p.wide[1], p.wide[1]));
            let (q01, q23) = (_mm_mul_pd(q.wide[0], q.wide[0]), _mm_mul_pd(q.wide[1], q.wide[1]));
            // Lane 0 is p's, lane 1 q's: ((x² + y²) + z²) + w².
            let sum = _mm_add_pd(_mm_unpacklo_pd(p01, q01), _mm_unpackhi_pd(p01, q01));
            let sum = _mm_add_pd(_mm_add_pd(sum, _mm_unpacklo_pd(p23, q23)), _mm_unpackhi_pd(p23, q23));
            let square = _mm_cvtpd_ps(sum);
            let inv = _mm_cvtpd_ps(_mm_div_pd(_mm_set1_pd(1.0), _mm_sqrt_pd(_mm_cvtps_pd(square))));
            let pn = _mm_mul_ps(p.r, _mm_shuffle_ps(inv, inv, 0x00));
            let qn = _mm_mul_ps(q.r, _mm_shuffle_ps(inv, inv, 0x55));
            (pn, qn, square)
        }
    }

    /// Lanes 0 and 1 hold true when p's and q's normalized lerp is unit (`keys::is_unit`; the
    /// identity of a zero length is).
    #[inline(always)]
    fn pair_unit(p: &Blend, q: &Blend) -> bool {
        unsafe {
            let (pn, qn, square) = normalize_pair(p, q);
            let (pp, qq) = (_mm_mul_ps(pn, pn), _mm_mul_ps(qn, qn));
            // Lane 0 p's, lane 1 q's: ((x² + y²) + z²) + w² in floats.
            let lo = _mm_unpacklo_ps(pp, qq); // (px², qx², py², qy²)
            let hi = _mm_unpackhi_ps(pp, qq); // (pz², qz², pw², qw²)
            let s = _mm_add_ps(_mm_add_ps(_mm_add_ps(lo, _mm_movehl_ps(lo, lo)), hi), _mm_movehl_ps(hi, hi));
            // s > 0.98 && s < 1.02 (false for NaN; an infinity fails the second).
            let unit = _mm_and_ps(_mm_cmpgt_ps(s, _mm_set1_ps(0.98)), _mm_cmplt_ps(s, _mm_set1_ps(1.02)));
            let zero_length =
                _mm_andnot_ps(_mm_cmpgt_ps(square, _mm_setzero_ps()), _mm_castsi128_ps(_mm_set1_epi32(-1)));
            _mm_movemask_ps(_mm_or_ps(unit, zero_length)) & 0b11 == 0b11
        }
    }

    /// Lerps waiting to be normalized two at a time, and whether all so far were unit.
    #[derive(Default)]
    pub struct Lerps {
        pending: Option<Blend>,
        bad: bool,
    }

    impl Lerps {
        /// The lerp of `ends` at `t`.
        #[inline(always)]
        pub fn push(&mut self, ends: &Ends, t: f32) {
            let b = ends.blend(t);
            match self.pending.take() {
                Some(p) => self.bad |= !pair_unit(&p, &b),
                None => self.pending = Some(b),
            }
        }

        /// True when every lerp pushed was unit.
        #[inline(always)]
        pub fn finish(self) -> bool {
            let last = self.pending.is_none_or(|p| pair_unit(&p, &p));
            !self.bad && last
        }
    }

    /// The two lerps' quaternions as `MUrQuat_Lerp` returns them (for the tests).
    #[cfg(test)]
    pub fn lerp_pair(e: [&Ends; 2], t: [f32; 2]) -> [EQuat; 2] {
        let (p, q) = (e[0].blend(t[0]), e[1].blend(t[1]));
        let (pn, qn, square) = normalize_pair(&p, &q);
        let mut sq = [0f32; 4];
        unsafe { _mm_storeu_ps(sq.as_mut_ptr(), square) };
        let out = |n: __m128, s: f32| if s > 0.0 { Key(n).get() } else { [0.0, 0.0, 0.0, 1.0] };
        [out(pn, sq[0]), out(qn, sq[1])]
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod lanes {
    //! The scalar walk: the engine's functions as written.
    use crate::keys;
    use crate::math::{quat_lerp, EQuat};

    /// A decoded key.
    #[derive(Clone, Copy)]
    pub struct Key(EQuat);

    impl Key {
        /// A 16-byte key.
        pub fn floats(b: &[u8; 16]) -> Key {
            Key(keys::decode(16, b).unwrap_or([0.0; 4]))
        }
        /// A key already decoded.
        pub fn quat(q: EQuat) -> Key {
            Key(q)
        }
        /// A 6-byte key.
        pub fn angles6(b: &[u8; 6]) -> Key {
            let u = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
            Key(keys::decode6_tabled([u(0), u(2), u(4)]))
        }
        /// The key's four floats.
        pub fn get(&self) -> EQuat {
            self.0
        }
        /// `keys::is_unit` of the key.
        pub fn is_unit(&self) -> bool {
            keys::is_unit(self.0)
        }
    }

    /// One segment's two keys.
    pub struct Ends(EQuat, EQuat);

    impl Ends {
        /// The operands of lerps from `from` to `to`.
        pub fn new(from: &Key, to: &Key) -> Ends {
            Ends(from.0, to.0)
        }
    }

    /// Whether every lerp so far was unit.
    #[derive(Default)]
    pub struct Lerps {
        bad: bool,
    }

    impl Lerps {
        /// The lerp of `ends` at `t`.
        pub fn push(&mut self, ends: &Ends, t: f32) {
            self.bad |= !keys::is_unit(quat_lerp(ends.0, ends.1, t));
        }
        /// True when every lerp pushed was unit.
        pub fn finish(self) -> bool {
            !self.bad
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{quat_lerp, quat_normalize, EQuat};

    fn xorshift(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// The 6-byte keys decoded in registers are `keys::decode6` (the direct sines and
    /// cosines), bit for bit: every angle of each axis alone, and mixed.
    #[test]
    fn register_6_byte_keys_are_decode6() {
        for u in 0..=u16::MAX {
            let v = u.wrapping_mul(40503);
            for raw in [[u, 0, 0], [0, u, 0], [0, 0, u], [u, v, u ^ 0x5a5a], [v, u, v ^ 0xa5a5]] {
                let mut b = [0u8; 6];
                for (i, x) in raw.iter().enumerate() {
                    b[2 * i..2 * i + 2].copy_from_slice(&x.to_le_bytes());
                }
                let got = lanes::Key::angles6(&b).get();
                assert_eq!(got.map(f32::to_bits), keys::decode6(raw).map(f32::to_bits), "{raw:?}");
            }
        }
    }

    /// The paired lerps in registers are `quat_lerp`, bit for bit: unit and non-unit
    /// quaternions, both signs of the dot product, zero-length blends, t from 0 to 1.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn paired_lerps_are_quat_lerp() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || ((xorshift(&mut seed) >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0;
        let mut cases: Vec<(EQuat, EQuat, f32)> = Vec::new();
        for i in 0..200_000 {
            let mut a = [next(), next(), next(), next()];
            let b = [next(), next(), next(), next()];
            if i % 3 == 0 {
                a = quat_normalize(a);
            }
            let t = (next() + 1.0) * 0.5;
            cases.push((a, b, t));
        }
        let q = [0.5, -0.5, 0.5, 0.5];
        cases.push((q, q.map(|c| -c), 0.5)); // blends to zero length: the identity
        cases.push((q, q, 0.0));
        cases.push((q, [0.0, 0.0, 0.0, 1.0], 1.0));
        cases.push(([1e30, 0.0, 0.0, 0.0], q, 0.5)); // the square overflows a float
        cases.push(([1e-30, 0.0, 0.0, 0.0], [1e-30, 0.0, 0.0, 0.0], 0.5)); // underflows
        cases.push(([f32::NAN, 0.0, 0.0, 0.0], q, 0.5));
        for pair in cases.chunks_exact(2) {
            let ends: Vec<lanes::Ends> =
                pair.iter().map(|c| lanes::Ends::new(&lanes::Key::quat(c.0), &lanes::Key::quat(c.1))).collect();
            let got = lanes::lerp_pair([&ends[0], &ends[1]], [pair[0].2, pair[1].2]);
            for (g, c) in got.iter().zip(pair) {
                let want = quat_lerp(c.0, c.1, c.2);
                assert_eq!(g.map(f32::to_bits), want.map(f32::to_bits), "{c:?}");
            }
        }
    }

    /// Streams of every key size, with keys unit, slightly off, far off, huge, zero and not
    /// finite, and every gap from 0 to 5: `part_all_unit` says what `part_rotations` and
    /// `is_unit` say of every frame.
    #[test]
    fn the_unit_walk_is_the_collected_one() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut checked = [0usize; 2];
        for case in 0..3000 {
            let key_size = crate::layout::tram::KEY_SIZES[case % 5];
            let keys_n = 1 + (xorshift(&mut seed) % 12) as usize;
            let mut stream = Vec::new();
            let mut frames = 1;
            for k in 0..keys_n {
                if k > 0 {
                    let gap = (xorshift(&mut seed) % 6) as u8;
                    stream.push(gap);
                    frames += gap as usize;
                }
                let mut key = vec![0u8; key_size as usize];
                for b in key.iter_mut() {
                    *b = xorshift(&mut seed) as u8;
                }
                if key_size == 16 {
                    let pick = xorshift(&mut seed) % 8;
                    let mut c = [0f32; 4];
                    for x in c.iter_mut() {
                        *x = ((xorshift(&mut seed) >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0;
                    }
                    let q = quat_normalize(c);
                    let q = match pick {
                        0 => q.map(|x| x * 1.005),
                        1 => q.map(|x| x * 3.0),
                        2 => [1e30, 0.0, 0.0, 1.0],
                        3 => [0.0; 4],
                        4 => [f32::NAN, 0.0, 0.0, 1.0],
                        _ => q,
                    };
                    for (i, x) in q.iter().enumerate() {
                        key[4 * i..4 * i + 4].copy_from_slice(&x.to_le_bytes());
                    }
                }
                stream.extend(key);
            }
            // Some walks end early (fewer frames than the gaps) or late (more frames).
            let frames = match case % 7 {
                0 => frames + 1,
                1 => frames.saturating_sub(1).max(1),
                _ => frames,
            };
            let mut t = crate::encode::new_tram("unit_case", key_size, 1, frames);
            t.streams = vec![super::super::Stream { start: 0, end: stream.len(), keys: keys_n }];
            t.rotations = stream.into();
            let want = t.part_rotations(0).map(|qs| qs.iter().all(|q| keys::is_unit(*q)));
            let got = t.part_all_unit(0);
            match want {
                Ok(w) => {
                    assert_eq!(got, w, "case {case}: key size {key_size}, {frames} frames");
                    checked[usize::from(w)] += 1;
                }
                Err(_) => assert!(!got, "case {case}: the walk fails, so the check must"),
            }
        }
        assert!(checked[0] > 100 && checked[1] > 100, "both outcomes covered: {checked:?}");
    }
}
