//! `Matrix_TranslateRotateZYX` against matrices worked by hand from the sine table, entry by
//! entry, with the game's f32 operations.

use boneyard_z64::MtxF;

/// Z 0x4000 (90°) then X 0x2000 (45°): the X step's `xz` row only sees a non-zero input when
/// the Z step has put something in `xy`, so this is the case that checks it.
///
/// Table values: Math_SinS(0x4000) = 32767 · (1/32767f) = s (a float just under 1),
/// Math_CosS(0x4000) = 0; Math_SinS(0x2000) = 0x5A93 · (1/32767f) = sx, Math_CosS(0x2000) =
/// 0x5A6F · (1/32767f) = cx.
/// * Z step on the identity: xx = 1·0 + 0·s = 0, xy = 0·0 − 1·s = −s, yx = 0·0 + 1·s = s,
///   yy = 1·0 − 0·s = 0; the z and w rows are untouched (zz = 1).
/// * Y is 0: skipped.
/// * X step, (t1, t2) = (xy, xz) = (−s, 0): xy = t1·cx + t2·sx = −s·cx,
///   xz = t2·cx − t1·sx = 0 − (−s)·sx = s·sx; (yy, yz) = (0, 0) stays (0, 0);
///   (zy, zz) = (0, 1): zy = 0·cx + 1·sx = sx, zz = 1·cx − 0·sx = cx.
#[test]
fn x_step_after_a_z_turn_by_hand() {
    let inv = 1.0f32 / 32767.0;
    let s = 32767.0f32 * inv;
    let (sx, cx) = (23187.0f32 * inv, 23151.0f32 * inv);
    let mut m = MtxF::IDENTITY;
    m.translate_rotate_zyx([0.0; 3], [0x2000, 0, 0x4000]);
    assert_eq!((m.xx, m.xy, m.xz), (0.0, -s * cx, s * sx));
    assert_eq!((m.yx, m.yy, m.yz), (s, 0.0, 0.0));
    assert_eq!((m.zx, m.zy, m.zz), (0.0, sx, cx));
    assert_eq!((m.xw, m.yw, m.zw, m.ww), (0.0, 0.0, 0.0, 1.0));
    // So the limb's Z axis (0, 0, 1) goes to (s·sx, 0, cx): about (0.7076, 0, 0.7065).
    let z = m.to_mat4().transform_vector3(glam::Vec3::Z);
    assert_eq!(z, glam::Vec3::new(s * sx, 0.0, cx));
}

/// The same with a Y turn between (Z 0x4000, Y 0x4000, X 0x2000). After the Z step as above,
/// the Y step (sy = s, cy = 0) on the pairs (xx, xz), (yx, yz), (zx, zz):
/// * (0, 0) → xx = 0·0 − 0·s = 0, xz = 0·s + 0·0 = 0;
/// * (s, 0) → yx = s·0 − 0·s = 0, yz = s·s + 0·0 = s²;
/// * (0, 1) → zx = 0·0 − 1·s = −s, zz = 0·s + 1·0 = 0.
///
/// Then the X step on (xy, xz) = (−s, 0): xz = 0·cx − (−s)·sx = s·sx again; on (yy, yz) =
/// (0, s²): yy = 0·cx + s²·sx, yz = s²·cx − 0·sx; (zy, zz) = (0, 0) stays.
#[test]
fn x_step_after_z_and_y_turns_by_hand() {
    let inv = 1.0f32 / 32767.0;
    let s = 32767.0f32 * inv;
    let (sx, cx) = (23187.0f32 * inv, 23151.0f32 * inv);
    let mut m = MtxF::IDENTITY;
    m.translate_rotate_zyx([0.0; 3], [0x2000, 0x4000, 0x4000]);
    let ss = s * s;
    assert_eq!((m.xx, m.xy, m.xz), (0.0, -s * cx + 0.0 * sx, 0.0 * cx - (-s) * sx));
    assert_eq!((m.yx, m.yy, m.yz), (s * 0.0 - 0.0 * s, 0.0 * cx + ss * sx, ss * cx - 0.0 * sx));
    assert_eq!((m.zx, m.zy, m.zz), (0.0 * 0.0 - 1.0 * s, 0.0, 0.0));
}

/// Every f32 operation rounds, in the game's order: X, Y and Z all 0x2000 (s = 0x5A93/32767f,
/// c = 0x5A6F/32767f). Z step on the identity: xx = 1·c + 0·s = c, xy = 0·c − 1·s = −s. Y step
/// on (xx, xz) = (c, 0): xz = c·s + 0·c = (float)(c·s). X step on (xy, xz) = (−s, c·s):
/// xz = (c·s)·c − (−s)·s, each product and the difference rounded to float: 0.8539873361587524
/// (bits 0x3F5A9EEA; worked with numpy's float32). Evaluated in double and rounded once it
/// would be 0x3F5A9EEB.
#[test]
fn x_step_rounds_each_operation_by_hand() {
    let inv = 1.0f32 / 32767.0;
    let (s, c) = (23187.0f32 * inv, 23151.0f32 * inv);
    let mut m = MtxF::IDENTITY;
    m.translate_rotate_zyx([0.0; 3], [0x2000, 0x2000, 0x2000]);
    let cs = c * s;
    assert_eq!(m.xz, cs * c - (-s) * s);
    assert_eq!(m.xz.to_bits(), 0x3F5A_9EEA);
}
