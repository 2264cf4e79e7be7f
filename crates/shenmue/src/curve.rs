//! MOTN curves and the game's sampler (SH-4 routine at 0x0C093390): a cubic Hermite between
//! two keys whose tangents are in units per second at 30 Hz, clamped outside the keys.
//!
//! Arithmetic is single precision, as the SH-4's FPU runs it; the reference's test vectors
//! (worked in double) agree to every printed digit.

use crate::layout::motn::{FPS, TURN};

/// What a curve drives on its control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Axis {
    /// Position X.
    PosX,
    /// Position Y.
    PosY,
    /// Position Z.
    PosZ,
    /// Rotation about X.
    RotX,
    /// Rotation about Y.
    RotY,
    /// Rotation about Z.
    RotZ,
}

impl Axis {
    /// Every axis, in block 1's expansion order.
    pub const ALL: [Axis; 6] = [Axis::PosX, Axis::PosY, Axis::PosZ, Axis::RotX, Axis::RotY, Axis::RotZ];

    /// The `sample --json` path name (cli.md).
    pub fn path(self) -> &'static str {
        match self {
            Axis::PosX => "position.x",
            Axis::PosY => "position.y",
            Axis::PosZ => "position.z",
            Axis::RotX => "rotation.x",
            Axis::RotY => "rotation.y",
            Axis::RotZ => "rotation.z",
        }
    }
    /// True for the rotation axes.
    pub fn is_rotation(self) -> bool {
        matches!(self, Axis::RotX | Axis::RotY | Axis::RotZ)
    }
    /// 0, 1, 2 for x, y, z.
    pub fn component(self) -> usize {
        match self {
            Axis::PosX | Axis::RotX => 0,
            Axis::PosY | Axis::RotY => 1,
            Axis::PosZ | Axis::RotZ => 2,
        }
    }
}

/// One key of a curve. `count` is block 4's 2-bit number of stored halves:
/// 0 = none (value 0, tangents 0), 1 = value, 2 = shared tangent + value,
/// 3 = in tangent, out tangent, value.
///
/// Count 0 (no data) is kept as a key of value 0 with flat tangents, and a channel with no
/// data at all samples to a constant 0 that overrides the rig default. Why: it is the reading
/// of the only emulator-validated implementation (new-yokosuka, reference §1.7), and the data
/// agree with it: control 1's rotation z, whose rig default is a quarter turn, is empty in
/// 715 of 1041 human sequences and stored as values near 0 in the others (the walk: 0,
/// -0.0022, 0), so holding the default instead would turn the hip a quarter turn in those
/// 715. Whether the native sampler holds a neighbour for a *partly* empty channel is not
/// verified by any source.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Key {
    /// The key's frame (block 3).
    pub frame: u16,
    /// Halves stored for it (block 4's 2-bit number, 0-3).
    pub count: u8,
    /// Slope arriving at the key, per second (block 5).
    pub tangent_in: f32,
    /// Slope leaving the key, per second (block 5).
    pub tangent_out: f32,
    /// The value at the key: units for positions, turns for rotations (block 5).
    pub value: f32,
}

/// A curve's keys: its run of its sequence's one key array. The array is shared (`Arc`), so
/// reading a sequence allocates its keys once, not once per curve (MOTION.BIN has 78,669
/// curves), and a curve derefs to its keys as a slice.
#[derive(Debug, Clone)]
pub struct Keys {
    all: std::sync::Arc<Vec<Key>>,
    start: usize,
    end: usize,
}

impl Keys {
    /// Keys `range` of the shared array `all` (a range past its end is cut to it).
    pub fn shared(all: std::sync::Arc<Vec<Key>>, range: std::ops::Range<usize>) -> Self {
        let end = range.end.min(all.len());
        Keys { start: range.start.min(end), end, all }
    }
}

impl From<Vec<Key>> for Keys {
    /// Keys of their own (one curve's).
    fn from(keys: Vec<Key>) -> Self {
        let end = keys.len();
        Keys { all: std::sync::Arc::new(keys), start: 0, end }
    }
}

impl std::ops::Deref for Keys {
    type Target = [Key];
    fn deref(&self) -> &[Key] {
        &self.all[self.start..self.end]
    }
}

impl PartialEq for Keys {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

/// One channel of a sequence: the keys of one axis of one control.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    /// The MOTN id (a runtime control index for the human family).
    pub control: u16,
    /// Which axis of the control it drives.
    pub axis: Axis,
    /// `[0, interior..., frames-1]`, non-decreasing; equal neighbours are steps.
    pub keys: Keys,
}

