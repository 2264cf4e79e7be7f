//! Animation headers and the joint table at a frame, as `SkelAnime_GetFrameData`,
//! `AnimTaskQueue_AddLoadPlayerFrame` and `SkelAnime_GetFrameDataLegacy` produce it.
//!
//! The joint table has `limbCount + 1` Vec3s: entry 0 is the root translation, entry i+1
//! the rotation (binary angles, 0x10000 a turn) of limb i.

pub use crate::joint_table::JointTable;
use crate::layout::*;
use crate::segment::Ctx;
use boneyard_core::{Endian, Result};

/// The animation formats of the two games, each with the header fields its reader needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnimKind {
    /// `AnimationHeader`: values below `static_max` are constant, others advance per frame.
    Normal {
        /// Segmented address of the frame data (s16 values).
        frame_data: u32,
        /// Segmented address of the joint indices (three value indices a joint).
        joint_indices: u32,
        /// staticIndexMax: indices below it name constant values.
        static_max: u16,
    },
    /// `LinkAnimationHeader`: 134-byte frames in link_animetion (segment 7).
    Link {
        /// Offset of the frame data in link_animetion (segment 7).
        data: u32,
    },
    /// `LegacyAnimationHeader` (object_human): per-axis (max, index) keys.
    Legacy {
        /// Segmented address of the frame data (s16 values).
        frame_data: u32,
        /// Segmented address of the per-axis (max, index) keys.
        keys: u32,
    },
    /// MM `KeyFrameAnimation` (c_keyframe.c), read against a keyframe skeleton: standard
    /// (root translation + rotations) or flex (scale, rotation, translation per limb).
    KeyFrame {
        /// The `KeyFrameAnimation` header.
        header: crate::keyframe::KfHeader,
        /// Read against flex limbs (scale, rotation, translation each).
        flex: bool,
    },
    /// `CurveAnimationHeader` (SkelCurve): 9 curves a limb.
    Curve {
        /// The `CurveAnimationHeader`.
        header: crate::curve::CurveHeader,
    },
}

impl AnimKind {
    /// The kind as `list` shows it ("normal", "link", "legacy", "mm keyframe", "curve").
    pub fn name(&self) -> &'static str {
        self.format_name().strip_prefix("z64 ").unwrap_or_default()
    }
    /// `"z64 "` and [`AnimKind::name`]: the animation's format as the document lists it.
    pub fn format_name(&self) -> &'static str {
        match self {
            AnimKind::Normal { .. } => "z64 normal",
            AnimKind::Link { .. } => "z64 link",
            AnimKind::Legacy { .. } => "z64 legacy",
            AnimKind::KeyFrame { .. } => "z64 mm keyframe",
            AnimKind::Curve { .. } => "z64 curve",
        }
    }
    /// The kind as one token (for `check` lines).
    pub fn token(&self) -> &'static str {
        match self {
            AnimKind::KeyFrame { .. } => "mm-keyframe",
            k => k.name(),
        }
    }
    /// The engine's playback rate: 20 game updates a second; normal (and legacy) animations
    /// advance one frame an update, Link's 1.5 (`R_UPDATE_RATE * 0.5` with R_UPDATE_RATE 3).
    pub fn fps(&self) -> f64 {
        match self {
            AnimKind::Link { .. } | AnimKind::KeyFrame { .. } | AnimKind::Curve { .. } => 30.0,
            _ => 20.0,
        }
    }
}

/// An animation found in a file: where its header is, what kind it is, what it plays on.
#[derive(Debug, Clone)]
pub struct AnimDef {
    /// Segmented address of the header.
    pub addr: u32,
    /// Index of the segment context (document-level) it is read in.
    pub ctx: usize,
    /// Its name (from the asset table, or made from file and offset).
    pub name: String,
    /// frameCount (read as u16, as `Animation_GetLastFrame` does).
    pub frames: u16,
    /// Joint table entries (limbCount + 1).
    pub joints: usize,
    /// The format and its header fields.
    pub kind: AnimKind,
    /// Index of the skeleton it was paired with, when one fits.
    pub skeleton: Option<usize>,
    /// The other skeletons of that size it is written with too, where no name tells which of
    /// them it plays on (the Gibdo's and the Redead's clips are one set in the game).
    pub also: Vec<usize>,
}

