//! Helpers for the fixture tests: a minimal reader of OniSplit's XML (just the elements the
//! tests need) and the independent quaternion formulas.
#![allow(dead_code, clippy::needless_range_loop)]

use std::path::PathBuf;

pub fn fixture(name: &str, test: &str) -> Option<PathBuf> {
    boneyard_core::testdata::shared_data(&format!("oni/{name}"), test)
}

/// Inner texts of every `<tag>...</tag>` (not nested in itself), in order.
pub fn tags<'a>(xml: &'a str, tag: &str) -> Vec<&'a str> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let mut out = Vec::new();
    let mut rest = xml;
    while let Some(i) = rest.find(&open) {
        let after = &rest[i + open.len()..];
        let Some(j) = after.find(&close) else { break };
        out.push(&after[..j]);
        rest = &after[j + close.len()..];
    }
    out
}

pub fn floats(s: &str) -> Vec<f64> {
    s.split_whitespace().map(|x| x.parse::<f64>().unwrap()).collect()
}

pub fn floats32(s: &str) -> Vec<f32> {
    s.split_whitespace().map(|x| x.parse::<f32>().unwrap()).collect()
}

/// Hamilton product a·b of (x, y, z, w) quaternions.
pub fn qmul(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    [
        a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
        a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
        a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
        a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
    ]
}

/// The engine's quaternion for Euler angles in degrees, by a route independent of
/// `MUrXYZrEulerToQuat`: o = qX(x)·qY(y)·qZ(z) (axis-angle quaternions), engine = (ox, oy, oz, -ow)
/// (reference/oni.md §1.5, verified there on 1000 random triples).
pub fn engine_quat_from_degrees(x: f64, y: f64, z: f64) -> [f64; 4] {
    let ax = |a: f64, axis: usize| {
        let h = a.to_radians() / 2.0;
        let mut q = [0.0, 0.0, 0.0, h.cos()];
        q[axis] = h.sin();
        q
    };
    let o = qmul(qmul(ax(x, 0), ax(y, 1)), ax(z, 2));
    [o[0], o[1], o[2], -o[3]]
}

/// OniSplit reads a 6-byte key's u16 as a signed s16 × 180/32767.5 degrees; the engine reads
/// it unsigned × 360/65535. For a negative OniSplit angle the engine's is 65536·360/65535
/// degrees more.
pub fn engine_degrees_from_onisplit(a: f64) -> f64 {
    if a < 0.0 {
        a + 65536.0 * 360.0 / 65535.0
    } else {
        a
    }
}

/// Column-vector rotation matrices (row-major [r][c]).
pub fn rx(a: f64) -> [[f64; 3]; 3] {
    let (s, c) = a.to_radians().sin_cos();
    [[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]]
}
pub fn ry(a: f64) -> [[f64; 3]; 3] {
    let (s, c) = a.to_radians().sin_cos();
    [[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]]
}
pub fn rz(a: f64) -> [[f64; 3]; 3] {
    let (s, c) = a.to_radians().sin_cos();
    [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]
}
pub fn mm(a: [[f64; 3]; 3], b: [[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let mut o = [[0.0; 3]; 3];
    for r in 0..3 {
        for c in 0..3 {
            o[r][c] = (0..3).map(|k| a[r][k] * b[k][c]).sum();
        }
    }
    o
}
