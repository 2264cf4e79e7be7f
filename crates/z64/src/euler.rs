//! The inverse of the game's limb rotation: a rotation to the binary angles (x, y, z) whose
//! `Matrix_TranslateRotateZYX` (`Rz(z) · Ry(y) · Rx(x)` through the sine table, [`crate::mtx`])
//! comes closest to it, chosen continuous from frame to frame.
//!
//! * **Analytic solutions.** `R = Rz·Ry·Rx` gives `R[2][0] = −sin y`, `R[2][1] = cos y · sin x`,
//!   `R[2][2] = cos y · cos x`, `R[1][0] = sin z · cos y`, `R[0][0] = cos z · cos y`: one
//!   solution `(x, y, z)` and its twin `(x + π, π − y, z + π)`. At `cos y = 0` (gimbal lock) only
//!   `x − z` (y = +90°) or `x + z` (y = −90°) is fixed, from `R[0][1]`, `R[0][2]`: x is kept
//!   where the previous frame had it.
//! * **The game's angles.** The sine table has 4096 steps a turn (`sins` uses `angle >> 4`) and
//!   spreads each quarter over 1023 steps, so an angle's matrix is not exactly the rotation by
//!   that angle. Around each analytic solution the 5 × 5 × 5 neighbouring table steps are tried
//!   with the game's own arithmetic and the closest matrix is kept; within its step of 16 the
//!   value nearest the analytic angle is stored.
//!   In the lock, x is also tried at every table step with z from the fixed sum or difference.
//! * **Continuity.** Of the solutions, those within [`EQUIVALENT`] of the best are
//!   equivalent (the format's own precision), or, where one is the target itself up to f32
//!   noise (an unedited clip's angles), only those; the one nearest the previous frame's angles (each
//!   unwrapped by multiples of 0x10000 to the previous one) is taken. The s16 stored is the
//!   unwrapped angle modulo 0x10000, which is how the game reads it.

use crate::mtx::MtxF;
use glam::{DMat3, Quat};
use std::f64::consts::PI;

/// Binary angle units a radian (0x10000 a turn).
pub const UNITS_PER_RADIAN: f64 = 32768.0 / PI;

/// Two candidate angles whose matrices are within this much (largest element difference) of
/// the best one's are equally good: the nearer to the previous frame wins.
pub const EQUIVALENT: f64 = 5e-4;

/// Matrix differences this small are f32 noise: candidates within it are equally close.
const TIE: f64 = 1e-6;

/// A candidate this close is the target itself up to the f32 noise of a glTF's rotation and
/// scale: the game's own matrix of those angles (an unedited clip's). When one is, only such
/// candidates are equivalent (continuity must not trade them for angles merely within
/// [`EQUIVALENT`]).
const EXACT: f64 = 2e-6;

/// How many of the lock family's closest table steps are kept.
const LOCK_KEPT: usize = 4;

/// The game's rotation matrix of binary angles `r` (x, y, z), as `r[row][column]`.
pub fn game_rotation(r: [i16; 3]) -> [[f64; 3]; 3] {
    let mut m = MtxF::IDENTITY;
    m.translate_rotate_zyx([0.0; 3], r);
    [
        [m.xx as f64, m.xy as f64, m.xz as f64],
        [m.yx as f64, m.yy as f64, m.yz as f64],
        [m.zx as f64, m.zy as f64, m.zz as f64],
    ]
}

/// A rotation as `r[row][column]`, in f64.
pub fn rows_of(q: Quat) -> [[f64; 3]; 3] {
    let q = q.as_dquat().normalize();
    let m = DMat3::from_quat(q);
    let c = [m.x_axis, m.y_axis, m.z_axis];
    [[c[0].x, c[1].x, c[2].x], [c[0].y, c[1].y, c[2].y], [c[0].z, c[1].z, c[2].z]]
}

