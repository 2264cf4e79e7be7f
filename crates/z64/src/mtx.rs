//! The game's float matrix (`MtxF`) and `Matrix_TranslateRotateZYX` (sys_matrix.c), with the
//! same f32 operations in the same order, so results are bit-identical.
//!
//! Field names follow the decompilation: the first letter is the output row, the second the
//! input column (`xw` is the x translation). Memory order is column-major, as glam's.

use crate::sins::{math_cos_s, math_sin_s};
use boneyard_core::model::Transform;
use glam::{Mat3, Mat4, Quat, Vec3};

/// The local transform of `Matrix_TranslateRotateZYX(pos, rot)` followed by
/// `Matrix_Scale(scale)` (curve and flex keyframe limbs), taken from the engine's numbers
/// rather than decomposed from the scaled matrix: a limb the animation hides keys a scale to
/// 0, and no rotation can be read back from a matrix with a zero column.
/// * translation: `pos`, as `Matrix_TranslateRotateZYX` puts it;
/// * rotation: the game's rotation matrix of `rot` (its sine table) with its columns
///   normalised;
/// * scale: `scale` times the length of that column (the table's sin² + cos² is 1 only within
///   its truncation), so T·R·S gives back the game's `MtxF` columns; a zero scale stays
///   exactly 0 and the rotation stays a unit quaternion.
pub fn scaled_limb_transform(pos: [f32; 3], rot: [i16; 3], scale: [f32; 3]) -> Transform {
    let mut m = MtxF::IDENTITY;
    m.translate_rotate_zyx([0.0; 3], rot);
    let m = m.to_mat4();
    let cols = [m.x_axis.truncate(), m.y_axis.truncate(), m.z_axis.truncate()];
    // Columns of the sine table's rotations have length 1 within ~1e-4: never 0.
    let len = cols.map(|c| c.length());
    let unit = |k: usize| if len[k] > 0.0 { cols[k] / len[k] } else { Vec3::AXES[k] };
    let q = Quat::from_mat3(&Mat3::from_cols(unit(0), unit(1), unit(2))).normalize();
    Transform {
        translation: Vec3::from_array(pos),
        rotation: if q.is_finite() { q } else { Quat::IDENTITY },
        scale: Vec3::new(scale[0] * len[0], scale[1] * len[1], scale[2] * len[2]),
    }
}

/// The game's `MtxF`: a 4x4 float matrix, field `rc` is row `r`, column `c` in the
/// decompilation's naming (x, y, z, w), stored column by column.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MtxF {
    /// Column x, row x.
    pub xx: f32,
    /// Column x, row y.
    pub yx: f32,
    /// Column x, row z.
    pub zx: f32,
    /// Column x, row w.
    pub wx: f32,
    /// Column y, row x.
    pub xy: f32,
    /// Column y, row y.
    pub yy: f32,
    /// Column y, row z.
    pub zy: f32,
    /// Column y, row w.
    pub wy: f32,
    /// Column z, row x.
    pub xz: f32,
    /// Column z, row y.
    pub yz: f32,
    /// Column z, row z.
    pub zz: f32,
    /// Column z, row w.
    pub wz: f32,
    /// Column w (the translation), row x.
    pub xw: f32,
    /// Column w, row y.
    pub yw: f32,
    /// Column w, row z.
    pub zw: f32,
    /// Column w, row w.
    pub ww: f32,
}

impl MtxF {
    /// `gMtxFClear`.
    pub const IDENTITY: MtxF = MtxF {
        xx: 1.0,
        yx: 0.0,
        zx: 0.0,
        wx: 0.0,
        xy: 0.0,
        yy: 1.0,
        zy: 0.0,
        wy: 0.0,
        xz: 0.0,
        yz: 0.0,
        zz: 1.0,
        wz: 0.0,
        xw: 0.0,
        yw: 0.0,
        zw: 0.0,
        ww: 1.0,
    };

