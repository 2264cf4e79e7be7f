//! Biovision Hierarchy (BVH) text export.
//!
//! Conventions (BVH has no standard for them, so they are chosen to read back exactly):
//! * every joint's local transform is `translate(t) · Rz(z) · Rx(x) · Ry(y)`, the order its
//!   `CHANNELS` line lists (`Zrotation Xrotation Yrotation`), angles in degrees;
//! * `OFFSET` is the bone's rest translation; root joints (and any joint whose translation
//!   changes during the clip) also have `Xposition Yposition Zposition` channels holding the
//!   full local translation, which replaces `OFFSET` (as Blender reads and writes BVH);
//! * the rotation channels hold the full local rotation sampled from the document (BVH has no
//!   rest rotation), decomposed exactly in f64 from the sampled quaternion;
//! * one `MOTION` line per engine frame, `Frame Time` = 1 / the clip's native fps (with
//!   [`ExportOptions::subframes`] `n`, a clip the engine evaluates between frames has `n`
//!   lines a frame, `Frame Time` = 1 / (n · fps));
//! * a skeleton with several roots is written as several `ROOT` blocks;
//! * joint names are the bone names with white space and braces replaced by `_`, made unique.
//!
//! BVH cannot carry scale: a clip that scales a bone is refused rather than written wrong.
//! Scales within [`SCALE_TOLERANCE`] of 1 are dropped: engines whose matrices come from
//! fixed-point or sine-table arithmetic (Zelda 64: 0.99998) show them as scale, not as a
//! deliberate squash or stretch.

use std::fmt::Write;

use boneyard_core::error::ErrorKind;
use boneyard_core::{Document, Error, Result};
use glam::{DMat3, DQuat, Quat};

use crate::bake;
use crate::names;
use crate::ExportOptions;

/// `(z, x, y)` in radians such that `m = Rz(z) · Rx(x) · Ry(y)`.
pub fn euler_zxy(q: Quat) -> (f64, f64, f64) {
    let q = DQuat::from_xyzw(q.x as f64, q.y as f64, q.z as f64, q.w as f64).normalize();
    let m = DMat3::from_quat(q);
    // Row r, column c of m is m.col(c)[r]. With Rz·Rx·Ry:
    //   m21 = sin x, m20 = -cos x sin y, m22 = cos x cos y, m01 = -sin z cos x, m11 = cos z cos x.
    let (m01, m11, m21) = (m.y_axis.x, m.y_axis.y, m.y_axis.z);
    let (m20, m22) = (m.x_axis.z, m.z_axis.z);
    let cx = (m01 * m01 + m11 * m11).sqrt();
    let x = m21.atan2(cx);
    if cx > 1e-9 {
        (-m01.atan2(m11), x, (-m20).atan2(m22))
    } else {
        // Gimbal lock (x = ±90°): only z ± y is defined; put it all in y.
        // With z = 0: m00 = cos y, m02 = sin y.
        let (m00, m02) = (m.x_axis.x, m.z_axis.x);
        (0.0, x, m02.atan2(m00))
    }
}

/// The ZXY angles (degrees) of `q` closest to `prev`: of the two decompositions
/// (`(z, x, y)` and `(z + 180°, 180° - x, y + 180°)`), each angle moved by whole turns next to
/// the previous frame's, the one nearest overall. Euler curves then have no 180°/360° jumps
/// that an importer interpolating angles between frames would sweep through.
pub fn euler_zxy_near(q: Quat, prev: Option<[f64; 3]>) -> [f64; 3] {
    let (z, x, y) = euler_zxy(q);
    let a = [z.to_degrees(), x.to_degrees(), y.to_degrees()];
    let Some(p) = prev else { return a };
    let b = [a[0] + 180.0, 180.0 - a[1], a[2] + 180.0];
    let near = |v: [f64; 3]| -> [f64; 3] {
        let mut o = v;
        for k in 0..3 {
            o[k] = v[k] + ((p[k] - v[k]) / 360.0).round() * 360.0;
        }
        o
    };
    let dist = |v: &[f64; 3]| v.iter().zip(&p).map(|(a, b)| (a - b).abs()).sum::<f64>();
    let (a, b) = (near(a), near(b));
    if dist(&b) < dist(&a) {
        b
    } else {
        a
    }
}

