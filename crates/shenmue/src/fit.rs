//! Key placement for write-back: one channel's per-frame targets (metres, or turns) turned into
//! the fewest MOTN keys that the game's sampler ([`crate::curve::sample_keys`], the reader's own)
//! plays within a tolerance.
//!
//! * **Values.** A key's value is the IEEE half whose *engine* value is closest to the target:
//!   for positions the half itself, for rotations the int16 the engine stores,
//!   `trunc(half × 65536)` ([`best_value`]). The nearest half is not always it (truncation
//!   toward zero), so the halves around the target are tried.
//! * **Segments.** From a key, the next key is the farthest frame (searched until
//!   [`SLACK`] frames past the last end that held, and at most [`MAX_SPAN`] frames on) whose
//!   Hermite segment holds every frame in
//!   between within the tolerance. The segment's two tangents (the start key's out, the end
//!   key's in) are the least-squares fit of the frames in between, pulled weakly toward the
//!   targets' central differences (so that a segment with one or no frame in between is
//!   determined), then rounded to halves; the check samples the rounded keys as the engine does.
//! * **Floor.** A frame whose best key alone misses the tolerance (half precision: about
//!   0.5 mm at 1-2 m, 0.8 mrad at a quarter turn) is held to that key's own error instead.
//! * **Counts.** A key whose in and out tangents are equal stores one tangent (count 2), or
//!   none when it is 0 (count 1); others store both (count 3).

use crate::curve::{sample_keys, turns_to_raw, Key};
use half::f16;
use std::f64::consts::TAU;

/// How far past the last end that held the search for a farther one goes.
pub const SLACK: usize = 12;

/// The most frames one segment spans. Each end tried samples every frame before it, so a
/// channel held still for all of a long clip cost the square of its length (a 32,701-frame clip
/// took 9 minutes); spans are bounded so the work is linear in the frames, at the cost of a key
/// every 256 frames of a hold: at most 127 interior keys over the format's 32,767 frames, within
/// the 255 a channel's u8 count holds.
pub const MAX_SPAN: usize = 256;
/// The weight of the pull toward the central-difference tangents (the fit's residuals are
/// values; the pull is on tangents × span, in the same units).
const PULL: f64 = 1e-6;

/// What a channel's values are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    /// Metres, compared as values.
    Position,
    /// Turns, compared as the engine's int16 (`trunc(turns × 65536)`, 65536 a turn), the error
    /// in radians.
    Rotation,
}

impl Quantity {
    /// The error of the engine's use of a sampled `value` against `target` (metres or turns):
    /// metres for positions, radians for rotations.
    pub fn error(self, value: f32, target: f64) -> f64 {
        match self {
            Quantity::Position => (f64::from(value) - target).abs(),
            Quantity::Rotation => {
                let d = (f64::from(turns_to_raw(value)) - target * 65536.0).rem_euclid(65536.0);
                d.min(65536.0 - d) * TAU / 65536.0
            }
        }
    }
}

/// The half nearest `v` (IEEE round to nearest even), as f32.
pub fn round_half(v: f64) -> f32 {
    f16::from_f64(v).to_f32()
}

/// The stored value of a key for `target`: the finite half whose engine value is closest
/// (the smaller magnitude on a tie). Halves near the target, and near it ± half an int16 step
/// for rotations (the truncation's bins), are tried.
pub fn best_value(q: Quantity, target: f64) -> f32 {
    let mut best: Option<(f64, f32)> = None;
    let step = 0.5 / 65536.0;
    for centre in [target, target + step, target - step] {
        let b = f16::from_f64(centre).to_bits();
        for k in -2i32..=2 {
            let v = f16::from_bits(b.wrapping_add(k as u16)).to_f32();
            if !v.is_finite() {
                continue;
            }
            let e = q.error(v, target);
            let better = match best {
                None => true,
                Some((be, bv)) => e < be || (e == be && v.abs() < bv.abs()),
            };
            if better {
                best = Some((e, v));
            }
        }
    }
    best.map_or(0.0, |b| b.1)
}

