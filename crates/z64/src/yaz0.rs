//! Yaz0 (the compression of OoT/MM ROM files, boot/yaz0.c), decoded with our own code.
//!
//! Stream: "Yaz0", u32 decompressed size, 8 reserved bytes, then groups of one control byte
//! (most significant bit first): bit 1 = copy one literal byte; bit 0 = a back-reference of
//! two bytes `b0 b1` (`dist = ((b0 & 0xF) << 8 | b1) + 1`, `len = (b0 >> 4) + 2`) or, when
//! `b0 >> 4 == 0`, three bytes with `len = b2 + 0x12`. Copies are byte by byte, so they may
//! overlap what they produce. A stream that ends early, refers before the start of the output
//! or produces more than it announced is an error (with the byte offset in the stream).

use boneyard_core::{limit, Error, ErrorKind, Limit, Limits, Result};

/// The four magic bytes every Yaz0 stream starts with.
pub const MAGIC: &[u8; 4] = b"Yaz0";
/// Size of the header: magic, u32 decompressed size, 8 reserved bytes.
pub const HEADER_SIZE: usize = 0x10;

/// Is this a Yaz0 stream?
pub fn is_yaz0(data: &[u8]) -> bool {
    data.len() >= HEADER_SIZE && &data[..4] == MAGIC
}

/// The size the header announces, at most `max` (the caller's `Limits::max_yaz0_bytes`: the
/// largest OoT/MM file is a few MB).
pub fn declared_size(data: &[u8], max: Limit) -> Result<usize> {
    if !is_yaz0(data) {
        return Err(Error::invalid(0, "not a Yaz0 stream (no \"Yaz0\" magic)"));
    }
    let size = u32::from_be_bytes([data[4], data[5], data[6], data[7]]) as usize;
    max.check(size as u64, 4, "bytes decompressed (Yaz0)")?;
    Ok(size)
}

/// Decode a whole Yaz0 stream within the default `Limits::max_yaz0_bytes`. `expected`, when
/// given, is the size the caller knows the file has (the ROM's DMA table); a header that
/// disagrees is an error.
pub fn decode(data: &[u8], expected: Option<usize>) -> Result<Vec<u8>> {
    decode_within(data, expected, limit!(Limits::default(), max_yaz0_bytes))
}

