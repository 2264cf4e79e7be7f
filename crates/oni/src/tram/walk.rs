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

    /// Where in [`Tram::rotations`] the keys lie that the walk interpolates between at
    /// `frame` of `part` (the key at or before it, the key after it; the same key twice on a
    /// key's frame): for errors naming a key. None past the stream, as the walk errs there.
    pub fn keys_at(&self, part: usize, frame: usize) -> Option<(usize, usize)> {
        let st = self.streams.get(part)?;
        let ks = self.key_size as usize;
        if self.frames <= 1 || frame >= self.frames {
            return Some((st.start, st.start));
        }
        let (mut p, mut current, mut current_frame) = (st.start + ks, st.start, 0usize);
        loop {
            let gap = usize::from(*self.rotations.get(p).filter(|_| p < st.end)?);
            let last = current;
            current = p + 1;
            p = current + ks;
            current_frame += gap;
            if frame <= current_frame {
                let into = frame - (current_frame - gap);
                return Some(if into == 0 {
                    (last, last)
                } else if into == gap {
                    (current, current)
                } else {
                    (last, current)
                });
            }
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

    /// Every part's rotation at `frame`, each a unit quaternion as the engine verifies
    /// (`MUmQuat_VerifyUnit`): one that is not is an error at its key ([`Tram::not_unit`]),
    /// as `check` says it, rather than a rotation made up in its place.
    pub fn rotations_at(&self, frame: usize) -> Result<Vec<EQuat>> {
        let rots: Vec<EQuat> = (0..self.parts).map(|p| self.rotation(p, frame)).collect::<Result<_>>()?;
        if let Some(p) = rots.iter().position(|q| !keys::is_unit(*q)) {
            return Err(self.not_unit(p, frame, rots[p], &format!("TRAM {}", self.name)));
        }
        Ok(rots)
    }

    /// The error for part `part`'s rotation `q` at `frame`, which is not a unit quaternion:
    /// at the key that is not (or, for two unit keys a lerp of which is not, the first of
    /// them), in the file that holds the rotations; `what` names the animation.
    pub fn not_unit(&self, part: usize, frame: usize, q: EQuat, what: &str) -> Error {
        let key = |pos: usize| {
            self.rotations.get(pos..pos + self.key_size as usize).and_then(|b| keys::decode(self.key_size, b))
        };
        let (a, b) = self.keys_at(part, frame).unwrap_or((0, 0));
        let at = if key(a).is_some_and(keys::is_unit) && key(b).is_some_and(|k| !keys::is_unit(k)) { b } else { a };
        let (file, base) = &self.rotations_at;
        Error::invalid(
            base + at as u64,
            format!(
                "{what} frame {frame} part {part}: rotation {q:?} is not a unit quaternion (its key at this offset)"
            ),
        )
        .in_file(file)
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

    /// Part `part`'s keys as (frame, key bytes), in stream order: the first at frame 0, each
    /// next one its gap later. A stream that does not hold whole keys ends where they end.
    pub fn part_keys(&self, part: usize) -> Vec<(usize, &[u8])> {
        let (bytes, ks) = (self.stream_bytes(part), self.key_size as usize);
        let mut out = Vec::new();
        let (mut at, mut frame) = (0, 0);
        while let Some(key) = bytes.get(at..at + ks) {
            out.push((frame, key));
            at += ks;
            let Some(&gap) = bytes.get(at) else { break };
            frame += usize::from(gap);
            at += 1;
        }
        out
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
    walk_block_by(block, parts, frames, ks, walk_stream)
}

/// Where one part's stream is walked: part `p` from `start`, not past `limit`, its gaps to add
/// up to `last_frame`, its keys `ks` bytes.
#[derive(Clone, Copy)]
struct StreamAt {
    p: usize,
    start: usize,
    limit: usize,
    last_frame: usize,
    ks: usize,
}

/// [`walk_block`] with each stream walked by `walk` (the tests give it the walk that checks
/// every record).
fn walk_block_by(
    block: &Reader<'_>,
    parts: usize,
    frames: usize,
    ks: usize,
    walk: impl Fn(&Reader<'_>, StreamAt) -> Result<Stream>,
) -> Result<(usize, Vec<Stream>)> {
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
    // The streams' starts in order, to find the one after each (parts times a pass over all
    // the starts was a tenth of a CD's walk).
    let mut sorted = starts.clone();
    sorted.sort_unstable();
    for (p, &start) in starts.iter().enumerate() {
        // The stream may not run into another part's stream that starts after it.
        let limit = next_start(&sorted, start).unwrap_or(data.len());
        streams.push(walk(block, StreamAt { p, start, limit, last_frame, ks })?);
    }
    let end = streams.iter().map(|s| s.end).max().unwrap_or(table).max(table);
    if end > data.len() {
        return Err(block.error_at(0, "rotation block past the end"));
    }
    Ok((end, streams))
}

/// The first of `sorted` (ascending) above `start`.
fn next_start(sorted: &[usize], start: usize) -> Option<usize> {
    sorted.get(sorted.partition_point(|&s| s <= start)).copied()
}

/// The error of a stream whose gaps do not add up to the last frame: at `pos`, why, the sum so
/// far.
fn overrun(block: &Reader<'_>, at: StreamAt, pos: usize, sum: usize, why: &str) -> Error {
    let (p, last_frame) = (at.p, at.last_frame);
    block.error_at(
        pos,
        format!(
            "part {p}: {why} after gaps adding up to {sum}; they must add up to frames - 1 = {last_frame} (the last key must be on the last frame)"
        ),
    )
}

/// Why a stream that ran out of records before its last frame ends there.
fn ran_out(block: &Reader<'_>, at: StreamAt) -> &'static str {
    if at.limit == block.data().len() {
        "the stream runs past the end of the raw data"
    } else {
        "the stream runs into the next part's stream"
    }
}

/// The first of a stream's `nkeys` 16-byte keys whose floats are not all finite, as an error.
fn first_key_not_finite(block: &Reader<'_>, at: StreamAt, nkeys: usize) -> Option<Error> {
    let (data, ks, start) = (block.data(), at.ks, at.start);
    (0..nkeys).find_map(|k| {
        let pos = if k == 0 { start } else { start + ks + (k - 1) * (ks + 1) + 1 };
        let finite = |b: &[u8]| b.chunks_exact(4).all(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]).is_finite());
        data.get(pos..pos + ks)
            .is_some_and(|b| !finite(b))
            .then(|| block.error_at(pos, format!("part {}: key {k} is not finite", at.p)))
    })
}

/// One part's stream: its first key, then (gap, key) records until the gaps add up to the
/// last frame; float keys checked finite.
#[inline]
fn walk_stream(block: &Reader<'_>, at: StreamAt) -> Result<Stream> {
    let data = block.data();
    let StreamAt { start, limit, last_frame, ks, .. } = at;
    let mut sum = 0usize;
    if start + ks > limit {
        return Err(overrun(block, at, start, sum, "the first key runs past the stream's end"));
    }
    let mut pos = start + ks;
    let mut nkeys = 1;
    // The (gap, key) records whole before `limit`: walked without a bound check each (a key
    // a few bytes long: the checks were most of the walk). Past them, the next record's check
    // is the one that fails.
    let step = 1 + ks;
    let fit = (limit - pos) / step;
    let records = &data[pos..pos + fit * step];
    // Eight records at a time while their gaps cannot reach the last frame (no compare a
    // record: most of a stream is walked so), then one at a time.
    let walked = match ks {
        3 => eights::<4>(records, &mut sum, last_frame),
        4 => eights::<5>(records, &mut sum, last_frame),
        6 => eights::<7>(records, &mut sum, last_frame),
        8 => eights::<9>(records, &mut sum, last_frame),
        16 => eights::<17>(records, &mut sum, last_frame),
        _ => 0,
    };
    pos += walked * step;
    nkeys += walked;
    for &gap in records[walked * step..].iter().step_by(step) {
        if sum >= last_frame {
            break;
        }
        sum += gap as usize;
        if sum > last_frame {
            return Err(overrun(block, at, pos, sum, "a gap overruns the frames"));
        }
        pos += step;
        nkeys += 1;
    }
    if sum < last_frame {
        return Err(overrun(block, at, pos, sum, ran_out(block, at)));
    }
    // Only float keys can hold a value that is not finite: the other sizes are integers scaled
    // or looked up, so their keys are not decoded here (a 6-byte key costs three sines and
    // cosines). Which key, only when one is not.
    if ks == 16 && !float_keys_finite(&data[start..pos]) {
        if let Some(e) = first_key_not_finite(block, at, nkeys) {
            return Err(e);
        }
    }
    Ok(Stream { start, end: pos, keys: nkeys })
}

/// The records of `records` (each a gap then a key, `STEP` bytes) walked eight at a time
/// while the gaps of the next eight keep `sum` below `last_frame`: how many, `sum` advanced
/// by their gaps. (The record size a constant: each eight's gaps are read at fixed offsets of
/// one array, without a bound check each.)
fn eights<const STEP: usize>(records: &[u8], sum: &mut usize, last_frame: usize) -> usize {
    let mut walked = 0;
    for eight in records.chunks_exact(8 * STEP) {
        let gaps: usize = (0..8).map(|j| eight[j * STEP] as usize).sum();
        if *sum + gaps >= last_frame {
            break;
        }
        *sum += gaps;
        walked += 8;
    }
    walked
}

/// Whether every float of a stream of 16-byte keys (key, gap, key, ..., key: `stream` holds
/// whole records) is finite: no float's exponent all ones. The exponents of all keys are
/// gathered by OR of "exponent plus one" lane sums, no branch per key (a third of a CD's
/// keys are floats).
fn float_keys_finite(stream: &[u8]) -> bool {
    // Two floats a word: a float's exponent bits plus one exponent unit carry into its bit 31
    // exactly when they are all ones (0x7F80_0000 + 0x0080_0000 = 0x8000_0000), never into
    // the next float.
    const EXP: u64 = 0x7F80_0000_7F80_0000;
    const UNIT: u64 = 0x0080_0000_0080_0000;
    const TOP: u64 = 0x8000_0000_8000_0000;
    let word = |b: &[u8]| u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
    let key = |k: &[u8]| ((word(&k[..8]) & EXP) + UNIT) | ((word(&k[8..16]) & EXP) + UNIT);
    let Some((first, rest)) = stream.split_at_checked(16) else { return true };
    let found = rest.chunks_exact(17).fold(key(first), |acc, r| acc | key(&r[1..]));
    found & TOP == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use boneyard_core::{Endian, Reader};

    /// The stream walk as it was first written (a bound check at every record, then each
    /// float key decoded): the reference the walk above is held to.
    fn walk_stream_checked(block: &Reader<'_>, at: StreamAt) -> Result<Stream> {
        let data = block.data();
        let StreamAt { start, limit, last_frame, ks, .. } = at;
        let (mut pos, mut sum, mut nkeys) = (start, 0usize, 0usize);
        if pos + ks > limit {
            return Err(overrun(block, at, pos, sum, "the first key runs past the stream's end"));
        }
        pos += ks;
        nkeys += 1;
        while sum < last_frame {
            if pos + 1 + ks > limit {
                return Err(overrun(block, at, pos, sum, ran_out(block, at)));
            }
            sum += data[pos] as usize;
            if sum > last_frame {
                return Err(overrun(block, at, pos, sum, "a gap overruns the frames"));
            }
            pos += 1 + ks;
            nkeys += 1;
        }
        if ks == 16 {
            if let Some(e) = first_key_not_finite(block, at, nkeys) {
                return Err(e);
            }
        }
        Ok(Stream { start, end: pos, keys: nkeys })
    }

    /// The next start is the least start above, as a pass over every start finds it.
    #[test]
    fn next_start_is_the_least_above() {
        let mut rng = boneyard_core::testdata::XorShift64(0x57A2);
        for _ in 0..2000 {
            let starts: Vec<usize> = (0..1 + rng.next_u64() % 20).map(|_| (rng.next_u64() % 40) as usize).collect();
            let mut sorted = starts.clone();
            sorted.sort_unstable();
            for &start in &starts {
                assert_eq!(next_start(&sorted, start), starts.iter().copied().filter(|&s| s > start).min());
            }
        }
    }

    /// A rotation block of `parts` streams of `ks`-byte keys over `frames` frames, gaps of 1-4
    /// (the last one cut to land on the last frame), floats in -1..1 (what a 16-byte key holds;
    /// the other sizes' bytes are those floats' too, which the walk does not decode).
    fn block_of(rng: &mut boneyard_core::testdata::XorShift64, parts: usize, frames: usize, ks: usize) -> Vec<u8> {
        let mut streams: Vec<Vec<u8>> = Vec::new();
        for _ in 0..parts {
            let mut s = Vec::new();
            let key = |s: &mut Vec<u8>, rng: &mut boneyard_core::testdata::XorShift64| {
                for _ in 0..ks / 4 {
                    let f = (rng.next_u64() % 2000) as f32 / 1000.0 - 1.0;
                    s.extend(f.to_le_bytes());
                }
                s.extend((0..ks % 4).map(|_| rng.next_u64() as u8));
            };
            key(&mut s, rng);
            let mut at = 0;
            while at < frames - 1 {
                let gap = (1 + rng.next_u64() % 4).min((frames - 1 - at) as u64) as u8;
                s.push(gap);
                key(&mut s, rng);
                at += gap as usize;
            }
            streams.push(s);
        }
        let mut out = Vec::new();
        let mut off = 2 * parts;
        for s in &streams {
            out.extend((off as u16).to_le_bytes());
            off += s.len();
        }
        for s in &streams {
            out.extend(s);
        }
        out
    }

    /// The walk finds what the checked walk finds, and fails where and as it fails, on
    /// blocks of 6-, 8- and 16-byte keys with bytes changed at random (gaps, offsets,
    /// floats made infinite or NaN) and cut short.
    #[test]
    fn the_walk_is_the_checked_walk() {
        let mut rng = boneyard_core::testdata::XorShift64(0x7A1C);
        let (mut ok, mut failed, mut not_finite) = (0, 0, 0);
        for case in 0..3000 {
            let ks = [6, 8, 16][case % 3];
            let (parts, frames) = (1 + (rng.next_u64() % 5) as usize, 1 + (rng.next_u64() % 40) as usize);
            let mut b = block_of(&mut rng, parts, frames, ks);
            for _ in 0..rng.next_u64() % 3 {
                let at = (rng.next_u64() as usize) % b.len();
                b[at] = match rng.next_u64() % 5 {
                    0 => 0xFF,
                    1 => 0x7F,
                    2 => rng.next_u64() as u8,
                    3 if at + 4 <= b.len() => {
                        // An infinity or a NaN written over four bytes.
                        let f = if rng.next_u64().is_multiple_of(2) { f32::INFINITY } else { f32::NAN };
                        b[at..at + 4].copy_from_slice(&f.to_le_bytes());
                        b[at]
                    }
                    _ => b[at].wrapping_add(1),
                };
            }
            if rng.next_u64().is_multiple_of(4) {
                let cut = (rng.next_u64() as usize) % (b.len() + 1);
                b.truncate(cut);
            }
            let r = Reader::new(&b, Endian::Little);
            let got = walk_block(&r, parts, frames, ks);
            let want = walk_block_by(&r, parts, frames, ks, walk_stream_checked);
            match (&got, &want) {
                (Ok(g), Ok(w)) => {
                    assert_eq!(g, w, "case {case}");
                    ok += 1;
                }
                (Err(g), Err(w)) => {
                    assert_eq!(g.to_string(), w.to_string(), "case {case}");
                    failed += 1;
                    not_finite += usize::from(w.to_string().contains("is not finite"));
                }
                _ => panic!("case {case}: {got:?} against {want:?}"),
            }
        }
        // Both kinds of block were met many times.
        assert!(ok > 500 && failed > 500 && not_finite > 30, "{ok} read, {failed} refused, {not_finite} not finite");
    }
}