/// Largest element difference of two 3 × 3 matrices.
pub fn max_diff(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> f64 {
    let mut d = 0f64;
    for i in 0..3 {
        for j in 0..3 {
            d = d.max((a[i][j] - b[i][j]).abs());
        }
    }
    d
}

/// The analytic Z-Y-X solutions of `m` in radians (x, y, z): the two, and near gimbal lock
/// also the one that keeps `prev_x` (radians).
pub fn zyx_solutions(m: &[[f64; 3]; 3], prev_x: f64) -> Vec<[f64; 3]> {
    let sy = (-m[2][0]).clamp(-1.0, 1.0);
    let y = sy.asin();
    let cy = y.cos();
    let mut out = Vec::with_capacity(3);
    if cy > 1e-9 {
        let x = m[2][1].atan2(m[2][2]);
        let z = m[1][0].atan2(m[0][0]);
        out.push([x, y, z]);
        out.push([x + PI, PI - y, z + PI]);
    }
    // Near the lock the solutions above swing x and z wildly; keeping x is one more candidate.
    if cy < 2e-3 {
        let x = prev_x;
        if sy > 0.0 {
            // y = +90°: row 0 = (0, sin(x − z), cos(x − z)).
            let d = m[0][1].atan2(m[0][2]);
            out.push([x, PI / 2.0, x - d]);
        } else {
            // y = −90°: row 0 = (0, −sin(x + z), −cos(x + z)).
            let s = (-m[0][1]).atan2(-m[0][2]);
            out.push([x, -PI / 2.0, s - x]);
        }
    }
    out
}

/// `a` (units) moved by whole turns to lie nearest `prev` (units).
pub fn unwrap_near(a: f64, prev: f64) -> f64 {
    a - 65536.0 * ((a - prev) / 65536.0).round()
}

/// The s16 an unwrapped angle is stored as.
pub fn to_s16(a: i64) -> i16 {
    a.rem_euclid(65536) as u16 as i16
}

/// One solved frame: the stored angles, their unwrapped values, and how far the game's matrix
/// of them is from the target (largest element difference).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Solved {
    /// The binary angles stored (x, y, z; 0x10000 a turn).
    pub angles: [i16; 3],
    /// The same angles unwrapped (continuous with the previous frame's).
    pub unwrapped: [i64; 3],
    /// Largest element difference of the game's matrix of `angles` from the target.
    pub error: f64,
}

/// The best table steps around `b` (unwrapped units), refined with the game's arithmetic.
fn refine(target: &[[f64; 3]; 3], b: [f64; 3]) -> Solved {
    let base = b.map(|v| (v / 16.0).floor() as i64);
    let mut best: Option<([i64; 3], f64)> = None;
    for dx in -2..=2 {
        for dy in -2..=2 {
            for dz in -2..=2 {
                let k = [base[0] + dx, base[1] + dy, base[2] + dz];
                // Within the step, the value nearest the analytic angle (the matrix is the same).
                let v: [i64; 3] = std::array::from_fn(|c| (b[c].round() as i64).clamp(k[c] * 16, k[c] * 16 + 15));
                let err = max_diff(&game_rotation(v.map(to_s16)), target);
                // Mirrored table entries give equal matrices (steps 0xFFF and 0 both have sine
                // 0): of candidates equal within f32 noise, the one nearest the analytic angles.
                let off = |v: &[i64; 3]| (0..3).map(|c| (v[c] as f64 - b[c]).abs()).sum::<f64>();
                let better = match &best {
                    None => true,
                    Some((bv, e)) => err < e - TIE || (err <= e + TIE && off(&v) < off(bv)),
                };
                if better {
                    best = Some((v, err));
                }
            }
        }
    }
    let (v, error) = best.unwrap_or(([0; 3], f64::INFINITY));
    Solved { angles: v.map(to_s16), unwrapped: v, error }
}

/// In gimbal lock (y at ±90°, where only x − z or x + z is fixed), the family of solutions
/// with x at every table step and z from the fixed sum or difference (in units): through the
/// game's sine table each is a slightly different matrix (not quite a rotation: row 0 of
/// (−0x2000, −0x4000, −0x2000) has length 0.99993), so the angles the game had are found among
/// them, which keeping x where the previous frame had it cannot do. The [`LOCK_KEPT`] closest.
/// (Some 20,000 matrices: only frames in the lock pay it, and a limb held still pays it once.)
fn lock_family(target: &[[f64; 3]; 3]) -> Vec<[f64; 3]> {
    let sy = (-target[2][0]).clamp(-1.0, 1.0);
    let mut scored: Vec<(f64, [f64; 3])> = Vec::with_capacity(4096);
    for k in 0..4096i64 {
        let x = (k * 16) as f64;
        let (y, z) = if sy > 0.0 {
            // y = +90°: row 0 = (0, sin(x − z), cos(x − z)).
            (16384.0, x - target[0][1].atan2(target[0][2]) * UNITS_PER_RADIAN)
        } else {
            // y = −90°: row 0 = (0, −sin(x + z), −cos(x + z)).
            (-16384.0, (-target[0][1]).atan2(-target[0][2]) * UNITS_PER_RADIAN - x)
        };
        // The sum or difference read from a table-made matrix can be a step off the angles
        // that made it: z is tried two steps either way, as `refine` would.
        let best = (-2..=2)
            .map(|dz| {
                let v = [x, y, z + f64::from(16 * dz)];
                (max_diff(&game_rotation(v.map(|a| to_s16(a.round() as i64))), target), v)
            })
            .min_by(|a, b| a.0.total_cmp(&b.0));
        scored.extend(best);
    }
    scored.sort_by(|a, b| a.0.total_cmp(&b.0));
    scored.into_iter().take(LOCK_KEPT).map(|(_, v)| v).collect()
}

