//! The engine's numerics against values worked by hand from the formulas of the seed and the
//! reference (not against the implementation itself).

#![allow(clippy::needless_range_loop)] // indices follow the formulas

mod common;
use boneyard_oni::{decode3, decode6, decode_key as decode};
use boneyard_oni::{quat_lerp, quat_normalize, to_glam, xyzr_euler_to_quat, Matrix43};
use common::*;

/// 6-byte key (0, 0, 0): the half angle of y is taken as 2π less y/2 with M3c2Pi the f32
/// 6.2831855 (2π + 1.7484555e-7): x = 0, y = -sin(M3c2Pi) = -1.7484555e-7, z = 0,
/// w = -cos(M3c2Pi) = -1.
#[test]
fn zero_key_by_hand() {
    let q = decode6([0, 0, 0]);
    assert_eq!(q, [0.0, -1.7484555e-7, 0.0, -1.0]);
}

/// (0, 0, 0x4000): z = 16384·2π/65535 = π/2 + 2.4e-5. Worked: half angles 0, 2π, π/4:
/// ci = cos(z/2), si = sin(z/2), cj ≈ 1, sj ≈ 1.75e-7, ch = 1, sh = 0:
/// x = cj·cs - sj·sc = -sj·si, y = -cj·ss - sj·cc = -sj·ci, z = cj·sc - sj·cs = si,
/// w = -(cj·cc + sj·ss) = -ci.
#[test]
fn quarter_turn_about_z_by_hand() {
    let z = 16384f64 * std::f64::consts::TAU / 65535.0;
    let q = decode6([0, 0, 0x4000]);
    let (si, ci) = (z / 2.0).sin_cos();
    let expect = [-1.7484555e-7 * si, -1.7484555e-7 * ci, si, -ci];
    for i in 0..4 {
        assert!((q[i] as f64 - expect[i]).abs() < 1e-7, "{q:?} {expect:?}");
    }
}

/// Random u16 triples: the Shoemake route of the exe equals the axis-angle product route
/// (x, y, z, -w) of qX·qY·qZ, and the engine's transposed matrix equals Rx·Ry·Rz
/// (column vectors) — the reference's two verified identities.
#[test]
fn euler_conversion_and_matrix_match_the_formulas() {
    let mut seed = 0x1234_5678u32;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        (seed & 0xffff) as u16
    };
    let (mut dq, mut dm) = (0f64, 0f64);
    for _ in 0..2000 {
        let u = [next(), next(), next()];
        let q = decode6(u);
        let deg = u.map(|v| v as f64 * 360.0 / 65535.0);
        let e = engine_quat_from_degrees(deg[0], deg[1], deg[2]);
        dq = dq.max((0..4).map(|i| (q[i] as f64 - e[i]).abs()).fold(0.0, f64::max));
        let m = Matrix43::from_quat(q);
        let r = mm(mm(rx(deg[0]), ry(deg[1])), rz(deg[2]));
        for c in 0..3 {
            for row in 0..3 {
                dm = dm.max((m.m[c][row] as f64 - r[row][c]).abs());
            }
        }
    }
    assert!(dq < 5e-7, "quaternion {dq}");
    assert!(dm < 2e-6, "matrix {dm}");
}

/// The direct entry point: x, y, z in radians.
#[test]
fn euler_entry_point() {
    let q = xyzr_euler_to_quat(std::f32::consts::PI, 0.0, 0.0);
    // Half angle π/2 for x: cc = 0·1... x = cj·cs = cos(2π)·sin(π/2) ≈ 1; w = -(cj·cc) ≈ 0.
    assert!((q[0] - 1.0).abs() < 1e-6 && q[3].abs() < 1e-6, "{q:?}");
}