/// How a normal animation's frame data is laid out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NormalLayout {
    /// The static values (the first `staticIndexMax` of its frame data).
    pub statics: Vec<i16>,
    /// Per joint, its x, y, z indices into the frame data.
    pub indices: Vec<[u16; 3]>,
}

impl AnimDef {
    /// A normal animation's layout; `None` for other kinds.
    pub fn normal_layout(&self, ctx: &Ctx) -> Result<Option<NormalLayout>> {
        let AnimKind::Normal { frame_data, joint_indices, static_max } = self.kind else { return Ok(None) };
        let at = ctx.home_offset(self.addr);
        let fd = ctx.tail(frame_data, at + 4)?;
        let statics = (0..static_max as usize)
            .map(|k| {
                frame_value(fd, k)
                    .ok_or_else(|| ctx.error(frame_data, format!("static value {k} is past the end of the segment")))
            })
            .collect::<Result<Vec<i16>>>()?;
        let ji = ctx.bytes(joint_indices, self.joints * JOINT_INDEX_SIZE, at + 8)?;
        let indices = ji.chunks_exact(JOINT_INDEX_SIZE).map(|j| JointIndex::decode(j, Endian::Big).xyz).collect();
        Ok(Some(NormalLayout { statics, indices }))
    }
}

/// Read a normal `AnimationHeader` at `addr` (without knowing the joint count yet).
pub fn read_normal_header(ctx: &Ctx, addr: u32) -> Result<(u16, AnimKind)> {
    let h: AnimationHeader = ctx.record(addr, ctx.home_offset(addr))?;
    if h.frame_count == 0 {
        return Err(ctx.error(addr, "animation has 0 frames"));
    }
    let kind =
        AnimKind::Normal { frame_data: h.frame_data, joint_indices: h.joint_indices, static_max: h.static_index_max };
    Ok((h.frame_count, kind))
}

/// Read a `LinkAnimationHeader` at `addr`.
pub fn read_link_header(ctx: &Ctx, addr: u32) -> Result<(u16, AnimKind)> {
    let h: LinkAnimationHeader = ctx.record(addr, ctx.home_offset(addr))?;
    if h.frame_count == 0 {
        return Err(ctx.error(addr, "Link animation has 0 frames"));
    }
    Ok((h.frame_count, AnimKind::Link { data: h.segment }))
}

/// Read a `LegacyAnimationHeader` at `addr`: (frames, limbCount + 1, kind).
pub fn read_legacy_header(ctx: &Ctx, addr: u32) -> Result<(u16, usize, AnimKind)> {
    let h: LegacyAnimationHeader = ctx.record(addr, ctx.home_offset(addr))?;
    let (frames, limbs) = (h.frame_count, h.limb_count as usize);
    if frames == 0 || frames > 0x7FFF || limbs == 0 || limbs > MAX_LIMBS {
        return Err(ctx.error(addr, format!("legacy animation header: {frames} frames, {limbs} limbs")));
    }
    Ok((frames, limbs + 1, AnimKind::Legacy { frame_data: h.frame_data, keys: h.joint_key }))
}

/// Number of s16 values the frame data can hold: up to the next table when the usual
/// `frameData | jointIndices | header` layout holds, else to the end of its segment.
fn frame_data_len(ctx: &Ctx, frame_data: u32, next: u32, at: u64) -> Result<usize> {
    let (fi, off) = ctx.resolve(frame_data, 0, at)?;
    let end = match ctx.resolve(next, 0, at) {
        Ok((fj, o2)) if fj == fi && o2 > off => o2,
        _ => ctx.files[fi].data.len(),
    };
    Ok((end - off) / 2)
}

/// Value `i` (a big-endian s16) of the frame data `fd`, None past its end. Sampling reads
/// every value of every frame through this, so it indexes the slice directly; its end was
/// checked once, by [`Ctx::tail`].
#[inline]
fn frame_value(fd: &[u8], i: usize) -> Option<i16> {
    let at = i.checked_mul(2)?;
    let b = fd.get(at..at.checked_add(2)?)?;
    Some(i16::from_be_bytes([b[0], b[1]]))
}