/// The angles for rotation `q`, continuous with `prev` (the previous frame's unwrapped angles;
/// None for the first frame, which takes the closest solution).
#[cfg(test)]
pub fn solve(q: Quat, prev: Option<[i64; 3]>) -> Solved {
    solve_matrix(&rows_of(q), prev)
}

/// The angles for the matrix `target` (`[row][column]`; a rotation, or the game's own matrix
/// as a glTF's rotation and scale give it back), continuous with `prev`.
pub fn solve_matrix(target: &[[f64; 3]; 3], prev: Option<[i64; 3]>) -> Solved {
    let prev_x = prev.map_or(0.0, |p| p[0] as f64 / UNITS_PER_RADIAN);
    let mut units: Vec<[f64; 3]> =
        zyx_solutions(target, prev_x).into_iter().map(|s| s.map(|a| a * UNITS_PER_RADIAN)).collect();
    let locked = (-target[2][0]).clamp(-1.0, 1.0).asin().cos() < 2e-3;
    let family = if locked { lock_family(target) } else { Vec::new() };
    units.extend(family.iter().copied());
    let unwrap = |mut u: [f64; 3]| {
        if let Some(p) = prev {
            for c in 0..3 {
                u[c] = unwrap_near(u[c], p[c] as f64);
            }
        }
        u
    };
    let mut cands: Vec<Solved> = units.into_iter().map(|u| refine(target, unwrap(u))).collect();
    // The lock family's steps as they are, too: refining keeps the closest matrix within f32
    // noise, which may be a mirrored table entry rather than the step itself.
    for u in family {
        let v = unwrap(u).map(|a| a.round() as i64);
        cands.push(Solved {
            angles: v.map(to_s16),
            unwrapped: v,
            error: max_diff(&game_rotation(v.map(to_s16)), target),
        });
    }
    let min = cands.iter().map(|c| c.error).fold(f64::INFINITY, f64::min);
    // Where some candidate is the target itself, only those are equivalent.
    let equivalent = if min <= EXACT { min } else { min + EQUIVALENT };
    let dist = |s: &Solved| match prev {
        Some(p) => (0..3).map(|c| (s.unwrapped[c] - p[c]).abs()).sum::<i64>(),
        None => 0,
    };
    let mut pick: Option<Solved> = None;
    for c in cands.into_iter().filter(|c| c.error <= equivalent) {
        let better = match &pick {
            None => true,
            Some(p) if prev.is_none() => c.error < p.error,
            Some(p) => dist(&c) < dist(p) || (dist(&c) == dist(p) && c.error < p.error),
        };
        if better {
            pick = Some(c);
        }
    }
    pick.unwrap_or(Solved { angles: [0; 3], unwrapped: [0; 3], error: f64::INFINITY })
}

/// A track of rotations, frame by frame, each continuous with the one before.
#[cfg(test)]
pub fn solve_track(track: &[Quat]) -> Vec<Solved> {
    let targets: Vec<[[f64; 3]; 3]> = track.iter().map(|&q| rows_of(q)).collect();
    solve_matrices(&targets)
}

/// The matrices to solve for ([`solve_matrices`]) of a track of rotations with the scales a
/// glTF gives beside them: each frame's target is the rotation with its columns scaled (as a
/// glTF export decomposes the game's matrix, which in gimbal lock is a rotation times a scale
/// near 1: Z-Y-X angles of one rotation with other scales are told apart only by it). A scale
/// farther than 1e-3 from 1 is an edit the game cannot hold, not its arithmetic: that frame's
/// target is the rotation alone.
pub fn scaled_targets(track: &[(Quat, glam::Vec3)]) -> Vec<[[f64; 3]; 3]> {
    track
        .iter()
        .map(|&(q, s)| {
            let mut m = rows_of(q);
            if (s - glam::Vec3::ONE).abs().max_element() <= 1e-3 {
                for row in m.iter_mut() {
                    for (j, v) in row.iter_mut().enumerate() {
                        *v *= f64::from(s[j]);
                    }
                }
            }
            m
        })
        .collect()
}

