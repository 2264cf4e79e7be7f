//! Rotation keys: the five key sizes of the switch in 0x427820, decoded as the engine does.

use crate::math::{xyzr_euler_to_quat, EQuat, ANGLE_STEP_6};
use std::sync::OnceLock;

/// Decode one key of `size` bytes (`bytes.len() == size`). Returns `None` for an unknown size
/// or a short slice (callers validate both first).
pub fn decode(size: u16, bytes: &[u8]) -> Option<EQuat> {
    match size {
        16 => {
            let f = |i: usize| Some(f32::from_le_bytes(bytes.get(i..i + 4)?.try_into().ok()?));
            Some([f(0)?, f(4)?, f(8)?, f(12)?])
        }
        8 => {
            // M3rQuaternion_Uncompress8: s16 × (1.f / 32767.f), a float product.
            const DIV: f32 = 1.0 / 32767.0;
            let s = |i: usize| Some(i16::from_le_bytes(bytes.get(i..i + 2)?.try_into().ok()?) as f32 * DIV);
            Some([s(0)?, s(2)?, s(4)?, s(6)?])
        }
        6 => {
            let u = |i: usize| Some(u16::from_le_bytes(bytes.get(i..i + 2)?.try_into().ok()?));
            Some(decode6_tabled([u(0)?, u(2)?, u(4)?]))
        }
        4 => {
            // M3rQuaternion_Uncompress4: s8 × (1.f / 127.f).
            const DIV: f32 = 1.0 / 127.0;
            let s = |i: usize| Some(*bytes.get(i)? as i8 as f32 * DIV);
            Some([s(0)?, s(1)?, s(2)?, s(3)?])
        }
        3 => Some(decode3([*bytes.first()?, *bytes.get(1)?, *bytes.get(2)?])),
        _ => None,
    }
}

/// A 6-byte key: three **unsigned** u16 angles, each `(float)u * (M3c2Pi / 65535.0f)`, through
/// `MUrXYZrEulerToQuat`. (OniSplit reads them signed; the engine's `UUtUns16` does not.)
pub fn decode6(raw: [u16; 3]) -> EQuat {
    let a = raw.map(|u| u as f32 * ANGLE_STEP_6);
    xyzr_euler_to_quat(a[0], a[1], a[2])
}

/// [`decode6`] through tables of the sines and cosines of every angle a u16 can hold: the
/// same values computed once each (2 × 65,536 `sin_cos`, about 2 ms) instead of three
/// `sin_cos` per key, so the result is bit for bit [`decode6`]'s (a test walks all 65,536
/// angles of each axis). For bulk decoding (`check`, every frame of a level).
pub fn decode6_tabled(raw: [u16; 3]) -> EQuat {
    let t = angle6_trig();
    let [x, y, z] = raw.map(usize::from);
    // Indexed by u16s: inside the tables of 65,536.
    let [sh, ch] = t.half[x];
    let [si, ci] = t.half[z];
    let [sj, cj] = t.y[y];
    crate::math::xyzr_euler_combine((si, ci), (sj as f64, cj as f64), (sh, ch))
}

/// Per u16 angle `u` of a 6-byte key (θ = u · 2π/65535 as a float): the x87's `sin`/`cos` of
/// θ/2 (the x and z axes, kept wide) and `MUrSin`/`MUrCos` of 2π − θ/2 (the y axis, rounded
/// to float, so held as floats: the same values in half the memory), exactly as
/// [`crate::math::xyzr_euler_to_quat`] computes them.
pub(crate) struct Angle6Trig {
    /// `[sin, cos]` of the x or z half angle (indexed by the u16, so never out of bounds).
    pub half: Box<[[f64; 2]; 1 << 16]>,
    /// `[sin, cos]` of the y half angle.
    pub y: Box<[[f32; 2]; 1 << 16]>,
}