/// One channel's keys and how close they play.
#[derive(Debug, Clone, PartialEq)]
pub struct Fitted {
    /// `[0, interior..., frames-1]`, values and tangents exactly halves.
    pub keys: Vec<Key>,
    /// The largest error at any frame (metres or radians), as the engine samples the keys.
    pub max_error: f64,
}

/// Tangents (per second) of the segment `a..b`, least squares on the frames in between.
fn fit_segment(target: &[f64], va: f32, vb: f32, a: usize, b: usize, slope: &[f64]) -> (f32, f32) {
    let span = (b - a) as f64;
    let s = span / f64::from(crate::layout::motn::FPS);
    let (va, vb) = (f64::from(va), f64::from(vb));
    let (ca, cb) = (slope[a] * s, slope[b] * s);
    let (mut s11, mut s12, mut s22, mut r1, mut r2) = (PULL, 0.0, PULL, PULL * ca, PULL * cb);
    for (j, &y) in target.iter().enumerate().take(b).skip(a + 1) {
        let t = (j - a) as f64 / span;
        let (t2, t3) = (t * t, t * t * t);
        let h00 = 2.0 * t3 - 3.0 * t2 + 1.0;
        let h10 = t3 - 2.0 * t2 + t;
        let h01 = -2.0 * t3 + 3.0 * t2;
        let h11 = t3 - t2;
        let r = y - h00 * va - h01 * vb;
        s11 += h10 * h10;
        s12 += h10 * h11;
        s22 += h11 * h11;
        r1 += h10 * r;
        r2 += h11 * r;
    }
    let det = s11 * s22 - s12 * s12;
    let (p, q) = if det.abs() > 1e-300 { ((r1 * s22 - r2 * s12) / det, (s11 * r2 - s12 * r1) / det) } else { (ca, cb) };
    (round_half(p / s), round_half(q / s))
}