/// `SkelAnime_InterpFrameTable`: per component `diff = (s16)(target - base)` (wrapping, so
/// angles take the short way), `dst = (s16)(diff * weight) + base` (f32 product truncated
/// toward zero, the sum wrapping as an s16); a weight of 1 or more copies the target.
pub fn interp_frame_table(base: &[[i16; 3]], target: &[[i16; 3]], weight: f32) -> Vec<[i16; 3]> {
    base.iter()
        .zip(target)
        .map(|(b, t)| {
            if weight >= 1.0 {
                return *t;
            }
            let mut out = [0i16; 3];
            for c in 0..3 {
                let diff = t[c].wrapping_sub(b[c]);
                out[c] = ((diff as f32 * weight) as i16).wrapping_add(b[c]);
            }
            out
        })
        .collect()
}

impl AnimDef {
    /// An animation found at `addr` in context `ctx`, not yet paired with a skeleton.
    pub fn unpaired(addr: u32, ctx: usize, name: String, frames: u16, joints: usize, kind: AnimKind) -> Self {
        AnimDef { addr, ctx, name, frames, joints, kind, skeleton: None, also: Vec::new() }
    }

    /// Check every index the animation can read at any frame (so sampling cannot fail later),
    /// with the offset of the offending entry.
    pub fn validate(&self, ctx: &Ctx) -> Result<()> {
        let frames = self.frames as usize;
        match self.kind {
            AnimKind::Normal { frame_data, joint_indices, static_max } => {
                // A pointer that leads nowhere is reported where it is stored: the header's
                // frame data pointer at +4, its joint indices pointer at +8.
                let at = ctx.home_offset(self.addr);
                let n = frame_data_len(ctx, frame_data, joint_indices, at + 4)?;
                let mut ji = ctx.reader(joint_indices, self.joints * JOINT_INDEX_SIZE, at + 8)?;
                for j in 0..self.joints {
                    let JointIndex { xyz } = JointIndex::read(&mut ji)?;
                    for (c, &idx) in xyz.iter().enumerate() {
                        let idx = idx as usize;
                        let last = if idx >= static_max as usize { idx + frames - 1 } else { idx };
                        if last >= n {
                            return Err(ctx.error(
                                joint_indices + (j * 6 + c * 2) as u32,
                                format!(
                                    "joint {j} axis {c}: index {idx} reads value {last}, past the {n} values of the frame data"
                                ),
                            ));
                        }
                    }
                }
                Ok(())
            }
            AnimKind::Link { data } => {
                // The frame data pointer is stored at header +4.
                ctx.bytes(data, frames * LINK_FRAME_SIZE, ctx.home_offset(self.addr) + 4).map(|_| ())
            }
            AnimKind::KeyFrame { .. } => self.keyframes(ctx).map(|_| ()),
            AnimKind::Curve { .. } => self.curves(ctx).map(|_| ()),
            AnimKind::Legacy { frame_data, keys } => {
                // The frame data pointer is stored at header +4, the keys pointer at +8.
                let at = ctx.home_offset(self.addr);
                let n = frame_data_len(ctx, frame_data, keys, at + 4)?;
                let mut k = ctx.reader(keys, self.joints * LEGACY_JOINT_KEY_SIZE, at + 8)?;
                for j in 0..self.joints {
                    let LegacyJointKey { axes } = LegacyJointKey::read(&mut k)?;
                    for (c, &[max, idx]) in axes.iter().enumerate() {
                        let reach = (max.max(1) as usize).min(frames);
                        if idx < 0 || idx as usize + reach > n {
                            return Err(ctx.error(
                                keys + (j * 12 + c * 4) as u32,
                                format!("legacy key {j} axis {c}: index {idx} (max {max}) is past the {n} values"),
                            ));
                        }
                    }
                }
                Ok(())
            }
        }
    }

    /// A keyframe animation's channels, keys and fixed values, checked (None for other kinds).
    pub fn keyframes(&self, ctx: &Ctx) -> Result<Option<crate::keyframe::KfAnim>> {
        let AnimKind::KeyFrame { header, flex } = self.kind else { return Ok(None) };
        let limbs = if flex { self.joints / 3 } else { self.joints.saturating_sub(1) };
        let shape = crate::keyframe::KfShape { limbs, flex };
        crate::keyframe::KfAnim::load(ctx, self.addr, &header, shape).map(Some)
    }

    /// A curve animation's properties, knots and constants, checked (None for other kinds).
    pub fn curves(&self, ctx: &Ctx) -> Result<Option<crate::curve::CurveAnim>> {
        let AnimKind::Curve { header } = self.kind else { return Ok(None) };
        crate::curve::CurveAnim::load(ctx, self.addr, &header, self.joints / 3).map(Some)
    }