    /// As a glam matrix (the same columns).
    pub fn to_mat4(&self) -> Mat4 {
        Mat4::from_cols_array(&[
            self.xx, self.yx, self.zx, self.wx, self.xy, self.yy, self.zy, self.wy, self.xz, self.yz, self.zz, self.wz,
            self.xw, self.yw, self.zw, self.ww,
        ])
    }

    /// `Matrix_Scale(x, y, z, MTXMODE_APPLY)`: `M = M * diag(x, y, z, 1)`, i.e. the x, y and z
    /// columns (including their w row) multiplied by x, y and z.
    pub fn scale(&mut self, x: f32, y: f32, z: f32) {
        self.xx *= x;
        self.yx *= x;
        self.zx *= x;
        self.xy *= y;
        self.yy *= y;
        self.zy *= y;
        self.xz *= z;
        self.yz *= z;
        self.zz *= z;
        self.wx *= x;
        self.wy *= y;
        self.wz *= z;
    }

    /// `Matrix_TranslateRotateZYX(translation, rotation)` applied to this matrix:
    /// `M = M * T(t) * Rz(z) * Ry(y) * Rx(x)`, step by step as the game computes it (the Z
    /// rotation always, the Y and X rotations only when their angle is non-zero).
    pub fn translate_rotate_zyx(&mut self, t: [f32; 3], r: [i16; 3]) {
        let m = self;
        let mut sin = math_sin_s(r[2]);
        let mut cos = math_cos_s(r[2]);

        let (mut t1, mut t2) = (m.xx, m.xy);
        m.xw += t1 * t[0] + t2 * t[1] + m.xz * t[2];
        m.xx = t1 * cos + t2 * sin;
        m.xy = t2 * cos - t1 * sin;

        (t1, t2) = (m.yx, m.yy);
        m.yw += t1 * t[0] + t2 * t[1] + m.yz * t[2];
        m.yx = t1 * cos + t2 * sin;
        m.yy = t2 * cos - t1 * sin;

        (t1, t2) = (m.zx, m.zy);
        m.zw += t1 * t[0] + t2 * t[1] + m.zz * t[2];
        m.zx = t1 * cos + t2 * sin;
        m.zy = t2 * cos - t1 * sin;

        (t1, t2) = (m.wx, m.wy);
        m.ww += t1 * t[0] + t2 * t[1] + m.wz * t[2];
        m.wx = t1 * cos + t2 * sin;
        m.wy = t2 * cos - t1 * sin;

        if r[1] != 0 {
            sin = math_sin_s(r[1]);
            cos = math_cos_s(r[1]);
            (t1, t2) = (m.xx, m.xz);
            m.xx = t1 * cos - t2 * sin;
            m.xz = t1 * sin + t2 * cos;
            (t1, t2) = (m.yx, m.yz);
            m.yx = t1 * cos - t2 * sin;
            m.yz = t1 * sin + t2 * cos;
            (t1, t2) = (m.zx, m.zz);
            m.zx = t1 * cos - t2 * sin;
            m.zz = t1 * sin + t2 * cos;
            (t1, t2) = (m.wx, m.wz);
            m.wx = t1 * cos - t2 * sin;
            m.wz = t1 * sin + t2 * cos;
        }

        if r[0] != 0 {
            sin = math_sin_s(r[0]);
            cos = math_cos_s(r[0]);
            (t1, t2) = (m.xy, m.xz);
            m.xy = t1 * cos + t2 * sin;
            m.xz = t2 * cos - t1 * sin;
            (t1, t2) = (m.yy, m.yz);
            m.yy = t1 * cos + t2 * sin;
            m.yz = t2 * cos - t1 * sin;
            (t1, t2) = (m.zy, m.zz);
            m.zy = t1 * cos + t2 * sin;
            m.zz = t2 * cos - t1 * sin;
            (t1, t2) = (m.wy, m.wz);
            m.wy = t1 * cos + t2 * sin;
            m.wz = t2 * cos - t1 * sin;
        }
    }
}