impl Curve {
    /// The sampled value at `frame` (rotations in turns).
    pub fn sample(&self, frame: f32) -> f32 {
        sample_keys(&self.keys, frame)
    }
    /// [`Curve::sample`] starting the key search at `*cursor` (see [`sample_keys_from`]).
    pub fn sample_from(&self, frame: f32, cursor: &mut usize) -> f32 {
        sample_keys_from(&self.keys, frame, cursor)
    }
    /// Does any key hold data (block 4 count > 0)?
    pub fn has_data(&self) -> bool {
        self.keys.iter().any(|k| k.count > 0)
    }
}

/// The Hermite sampler over `keys` (see the module comment). An empty list samples to 0.
pub fn sample_keys(keys: &[Key], frame: f32) -> f32 {
    // The search from the first key: what a cursor at 0 does.
    sample_keys_from(keys, frame, &mut 0)
}

/// [`sample_keys`] with a key-search cursor: the search starts at segment `*cursor` and
/// leaves there the segment it used, so sampling frames in increasing order walks each
/// curve's keys once. For keys in non-decreasing frame order (every curve the reader
/// returns) any cursor gives the value [`sample_keys`] gives (a cursor past the frame's
/// segment, or out of range, restarts the search: by bisection over all the keys).
pub fn sample_keys_from(keys: &[Key], frame: f32, cursor: &mut usize) -> f32 {
    let (first, last) = match (keys.first(), keys.last()) {
        (Some(a), Some(b)) => (a, b),
        _ => return 0.0,
    };
    if frame.is_nan() || frame <= f32::from(first.frame) {
        // Also catches NaN frames: they clamp to the first key.
        return first.value;
    }
    if frame >= f32::from(last.frame) {
        return last.value;
    }
    // The first segment [k0, k1] containing the frame; with duplicate frames (a step) the
    // earlier segment ends exactly on the step's first value. Key frames never decrease, so
    // that segment is the first `i` with `keys[i + 1].frame >= frame` (then `keys[i].frame <
    // frame`, as `frame > keys[0].frame`); segment `c` is at or before it exactly when
    // `c == 0` or `keys[c].frame < frame`.
    let mut i = *cursor;
    if i + 1 >= keys.len() || (i > 0 && f32::from(keys[i].frame) >= frame) {
        // From the first key, by bisection (the frames never decrease): a walk from there
        // cost a curve's keys at every frame sampled without a cursor (a crafted curve of
        // 29,000 keys, sampled at each of its 65,535 frames).
        i = keys[1..].partition_point(|k| f32::from(k.frame) < frame);
    }
    // Ends before the last segment: `frame < keys[len - 1].frame`.
    while f32::from(keys[i + 1].frame) < frame {
        i += 1;
    }
    *cursor = i;
    segment(keys[i], keys[i + 1], frame)
}

/// The Hermite segment from `k0` to `k1` at `frame` (inside it).
#[inline]
fn segment(k0: Key, k1: Key, frame: f32) -> f32 {
    let span = f32::from(k1.frame) - f32::from(k0.frame);
    if span <= 0.0 {
        return k1.value;
    }
    let t = (frame - f32::from(k0.frame)) / span;
    let seconds = span / FPS;
    hermite(t, k0.value, k0.tangent_out * seconds, k1.value, k1.tangent_in * seconds)
}

/// `h00·v0 + h10·m0 + h01·v1 + h11·m1` with the standard Hermite basis.
pub fn hermite(t: f32, v0: f32, m0: f32, v1: f32, m1: f32) -> f32 {
    let t2 = t * t;
    let t3 = t2 * t;
    let h00 = 2.0 * t3 - 3.0 * t2 + 1.0;
    let h10 = t3 - 2.0 * t2 + t;
    let h01 = -2.0 * t3 + 3.0 * t2;
    let h11 = t3 - t2;
    h00 * v0 + h10 * m0 + h01 * v1 + h11 * m1
}

/// The engine's rotation store (0x0C093D1E): `int16(FTRC(turns × 65536))`, truncating toward
/// zero and wrapping to 16 bits (65536 = one turn).
pub fn turns_to_raw(turns: f32) -> i16 {
    // `as i32` truncates toward zero (saturating, like FTRC); `as i16` keeps the low 16 bits.
    ((turns * TURN) as i32) as i16
}

