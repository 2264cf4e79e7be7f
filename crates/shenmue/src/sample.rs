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
    /// The control's MOTN id.
    pub control: u16,
    /// Which axis.
    pub axis: Axis,
    /// The sampled value (units for positions, turns for rotations).
    pub value: f32,
}

/// Every curve's value at `frame`, in block order.
pub fn sample_curves(motion: &Motion, frame: f32) -> Vec<CurveValue> {
    motion.curves.iter().map(|c| CurveValue { control: c.control, axis: c.axis, value: c.sample(frame) }).collect()
}

/// Every curve's value at `frame` into `out`, in block order, without allocating: the lean
/// form of [`sample_curves`] (same values, bit for bit). `cursors` holds one key-search
/// cursor per curve (start them at 0 and keep them from frame to frame: frames in increasing
/// order then walk each curve's keys once). `cursors` and `out` must have one entry per curve.
pub fn sample_into(motion: &Motion, frame: f32, cursors: &mut [usize], out: &mut [f32]) {
    debug_assert!(cursors.len() == motion.curves.len() && out.len() == motion.curves.len());
    for ((c, cur), o) in motion.curves.iter().zip(cursors.iter_mut()).zip(out.iter_mut()) {
        *o = c.sample_from(frame, cur);
    }
}

/// Controls at defaults, with every sampled curve written onto the control it names
/// (positions as sampled, rotations stored as the engine's truncated int16). Curves whose id
/// is beyond the rig are ignored here (they are still listed as channels).
pub fn bind(rig: &[ControlDef], values: &[CurveValue]) -> Controls {
    let mut c = Controls::defaults(rig);
    write_values(&mut c, values.iter().map(|v| (v.control, v.axis, v.value)));
    c
}

/// [`bind`] without allocating: `controls` is reset to `defaults` (the same rig's
/// [`Controls::defaults`]), then `motion`'s curves write `values` (one per curve, as
/// [`sample_into`] gives them) onto it.
pub fn bind_into(controls: &mut Controls, defaults: &Controls, motion: &Motion, values: &[f32]) {
    controls.position.clone_from(&defaults.position);
    controls.rotation.clone_from(&defaults.rotation);
    write_values(controls, motion.curves.iter().zip(values).map(|(c, &v)| (c.control, c.axis, v)));
}

fn write_values(c: &mut Controls, values: impl Iterator<Item = (u16, Axis, f32)>) {
    for (control, axis, value) in values {
        let i = usize::from(control);
        let k = axis.component();
        if axis.is_rotation() {
            if let Some(r) = c.rotation.get_mut(i) {
                r[k] = turns_to_raw(value);
            }
        } else if let Some(p) = c.position.get_mut(i) {
            p[k] = value;
        }
    }
}