/// Degrees with 6 decimals, trailing zeros dropped, never `-0`.
fn degrees(deg: f64) -> String {
    let s = format!("{deg:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// How far from 1 a scale may be and still be dropped rather than refused.
pub const SCALE_TOLERANCE: f32 = 1e-3;

/// Indentation is cosmetic; a deep chain must not make the text grow with depth squared.
const MAX_INDENT: usize = 32;

fn joint_name(name: &str) -> String {
    name.chars().map(|c| if c.is_whitespace() || c == '{' || c == '}' { '_' } else { c }).collect()
}

pub(crate) fn write(doc: &dyn Document, skeleton: usize, anim: usize, opts: &ExportOptions) -> Result<String> {
    let skel = &bake::skeleton(doc, skeleton)?.skeleton;
    let clip = bake::bake(doc, skeleton, anim, opts)?;
    if skel.is_empty() {
        return Err(Error::new(ErrorKind::Invalid(format!("skeleton {} has no bones", skel.name))));
    }
    if let Some((b, k)) = (0..clip.bones)
        .flat_map(|b| (0..clip.keys).map(move |k| (b, k)))
        .find(|&(b, k)| (clip.scale(b, k) - glam::Vec3::ONE).abs().max_element() > SCALE_TOLERANCE)
    {
        let n = clip.subframes as usize;
        let frame = if n > 1 { format!("{}", k as f64 / n as f64) } else { k.to_string() };
        return Err(Error::unsupported(format!(
            "BVH has no scale channels, but animation {} scales bone {b} ({}) at frame {frame}; export glb instead",
            clip.name, skel.bones[b].name
        )));
    }
    let cleaned: Vec<String> = skel.bones.iter().map(|b| joint_name(&b.name)).collect();
    let names = names::unique(cleaned.iter().map(|s| s.as_str()), "bone");
    let has_position = |b: usize| {
        skel.bones[b].parent.is_none()
            || (0..clip.keys).any(|k| clip.translation(b, k) != skel.bones[b].rest.translation)
    };

    // Depth-first order, iteratively (the hierarchy may be deep; never recurse on input).
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); skel.len()];
    for (i, bone) in skel.bones.iter().enumerate() {
        if let Some(p) = bone.parent {
            children[p].push(i);
        }
    }
    let mut out = String::from("HIERARCHY\n");
    let mut order = Vec::with_capacity(skel.len());
    // Stack of (bone, entering?) to emit opening and closing braces.
    let mut stack: Vec<(usize, bool)> = skel.roots().map(|r| (r, true)).collect();
    stack.reverse();
    let mut depth = 0usize;
    while let Some((b, enter)) = stack.pop() {
        let bone = &skel.bones[b];
        if !enter {
            depth -= 1;
            let _ = writeln!(out, "{}}}", "\t".repeat(depth.min(MAX_INDENT)));
            continue;
        }
        let ind = "\t".repeat(depth.min(MAX_INDENT));
        let kw = if bone.parent.is_none() { "ROOT" } else { "JOINT" };
        // Rest translation, not frame 0's: Blender reads position channels as the whole translation, OFFSET the rest.
        let t = bone.rest.translation;
        let _ = writeln!(out, "{ind}{kw} {}\n{ind}{{\n{ind}\tOFFSET {} {} {}", names[b], t.x, t.y, t.z);
        if has_position(b) {
            let _ = writeln!(out, "{ind}\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation");
        } else {
            let _ = writeln!(out, "{ind}\tCHANNELS 3 Zrotation Xrotation Yrotation");
        }
        order.push(b);
        if children[b].is_empty() {
            // Cosmetic: where the bone's tail is drawn.
            let e = t * 0.5;
            let _ = writeln!(out, "{ind}\tEnd Site\n{ind}\t{{\n{ind}\t\tOFFSET {} {} {}\n{ind}\t}}", e.x, e.y, e.z);
        }
        depth += 1;
        stack.push((b, false));
        stack.extend(children[b].iter().rev().map(|&c| (c, true)));
    }
    let _ = writeln!(out, "MOTION\nFrames: {}\nFrame Time: {}", clip.keys, 1.0 / (clip.fps * clip.subframes as f64));
    let positions: Vec<bool> = order.iter().map(|&b| has_position(b)).collect();
    let mut prev: Vec<Option<[f64; 3]>> = vec![None; skel.len()];
    for k in 0..clip.keys {
        let mut line = String::new();
        for (&b, &pos) in order.iter().zip(&positions) {
            if pos {
                let t = clip.translation(b, k);
                let _ = write!(line, "{} {} {} ", t.x, t.y, t.z);
            }
            let [z, x, y] = euler_zxy_near(clip.rotation(b, k), prev[b]);
            prev[b] = Some([z, x, y]);
            let _ = write!(line, "{} {} {} ", degrees(z), degrees(x), degrees(y));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from_zxy_degrees(a: [f64; 3]) -> DQuat {
        let r = |d: f64| d.to_radians();
        DQuat::from_rotation_z(r(a[0])) * DQuat::from_rotation_x(r(a[1])) * DQuat::from_rotation_y(r(a[2]))
    }

    /// Every decomposition, principal or kept near the previous frame's, composes back to
    /// the quaternion (up to sign), including at and near gimbal lock.
    #[test]
    fn decompositions_compose_back() {
        let mut x: u32 = 0xdead_beef;
        let mut rnd = || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as f32 / u32::MAX as f32 * 2.0 - 1.0
        };
        let mut prev = None;
        for i in 0..20000 {
            let q = match i % 4 {
                // At and near x = ±90°.
                0 => {
                    Quat::from_rotation_z(rnd() * 3.0)
                        * Quat::from_rotation_x(std::f32::consts::FRAC_PI_2 * rnd().signum())
                        * Quat::from_rotation_y(rnd() * 3.0)
                }
                1 => Quat::from_rotation_x(std::f32::consts::FRAC_PI_2 + rnd() * 1e-4) * Quat::from_rotation_y(rnd()),
                _ => Quat::from_xyzw(rnd(), rnd(), rnd(), rnd()).normalize(),
            };
            if !q.is_finite() {
                continue;
            }
            let a = euler_zxy_near(q, prev);
            prev = Some(a);
            let back = from_zxy_degrees(a);
            let qd = DQuat::from_xyzw(q.x as f64, q.y as f64, q.z as f64, q.w as f64).normalize();
            assert!(back.dot(qd).abs() > 1.0 - 1e-12, "{q} -> {a:?}");
        }
    }

    #[test]
    fn degrees_are_trimmed() {
        assert_eq!(degrees(90.0000000001), "90");
        assert_eq!(degrees(-1e-12), "0");
        assert_eq!(degrees(-0.5), "-0.5");
    }
}
