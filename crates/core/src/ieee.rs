//! glam's functions that take a scalar square root, with the processor's square root inlined.
//!
//! The workspace builds glam with its `libm` feature, so that its sines and arc cosines are the
//! same on every platform. That also sends glam's scalar `sqrt` to libm's software `sqrtf`, a
//! call of some forty instructions, where `f32::sqrt` is one (`sqrtss`). Both are the IEEE
//! square root, correctly rounded, so these give glam's results bit for bit (the tests hold
//! them to glam over random and degenerate inputs, NaNs included); they exist only because
//! the exporters and the Shenmue rig call them per bone per frame.

use glam::{Mat4, Quat, Vec3};

/// `Vec3::length`: the IEEE square root of the dot product (NaN for a NaN or negative one).
#[inline]
pub fn length(v: Vec3) -> f32 {
    sqrt(v.dot(v))
}

/// `Vec3::normalize`: `v` times the reciprocal of its length.
#[inline]
pub fn normalize(v: Vec3) -> Vec3 {
    v * (1.0 / length(v))
}

/// `Vec3::normalize_or`: `fallback` when the reciprocal length is not finite and positive.
#[inline]
pub fn normalize_or(v: Vec3, fallback: Vec3) -> Vec3 {
    let rcp = 1.0 / length(v);
    if rcp.is_finite() && rcp > 0.0 {
        v * rcp
    } else {
        fallback
    }
}

/// `Quat::from_rotation_axes` (glam 0.34; DirectXMath's `XMQuaternionRotationMatrix`): the
/// largest of the four squared components found from the diagonal, the other three from the
/// off-diagonal sums and differences.
#[inline]
pub fn quat_from_rotation_axes(x_axis: Vec3, y_axis: Vec3, z_axis: Vec3) -> Quat {
    let (m00, m01, m02) = x_axis.into();
    let (m10, m11, m12) = y_axis.into();
    let (m20, m21, m22) = z_axis.into();
    if m22 <= 0.0 {
        let dif10 = m11 - m00;
        let omm22 = 1.0 - m22;
        if dif10 <= 0.0 {
            let four_xsq = omm22 - dif10;
            let inv4x = 0.5 / sqrt(four_xsq);
            Quat::from_xyzw(four_xsq * inv4x, (m01 + m10) * inv4x, (m02 + m20) * inv4x, (m12 - m21) * inv4x)
        } else {
            let four_ysq = omm22 + dif10;
            let inv4y = 0.5 / sqrt(four_ysq);
            Quat::from_xyzw((m01 + m10) * inv4y, four_ysq * inv4y, (m12 + m21) * inv4y, (m20 - m02) * inv4y)
        }
    } else {
        let sum10 = m11 + m00;
        let opm22 = 1.0 + m22;
        if sum10 <= 0.0 {
            let four_zsq = opm22 - sum10;
            let inv4z = 0.5 / sqrt(four_zsq);
            Quat::from_xyzw((m02 + m20) * inv4z, (m12 + m21) * inv4z, four_zsq * inv4z, (m01 - m10) * inv4z)
        } else {
            let four_wsq = opm22 + sum10;
            let inv4w = 0.5 / sqrt(four_wsq);
            Quat::from_xyzw((m12 - m21) * inv4w, (m20 - m02) * inv4w, (m01 - m10) * inv4w, four_wsq * inv4w)
        }
    }
}

/// `Mat4::to_scale_rotation_translation`: the columns' lengths (the first signed by the
/// determinant), the rotation of the columns divided by them, the last column.
#[inline]
pub fn to_scale_rotation_translation(m: &Mat4) -> (Vec3, Quat, Vec3) {
    // The same glam calls as glam's own (its SIMD lengths and determinant already use the
    // processor's square root); only the quaternion's scalar root is replaced.
    let r = glam::Mat3A::from_mat4(*m);
    let det = r.determinant();
    let scale = Vec3::new(r.x_axis.length() * det.signum(), r.y_axis.length(), r.z_axis.length());
    let inv_scale = scale.recip();
    let rotation = quat_from_rotation_axes(
        (r.x_axis * inv_scale.x).into(),
        (r.y_axis * inv_scale.y).into(),
        (r.z_axis * inv_scale.z).into(),
    );
    (scale, rotation, m.w_axis.truncate())
}

