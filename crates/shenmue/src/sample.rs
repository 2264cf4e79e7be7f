//! Sampling a MOTN sequence: every curve at a (real) frame, bound to the rig's controls.
//!
//! Frames: the game's curves are continuous in time and its gameplay walk really samples
//! fractional source frames (36 intervals over 28 game ticks), so a fractional `--frame` is
//! sampled as such. The frame is clamped to `0..=frames-1` (the curves clamp there anyway);
//! a NaN frame reads frame 0.

use crate::curve::{turns_to_raw, Axis};
use crate::motn::Motion;
use crate::rig::{ControlDef, Controls};

/// The frame actually sampled for a request of `frame` on a clip of `frames` samples.
pub fn clamp_frame(frame: f64, frames: u16) -> f32 {
    let last = f64::from(frames.saturating_sub(1));
    if frame.is_nan() {
        0.0
    } else {
        frame.clamp(0.0, last) as f32
    }
}

/// One sampled curve value (rotations in turns, before truncation).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CurveValue {
    pub control: u16,
    pub axis: Axis,
    pub value: f32,
}

/// Every curve's value at `frame`, in block order.
pub fn sample_curves(motion: &Motion, frame: f32) -> Vec<CurveValue> {
    motion.curves.iter().map(|c| CurveValue { control: c.control, axis: c.axis, value: c.sample(frame) }).collect()
}

/// Controls at defaults, with every sampled curve written onto the control it names
/// (positions as sampled, rotations stored as the engine's truncated int16). Curves whose id
/// is beyond the rig are ignored here (they are still listed as channels).
pub fn bind(rig: &[ControlDef], values: &[CurveValue]) -> Controls {
    let mut c = Controls::defaults(rig);
    for v in values {
        let i = usize::from(v.control);
        let k = v.axis.component();
        if v.axis.is_rotation() {
            if let Some(r) = c.rotation.get_mut(i) {
                r[k] = turns_to_raw(v.value);
            }
        } else if let Some(p) = c.position.get_mut(i) {
            p[k] = v.value;
        }
    }
    c
}