/// Place the keys of one channel (see the module documentation). `target` holds one value per
/// frame (at least one); rotations in turns, continuous from frame to frame.
pub fn place_keys(q: Quantity, target: &[f64], tolerance: f64) -> Fitted {
    let n = target.len();
    let values: Vec<f32> = target.iter().map(|&t| best_value(q, t)).collect();
    let floor: Vec<f64> = values.iter().zip(target).map(|(&v, &t)| q.error(v, t)).collect();
    let slope: Vec<f64> = (0..n)
        .map(|j| {
            let (lo, hi) = (j.saturating_sub(1), (j + 1).min(n - 1));
            if hi == lo {
                0.0
            } else {
                (target[hi] - target[lo]) / (hi - lo) as f64 * f64::from(crate::layout::motn::FPS)
            }
        })
        .collect();
    let key = |frame: usize, tin: f32, tout: f32| Key {
        frame: frame as u16,
        count: 3,
        tangent_in: tin,
        tangent_out: tout,
        value: values[frame],
    };
    let holds = |a: usize, b: usize| -> Option<(f32, f32)> {
        let (out_a, in_b) = fit_segment(target, values[a], values[b], a, b, &slope);
        let seg = [key(a, 0.0, out_a), key(b, in_b, 0.0)];
        (a + 1..b)
            .all(|j| q.error(sample_keys(&seg, j as f32), target[j]) <= tolerance.max(floor[j]))
            .then_some((out_a, in_b))
    };
    // (frame, tangent in, tangent out)
    let mut placed: Vec<(usize, f32, f32)> = vec![(0, 0.0, 0.0)];
    let mut a = 0;
    while a + 1 < n {
        let mut best = (a + 1, holds(a, a + 1).unwrap_or((0.0, 0.0)));
        let mut b = a + 2;
        while b < n && b - best.0 <= SLACK && b - a <= MAX_SPAN {
            if let Some(t) = holds(a, b) {
                best = (b, t);
            }
            b += 1;
        }
        let (e, (out_a, in_e)) = best;
        placed.last_mut().expect("a key").2 = out_a;
        placed.push((e, in_e, 0.0));
        a = e;
    }
    if n == 1 {
        // Frames 0 and frames-1 are both 0: the two keys every curve has.
        placed.push((0, 0.0, 0.0));
    }
    // The first key's in tangent and the last key's out tangent are never used (the sampler
    // clamps outside the keys): they take the other one, which may save a half.
    let last = placed.len() - 1;
    placed[0].1 = placed[0].2;
    placed[last].2 = placed[last].1;
    let keys: Vec<Key> = placed
        .iter()
        .map(|&(f, tin, tout)| {
            let count = if tin != tout {
                3
            } else if tin == 0.0 {
                1
            } else {
                2
            };
            let (tin, tout) = if count == 1 { (0.0, 0.0) } else { (tin, tout) };
            Key { frame: f as u16, count, tangent_in: tin, tangent_out: tout, value: values[f] }
        })
        .collect();
    let max_error = (0..n).map(|j| q.error(sample_keys(&keys, j as f32), target[j])).fold(0.0, f64::max);
    Fitted { keys, max_error }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_by_hand() {
        // 1.1504 m: 1 + 154/1024 = 1.150390625 (0x3C9A) is the nearest half (1 + 155/1024 is
        // 0.00097 away).
        assert_eq!(best_value(Quantity::Position, 1.1504), 1.150_390_6);
        assert_eq!(round_half(1.1504), 1.150_390_6);
        // 0.3 turns = raw 19660.8. Halves in [0.25, 0.5) are 2^-12 apart: 1228 · 2^-12 =
        // 0.2998046875 stores raw 19648 (12.8 off), 1229 · 2^-12 = 0.300048828125 stores raw
        // 19664 (3.2 off): the latter, which is also the nearest half.
        assert_eq!(best_value(Quantity::Rotation, 0.3), 0.300_048_83);
        assert_eq!(turns_to_raw(0.300_048_83), 19664);
        // Truncation: a target of raw -17.2 is raw -17 (0.2 off) when stored as -17/65536
        // exactly; the nearest half to -17.2/65536 (halves there are 2^-24 apart) truncates
        // to -17 as well, but a target of raw 33.99 must not store 33.99 (truncated to 33):
        // the best key is 34/65536 (2^-11 · 1.0625), 0.01 off.
        assert_eq!(turns_to_raw(best_value(Quantity::Rotation, -17.2 / 65536.0)), -17);
        let v = best_value(Quantity::Rotation, 33.99 / 65536.0);
        assert_eq!(turns_to_raw(v), 34);
        assert!(Quantity::Rotation.error(v, 33.99 / 65536.0) < 0.011 * TAU / 65536.0);
        // Errors: rotations in radians, wrapped (a value a turn away is the same angle).
        assert_eq!(Quantity::Rotation.error(0.25, 1.25), 0.0);
        assert!((Quantity::Rotation.error(0.25, 0.25 + 1.0 / 65536.0) - TAU / 65536.0).abs() < 1e-12);
    }

    #[test]
    fn a_line_needs_two_keys() {
        // 0.1 m a frame over 31 frames: one Hermite segment with both tangents 3 m/s (a half)
        // is the line itself.
        let y: Vec<f64> = (0..31).map(|j| 0.1 * j as f64).collect();
        let f = place_keys(Quantity::Position, &y, 5e-4);
        assert_eq!(f.keys.iter().map(|k| k.frame).collect::<Vec<_>>(), vec![0, 30]);
        assert_eq!(
            f.keys.iter().map(|k| (k.count, k.tangent_in, k.value)).collect::<Vec<_>>(),
            vec![(2, 3.0, 0.0), (2, 3.0, 3.0)]
        );
        assert!(f.max_error < 1e-6, "{}", f.max_error);
        // A still channel: two value-only keys.
        let f = place_keys(Quantity::Rotation, &[0.125; 40], 5e-4);
        assert_eq!(f.keys.iter().map(|k| (k.frame, k.count)).collect::<Vec<_>>(), vec![(0, 1), (39, 1)]);
        assert_eq!(f.max_error, 0.0);
        // One frame: the two keys at frame 0.
        let f = place_keys(Quantity::Position, &[2.0], 5e-4);
        assert_eq!(f.keys.iter().map(|k| (k.frame, k.value)).collect::<Vec<_>>(), vec![(0, 2.0), (0, 2.0)]);
    }

    /// A hold of a clip near the format's longest is keyed every [`MAX_SPAN`] frames (values
    /// only, exact), and a line likewise: the work is linear in the frames (the unbounded
    /// search took minutes on such a clip).
    #[test]
    fn long_holds_are_keyed_every_max_span_frames() {
        let n = 32_701;
        let f = place_keys(Quantity::Rotation, &vec![0.125; n], 5e-4);
        let frames: Vec<usize> = f.keys.iter().map(|k| usize::from(k.frame)).collect();
        let expected: Vec<usize> = (0..n).step_by(MAX_SPAN).chain([n - 1]).collect();
        assert_eq!(frames, expected);
        assert!(f.keys.iter().all(|k| k.count == 1 && k.value == 0.125));
        assert_eq!(f.max_error, 0.0);
        // 1 mm a frame: every segment is the line (tangents 0.03 m/s, a half is 0.0299...).
        let y: Vec<f64> = (0..2_000).map(|j| 0.001 * j as f64).collect();
        let f = place_keys(Quantity::Position, &y, 5e-4);
        assert!(f.keys.windows(2).all(|w| usize::from(w[1].frame - w[0].frame) <= MAX_SPAN));
        assert!(f.max_error <= 5e-4, "{}", f.max_error);
    }

    #[test]
    fn a_corner_needs_exactly_three_keys_with_a_broken_tangent() {
        // |j - 10| · 0.05 m over frames 0..=20: no cubic holds the corner within 0.5 mm, each
        // side is a line: keys at 0, 10, 20; at 10 the in tangent is -1.5 m/s, the out +1.5
        // (count 3); the ends store their one tangent (count 2).
        let y: Vec<f64> = (0..=20).map(|j| (j as f64 - 10.0).abs() * 0.05).collect();
        let f = place_keys(Quantity::Position, &y, 5e-4);
        let got: Vec<(u16, u8, f32, f32, f32)> =
            f.keys.iter().map(|k| (k.frame, k.count, k.tangent_in, k.tangent_out, k.value)).collect();
        assert_eq!(got, vec![(0, 2, -1.5, -1.5, 0.5), (10, 3, -1.5, 1.5, 0.0), (20, 2, 1.5, 1.5, 0.5)]);
        assert!(f.max_error < 1e-6, "{}", f.max_error);
        // A looser tolerance than the corner's sag lets one cubic through: fewer keys.
        let loose = place_keys(Quantity::Position, &y, 0.2);
        assert_eq!(loose.keys.len(), 2, "{:?}", loose.keys);
        assert!(loose.max_error <= 0.2);
    }

    #[test]
    fn a_sine_stays_within_tolerance_and_tolerance_zero_is_the_half_floor() {
        let y: Vec<f64> = (0..60).map(|j| 0.2 * (j as f64 * 0.2).sin() + 1.0).collect();
        let f = place_keys(Quantity::Position, &y, 5e-4);
        assert!(f.keys.len() > 2 && f.keys.len() < 20, "{}", f.keys.len());
        // Within the tolerance, or the half floor (about 0.49 mm around 1 m) where that is larger.
        assert!(f.max_error <= 5e-4, "{}", f.max_error);
        // Tolerance 0: every frame as close as its own key would put it (the half floor), so
        // more keys, and no frame worse than the worst key.
        let exact = place_keys(Quantity::Position, &y, 0.0);
        assert!(exact.keys.len() > f.keys.len(), "{} {}", exact.keys.len(), f.keys.len());
        let floor: Vec<f64> =
            y.iter().map(|&t| Quantity::Position.error(best_value(Quantity::Position, t), t)).collect();
        for (j, &t) in y.iter().enumerate() {
            assert!(Quantity::Position.error(sample_keys(&exact.keys, j as f32), t) <= floor[j], "frame {j}");
        }
    }
}
