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

    #[test]
    fn two_pi_is_the_f32_above() {
        assert_eq!(M3C_2PI.to_bits(), 0x40C9_0FDB);
        assert!((M3C_2PI as f64) > std::f64::consts::TAU);
    }
}