/// [`decode`] of a stream announcing at most `max` bytes (the caller's
/// `Limits::max_yaz0_bytes`).
pub fn decode_within(data: &[u8], expected: Option<usize>, max: Limit) -> Result<Vec<u8>> {
    let size = declared_size(data, max)?;
    if let Some(e) = expected {
        if e != size {
            return Err(Error::invalid(4, format!("Yaz0 header says {size} bytes, the file table says {e}")));
        }
    }
    // The output is made in place, in a buffer of its final size (so that copies are of fixed
    // lengths the compiler writes out, not calls). A back-reference (3 bytes and a control
    // bit) makes at most 0x111 bytes, so a stream makes fewer than `BOUND` bytes a byte of its
    // own: a lying 16-byte header gets no more than that (and fails where its data ends).
    const BOUND: usize = MAX_MATCH / 3 + 1;
    let mut out = vec![0u8; size.min(data.len().saturating_mul(BOUND))];
    let mut o = 0;
    let mut src = HEADER_SIZE;
    let truncated = |at: usize, need: u64| {
        Error::at(at as u64, ErrorKind::Truncated { need, have: data.len().saturating_sub(at) as u64 })
    };
    while o < size {
        let ctrl = *data.get(src).ok_or_else(|| truncated(src, 1))?;
        src += 1;
        // A group whose bytes (at most 3 a bit, and the 8 a run of literals reads at once) are
        // all there and whose output (at most `MAX_MATCH` a bit, and the `CHUNK` a copy may
        // write past its end) fits: neither the stream's end nor the announced size can be met
        // inside it, so only the back-references' distances are checked.
        if src + 32 <= data.len() && o + 8 * MAX_MATCH + CHUNK <= out.len() {
            // The control bits from the top of a word, the used ones shifted out (so zeros
            // follow the bits left). Each run of literal bits is one copy of 8 bytes (a ROM's
            // textures and vertices are mostly literals: a branch a bit was most of the time),
            // then the back-reference that ends it.
            let (mut bits, mut left) = (u32::from(ctrl) << 24, 8);
            loop {
                let literals = bits.leading_ones();
                out[o..o + 8].copy_from_slice(&data[src..src + 8]);
                (o, src) = (o + literals as usize, src + literals as usize);
                // (`literals` is at most `left`: the bits below those left are zero.)
                left -= literals;
                if left == 0 {
                    break;
                }
                let at = src;
                let (dist, short) = back_reference(data[src], data[src + 1]);
                src += 2;
                let len = short.unwrap_or_else(|| {
                    src += 1;
                    data[src - 1] as usize + 0x12
                });
                if dist > o {
                    return Err(back_before_start(at, dist, o));
                }
                copy_back(&mut out, o, dist, len);
                o += len;
                // The literals and this back-reference's bit shifted out (at most 8 of 32).
                bits <<= literals + 1;
                left -= 1;
                if left == 0 {
                    break;
                }
            }
            continue;
        }
        for bit in (0..8).rev() {
            if o >= size {
                break;
            }
            if ctrl & (1 << bit) != 0 {
                let b = *data.get(src).ok_or_else(|| truncated(src, 1))?;
                // (Within the buffer: a stream never makes more than it bounds; checked all
                // the same, as the byte the stream lacks.)
                *out.get_mut(o).ok_or_else(|| truncated(src, 1))? = b;
                (o, src) = (o + 1, src + 1);
            } else {
                let at = src;
                let b = data.get(src..src + 2).ok_or_else(|| truncated(src, 2))?;
                let (dist, short) = back_reference(b[0], b[1]);
                src += 2;
                let len = match short {
                    Some(len) => len,
                    None => {
                        let b2 = *data.get(src).ok_or_else(|| truncated(src, 1))? as usize;
                        src += 1;
                        b2 + 0x12
                    }
                };
                if dist > o {
                    return Err(back_before_start(at, dist, o));
                }
                if o + len > size {
                    return Err(Error::invalid(
                        at as u64,
                        format!("Yaz0 stream produces more than the {size} bytes its header announces"),
                    ));
                }
                let made = out.get_mut(o - dist..o + len).ok_or_else(|| truncated(src, 1))?;
                for k in dist..made.len() {
                    made[k] = made[k - dist];
                }
                o += len;
            }
        }
    }
    Ok(out)
}

/// A back-reference's first two bytes: its distance, and its length when they hold it (a
/// length nibble of 0 means a third byte holds it, less 0x12).
fn back_reference(b0: u8, b1: u8) -> (usize, Option<usize>) {
    let (b0, b1) = (usize::from(b0), usize::from(b1));
    let dist = ((b0 & 0xF) << 8 | b1) + 1;
    (dist, (b0 >> 4 != 0).then_some((b0 >> 4) + 2))
}

/// The error of a back-reference at `at` reaching before the first byte made.
fn back_before_start(at: usize, dist: usize, made: usize) -> Error {
    Error::invalid(at as u64, format!("Yaz0 back-reference {dist} bytes back, only {made} produced"))
}

/// The bytes a copy moves at once, and may write past its end (later bytes overwrite them).
const CHUNK: usize = 16;