/// Radians of a raw int16 angle (65536 = 2π).
pub fn raw_to_radians(raw: i16) -> f32 {
    f32::from(raw) * (std::f32::consts::TAU / TURN)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(frame: u16, count: u8, tin: f32, tout: f32, value: f32) -> Key {
        Key { frame, count, tangent_in: tin, tangent_out: tout, value }
    }

    #[test]
    fn hermite_by_hand() {
        // Flat tangents: the midpoint of 0 → 1 is 0.5; with out-tangent 30/s over a
        // 1-frame span (m0 = 1): h10(0.5) = 0.125 → 0.625.
        let k = [key(0, 1, 0.0, 0.0, 0.0), key(1, 1, 0.0, 0.0, 1.0)];
        assert_eq!(sample_keys(&k, 0.5), 0.5);
        let k = [key(0, 2, 30.0, 30.0, 0.0), key(1, 1, 0.0, 0.0, 1.0)];
        assert_eq!(sample_keys(&k, 0.5), 0.625);
    }

    #[test]
    fn clamps_and_steps() {
        let k =
            [key(0, 1, 0.0, 0.0, 2.0), key(4, 1, 0.0, 0.0, 3.0), key(4, 1, 0.0, 0.0, 7.0), key(8, 1, 0.0, 0.0, 7.0)];
        assert_eq!(sample_keys(&k, -3.0), 2.0);
        assert_eq!(sample_keys(&k, 99.0), 7.0);
        assert_eq!(sample_keys(&k, f32::NAN), 2.0);
        // At the step's frame the earlier segment ends on the first value; just after it the
        // second value holds.
        assert_eq!(sample_keys(&k, 4.0), 3.0);
        assert_eq!(sample_keys(&k, 4.001), 7.0);
        assert_eq!(sample_keys(&[], 1.0), 0.0);
    }

    /// The search the game's sampler describes, written plainly: the first segment whose
    /// ends enclose the frame (the reference the cursor search is held to).
    fn plain_search(keys: &[Key], frame: f32) -> f32 {
        let (first, last) = (keys[0], keys[keys.len() - 1]);
        if frame.is_nan() || frame <= f32::from(first.frame) {
            return first.value;
        }
        if frame >= f32::from(last.frame) {
            return last.value;
        }
        match keys.windows(2).find(|w| frame >= f32::from(w[0].frame) && frame <= f32::from(w[1].frame)) {
            Some(w) => segment(w[0], w[1], frame),
            None => last.value,
        }
    }

    proptest::proptest! {
        /// The cursor search finds the segment the plain search finds, from any cursor, for
        /// frames in any order (steps and repeated frames included).
        #[test]
        fn cursor_search_agrees(
            gaps in proptest::collection::vec(0u16..4, 1..12),
            values in proptest::collection::vec(-4.0f32..4.0, 13),
            frames in proptest::collection::vec(-2.0f32..40.0, 1..30),
            start in 0usize..20,
        ) {
            let mut f = 0u16;
            let mut k = vec![key(0, 3, values[0], -values[0], values[1])];
            for (i, g) in gaps.iter().enumerate() {
                f += g;
                k.push(key(f, 3, values[i + 1], values[12 - i], values[i]));
            }
            let mut cursor = start;
            for &fr in &frames {
                let want = plain_search(&k, fr);
                let got = sample_keys_from(&k, fr, &mut cursor);
                proptest::prop_assert_eq!(want.to_bits(), got.to_bits(), "frame {}", fr);
                proptest::prop_assert_eq!(want.to_bits(), sample_keys(&k, fr).to_bits());
                let ascending = sample_keys_from(&k, fr.floor(), &mut cursor);
                proptest::prop_assert_eq!(plain_search(&k, fr.floor()).to_bits(), ascending.to_bits());
            }
        }
    }

    #[test]
    fn rotation_store_truncates_toward_zero_and_wraps() {
        assert_eq!(turns_to_raw(0.25), 16384);
        assert_eq!(turns_to_raw(-0.25), -16384);
        assert_eq!(turns_to_raw(0.5), i16::MIN); // 32768 wraps to -32768
        assert_eq!(turns_to_raw(1.0 / 65536.0 * 2.9), 2);
        assert_eq!(turns_to_raw(-1.0 / 65536.0 * 2.9), -2);
        assert_eq!(turns_to_raw(1.25), 16384); // a turn and a quarter = a quarter
        assert!((raw_to_radians(16384) - std::f32::consts::FRAC_PI_2).abs() < 1e-7);
    }
}
