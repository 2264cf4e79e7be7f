//! The engine's frame walk over a TRAM's rotation streams (`TRrQuatArray_SetAnimationInternal`,
//! 0x427820), the root motion, and the load-time check of the rotation block.

use super::{Stream, Tram};
use crate::keys;
use crate::math::{quat_lerp, EQuat};
use boneyard_core::{Error, Reader, Result};

impl Tram {
    /// The engine quaternion of `part` at whole frame `frame` (< frames), by the walk of
    /// `TRrQuatArray_SetAnimationInternal` (0x427820).
    pub fn rotation(&self, part: usize, frame: usize) -> Result<EQuat> {
        let st =
            self.streams.get(part).ok_or_else(|| Error::invalid(0, format!("TRAM {}: no part {part}", self.name)))?;
        if frame >= self.frames {
            return Err(Error::invalid(0, format!("TRAM {}: frame {frame} of {}", self.name, self.frames)));
        }
        let ks = self.key_size as usize;
        let key = |pos: usize| -> Result<EQuat> {
            self.rotations
                .get(pos..pos + ks)
                .and_then(|b| keys::decode(self.key_size, b))
                .ok_or_else(|| Error::invalid(pos as u64, format!("TRAM {}: key outside its stream", self.name)))
        };
        // One frame: the engine reads a gap and a key past the stream but lands on key 0.
        if self.frames == 1 {
            return key(st.start);
        }
        let mut p = st.start;
        let mut current = p;
        let mut last;
        let mut current_frame = 0usize;
        p += ks;
        let mut gap;
        loop {
            gap = *self
                .rotations
                .get(p)
                .filter(|_| p < st.end)
                .ok_or_else(|| Error::invalid(p as u64, format!("TRAM {}: the walk left the stream", self.name)))?
                as usize;
            p += 1;
            last = current;
            current = p;
            p += ks;
            current_frame += gap;
            if frame <= current_frame {
                break;
            }
        }
        let into = frame - (current_frame - gap);
        if into == 0 {
            key(last)
        } else if into == gap {
            key(current)
        } else {
            Ok(quat_lerp(key(last)?, key(current)?, into as f32 / gap as f32))
        }
    }

    /// Every frame's rotation of `part`, in one pass over the stream: the same keys and lerps
    /// as [`rotation`](Self::rotation) frame by frame (the walk's position only moves forward).
    pub fn part_rotations(&self, part: usize) -> Result<Vec<EQuat>> {
        let st =
            *self.streams.get(part).ok_or_else(|| Error::invalid(0, format!("TRAM {}: no part {part}", self.name)))?;
        let ks = self.key_size as usize;
        let key = |pos: usize| -> Result<EQuat> {
            self.rotations
                .get(pos..pos + ks)
                .filter(|_| pos + ks <= st.end)
                .and_then(|b| keys::decode(self.key_size, b))
                .ok_or_else(|| Error::invalid(pos as u64, format!("TRAM {}: key outside its stream", self.name)))
        };
        let mut out = Vec::with_capacity(self.frames);
        if self.frames == 1 {
            out.push(key(st.start)?);
            return Ok(out);
        }
        // The segment (last key, current key, gap, frame of the current key), each key
        // decoded once.
        let mut p = st.start + ks;
        let mut current_q = key(st.start)?;
        let mut last_q = current_q;
        let mut gap = 0usize;
        let mut current_frame = 0usize;
        let mut started = false;
        for frame in 0..self.frames {
            while !started || frame > current_frame {
                started = true;
                gap =
                    *self.rotations.get(p).filter(|_| p < st.end).ok_or_else(|| {
                        Error::invalid(p as u64, format!("TRAM {}: the walk left the stream", self.name))
                    })? as usize;
                p += 1;
                last_q = current_q;
                current_q = key(p)?;
                p += ks;
                current_frame += gap;
            }
            let into = frame - (current_frame - gap);
            out.push(if into == 0 {
                last_q
            } else if into == gap {
                current_q
            } else {
                quat_lerp(last_q, current_q, into as f32 / gap as f32)
            });
        }
        Ok(out)
    }

    /// Every part's rotation at `frame`.
    pub fn rotations_at(&self, frame: usize) -> Result<Vec<EQuat>> {
        (0..self.parts).map(|p| self.rotation(p, frame)).collect()
    }