/// Write at `o` the `len` bytes from `dist` bytes back, as the console's decoder copies them,
/// byte by byte (so a copy from nearer than its length repeats what it has just made), in
/// `CHUNK`s whose source is all made before each is written: from `dist` back when that is at
/// least a chunk, else, once the first bytes have been made one by one, from the furthest
/// whole number of repetitions back within a chunk (the same bytes: the copy repeats every
/// `dist`). May write up to `CHUNK` bytes past `o + len`; the caller leaves that room.
/// (`dist` is at least 1 and at most `o`: checked by the caller.)
fn copy_back(out: &mut [u8], o: usize, dist: usize, len: usize) {
    let end = o + len;
    let (from, mut at) = if dist >= CHUNK {
        (dist, o)
    } else {
        // A whole number of repetitions of at least half a chunk (9-16 bytes for 1-15).
        let period = dist * (CHUNK / dist);
        for k in o..end.min(o + period) {
            out[k] = out[k - dist];
        }
        (period, o + period)
    };
    if from >= CHUNK {
        while at < end {
            out.copy_within(at - from..at - from + CHUNK, at);
            at += CHUNK;
        }
    } else {
        while at < end {
            out.copy_within(at - from..at - from + CHUNK / 2, at);
            at += CHUNK / 2;
        }
    }
}

/// A small greedy Yaz0 encoder (for building test ROMs and demo data). Searches a 4 KiB
/// window for the longest match, the nearest of equal ones; the output is valid for any
/// decoder, not byte-identical to Nintendo's.
pub fn encode(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + data.len() / 8 + HEADER_SIZE);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(&[0; 8]);
    let mut window = Window::new(data.len());
    let mut pos = 0;
    while pos < data.len() {
        let ctrl_at = out.len();
        out.push(0);
        let mut ctrl = 0u8;
        for bit in (0..8).rev() {
            if pos >= data.len() {
                break;
            }
            let (len, dist) = window.longest_match(data, pos);
            if len >= 3 {
                let d = dist - 1;
                if len >= 0x12 {
                    out.push((d >> 8) as u8);
                    out.push(d as u8);
                    out.push((len - 0x12) as u8);
                } else {
                    out.push((((len - 2) << 4) | (d >> 8)) as u8);
                    out.push(d as u8);
                }
                pos += len;
            } else {
                ctrl |= 1 << bit;
                out.push(data[pos]);
                pos += 1;
            }
        }
        out[ctrl_at] = ctrl;
    }
    out
}

/// The longest back-reference the format has, and the farthest.
const MAX_MATCH: usize = 0x111;
const MAX_DIST: usize = 0x1000;

/// The earlier positions of each three-byte string (hash chains): a match of three bytes or
/// more starts only where its first three bytes are the same, so only those positions are
/// tried, nearest first, instead of every one of the 4 KiB before (which made a ROM of the
/// objects take minutes to build).
struct Window {
    /// The latest position whose three bytes hash to each bucket, plus one (0: none).
    head: Vec<u32>,
    /// For each position, the previous one of its bucket, plus one (0: none).
    prev: Vec<u32>,
    /// Positions below this are in the chains.
    inserted: usize,
}

impl Window {
    const BITS: u32 = 15;

    fn new(len: usize) -> Self {
        Window { head: vec![0; 1 << Self::BITS], prev: vec![0; len], inserted: 0 }
    }

    fn bucket(three: &[u8]) -> usize {
        let k = u32::from(three[0]) << 16 | u32::from(three[1]) << 8 | u32::from(three[2]);
        (k.wrapping_mul(0x9E37_79B1) >> (32 - Self::BITS)) as usize
    }