/// The tables, computed once.
pub(crate) fn angle6_trig() -> &'static Angle6Trig {
    static T: OnceLock<Angle6Trig> = OnceLock::new();
    T.get_or_init(|| {
        let (mut half, mut y) = (Vec::with_capacity(1 << 16), Vec::with_capacity(1 << 16));
        for u in 0..=u16::MAX {
            let a = u as f32 * ANGLE_STEP_6;
            let (s, c) = crate::math::euler_half_sin_cos(a);
            half.push([s, c]);
            let (s, c) = crate::math::euler_y_sin_cos(a);
            // Floats widened (euler_y_sin_cos's contract): narrowing back is exact.
            y.push([s as f32, c as f32]);
        }
        let full = "65,536 angles";
        Angle6Trig {
            half: half.into_boxed_slice().try_into().expect(full),
            y: y.into_boxed_slice().try_into().expect(full),
        }
    })
}

/// The engine's byte trigonometry tables for 3-byte keys (`anim_sintable` etc. in
/// BFW_Totoro.c), as floats: for i in 0..256, with θ = i·π/255,
/// `sin(θ − π)`, `cos(θ − π)`, `sin(θ/2)`, `cos(θ/2)`.
pub struct ByteTrig {
    /// `sin(θ − π)` for θ = i·π/255.
    pub sin: [f32; 256],
    /// `cos(θ − π)`.
    pub cos: [f32; 256],
    /// `sin(θ/2)`.
    pub sin_half: [f32; 256],
    /// `cos(θ/2)`.
    pub cos_half: [f32; 256],
}

/// The tables, computed once.
pub fn byte_trig() -> &'static ByteTrig {
    static T: OnceLock<ByteTrig> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = ByteTrig { sin: [0.0; 256], cos: [0.0; 256], sin_half: [0.0; 256], cos_half: [0.0; 256] };
        for i in 0..256 {
            let th = i as f64 * std::f64::consts::PI / 255.0;
            t.sin[i] = (th - std::f64::consts::PI).sin() as f32;
            t.cos[i] = (th - std::f64::consts::PI).cos() as f32;
            t.sin_half[i] = (th / 2.0).sin() as f32;
            t.cos_half[i] = (th / 2.0).cos() as f32;
        }
        // The exe's first entry is the float it was given for sin(-π), not an exact 0-ish
        // double rounded: keep its printed value.
        t.sin[0] = -1.22515e-16;
        t.sin[255] = 0.0;
        t
    })
}

/// A 3-byte key: longitude, latitude of the axis and the angle, through the byte tables:
/// w = cos(angle/2), x = cos(long)·cos(lat)·sin(angle/2), y = sin(long)·cos(lat)·sin(angle/2),
/// z = sin(lat)·sin(angle/2).
pub fn decode3(b: [u8; 3]) -> EQuat {
    let t = byte_trig();
    let (lo, la, an) = (b[0] as usize, b[1] as usize, b[2] as usize);
    let sa = t.sin_half[an] as f64;
    let (cl, sl, ca, sn) = (t.cos[lo] as f64, t.sin[lo] as f64, t.cos[la] as f64, t.sin[la] as f64);
    // Each product evaluated wide, rounded once when stored.
    [(cl * ca * sa) as f32, (sl * ca * sa) as f32, (sn * sa) as f32, t.cos_half[an]]
}

/// The engine's check of a decoded quaternion (`MUmQuat_VerifyUnit`): squared length in
/// (0.98, 1.02).
pub fn is_unit(q: EQuat) -> bool {
    let s = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    s.is_finite() && s > 0.98 && s < 1.02
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables hold exactly what the direct computation gives, for every angle of every axis.
    #[test]
    fn tabled_6_byte_keys_are_bit_for_bit_the_direct_ones() {
        for u in 0..=u16::MAX {
            let v = u.wrapping_mul(40503);
            for raw in [[u, 0, 0], [0, u, 0], [0, 0, u], [u, v, u ^ 0x5a5a]] {
                let (a, b) = (decode6(raw), decode6_tabled(raw));
                assert_eq!(a.map(f32::to_bits), b.map(f32::to_bits), "{raw:?}");
            }
        }
    }
}
