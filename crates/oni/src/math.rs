//! The engine's math, step for step: Euler angles to quaternion (`MUrXYZrEulerToQuat`),
//! `MUrQuat_Lerp`, `MUrQuat_Normalize`, `MUrQuatToMatrix` and the 3×4 matrix stack.
//!
//! Quaternions are `[x, y, z, w]` in the engine's convention: its matrix for `q` is the
//! *transpose* of the textbook matrix, so the same rotation in the usual (glam) convention is
//! `(x, y, z, -w)` (see [`to_glam`]).
//!
//! Precision: Oni.exe was built by MSVC 6 for the x87, which evaluates an expression at full
//! precision and rounds when it stores to a `float`. So each expression here is evaluated in
//! f64 and rounded to f32 where the C code assigns it to a float variable or field; the
//! sines and cosines of x and z in the Euler conversion stay at full precision (the seed's
//! observation), and the lerp's scales are doubles in the source. The x87's 64-bit mantissa
//! is not reproduced bit for bit (f64 has 53), which is why `check` does not hash rotations.

#![allow(clippy::needless_range_loop)] // index loops mirror the engine's C code

use glam::{Mat4, Quat, Vec3, Vec4};

/// An engine quaternion `[x, y, z, w]`.
pub type EQuat = [f32; 4];

/// `M3c2Pi` as the engine's f32 (6.2831855, 1.75e-7 above 2π).
pub const M3C_2PI: f32 = std::f32::consts::TAU;

/// The 6-byte key's angle step, `M3c2Pi / 65535.0f` folded to one float by the compiler.
pub const ANGLE_STEP_6: f32 = M3C_2PI / 65535.0;

/// `MUrXYZrEulerToQuat` (EulerAngles.c, 0x437050): Euler angles in radians (as f32 arguments)
/// to the engine's quaternion.
pub fn xyzr_euler_to_quat(x: f32, y: f32, z: f32) -> EQuat {
    let (si, ci) = euler_half_sin_cos(z);
    let (sj, cj) = euler_y_sin_cos(y);
    let (sh, ch) = euler_half_sin_cos(x);
    xyzr_euler_combine((si, ci), (sj, cj), (sh, ch))
}

/// The sine and cosine of the x or z half angle: the half stored as a float, its sine and
/// cosine kept at the x87's full precision.
pub fn euler_half_sin_cos(angle: f32) -> (f64, f64) {
    ((angle * 0.5) as f64).sin_cos()
}

/// The sine and cosine of y's half angle, taken as 2π less it (a float), through
/// `MUrSin`/`MUrCos`: `(float)sin(double)`.
pub fn euler_y_sin_cos(angle: f32) -> (f64, f64) {
    let tj = M3C_2PI - angle * 0.5;
    ((tj as f64).sin() as f32 as f64, (tj as f64).cos() as f32 as f64)
}

/// The rest of `MUrXYZrEulerToQuat` from the three (sine, cosine) pairs (z's, y's, x's).
pub fn xyzr_euler_combine((si, ci): (f64, f64), (sj, cj): (f64, f64), (sh, ch): (f64, f64)) -> EQuat {
    // The products are stored as floats.
    let cc = (ci * ch) as f32 as f64;
    let cs = (ci * sh) as f32 as f64;
    let sc = (si * ch) as f32 as f64;
    let ss = (si * sh) as f32 as f64;
    [(cj * cs - sj * sc) as f32, (-cj * ss - sj * cc) as f32, (cj * sc - sj * cs) as f32, (-(cj * cc + sj * ss)) as f32]
}