/// The Skin system's own matrix arithmetic (z_skin_matrix.c), which the skin draw uses
/// instead of sys_matrix.c: limb matrices are built whole and multiplied, so the f32 steps
/// differ from [`MtxF::translate_rotate_zyx`].
impl MtxF {
    /// `SkinMatrix_MtxFMtxFMult(a, b, dest)`: `a * b`, each entry
    /// `((a.r0 * b.0c) + (a.r1 * b.1c)) + (a.r2 * b.2c)) + (a.r3 * b.3c)` in f32.
    pub fn skin_mul(a: &MtxF, b: &MtxF) -> MtxF {
        let rows =
            [[a.xx, a.xy, a.xz, a.xw], [a.yx, a.yy, a.yz, a.yw], [a.zx, a.zy, a.zz, a.zw], [a.wx, a.wy, a.wz, a.ww]];
        let cols =
            [[b.xx, b.yx, b.zx, b.wx], [b.xy, b.yy, b.zy, b.wy], [b.xz, b.yz, b.zz, b.wz], [b.xw, b.yw, b.zw, b.ww]];
        let e = |r: usize, c: usize| {
            let (r, c) = (rows[r], cols[c]);
            r[0] * c[0] + r[1] * c[1] + r[2] * c[2] + r[3] * c[3]
        };
        MtxF {
            xx: e(0, 0),
            xy: e(0, 1),
            xz: e(0, 2),
            xw: e(0, 3),
            yx: e(1, 0),
            yy: e(1, 1),
            yz: e(1, 2),
            yw: e(1, 3),
            zx: e(2, 0),
            zy: e(2, 1),
            zz: e(2, 2),
            zw: e(2, 3),
            wx: e(3, 0),
            wy: e(3, 1),
            wz: e(3, 2),
            ww: e(3, 3),
        }
    }

    /// `SkinMatrix_Vec3fMtxFMultXYZ`: `w + ((x * m0 + y * m1) + z * m2)` for each output row.
    pub fn skin_mult_xyz(&self, v: [f32; 3]) -> [f32; 3] {
        let row = |m0: f32, m1: f32, m2: f32, w: f32| w + (v[0] * m0 + v[1] * m1 + v[2] * m2);
        [
            row(self.xx, self.xy, self.xz, self.xw),
            row(self.yx, self.yy, self.yz, self.yw),
            row(self.zx, self.zy, self.zz, self.zw),
        ]
    }