    /// The joint table at integer frame `frame` (0..frames; callers wrap). Errors only on data
    /// `validate` would have rejected. Keyframe animations are sampled at time `frame + 1`.
    pub fn joint_table(&self, ctx: &Ctx, frame: usize) -> Result<JointTable> {
        let at = ctx.home_offset(self.addr);
        let mut joints = Vec::with_capacity(self.joints);
        match self.kind {
            AnimKind::KeyFrame { .. } => {
                let kf = self.keyframes(ctx)?.ok_or_else(|| ctx.error(self.addr, "not a keyframe animation"))?;
                Ok(kf.joint_table(frame as f32 + 1.0))
            }
            AnimKind::Curve { .. } => {
                let c = self.curves(ctx)?.ok_or_else(|| ctx.error(self.addr, "not a curve animation"))?;
                Ok(c.joint_table(frame as f32))
            }
            AnimKind::Normal { frame_data, joint_indices, static_max } => {
                // Both tables as slices checked once (the same checks, and errors, as a reader
                // over each), then indexed: this runs at every frame of every clip exported.
                let fd = ctx.tail(frame_data, at)?;
                let ji = ctx.bytes(joint_indices, self.joints * JOINT_INDEX_SIZE, at)?;
                let value = |idx: u16| -> Result<i16> {
                    let idx = idx as usize;
                    let i = if idx >= static_max as usize { idx + frame } else { idx };
                    frame_value(fd, i).ok_or_else(|| {
                        ctx.error(frame_data, format!("frame data index {i} is past the end of the segment"))
                    })
                };
                for j in ji.chunks_exact(JOINT_INDEX_SIZE) {
                    let JointIndex { xyz: [x, y, z] } = JointIndex::decode(j, Endian::Big);
                    joints.push([value(x)?, value(y)?, value(z)?]);
                }
                Ok(JointTable { joints, face: None })
            }
            AnimKind::Link { data } => {
                // The frame's 134 bytes checked once ([`Ctx::record`]), its fields then decoded
                // from them without a check each.
                let off = (frame * LINK_FRAME_SIZE) as u32;
                let f: LinkAnimationFrame = ctx.record(data.wrapping_add(off), at)?;
                joints.extend_from_slice(&f.joints);
                Ok(JointTable { joints, face: Some(f.face) })
            }
            AnimKind::Legacy { frame_data, keys } => {
                let fd = ctx.tail(frame_data, at)?;
                let k = ctx.bytes(keys, self.joints * LEGACY_JOINT_KEY_SIZE, at)?;
                for key in k.chunks_exact(LEGACY_JOINT_KEY_SIZE) {
                    let LegacyJointKey { axes } = LegacyJointKey::decode(key, Endian::Big);
                    let mut v = [0i16; 3];
                    for (out, &[max, idx]) in v.iter_mut().zip(&axes) {
                        // SkelAnime_GetFrameDataLegacy: frame < max ? data[idx + frame] : data[idx].
                        let i = if (frame as i64) < max as i64 { idx as i64 + frame as i64 } else { idx as i64 };
                        *out = usize::try_from(i)
                            .ok()
                            .and_then(|i| frame_value(fd, i))
                            .ok_or_else(|| ctx.error(keys, format!("legacy frame data index {i} out of range")))?;
                    }
                    joints.push(v);
                }
                Ok(JointTable { joints, face: None })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interp_by_hand() {
        // -28 * 0.5 = -14; -28 * 0.3 = -8.4 -> -8 (toward zero); 0x7000 -> -0x7000 goes through
        // 0x8000: diff = (s16)(0x9000 - 0x7000) = 0x2000, half of it 0x1000 -> 0x8000 = -0x8000.
        let base = [[0, 0x7000, 100]];
        let target = [[-28, -0x7000, 100]];
        assert_eq!(interp_frame_table(&base, &target, 0.5), vec![[-14, -0x8000, 100]]);
        assert_eq!(interp_frame_table(&base, &target, 0.3)[0][0], -8);
        assert_eq!(interp_frame_table(&base, &target, 1.0), target.to_vec());
        assert_eq!(interp_frame_table(&base, &target, 0.0), base.to_vec());
    }
}