/// `MUrQuat_Normalize`: f32 sum of squares; times `1.0f / (float)sqrt(square)`; the identity
/// (0, 0, 0, 1) when the length is 0.
#[inline]
pub fn quat_normalize(q: EQuat) -> EQuat {
    let [x, y, z, w] = [q[0] as f64, q[1] as f64, q[2] as f64, q[3] as f64];
    // Summed in order (as the C loop), rounded to float once.
    let square = (x * x + y * y + z * z + w * w) as f32;
    if square > 0.0 {
        let inv = (1.0 / (square as f64).sqrt()) as f32;
        [q[0] * inv, q[1] * inv, q[2] * inv, q[3] * inv]
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

/// `MUrQuat_Lerp` (0x433360): the dot product in double decides whether `to` is negated; the
/// blend uses double scales `1 - t` and `t`; each component is rounded to float; then the
/// result is normalized.
#[inline]
pub fn quat_lerp(from: EQuat, to: EQuat, t: f32) -> EQuat {
    // Written out component by component (the same operations in the same order as an array
    // `map` would do): `check` lerps millions of rotations, and the generic map was a call.
    let [a0, a1, a2, a3] = [from[0] as f64, from[1] as f64, from[2] as f64, from[3] as f64];
    let [b0, b1, b2, b3] = [to[0] as f64, to[1] as f64, to[2] as f64, to[3] as f64];
    let cosom = a0 * b0 + a1 * b1 + a2 * b2 + a3 * b3;
    let scale0 = 1.0f64 - t as f64;
    // Negating `to` is negating its scale: (-s)·b and s·(-b) are the same double.
    let scale1 = if cosom < 0.0 { -(t as f64) } else { t as f64 };
    let res = [
        (scale0 * a0 + scale1 * b0) as f32,
        (scale0 * a1 + scale1 * b1) as f32,
        (scale0 * a2 + scale1 * b2) as f32,
        (scale0 * a3 + scale1 * b3) as f32,
    ];
    quat_normalize(res)
}

/// Two [`quat_lerp`]s at once, bit for bit theirs: on x86-64 each double of the two is one
/// lane of an SSE2 register (`sqrtpd`, `divpd`, `cvtpd2ps`... round each lane exactly as the
/// scalar instructions do), so the normalization's square root and division, the costliest
/// steps of `check`'s walk, are paid once a pair.
#[inline]
pub fn quat_lerp2(from: [EQuat; 2], to: [EQuat; 2], t: [f32; 2]) -> [EQuat; 2] {
    #[cfg(target_arch = "x86_64")]
    {
        lerp2_sse2(from, to, t)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        [quat_lerp(from[0], to[0], t[0]), quat_lerp(from[1], to[1], t[1])]
    }
}

#[cfg(target_arch = "x86_64")]
#[inline]
fn lerp2_sse2(from: [EQuat; 2], to: [EQuat; 2], t: [f32; 2]) -> [EQuat; 2] {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of every x86-64 CPU (the target's baseline, so these inline), and
    // the only stores write four floats into local arrays of four.
    unsafe {
        // Lane 0 is the first lerp, lane 1 the second; every step is quat_lerp's, in its order.
        let pd = |x: f32, y: f32| _mm_set_pd(y as f64, x as f64);
        let (a0, a1, a2, a3) = (
            pd(from[0][0], from[1][0]),
            pd(from[0][1], from[1][1]),
            pd(from[0][2], from[1][2]),
            pd(from[0][3], from[1][3]),
        );
        let (b0, b1, b2, b3) =
            (pd(to[0][0], to[1][0]), pd(to[0][1], to[1][1]), pd(to[0][2], to[1][2]), pd(to[0][3], to[1][3]));
        let cosom = _mm_add_pd(
            _mm_add_pd(_mm_add_pd(_mm_mul_pd(a0, b0), _mm_mul_pd(a1, b1)), _mm_mul_pd(a2, b2)),
            _mm_mul_pd(a3, b3),
        );
        let tt = pd(t[0], t[1]);
        let scale0 = _mm_sub_pd(_mm_set1_pd(1.0), tt);
        // -t where cosom < 0 (false for NaN, as the scalar comparison): a flipped sign bit.
        let negative = _mm_cmplt_pd(cosom, _mm_setzero_pd());
        let scale1 = _mm_xor_pd(tt, _mm_and_pd(negative, _mm_set1_pd(-0.0)));
        // Each component rounded to float (cvtpd2ps), then widened again for the normalization.
        let blend = |a: __m128d, b: __m128d| _mm_cvtpd_ps(_mm_add_pd(_mm_mul_pd(scale0, a), _mm_mul_pd(scale1, b)));
        let (r0, r1, r2, r3) = (blend(a0, b0), blend(a1, b1), blend(a2, b2), blend(a3, b3));
        let (w0, w1, w2, w3) = (_mm_cvtps_pd(r0), _mm_cvtps_pd(r1), _mm_cvtps_pd(r2), _mm_cvtps_pd(r3));
        let square = _mm_add_pd(
            _mm_add_pd(_mm_add_pd(_mm_mul_pd(w0, w0), _mm_mul_pd(w1, w1)), _mm_mul_pd(w2, w2)),
            _mm_mul_pd(w3, w3),
        );
        let square = _mm_cvtpd_ps(square);
        let inv = _mm_cvtpd_ps(_mm_div_pd(_mm_set1_pd(1.0), _mm_sqrt_pd(_mm_cvtps_pd(square))));
        let (q0, q1, q2, q3) = (_mm_mul_ps(r0, inv), _mm_mul_ps(r1, inv), _mm_mul_ps(r2, inv), _mm_mul_ps(r3, inv));
        // Lanes 0 and 1 of the four components (the two upper lanes are zero).
        let (mut x, mut y, mut z, mut w, mut sq) = ([0f32; 4], [0f32; 4], [0f32; 4], [0f32; 4], [0f32; 4]);
        _mm_storeu_ps(x.as_mut_ptr(), q0);
        _mm_storeu_ps(y.as_mut_ptr(), q1);
        _mm_storeu_ps(z.as_mut_ptr(), q2);
        _mm_storeu_ps(w.as_mut_ptr(), q3);
        _mm_storeu_ps(sq.as_mut_ptr(), square);
        let lane = |i: usize| if sq[i] > 0.0 { [x[i], y[i], z[i], w[i]] } else { [0.0, 0.0, 0.0, 1.0] };
        [lane(0), lane(1)]
    }
}

/// The same rotation as a glam quaternion (usual convention), normalized.
pub fn to_glam(q: EQuat) -> Quat {
    let g = Quat::from_xyzw(q[0], q[1], q[2], -q[3]);
    let n = g.length();
    if n.is_finite() && n > 0.0 {
        g / n
    } else {
        Quat::IDENTITY
    }
}

/// The engine quaternion of a glam rotation (inverse of [`to_glam`]).
pub fn from_glam(q: Quat) -> EQuat {
    [q.x, q.y, q.z, -q.w]
}

/// `M3tMatrix4x3`: four columns of three floats, the translation last.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Matrix43 {
    /// The columns: X, Y, Z axes, then the translation.
    pub m: [[f32; 3]; 4],
}

impl Matrix43 {
    /// No rotation, no translation.
    pub const IDENTITY: Matrix43 = Matrix43 { m: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]] };

    /// `MUrQuatToMatrix` (0x4338c0): scale 2/|q|²; the transpose of the textbook matrix.
    pub fn from_quat(q: EQuat) -> Matrix43 {
        // The C code's float locals: s, xs.., wx.., xx.. (each rounded); the matrix entries are
        // expressions of them (evaluated wide, rounded once).
        let [x, y, z, w] = q;
        let n = q.iter().map(|&c| c as f64 * c as f64).sum::<f64>() as f32;
        let s = if n > 0.0 { (2.0 / n as f64) as f32 } else { 0.0 };
        let (xs, ys, zs) = (x * s, y * s, z * s);
        let (wx, wy, wz) = (w * xs, w * ys, w * zs);
        let (xx, xy, xz) = (x * xs, x * ys, x * zs);
        let (yy, yz, zz) = (y * ys, y * zs, z * zs);
        let one_minus = |a: f32, b: f32| (1.0 - (a as f64 + b as f64)) as f32;
        let add = |a: f32, b: f32| (a as f64 + b as f64) as f32;
        let sub = |a: f32, b: f32| (a as f64 - b as f64) as f32;
        Matrix43 {
            m: [
                [one_minus(yy, zz), sub(xy, wz), add(xz, wy)],
                [add(xy, wz), one_minus(xx, zz), sub(yz, wx)],
                [sub(xz, wy), add(yz, wx), one_minus(xx, yy)],
                [0.0, 0.0, 0.0],
            ],
        }
    }

    /// `MUrMatrix_Multiply(a, b)`: a · b, columns.
    pub fn mul(&self, b: &Matrix43) -> Matrix43 {
        let a = &self.m;
        let mut out = [[0f32; 3]; 4];
        for c in 0..4 {
            for r in 0..3 {
                let mut v = a[0][r] as f64 * b.m[c][0] as f64
                    + a[1][r] as f64 * b.m[c][1] as f64
                    + a[2][r] as f64 * b.m[c][2] as f64;
                if c == 3 {
                    v += a[3][r] as f64;
                }
                out[c][r] = v as f32;
            }
        }
        Matrix43 { m: out }
    }

    /// `MUrMatrixStack_Translate`: the translation column += M₃ₓ₃ · t.
    pub fn translate(&mut self, t: [f32; 3]) {
        let m = &mut self.m;
        for r in 0..3 {
            let d = m[0][r] as f64 * t[0] as f64 + m[1][r] as f64 * t[1] as f64 + m[2][r] as f64 * t[2] as f64;
            m[3][r] = (m[3][r] as f64 + d) as f32;
        }
    }

    /// `MUrMatrixStack_Quaternion`: M = M · QuatToMatrix(q).
    pub fn rotate_quat(&mut self, q: EQuat) {
        *self = self.mul(&Matrix43::from_quat(q));
    }

    /// As a glam matrix (column-major, same columns).
    pub fn to_mat4(&self) -> Mat4 {
        let c = |i: usize, w: f32| Vec4::new(self.m[i][0], self.m[i][1], self.m[i][2], w);
        Mat4::from_cols(c(0, 0.0), c(1, 0.0), c(2, 0.0), c(3, 1.0))
    }

    /// The translation column.
    pub fn translation(&self) -> Vec3 {
        Vec3::from(self.m[3])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paired lerp is the scalar one, bit for bit: unit and non-unit quaternions, both
    /// signs of the dot product, zero-length blends, t from 0 to 1.
    #[test]
    fn paired_lerps_are_the_scalar_ones() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            ((seed >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        };
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
        for pair in cases.chunks_exact(2) {
            let (x, y) = (pair[0], pair[1]);
            let got = quat_lerp2([x.0, y.0], [x.1, y.1], [x.2, y.2]);
            for (g, c) in got.iter().zip([x, y]) {
                let want = quat_lerp(c.0, c.1, c.2);
                assert_eq!(g.map(f32::to_bits), want.map(f32::to_bits), "{c:?}");
            }
        }
    }

    #[test]
    fn two_pi_is_the_f32_above() {
        assert_eq!(M3C_2PI.to_bits(), 0x40C9_0FDB);
        assert!((M3C_2PI as f64) > std::f64::consts::TAU);
    }
}