    /// The longest match for `pos` within the window, the nearest of the longest; (0, 0)
    /// when no three bytes match (the encoder writes a literal then).
    fn longest_match(&mut self, data: &[u8], pos: usize) -> (usize, usize) {
        // Every position before `pos` that has three bytes goes into its chain.
        while self.inserted < pos {
            let i = self.inserted;
            if let Some(three) = data.get(i..i + 3) {
                let b = Self::bucket(three);
                self.prev[i] = self.head[b];
                self.head[b] = i as u32 + 1;
            }
            self.inserted += 1;
        }
        let Some(three) = data.get(pos..pos + 3) else { return (0, 0) };
        let max_len = (data.len() - pos).min(MAX_MATCH);
        let lo = pos.saturating_sub(MAX_DIST);
        let mut best = (0, 0);
        let mut next = self.head[Self::bucket(three)];
        while next != 0 {
            let start = next as usize - 1;
            if start < lo {
                break;
            }
            // (A bucket holds other strings too: their match is shorter than three.)
            let l = data[start..].iter().zip(&data[pos..pos + max_len]).take_while(|(a, b)| a == b).count();
            if l > best.0 {
                best = (l, pos - start);
                if l == max_len {
                    break;
                }
            }
            next = self.prev[start];
        }
        if best.0 < 3 {
            (0, 0)
        } else {
            best
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stream written by hand: "ab" literals, then a 2-byte back-reference (dist 2, len 5,
    /// overlapping), then a 3-byte one (dist 1, len 0x12).
    /// The decoder as it was, byte by byte: the reference the faster copies are checked
    /// against (outputs and errors alike).
    fn decode_bytewise(data: &[u8], size: usize) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        let mut src = HEADER_SIZE;
        let truncated = |at: usize, need: u64| {
            Error::at(at as u64, ErrorKind::Truncated { need, have: data.len().saturating_sub(at) as u64 })
        };
        while out.len() < size {
            let ctrl = *data.get(src).ok_or_else(|| truncated(src, 1))?;
            src += 1;
            for bit in (0..8).rev() {
                if out.len() >= size {
                    break;
                }
                if ctrl & (1 << bit) != 0 {
                    out.push(*data.get(src).ok_or_else(|| truncated(src, 1))?);
                    src += 1;
                } else {
                    let at = src;
                    let b = data.get(src..src + 2).ok_or_else(|| truncated(src, 2))?;
                    let (b0, b1) = (b[0] as usize, b[1] as usize);
                    src += 2;
                    let dist = ((b0 & 0xF) << 8 | b1) + 1;
                    let len = if b0 >> 4 != 0 {
                        (b0 >> 4) + 2
                    } else {
                        let b2 = *data.get(src).ok_or_else(|| truncated(src, 1))? as usize;
                        src += 1;
                        b2 + 0x12
                    };
                    if dist > out.len() {
                        return Err(Error::invalid(
                            at as u64,
                            format!("Yaz0 back-reference {dist} bytes back, only {} produced", out.len()),
                        ));
                    }
                    if out.len() + len > size {
                        return Err(Error::invalid(
                            at as u64,
                            format!("Yaz0 stream produces more than the {size} bytes its header announces"),
                        ));
                    }
                    let start = out.len() - dist;
                    for k in 0..len {
                        out.push(out[start + k]);
                    }
                }
            }
        }
        Ok(out)
    }

    /// The encoder as it was: every start of the 4 KiB window tried, nearest first.
    fn longest_match_every_start(data: &[u8], pos: usize) -> (usize, usize) {
        let max_len = (data.len() - pos).min(MAX_MATCH);
        let mut best = (0, 0);
        for start in (pos.saturating_sub(MAX_DIST)..pos).rev() {
            let mut l = 0;
            while l < max_len && data[start + l] == data[pos + l] {
                l += 1;
            }
            if l > best.0 {
                best = (l, pos - start);
                if l == max_len {
                    break;
                }
            }
        }
        best
    }

    /// Data of the kinds a ROM holds: runs, short repeats, near repeats and noise.
    fn rom_like(seed: u64, len: usize) -> Vec<u8> {
        let mut x = seed | 1;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut v = Vec::with_capacity(len);
        while v.len() < len {
            let r = next();
            match r % 5 {
                0 => v.extend(std::iter::repeat_n((r >> 8) as u8, (r >> 16) as usize % 300)),
                1 if !v.is_empty() => {
                    let d = 1 + (r >> 8) as usize % v.len().min(5000);
                    let n = (r >> 24) as usize % 400;
                    for _ in 0..n {
                        v.push(v[v.len() - d]);
                    }
                }
                2 => v.extend((0..(r >> 8) % 64).map(|_| next() as u8 & 0x3)),
                _ => v.extend((0..(r >> 8) % 40).map(|_| next() as u8)),
            }
        }
        v.truncate(len);
        v
    }

    /// The hash chains find what trying every start found: the same match at every position
    /// (so the same stream), on data of every kind.
    #[test]
    fn chains_find_the_match_every_start_finds() {
        // (Every start tried at every position is slow unoptimised, as the test suite builds.)
        for seed in 1..13u64 {
            let data = rom_like(seed, 1500 + seed as usize * 150);
            let mut w = Window::new(data.len());
            for pos in 0..data.len() {
                let (l, d) = longest_match_every_start(&data, pos);
                let want = if l >= 3 { (l, d) } else { (0, 0) };
                assert_eq!(w.longest_match(&data, pos), want, "seed {seed}, pos {pos}");
            }
        }
    }

    /// The slice copies decode what the byte-by-byte loop decoded, and fail where it failed
    /// with the same error: on encoded data of every kind and on those streams mutated.
    #[test]
    fn decoding_matches_the_bytewise_loop_on_good_and_broken_streams() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut rnd = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (mut good, mut failed) = (0, 0);
        // (The last few are long enough for the group fast path, which leaves the last
        // 0x888 bytes of a stream to the checked one.)
        for seed in 1..66u64 {
            let data = rom_like(seed, if seed < 60 { 500 + seed as usize * 97 } else { 20_000 * (seed as usize - 58) });
            let enc = encode(&data);
            assert_eq!(decode(&enc, Some(data.len())).unwrap(), data);
            for _ in 0..60 {
                let mut m = enc.clone();
                for _ in 0..1 + rnd() % 4 {
                    let i = HEADER_SIZE + (rnd() as usize) % (m.len() - HEADER_SIZE).max(1);
                    if i < m.len() {
                        m[i] = rnd() as u8;
                    }
                }
                if rnd() % 4 == 0 {
                    m.truncate(HEADER_SIZE + (rnd() as usize) % (m.len() - HEADER_SIZE + 1));
                }
                let size = declared_size(&m, limit!(Limits::default(), max_yaz0_bytes)).unwrap();
                let (a, b) = (decode(&m, None), decode_bytewise(&m, size));
                match (&a, &b) {
                    (Ok(x), Ok(y)) => {
                        assert_eq!(x, y);
                        good += 1;
                    }
                    (Err(x), Err(y)) => {
                        assert_eq!((x.offset, x.to_string()), (y.offset, y.to_string()));
                        failed += 1;
                    }
                    _ => panic!("seed {seed}: {a:?} against {b:?}"),
                }
            }
        }
        assert!(good > 100 && failed > 100, "{good} decoded, {failed} failed");
    }

    /// A stream of literals (`None`: the next byte of `bytes`) and back-references (`Some`:
    /// distance, length), written as they are given.
    fn stream_of(items: &[Option<(usize, usize)>], bytes: &mut impl FnMut() -> u8, size: usize) -> Vec<u8> {
        let mut s = MAGIC.to_vec();
        s.extend_from_slice(&(size as u32).to_be_bytes());
        s.extend_from_slice(&[0; 8]);
        for group in items.chunks(8) {
            let ctrl_at = s.len();
            s.push(0);
            for (i, item) in group.iter().enumerate() {
                match *item {
                    None => {
                        s[ctrl_at] |= 0x80 >> i;
                        s.push(bytes());
                    }
                    Some((dist, len)) if len >= 0x12 => {
                        s.extend_from_slice(&[((dist - 1) >> 8) as u8, (dist - 1) as u8, (len - 0x12) as u8])
                    }
                    Some((dist, len)) => {
                        s.extend_from_slice(&[((len - 2) << 4 | (dist - 1) >> 8) as u8, (dist - 1) as u8])
                    }
                }
            }
        }
        s
    }

    /// Every distance from 1 to 40 (a chunk and more: the near copies repeat a pattern) and
    /// the longest, with every length from 3 to 0x111, each between literals in runs of 0 to
    /// 9, far from the stream's end (the group fast path) and at it: as the byte-by-byte loop.
    #[test]
    fn every_near_distance_and_length_copies_as_the_bytewise_loop() {
        let mut rng = boneyard_core::testdata::XorShift64(0x9E37_79B9_7F4A_7C15);
        let mut byte = || rng.next_u64() as u8;
        let mut runs = 0usize;
        for dist in (1..=40).chain([0xFFF, 0x1000]) {
            let mut items: Vec<Option<(usize, usize)>> = vec![None; 0x1000];
            let mut size = items.len();
            for len in 3..=MAX_MATCH {
                items.extend(std::iter::repeat_n(None, runs % 10));
                size += runs % 10;
                runs += 1;
                items.push(Some((dist, len)));
                size += len;
            }
            let s = stream_of(&items, &mut byte, size);
            let got = decode(&s, Some(size)).unwrap();
            assert_eq!(got, decode_bytewise(&s, size).unwrap(), "distance {dist}");
        }
    }

    #[test]
    fn hand_written_stream() {
        let mut s = b"Yaz0".to_vec();
        s.extend_from_slice(&(2u32 + 5 + 0x12).to_be_bytes());
        s.extend_from_slice(&[0; 8]);
        // control: 1 1 0 0 -> 0xC0
        s.push(0xC0);
        s.extend_from_slice(b"ab");
        s.extend_from_slice(&[0x30, 0x01]); // len (3)+2 = 5, dist (0x001)+1 = 2
        s.extend_from_slice(&[0x00, 0x00, 0x00]); // len 0+0x12, dist 1
        let out = decode(&s, None).unwrap();
        let mut want = b"abababa".to_vec();
        want.extend(std::iter::repeat_n(b'a', 0x12));
        assert_eq!(out, want);
    }

    #[test]
    fn lying_streams_are_errors() {
        let mut s = b"Yaz0".to_vec();
        s.extend_from_slice(&100u32.to_be_bytes());
        s.extend_from_slice(&[0; 8]);
        s.push(0xFF);
        s.extend_from_slice(b"abcdefgh");
        // announces 100 bytes, stream ends after 8
        let e = decode(&s, None).unwrap_err();
        assert_eq!(e.offset, Some(s.len() as u64));
        // back-reference before the start
        let mut s2 = b"Yaz0".to_vec();
        s2.extend_from_slice(&4u32.to_be_bytes());
        s2.extend_from_slice(&[0; 8]);
        s2.extend_from_slice(&[0x00, 0x20, 0x05]);
        assert_eq!(decode(&s2, None).unwrap_err().offset, Some(0x11));
        // disagrees with the file table
        assert!(decode(&encode(b"hello"), Some(6)).is_err());
        // a back-reference that overruns the announced size
        let mut s3 = b"Yaz0".to_vec();
        s3.extend_from_slice(&3u32.to_be_bytes());
        s3.extend_from_slice(&[0; 8]);
        s3.extend_from_slice(&[0x80, b'x', 0x30, 0x00]);
        assert!(decode(&s3, None).is_err());
    }

    #[test]
    fn encoder_round_trips() {
        let data: Vec<u8> = (0..5000u32).map(|i| ((i * 7) % 13 + (i / 300)) as u8).collect();
        let enc = encode(&data);
        assert!(enc.len() < data.len());
        assert_eq!(decode(&enc, Some(data.len())).unwrap(), data);
        assert_eq!(decode(&encode(&[]), None).unwrap(), Vec::<u8>::new());
    }
}