    /// The root's displacement at `frame`: the per-frame motion summed over frames 0..frame
    /// (frame 0 at the origin), as (x, z).
    pub fn position(&self, frame: usize) -> [f32; 2] {
        let mut p = [0f32; 2];
        for v in self.velocities.iter().take(frame) {
            p[0] += v[0];
            p[1] += v[1];
        }
        p
    }

    /// Root height at `frame` (0 past the end, as the engine's table read leaves it).
    pub fn height(&self, frame: usize) -> f32 {
        self.heights.get(frame).copied().unwrap_or(0.0)
    }

    /// The bytes of part `part`'s stream as the walk reads them (key, gap, key, ..., key).
    pub fn stream_bytes(&self, part: usize) -> &[u8] {
        self.streams.get(part).and_then(|s| self.rotations.get(s.start..s.end)).unwrap_or(&[])
    }
}

/// Check the rotation block: the offset table inside the raw data, every stream inside it,
/// every part's gaps adding up to frames − 1 exactly, no stream running into the next one.
/// Returns the block's length (up to the end of the last stream) and the streams.
pub fn walk_block(block: &Reader<'_>, parts: usize, frames: usize, ks: usize) -> Result<(usize, Vec<Stream>)> {
    let data = block.data();
    if frames == 0 || ks == 0 {
        return Err(block.error_at(0, format!("{frames} frames, key size {ks}: nothing to walk")));
    }
    let table = parts.saturating_mul(2);
    if table > data.len() {
        return Err(block.error_at(
            0,
            format!("the offset table ({parts} parts, {table} bytes) runs past the end of the raw data"),
        ));
    }
    let mut starts = Vec::with_capacity(parts);
    let mut r = block.clone();
    for p in 0..parts {
        let off = r.u16()? as usize;
        if off >= data.len() {
            return Err(
                block.error_at(2 * p, format!("part {p}'s stream offset {off:#x} is past the end of the raw data"))
            );
        }
        starts.push(off);
    }
    let last_frame = frames - 1;
    let mut streams = Vec::with_capacity(parts);
    for (p, &start) in starts.iter().enumerate() {
        // The stream may not run into another part's stream that starts after it.
        let limit = starts.iter().copied().filter(|&s| s > start).min().unwrap_or(data.len());
        let mut pos = start;
        let mut sum = 0usize;
        let mut nkeys = 0usize;
        let overrun = |pos: usize, sum: usize, why: &str| {
            block.error_at(
                pos,
                format!(
                    "part {p}: {why} after gaps adding up to {sum}; they must add up to frames - 1 = {last_frame} (the last key must be on the last frame)"
                ),
            )
        };
        if pos + ks > limit {
            return Err(overrun(pos, sum, "the first key runs past the stream's end"));
        }
        pos += ks;
        nkeys += 1;
        while sum < last_frame {
            if pos + 1 + ks > limit {
                let why = if limit == data.len() {
                    "the stream runs past the end of the raw data"
                } else {
                    "the stream runs into the next part's stream"
                };
                return Err(overrun(pos, sum, why));
            }
            let gap = data[pos] as usize;
            sum += gap;
            if sum > last_frame {
                return Err(overrun(pos, sum, "a gap overruns the frames"));
            }
            pos += 1 + ks;
            nkeys += 1;
        }
        // Only float keys can hold a value that is not finite: the other sizes are integers
        // scaled or looked up, so their keys are not decoded here (a 6-byte key costs three
        // sines and cosines).
        let float_keys = if ks == 16 { nkeys } else { 0 };
        for k in 0..float_keys {
            let at = if k == 0 { start } else { start + ks + (k - 1) * (ks + 1) + 1 };
            // The key's four little-endian floats (`keys::decode` of a 16-byte key), inline.
            let finite = |b: &[u8]| b.chunks_exact(4).all(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]).is_finite());
            if data.get(at..at + ks).is_some_and(|b| !finite(b)) {
                return Err(block.error_at(at, format!("part {p}: key {k} is not finite")));
            }
        }
        streams.push(Stream { start, end: pos, keys: nkeys });
    }
    let end = streams.iter().map(|s| s.end).max().unwrap_or(table).max(table);
    if end > data.len() {
        return Err(block.error_at(0, "rotation block past the end"));
    }
    Ok((end, streams))
}