/// MUrQuat_Lerp by hand: halfway between the identity and a half turn about z is a quarter
/// turn: (0, 0, 0.5, 0.5)/|·| = (0, 0, √½, √½); a negative dot flips `to`; length 0 gives the
/// identity.
#[test]
fn lerp_by_hand() {
    let q = quat_lerp([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 0.0], 0.5);
    let h = std::f32::consts::FRAC_1_SQRT_2;
    assert!((q[2] - h).abs() < 1e-7 && (q[3] - h).abs() < 1e-7, "{q:?}");
    // to = -identity: flipped to +identity, so every blend stays the identity.
    assert_eq!(quat_lerp([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, -1.0], 0.25), [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(quat_normalize([0.0; 4]), [0.0, 0.0, 0.0, 1.0]);
    // t = 1/3 between (1,0,0,0) and (0,1,0,0): scales in double (1 - (float)(1/3), (float)(1/3)),
    // components rounded to float, then normalized: x/y = 2 (within a float rounding).
    let t = 1.0f32 / 3.0;
    let q = quat_lerp([1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], t);
    let s0 = (1.0f64 - t as f64) as f32;
    let s1 = t;
    let n = ((s0 * s0 + s1 * s1) as f64).sqrt() as f32;
    let inv = 1.0f32 / n;
    assert_eq!(q, [s0 * inv, s1 * inv, 0.0, 0.0]);
}

/// The other key sizes by hand.
#[test]
fn other_key_sizes_by_hand() {
    // 8 bytes: s16 × (1/32767).
    let mut b = Vec::new();
    for v in [0i16, 0, 0, 32767] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    assert_eq!(decode(8, &b).unwrap(), [0.0, 0.0, 0.0, 1.0]);
    let mut b = Vec::new();
    for v in [-16384i16, 0, 0, 28378] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    let q = decode(8, &b).unwrap();
    assert!((q[0] + 16384.0 / 32767.0).abs() < 1e-7 && (q[3] - 28378.0 / 32767.0).abs() < 1e-7);
    // 4 bytes: s8 × (1/127).
    let q = decode(4, &[127, 0x81, 0, 64]).unwrap();
    assert_eq!(q[0], 1.0);
    assert_eq!(q[1], -1.0);
    assert!((q[3] - 64.0 / 127.0).abs() < 1e-7);
    // 16 bytes: four floats, verbatim (not normalized).
    let mut b = Vec::new();
    for v in [0.5f32, 0.5, 0.5, -0.5] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    assert_eq!(decode(16, &b).unwrap(), [0.5, 0.5, 0.5, -0.5]);
    // 3 bytes: long, lat, angle with θ = i·π/255; tables hold sin/cos(θ - π) and of θ/2.
    // (0, 0, 0): angle 0 → w = cos 0 = 1, x = y = z = 0.
    assert_eq!(decode3([0, 0, 0]), [0.0, 0.0, 0.0, 1.0]);
    // (255, 0, 255): long θ = π → cos(0) = 1, sin 0 = 0; lat 0 → cos(-π) = -1, sin(-π) ≈ 0;
    // angle π → half π/2: sin 1, cos ≈ 0. x = 1·(-1)·1 = -1, y = 0, z ≈ 0, w ≈ 0: a half turn.
    let q = decode3([255, 0, 255]);
    assert!((q[0] + 1.0).abs() < 1e-7 && q[1].abs() < 1e-7 && q[2].abs() < 1e-6 && q[3].abs() < 1e-7, "{q:?}");
    // (0, 255, 170): lat θ = π → cos 0 = 1, sin 0 = 0; long 0 → cos(-π) = -1; angle 2π/3 →
    // sin(π/3), cos(π/3) = 0.5: x = -1·1·sin(π/3), y ≈ 0, z = 0, w = 0.5.
    let q = decode3([0, 255, 170]);
    let s = (170.0f64 * std::f64::consts::PI / 510.0).sin();
    assert!((q[0] as f64 + s).abs() < 1e-6 && (q[3] - 0.5).abs() < 1e-6, "{q:?}");
    assert!(decode(5, &[0; 5]).is_none());
}

/// The glam form of an engine quaternion is the same rotation: its matrix equals the engine
/// matrix (the engine's transposed convention made explicit).
#[test]
fn glam_conversion_is_the_engine_rotation() {
    for u in [[1u16, 2, 3], [0x4000, 0x2000, 0xc000], [65535, 12345, 54321]] {
        let q = decode6(u);
        let m = Matrix43::from_quat(q).to_mat4();
        let g = glam::Mat4::from_quat(to_glam(q));
        for (a, b) in m.to_cols_array().iter().zip(g.to_cols_array()) {
            assert!((a - b).abs() < 1e-6);
        }
    }
}

/// Posing by hand on a two-part chain: part 0 turned a quarter about z (0x4000), part 1 at
/// offset (1, 0, 0) from it, the base lifted by a height of 2. Part 1's origin:
/// (0, 2, 0) + Rz(90.00137°)·(1, 0, 0) = (cos, 2 + sin, 0) ≈ (-2.4e-5, 3, 0).
#[test]
fn posing_by_hand() {
    let body = boneyard_oni::Body {
        name: "chain".into(),
        source: String::new(),
        translations: vec![[0.0; 3], [1.0, 0.0, 0.0]],
        index_blocks: vec![[0, 1, 0, 0], [0, 0, 0, 0]],
        parents: vec![None, Some(0)],
        meshes: vec![],
        strips: vec![],
        polygon_count: 0,
        debug_name: String::new(),
        generic: false,
    };
    let mut base = Matrix43::IDENTITY;
    base.translate([0.0, 2.0, 0.0]);
    let rz = decode6([0, 0, 0x4000]);
    let m = body.pose(&base, &[rz, [0.0, 0.0, 0.0, 1.0]]);
    let a = 16384f64 * std::f64::consts::TAU / 65535.0;
    let p = m[1].translation();
    assert!(
        (p.x as f64 - a.cos()).abs() < 1e-6 && (p.y as f64 - (2.0 + a.sin())).abs() < 1e-6 && p.z.abs() < 1e-6,
        "{p}"
    );
    // Part 1's x axis turned too: column 0 = (cos, sin, 0).
    assert!((m[1].m[0][1] as f64 - a.sin()).abs() < 1e-6);
}

/// MUrQuat_Lerp blends with double scales and rounds each component to float; OniSplit (and
/// a naive port) blends in float. On every in-between frame of walk19 (segments from
/// OniSplit's XML key durations) boneyard gives exactly the double-scale result, recomputed
/// here independently; a float blend differs in the last bits on many of them.
#[test]
fn lerp_uses_double_scales_not_float() {
    let test = "lerp_uses_double_scales_not_float";
    let Some(p) = fixture("TRAMfixture_walk19.oni", test) else { return };
    let Some(x) = fixture("TRAMfixture_walk19.oni.xml", test) else { return };
    let x = std::fs::read_to_string(x).unwrap();
    let doc = boneyard_oni::open_paths(&[p.as_path()]).unwrap();
    let t = &doc.trams()[0];
    let (mut lerps, mut differ) = (0, 0);
    for (part, bone) in tags(tags(&x, "Rotations")[0], "Bone").iter().enumerate() {
        let mut f0 = 0usize;
        for k in tags(bone, "EKey") {
            let f1 = f0 + floats(k)[0] as usize;
            if f1 >= t.frames {
                break;
            }
            let (a, b) = (t.rotation(part, f0).unwrap(), t.rotation(part, f1).unwrap());
            let dot: f64 = (0..4).map(|i| a[i] as f64 * b[i] as f64).sum();
            let b1 = if dot < 0.0 { b.map(|c| -c) } else { b };
            for f in f0 + 1..f1 {
                let tt = (f - f0) as f32 / (f1 - f0) as f32;
                let r: [f32; 4] =
                    std::array::from_fn(|i| ((1.0 - tt as f64) * a[i] as f64 + tt as f64 * b1[i] as f64) as f32);
                let expect = quat_normalize(r);
                assert_eq!(t.rotation(part, f).unwrap(), expect, "part {part} frame {f}");
                lerps += 1;
                let rf: [f32; 4] = std::array::from_fn(|i| (1.0 - tt) * a[i] + tt * b1[i]);
                if quat_normalize(rf) != expect {
                    differ += 1;
                }
            }
            f0 = f1;
        }
    }
    println!("{lerps} lerped samples equal the double-scale formula; {differ} of them differ from a float blend");
    assert!(lerps > 300 && differ > 0);
}

/// The x87 keeps the sines and cosines of x and z at full precision: the products `ci·sh`
/// etc. are rounded to float once, from exact doubles. A key where that shows: the 6-byte key
/// (1, 0, 0x4000). Worked in f64 (values printed by Python's `math`, the same libm):
/// * x = (float)(1 · 2π/65535) = 9.587526437826455e-05, z = (float)(16384 · 2π/65535) =
///   1.5708203315734863; th = x/2, ti = z/2 (exact halvings);
/// * sh = sin(th) = 4.793763217077203e-05, ch = cos(th) = 0.9999999988509917,
///   si = sin(ti) = 0.7071152681064762, ci = cos(ti) = 0.7070982941647549;
/// * y = 0, so tj = M3c2Pi: cj = (float)cos = 1, sj = (float)sin = 1.7484555e-7;
/// * cs = (float)(ci·sh) = 3.3896616514539346e-05 (bits 0x380E2C37), sc = (float)(si·ch) =
///   0.7071152925491333, cc = (float)(ci·ch), ss = (float)(si·sh);
/// * x = (float)(cj·cs − sj·sc) = 3.3772979804780334e-05 = bits 0x380DA776, and y, z, w as
///   the formulas give them: bits 0xB80EB1D7, 0x3F350582, 0xBF350465.
///
/// Sines and cosines rounded to float first (an f32 port) give cs = 0x380E2C38 (the product
/// of (float)ci = 0.7070983052253723 and (float)sh = 4.793763218913227e-05), so x = 0x380DA777,
/// one unit in the last place off.
#[test]
fn euler_sines_stay_at_x87_precision() {
    let expect = [0x380D_A776u32, 0xB80E_B1D7, 0x3F35_0582, 0xBF35_0465];
    let q = decode6([1, 0, 0x4000]);
    assert_eq!(q.map(f32::to_bits), expect, "{q:?}");
    // The same through the radian entry point, with the angles decode6 makes.
    let step = boneyard_oni::ANGLE_STEP_6;
    let q = xyzr_euler_to_quat(step, 0.0, 16384.0 * step);
    assert_eq!(q.map(f32::to_bits), expect, "{q:?}");
    // The inputs are the ones worked above.
    assert_eq!(f64::from(step), 9.587526437826455e-05);
    assert_eq!(f64::from(16384.0 * step), 1.5708203315734863);
}

/// MUrQuat_Lerp's scales are doubles, and each component is rounded to float once. Worked in
/// f64 from the identity (0, 0, 0, 1) to (0, 0, 0.6f, 0.8f) at t = 0.1f (dot 0.8 > 0, no flip):
/// * t = 0.10000000149011612, 1 − t = 0.8999999985098839 (exact in double, not a float);
/// * w = (float)(0.8999999985098839 + t·0.800000011920929) = (float)0.9800000008940697
///   = 0.9800000190734863; z = (float)(t·0.6000000238418579) = 0.06000000238418579;
/// * normalize: square = (float)(z² + w²) = 0.9640000462532043, inv = (float)(1/√square) =
///   1.0185010433197021; z·inv = 0.06111006438732147 (bits 0x3D7A4E8C), w·inv =
///   0.9981310367584229 (bits 0x3F7F8584).
///
/// A float blend gives w = 0.9f + (float)(t·0.8f) = 0.9799999594688416 before the normalize and
/// 0.9981309771537781 (0x3F7F8583) after: one unit in the last place off.
#[test]
fn lerp_scales_are_doubles_by_hand() {
    let q = quat_lerp([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.6, 0.8], 0.1);
    assert_eq!(q.map(f32::to_bits), [0, 0, 0x3D7A_4E8C, 0x3F7F_8584], "{q:?}");
}
