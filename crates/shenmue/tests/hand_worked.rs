//! The game's numerics against values worked by hand (not against the implementation's own
//! output): the Hermite sampler over a span of several frames, and the int16 rotation store
//! where truncation and rounding part.

use boneyard_core::Document;
use boneyard_shenmue::{bind, CurveValue};
use boneyard_shenmue::{encode_file, CurveSpec, KeySpec, SequenceSpec};
use boneyard_shenmue::{local_matrix, HUMAN_RIG};
use boneyard_shenmue::{sample_keys, Axis, Key};

fn key(frame: u16, value: f32, tangent_in: f32, tangent_out: f32) -> Key {
    Key { frame, count: 3, tangent_in, tangent_out, value }
}

/// Two keys 4 frames apart: (frame 0, value 0, out-tangent 3 per second) and (frame 4, value
/// 1, in-tangent -1.5 per second). At frame 1: t = 1/4; the tangents are per second at 30 Hz,
/// so over a span of 4 frames (4/30 s) m0 = 3 · 4/30 = 0.4 and m1 = -1.5 · 4/30 = -0.2. The
/// Hermite basis at t = 1/4: h00 = 2/64 − 3/16 + 1 = 0.84375, h10 = 1/64 − 2/16 + 1/4 =
/// 0.140625, h01 = −2/64 + 3/16 = 0.15625, h11 = 1/64 − 1/16 = −0.046875. Value:
/// 0.84375·0 + 0.140625·0.4 + 0.15625·1 − 0.046875·(−0.2) = 0.05625 + 0.15625 + 0.009375 =
/// 0.221875. (Tangents taken per frame would give 0.140625·0.1 + 0.15625 + 0.046875·0.05 =
/// 0.1727; tangents not scaled by the span at all, 0.140625·3 + 0.15625 − 0.046875·(−1.5) ≈ 0.65.)
#[test]
fn hermite_over_a_four_frame_span_by_hand() {
    let keys = [key(0, 0.0, 0.0, 3.0), key(4, 1.0, -1.5, 0.0)];
    let v = sample_keys(&keys, 1.0);
    // 4/30 is not a float: the products carry a few units in the last place.
    assert!((v - 0.221875).abs() < 1e-6, "{v}");
    // At frame 2 (t = 1/2): h00 = h01 = 1/2, h10 = 1/8, h11 = −1/8:
    // 0.5 + 0.125·0.4 − 0.125·(−0.2) = 0.575.
    let v = sample_keys(&keys, 2.0);
    assert!((v - 0.575).abs() < 1e-6, "{v}");
    // The ends are the key values.
    assert_eq!((sample_keys(&keys, 0.0), sample_keys(&keys, 4.0)), (0.0, 1.0));
}

/// 742 · 2⁻²⁴ turns (a half float's subnormal 0x02E6: what a MOTN file can store) is
/// 742/256 = 2.8984375 int16 units: the store truncates toward zero, so 2 (rounding would give
/// 3), and −2 for its negative (rounding or flooring would give −3).
const TURNS: f32 = 742.0 / 16_777_216.0;

#[test]
fn rig_bind_truncates_rotations_by_hand() {
    assert_eq!(TURNS * 65536.0, 2.8984375);
    let values = [
        CurveValue { control: 1, axis: Axis::RotX, value: TURNS },
        CurveValue { control: 1, axis: Axis::RotY, value: -TURNS },
        // 0.3 turns = 19660.8 units: truncated to 19660.
        CurveValue { control: 2, axis: Axis::RotY, value: 0.3 },
    ];
    let c = bind(&HUMAN_RIG, &values);
    // Control 1 (the hip) keeps its default z (16384); x and y come from the curves.
    assert_eq!(c.rotation[1], [2, -2, 16384]);
    // Control 2 (the pelvis) keeps its default x and z.
    assert_eq!(c.rotation[2], [0, 19660, -16384]);
}

/// The same value through a whole MOTN file: a one-channel sequence holding the half float
/// 0x02E6 on the hip's rotation x. The hip's world matrix is the root's times
/// T(hip position) · Rz(16384) · Ry(0) · Rx(2): the truncated raw angle, not 3.
#[test]
fn a_motn_rotation_is_stored_truncated_by_hand() {
    let flat = |frame: u16| KeySpec { frame, count: 1, tangent_in: 0.0, tangent_out: 0.0, value: TURNS };
    let seq = SequenceSpec {
        name: "TRUNC".into(),
        frames: 3,
        flag_high: 0,
        curves: vec![CurveSpec { control: 1, axis: Axis::RotX, keys: vec![flat(0), flat(2)] }],
    };
    let bytes = encode_file(&[seq]);
    let doc = boneyard_shenmue::open_bytes(&[("TRUNC.BIN".to_string(), &bytes[..])]).unwrap();
    let doc: &dyn Document = &doc;
    let anim = doc.find_animation("TRUNC").unwrap();
    // The channel is the sampled value before the store: the half float, exactly.
    let s = doc.sample(anim, 1.0).unwrap();
    let ch = s.channels.iter().find(|c| c.target == "1" && c.path == "rotation.x").unwrap();
    assert_eq!(ch.value.as_f64(), Some(f64::from(TURNS)));
    let skeleton = doc.skeleton_for(anim).unwrap();
    let world = doc.pose(skeleton, Some(anim), 1.0).unwrap();
    let hip = HUMAN_RIG[1];
    let expect = world[0] * local_matrix(hip.position.into(), [2, 0, 16384]);
    assert_eq!(world[1], expect);
    let rounded = world[0] * local_matrix(hip.position.into(), [3, 0, 16384]);
    assert_ne!(world[1], rounded);
}