/// [`solve_matrix`] frame after frame; a frame whose target is the previous one's takes its
/// angles (a limb held still is solved once).
pub fn solve_matrices(targets: &[[[f64; 3]; 3]]) -> Vec<Solved> {
    let mut out: Vec<Solved> = Vec::with_capacity(targets.len());
    for (f, t) in targets.iter().enumerate() {
        let s = match (f.checked_sub(1).map(|p| &targets[p]), out.last()) {
            (Some(before), Some(&last)) if before == t => last,
            _ => solve_matrix(t, out.last().map(|p| p.unwrapped)),
        };
        out.push(s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::EulerRot;

    fn rad(units: f64) -> f32 {
        (units / UNITS_PER_RADIAN) as f32
    }

    /// Z 30°, Y −45°, X 60° (0x1555, −0x2000, 0x2AAB units): the matrix worked by hand from
    /// R = Rz·Ry·Rx (R[2][0] = −sin y = 0.7071, R[2][1] = cos y sin x = 0.6124, R[2][2] =
    /// cos y cos x = 0.3536, R[1][0] = sin z cos y = 0.3536, R[0][0] = cos z cos y = 0.6124).
    #[test]
    fn known_zyx_by_hand() {
        let q = Quat::from_euler(EulerRot::ZYX, 30f32.to_radians(), (-45f32).to_radians(), 60f32.to_radians());
        let m = rows_of(q);
        let h = 0.5f64.sqrt();
        assert!((m[2][0] - h).abs() < 1e-6);
        assert!((m[2][1] - h * 0.75f64.sqrt()).abs() < 1e-6);
        assert!((m[2][2] - h * 0.5).abs() < 1e-6);
        assert!((m[1][0] - 0.5 * h).abs() < 1e-6);
        assert!((m[0][0] - 0.75f64.sqrt() * h).abs() < 1e-6);
        let sols = zyx_solutions(&m, 0.0);
        let deg = |v: [f64; 3]| v.map(|a| a.to_degrees());
        let s0 = deg(sols[0]);
        assert!((s0[0] - 60.0).abs() < 1e-4 && (s0[1] + 45.0).abs() < 1e-4 && (s0[2] - 30.0).abs() < 1e-4);
        // The twin: (60 + 180, 180 + 45, 30 + 180).
        let s1 = deg(sols[1]);
        assert!((s1[0] - 240.0).abs() < 1e-4 && (s1[1] - 225.0).abs() < 1e-4 && (s1[2] - 210.0).abs() < 1e-4);
        // In binary angles: 60° = 0x2AAA.AA, −45° = −0x2000, 30° = 0x1555.55, each within its
        // table step; the game's matrix of them is within the table's precision of R.
        let s = solve(q, None);
        assert!((s.angles[1] as i32 + 0x2000).abs() <= 16, "{:?}", s.angles);
        assert!((s.angles[0] as i32 - 0x2AAB).abs() <= 16, "{:?}", s.angles);
        assert!((s.angles[2] as i32 - 0x1555).abs() <= 16, "{:?}", s.angles);
        assert!(s.error < 1.5e-3, "{}", s.error);
        // Angles the game gave come back in the same table step (so the same matrix).
        for r in [[0x1234, -0x2000, 0x4000], [-0x7FF0, 0x0100, -0x3000], [0x2000, 0, 0], [0x3FF0, 0x1230, 0x7FF0]] {
            let g = game_rotation(r);
            let mut q = Quat::from_mat3(&glam::Mat3::from_cols_array(&[
                g[0][0] as f32,
                g[1][0] as f32,
                g[2][0] as f32,
                g[0][1] as f32,
                g[1][1] as f32,
                g[2][1] as f32,
                g[0][2] as f32,
                g[1][2] as f32,
                g[2][2] as f32,
            ]));
            q = q.normalize();
            let s = solve(q, None);
            assert!(max_diff(&game_rotation(s.angles), &g) < 1e-4, "{r:?} -> {:?} ({})", s.angles, s.error);
        }
    }

    /// Z passes through 180° between frames: the stored s16 wraps (0x7F00 → −0x7F00) while the
    /// unwrapped angle goes on (0x7F00 → 0x8100), and the twin solution (which at frame 2 would
    /// need x and y to jump by 180°) is not taken.
    #[test]
    fn continuity_across_the_wrap() {
        let z = [0x7E00 as f64, 0x7F00 as f64, 0x8100 as f64, 0x8200 as f64];
        let track: Vec<Quat> =
            z.iter().map(|&u| Quat::from_euler(EulerRot::ZYX, rad(u), rad(0x0800 as f64), 0.0)).collect();
        let s = solve_track(&track);
        let stored: Vec<i16> = s.iter().map(|x| x.angles[2]).collect();
        let unwrapped: Vec<i64> = s.iter().map(|x| x.unwrapped[2]).collect();
        for (f, &u) in z.iter().enumerate() {
            assert!((unwrapped[f] - u as i64).abs() <= 16, "frame {f}: {unwrapped:?}");
        }
        assert!(stored[1] > 0x7E00 && stored[2] < -0x7E00, "{stored:?}");
        assert!(s.iter().all(|x| (x.angles[1] as i32 - 0x0800).abs() <= 16 && x.angles[0].abs() <= 16), "{s:?}");
        // Started from the twin (x 180°, y 180° − 11.25°, z + 180°), the track stays on it.
        let twin = Solved { angles: [0; 3], unwrapped: [0x8000, 0x8000 - 0x0800, 0x7E00 + 0x8000], error: 0.0 };
        let mut prev = twin.unwrapped;
        for q in &track {
            let s = solve(*q, Some(prev));
            assert!((s.unwrapped[0] - 0x8000).abs() <= 16, "{s:?}");
            prev = s.unwrapped;
        }
    }

    /// In gimbal lock the game's matrices are a rotation times a scale near 1 (row 0 of the
    /// Deku Scrub's limb 15, (−0x2000, −0x4000, −0x2000), has length 0.99993). Given back as a
    /// glTF export decomposes them (rotation and scale), the angles found make the game's
    /// matrix within f32 noise, whatever the previous frame; keeping x at the previous frame's
    /// gave (0, −0x4000, −0x3FF0), 6.6e-5 off. (The rotation alone cannot tell such angles
    /// apart: limb 20's (0x2000, 0x4000, −0x2000) is 0.99993 times the rotation that
    /// (0, 0x4000, −0x4000) makes exactly.)
    #[test]
    fn gimbal_lock_gives_back_the_games_matrix_from_rotation_and_scale() {
        for r in
            [[-0x2000, -0x4000, -0x2000], [0x2000, 0x4000, -0x2000], [0x1230, 0x4000, 0x7000], [-0x7000, -0x4000, 0x10]]
        {
            let g = game_rotation(r);
            let col = |j: usize| glam::Vec4::new(g[0][j] as f32, g[1][j] as f32, g[2][j] as f32, 0.0);
            let m = glam::Mat4::from_cols(col(0), col(1), col(2), glam::Vec4::W);
            let t = boneyard_core::Transform::from_matrix(&m);
            assert!((t.scale - glam::Vec3::ONE).abs().max_element() < 1e-3, "{:?}", t.scale);
            for prev in [None, Some([0, 0, 0]), Some([r[0] as i64 + 0x800, r[1] as i64, r[2] as i64 - 0x800])] {
                let s = solve_scaled(prev, t.rotation, t.scale);
                assert!(
                    max_diff(&game_rotation(s.angles), &g) < 2e-7,
                    "{r:?} from {prev:?}: {:?} ({})",
                    s.angles,
                    s.error
                );
            }
            // Without the scale (a rotation only), 6.6e-5 is all that can be had.
            let q = solve(t.rotation, None);
            assert!(max_diff(&game_rotation(q.angles), &g) < 1e-4, "{r:?}: {:?}", q.angles);
        }
    }

    /// [`solve_matrix`] of a rotation and scale (columns scaled, as `scaled_targets` makes
    /// a frame's target) from `prev` (the previous frame's angles).
    fn solve_scaled(prev: Option<[i64; 3]>, q: Quat, s: glam::Vec3) -> Solved {
        let mut m = rows_of(q);
        for row in m.iter_mut() {
            for (j, v) in row.iter_mut().enumerate() {
                *v *= f64::from(s[j]);
            }
        }
        solve_matrix(&m, prev)
    }

    /// At y = 90° only x − z is fixed: x stays where the previous frame had it.
    #[test]
    fn gimbal_lock_keeps_x() {
        let q = Quat::from_euler(EulerRot::ZYX, rad(0x1000 as f64), std::f32::consts::FRAC_PI_2, rad(0x1800 as f64));
        let prev = [0x1800, 0x4000, 0x1000];
        let s = solve(q, Some(prev));
        assert!(s.error < 2e-3, "{s:?}");
        assert!((s.unwrapped[0] - 0x1800).abs() <= 48 && (s.unwrapped[2] - 0x1000).abs() <= 48, "{s:?}");
    }
}