    /// `SkinMatrix_SetRotateZYX(x, y, z)`: Rz * Ry * Rx, step by step as the game builds it.
    pub fn skin_rotate_zyx(r: [i16; 3]) -> MtxF {
        let (x, y, z) = (r[0], r[1], r[2]);
        let sin_z = math_sin_s(z);
        let cos_z = math_cos_s(z);
        let mut m = MtxF::IDENTITY;
        m.yy = cos_z;
        m.xy = -sin_z;
        (m.wx, m.wy, m.wz, m.xw, m.yw, m.zw, m.ww) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0);
        if y != 0 {
            let (sin, cos) = (math_sin_s(y), math_cos_s(y));
            m.xx = cos_z * cos;
            m.xz = cos_z * sin;
            m.yx = sin_z * cos;
            m.yz = sin_z * sin;
            m.zx = -sin;
            m.zz = cos;
        } else {
            m.xx = cos_z;
            m.yx = sin_z;
            (m.zx, m.xz, m.yz) = (0.0, 0.0, 0.0);
            m.zz = 1.0;
        }
        if x != 0 {
            let (sin, cos) = (math_sin_s(x), math_cos_s(x));
            let (xy, xz) = (m.xy, m.xz);
            m.xy = xy * cos + xz * sin;
            m.xz = xz * cos - xy * sin;
            let (yz, yy) = (m.yz, m.yy);
            m.yy = yy * cos + yz * sin;
            m.yz = yz * cos - yy * sin;
            m.zy = m.zz * sin;
            m.zz *= cos;
        } else {
            m.zy = 0.0;
        }
        m
    }

    /// `SkinMatrix_SetTranslateRotateZYX(rot, t)`: `SkinMatrix_SetTranslate(t)` times
    /// `SkinMatrix_SetRotateZYX(rot)` through [`MtxF::skin_mul`].
    pub fn skin_translate_rotate_zyx(r: [i16; 3], t: [f32; 3]) -> MtxF {
        let mut tr = MtxF::IDENTITY;
        (tr.xw, tr.yw, tr.zw) = (t[0], t[1], t[2]);
        MtxF::skin_mul(&tr, &MtxF::skin_rotate_zyx(r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Worked by hand from the table: Math_SinS(0x4000) = 32767 * (1/32767f), which in f32 is
    /// not exactly 1; Math_CosS(0x4000) = sins(0x8000) = 0.
    #[test]
    fn rotate_z_90_by_hand() {
        let s = 32767.0f32 * (1.0f32 / 32767.0f32);
        let mut m = MtxF::IDENTITY;
        m.translate_rotate_zyx([10.0, 20.0, 30.0], [0, 0, 0x4000]);
        // xx = 1*cos + 0*sin = 0; xy = 0*cos - 1*sin = -s; yx = 0*cos + 1*sin = s.
        assert_eq!(m.xx, 0.0);
        assert_eq!(m.xy, -s);
        assert_eq!(m.yx, s);
        assert_eq!(m.yy, 0.0);
        assert_eq!((m.xw, m.yw, m.zw), (10.0, 20.0, 30.0));
        let v = m.to_mat4().transform_point3(glam::Vec3::X);
        assert_eq!(v, glam::Vec3::new(10.0, 20.0 + s, 30.0));
    }

    /// 45 degrees about X then translation, from the table: sin = 0x5A93/32767, cos = 0x5A6F/32767.
    #[test]
    fn rotate_x_45_by_hand() {
        let inv = 1.0f32 / 32767.0;
        let (s, c) = (23187.0f32 * inv, 23151.0f32 * inv);
        let mut m = MtxF::IDENTITY;
        m.translate_rotate_zyx([0.0, 0.0, 0.0], [0x2000, 0, 0]);
        // Z step with angle 0: sin 0, cos = Math_CosS(0) = 32767*inv, so yy = cz (zz untouched).
        // Then X: yy = cz*c + 0*s, yz = 0*c - cz*s, zy = 0*c + 1*s, zz = 1*c - 0*s.
        let cz = 32767.0f32 * inv;
        assert_eq!(m.xx, cz);
        assert_eq!(m.yy, cz * c + 0.0 * s);
        assert_eq!(m.yz, 0.0 * c - cz * s);
        assert_eq!(m.zy, 0.0 * c + 1.0 * s);
        assert_eq!(m.zz, 1.0 * c - 0.0 * s);
    }

    /// The Skin system's `SkinMatrix_SetTranslateRotateZYX` is the same transform as
    /// `Matrix_TranslateRotateZYX` on the identity (T * Rz * Ry * Rx); only the f32 steps differ.
    #[test]
    fn skin_translate_rotate_matches_sys_matrix() {
        for r in [[0, 0, 0], [0x1234, -0x2000, 0x4000], [-0x7FFF, 0x0100, -0x3000], [0x2000, 0, 0], [0, 0x6000, 0]] {
            let t = [12.5, -3.0, 700.0];
            let a = MtxF::skin_translate_rotate_zyx(r, t).to_mat4();
            let mut b = MtxF::IDENTITY;
            b.translate_rotate_zyx(t, r);
            let b = b.to_mat4();
            assert!(a.abs_diff_eq(b, 1e-4), "{r:?}: {a} vs {b}");
        }
        // Worked by hand: Z 0x4000 (sin 1.0, cos 0) then translation: xx 0, xy -1, yx 1.
        let m = MtxF::skin_translate_rotate_zyx([0, 0, 0x4000], [1.0, 2.0, 3.0]);
        assert_eq!((m.xx, m.xy, m.yx, m.yy, m.zz), (0.0, -1.0, 1.0, 0.0, 1.0));
        assert_eq!((m.xw, m.yw, m.zw, m.ww), (1.0, 2.0, 3.0, 1.0));
        assert_eq!(m.skin_mult_xyz([5.0, -7.0, 3.0]), [8.0, 7.0, 6.0]);
    }
}