/// libm's `sqrtf`: the IEEE square root, and for a negative or NaN argument the canonical
/// NaN (`0x7FC00000`; `sqrtss` gives the negative "default NaN" for the first and keeps the
/// argument's payload for the second, and the sign of a NaN travels into a quaternion).
#[inline]
fn sqrt(x: f32) -> f32 {
    if x.is_nan() || x < 0.0 {
        f32::NAN
    } else {
        x.sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testdata::XorShift64;

    /// The same bits, or both NaN: a NaN's sign and payload are whatever the instructions the
    /// optimizer picked make of it (they differ between optimisation levels), and no
    /// output of boneyard depends on them.
    fn same_float(x: f32, y: f32) -> bool {
        x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
    }
    fn same_quat(a: Quat, b: Quat) -> bool {
        a.to_array().iter().zip(b.to_array()).all(|(x, y)| same_float(*x, y))
    }
    fn same_vec(a: Vec3, b: Vec3) -> bool {
        a.to_array().iter().zip(b.to_array()).all(|(x, y)| same_float(*x, y))
    }

    /// Floats a real matrix holds and the ones a hostile one may: wide, tiny, zero, signed
    /// zero, infinite, NaN, subnormal.
    fn float(rng: &mut XorShift64) -> f32 {
        match rng.next_u64() % 16 {
            0 => 0.0,
            1 => -0.0,
            2 => f32::NAN,
            3 => f32::INFINITY,
            4 => -f32::INFINITY,
            5 => f32::from_bits(rng.next_u64() as u32),
            6 => 1e-40,
            7 => 1.0,
            _ => (rng.next_u64() % 2_000_001) as f32 / 1_000_000.0 - 1.0,
        }
    }

    #[test]
    fn lengths_and_directions_are_glams_at_the_edges() {
        let tiny = f32::MIN_POSITIVE;
        for v in [
            Vec3::ZERO,
            Vec3::splat(-0.0),
            Vec3::splat(tiny),
            Vec3::new(1e-30, 0.0, 0.0),
            Vec3::splat(1e30),
            Vec3::splat(f32::MAX),
            Vec3::NAN,
            Vec3::INFINITY,
            Vec3::new(3.0, -4.0, 0.0),
        ] {
            assert!(same_float(length(v), v.length()), "{v}");
            assert!(same_vec(normalize_or(v, Vec3::X), v.normalize_or(Vec3::X)), "{v}");
            assert!(same_vec(normalize_or(v, Vec3::ZERO), v.normalize_or_zero()), "{v}");
            if v.length() > 0.0 && v.length().is_finite() {
                assert!(same_vec(normalize(v), v.normalize()), "{v}");
            }
        }
    }

    #[test]
    fn quaternions_and_decompositions_are_glams_bit_for_bit() {
        let mut rng = XorShift64(0x01ee_e754);
        let mut checked = 0;
        for i in 0..400_000 {
            let m = if i % 2 == 0 {
                // A rotation with a scale and translation: the matrices the engines make.
                let axis = Vec3::new(float(&mut rng), float(&mut rng), float(&mut rng));
                let q = Quat::from_axis_angle(axis.normalize_or(Vec3::X), float(&mut rng) * 4.0);
                let s = Vec3::new(float(&mut rng), float(&mut rng), float(&mut rng)) + 1.5;
                Mat4::from_scale_rotation_translation(s, q, Vec3::new(float(&mut rng), 2.0, -3.0))
            } else {
                Mat4::from_cols_array(&std::array::from_fn(|_| float(&mut rng)))
            };
            let (gs, gq, gt) = m.to_scale_rotation_translation();
            let (s, q, t) = to_scale_rotation_translation(&m);
            assert!(
                same_vec(s, gs) && same_quat(q, gq) && same_vec(t, gt),
                "{m:?}: {:x?} != {:x?}",
                gq.to_array().map(f32::to_bits),
                q.to_array().map(f32::to_bits)
            );
            let (x, y, z) = (m.x_axis.truncate(), m.y_axis.truncate(), m.z_axis.truncate());
            assert!(same_quat(quat_from_rotation_axes(x, y, z), Quat::from_rotation_axes(x, y, z)), "{m:?}");
            assert!(same_float(length(x), x.length()), "{x:?}");
            assert!(same_vec(normalize(x), x.normalize()), "{x:?}");
            assert!(same_vec(normalize_or(x, Vec3::ZERO), x.normalize_or_zero()), "{x:?}");
            assert!(same_vec(normalize_or(x, Vec3::Y), x.normalize_or(Vec3::Y)), "{x:?}");
            checked += 1;
        }
        println!("{checked} matrices: glam's decomposition, quaternion, length and normalizations bit for bit");
    }
}
