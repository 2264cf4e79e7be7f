//! The open's check of a five-block sequence, as flat scans over its bytes: `Some` exactly
//! when the full decode (`parse_curves`) would succeed on them, so the keys can be decoded
//! later (see `lazy`). On `None` the caller runs the full decode, which names the first fault
//! at its byte offset as it always has: the scan itself never has to say what is wrong.
//!
//! What it checks is what the decode checks: the frame count and block offsets, block 1's
//! descriptors (ascending ids, no reserved bits, the terminator exactly at block 2), block 2
//! and block 3's lengths, every curve's key frames in order, every curve's block 4 bytes there
//! with their unused bit pairs zero, every half it uses there and finite, and block 4's end.

use crate::layout::motn as L;

/// What the open keeps of a sequence that passed.
pub(super) struct Scanned {
    /// The number of channels (curves).
    pub channels: usize,
    /// Bytes after the halves that no block references.
    pub trailing: usize,
    /// 1 when block 4 ends on a pad byte.
    pub block5_pad: usize,
}

fn u16_at(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[i], b[i + 1]])
}

/// Scan the sequence whose bytes (from its header to the end of its region) are `seq`.
///
/// `marks` is scratch space (one byte a key frame), kept by the caller so that the 1319
/// sequences of MOTION.BIN do not each allocate their own.
pub(super) fn scan(seq: &[u8], frames: u16, offs: [u16; 4], marks: &mut Vec<u8>) -> Option<Scanned> {
    let [b2, b3, b4, b5] = offs.map(usize::from);
    if frames == 0 || !(L::SEQ_HEADER <= b2 && b2 <= b3 && b3 <= b4 && b4 <= b5) || b5 > seq.len() {
        return None;
    }
    let n = channels(&seq[L::SEQ_HEADER..b2])?;
    // Block 2: the interior key counts, u8 (one pad byte may follow) or u16.
    let counts = &seq[b2..b3];
    let wide_counts = match counts.len() {
        l if l == n || (l == n + 1 && n % 2 == 1) => false,
        l if l == 2 * n && n > 0 => true,
        _ => return None,
    };
    let total: usize = if wide_counts {
        (0..n).map(|i| usize::from(u16_at(counts, 2 * i))).sum()
    } else {
        // Summed in u32 lanes (vectorized): at most 255 a channel, 6 channels a descriptor and
        // fewer than 32,768 descriptors (block 2 starts below 64 KB): well within a u32.
        counts[..n].iter().map(|&c| u32::from(c)).sum::<u32>() as usize
    };
    let wide_frames = u32::from(frames) > L::U8_FRAMES_MAX;
    let fw = if wide_frames { 2 } else { 1 };
    let key_frames = &seq[b3..b4];
    if key_frames.len() != total * fw && !(fw == 1 && key_frames.len() == total + 1 && total % 2 == 1) {
        return None;
    }
    let (block4, block5) = (&seq[b4..b5], &seq[b5..]);
    // Key frames: each curve's interior frames never decrease and none is past the last frame
    // (the first key is frame 0, the last the last frame). Flat: the whole block's largest
    // frame, and its descents (a frame below the one before it) all at the first frame of a
    // curve's run.
    let at4 = if !wide_counts && !wide_frames {
        let f = &key_frames[..total];
        if u16::from(largest(f)) > frames - 1 {
            return None;
        }
        narrow_runs(&counts[..n], f, block4, marks)?
    } else {
        let (descents, largest) = if wide_frames {
            wide_descents(&key_frames[..2 * total])
        } else {
            let f = &key_frames[..total];
            (descents(f), u16::from(largest(f)))
        };
        if largest > frames - 1 {
            return None;
        }
        let u8_frames = |k: usize| u16::from(key_frames[k]);
        let u16_frames = |k: usize| u16_at(key_frames, 2 * k);
        let u8_counts = |i: usize| usize::from(counts[i]);
        let u16_counts = |i: usize| usize::from(u16_at(counts, 2 * i));
        let (at4, at_starts) = match (wide_counts, wide_frames) {
            // (u8 counts with u8 frames took the branch above)
            (false, _) => runs(n, total, block4, u8_counts, u16_frames),
            (true, false) => runs(n, total, block4, u16_counts, u8_frames),
            (true, true) => runs(n, total, block4, u16_counts, u16_frames),
        }?;
        if descents != at_starts {
            return None;
        }
        at4
    };
    // The unused pairs are zero, so the halves the curves use are the sum of every pair.
    let needed = pair_sum(&block4[..at4]);
    let halves = block5.get(..2 * needed)?;
    if !all_finite(halves) {
        return None;
    }
    // Block 4 may end on one zero pad byte.
    let rest = &block4[at4..];
    if rest.len() > 1 || rest.first().is_some_and(|&b| b != 0) {
        return None;
    }
    Some(Scanned { channels: n, trailing: block5.len() - halves.len(), block5_pad: rest.len() })
}

/// Every curve's run of key frames and of block 4 (the counts of `n` curves by `count`, key
/// frames by `frame`): the block 4 bytes the curves use (when they are there and every unused
/// trailing bit pair is zero) and how many runs start below the frame before them. Straight
/// line per curve (no branch on the data but block 4's end): MOTION.BIN has 78,669 curves.
fn runs(
    n: usize,
    total: usize,
    block4: &[u8],
    count: impl Fn(usize) -> usize,
    frame: impl Fn(usize) -> u16,
) -> Option<(usize, usize)> {
    // The unused pairs of a curve's last block 4 byte, by its key count mod 4 (0-3 pairs).
    const SPARE: [u8; 4] = [0, 0x3F, 0x0F, 0x03];
    let (mut at3, mut at4, mut starts, mut spare) = (0usize, 0usize, 0usize, 0u8);
    // With no interior frames at all no run starts anywhere (and there is no frame to read).
    let last3 = total.checked_sub(1);
    for i in 0..n {
        let c = count(i);
        // A run's first frame below the one before it (the previous curve's last); at the
        // first frame this compares the frame with itself. A run of no frames starts nowhere.
        if let Some(last3) = last3 {
            let below = frame(at3.min(last3)) < frame(at3.saturating_sub(1));
            starts += usize::from(c > 0) & usize::from(below);
        }
        at3 += c;
        let nkeys = c + 2;
        at4 += nkeys.div_ceil(4);
        spare |= block4.get(at4 - 1)? & SPARE[nkeys % 4];
    }
    (spare == 0).then_some((at4, starts))
}

/// [`runs`] for u8 counts and u8 key frames (all but a handful of MOTION.BIN's sequences),
/// on the slices themselves (`counts` holds the `n` counts, `frames` the interior frames), as
/// a pass of byte compares and one walk over the counts with no frame loads: the block 4 bytes
/// the curves use, when they are there, every unused trailing bit pair is zero and every
/// descent of the key frames is at the first frame of a curve's run (`None` otherwise).
fn narrow_runs(counts: &[u8], frames: &[u8], block4: &[u8], marks: &mut Vec<u8>) -> Option<usize> {
    // marks[k] = 1 where frame k is below frame k - 1, for k in 1..total (compares in byte
    // lanes, vectorized); marks[0] and marks[total] are 0.
    // The scratch only grows (no fill of bytes written next); after it, it holds at least
    // `total + 1` bytes, so the slicing and `marks[total]` are in bounds by construction.
    let total = frames.len();
    if marks.len() <= total {
        marks.resize(total + 1, 0);
    }
    let marks = &mut marks[..=total];
    if let (Some((first, inner)), Some(next)) = (marks.split_first_mut(), frames.get(1..)) {
        *first = 0;
        for ((m, a), b) in inner.iter_mut().zip(frames).zip(next) {
            *m = u8::from(b < a);
        }
    }
    marks[total] = 0;
    // With no block 4 no curve has its bytes: only no curves at all pass (with no frames, so
    // no descent either).
    let Some(last4) = block4.len().checked_sub(1) else { return counts.is_empty().then_some(0) };
    // One walk over the counts (MOTION.BIN has 78,669 curves) does two things:
    // - Clear the mark where each curve's run starts. A run of no frames starts where the
    //   next run with frames does (the counts sum to `total`), or at `total` (a spare slot)
    //   when no run with frames follows: the cleared positions are exactly the runs' first
    //   frames (and `total`), so a mark left is a descent inside a run. (`at3` never passes
    //   `total`, the last mark: the clamp never changes it.)
    // - Gather the unused pairs of each curve's last block 4 byte. `last` is the curve's last
    //   block 4 byte, one before the bytes used so far (wrapping before the first curve;
    //   every curve has at least one byte). The index is clamped to block 4's last byte (in
    //   bounds by construction), and since `last` only grows, every read was the curve's own
    //   byte exactly when the final `at4` is within block 4 (checked after).
    let (mut at3, mut last, mut spare) = (0usize, usize::MAX, 0u8);
    for &c in counts {
        marks[at3.min(total)] = 0;
        let c = usize::from(c);
        at3 += c;
        last = last.wrapping_add(usize::from(BYTES4[c]));
        spare |= block4[last.min(last4)] & SPARE4[c];
    }
    if marks.iter().fold(0u8, |a, &m| a | m) != 0 {
        return None;
    }
    let at4 = last.wrapping_add(1);
    (spare == 0 && at4 <= block4.len()).then_some(at4)
}

/// By a curve's u8 count of interior keys `c`: the block 4 bytes of its `c + 2` keys' pairs...
const BYTES4: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = (c + 2).div_ceil(4) as u8;
        c += 1;
    }
    t
};

/// ...and the unused pairs of its last block 4 byte (`runs`' `SPARE` by `(c + 2) % 4`).
const SPARE4: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = [0, 0x3F, 0x0F, 0x03][(c + 2) % 4];
        c += 1;
    }
    t
};

/// Block 1: the descriptors' channel count, when ids ascend, no reserved bit is set and the one
/// 0 terminator ends the block (the descriptors themselves stay in the file's bytes).
fn channels(block1: &[u8]) -> Option<usize> {
    if block1.len() < 2 || !block1.len().is_multiple_of(2) || u16_at(block1, block1.len() - 2) != 0 {
        return None;
    }
    let any_channel = L::CHANNEL_BITS.iter().fold(0, |m, b| m | b);
    let body = &block1[..block1.len() - 2];
    // Without a branch a descriptor (MOTION.BIN has 24,000, some 18 a sequence), in two
    // passes: any fault sets `bad`. First each descriptor on its own (not 0, no reserved bit)
    // and its channel bits counted (a 6-bit population count), four descriptors a u64 (16-bit
    // lanes) and the last 0-3 one at a time...
    let quads = body.chunks_exact(8);
    let tail = quads.remainder();
    let (bad, channels) = quads.fold((0u64, 0u64), |(bad, channels), q| {
        // `chunks_exact(8)`: the copy is of 8 bytes by construction.
        let mut b = [0u8; 8];
        b.copy_from_slice(q);
        let (b, c) = quad(u64::from_le_bytes(b));
        (bad | b, channels + c)
    });
    let (bad, channels) = words(tail).fold((bad != 0, channels as u32), |(bad, channels), v| {
        let c = (v & any_channel) >> 3;
        let c = c - (c >> 1 & 0x15);
        let c = (c & 0x33) + (c >> 2 & 0x33);
        let c = (c + (c >> 4)) & 0x0F;
        (bad | (v == 0) | (v & L::RESERVED_BITS != 0), channels + u32::from(c))
    });
    // ...then each id against the one before it (strictly ascending).
    let next = body.get(2..).unwrap_or_default();
    let descending = words(body).zip(words(next)).fold(false, |d, (a, b)| d | (b >> L::ID_SHIFT <= a >> L::ID_SHIFT));
    (!bad && !descending).then_some(channels as usize)
}

/// Four descriptors (the 16-bit lanes of `q`): nonzero when one is 0 or sets a reserved bit,
/// and their channel bits counted.
fn quad(q: u64) -> (u64, u64) {
    const LANES: u64 = 0x0001_0001_0001_0001;
    const TOPS: u64 = LANES << 15;
    const RESERVED: u64 = LANES * L::RESERVED_BITS as u64;
    const CHANNELS: u64 = LANES * {
        let (mut m, mut i) = (0u16, 0);
        while i < L::CHANNEL_BITS.len() {
            m |= L::CHANNEL_BITS[i];
            i += 1;
        }
        m as u64
    };
    const ODD: u64 = LANES * 0x15;
    const TWOS: u64 = LANES * 0x33;
    const LOW: u64 = LANES * 0x0F;
    // The channel bits are bits 3-8 (the `>> 3` below leaves a 6-bit field).
    const _: () = assert!(CHANNELS == LANES * 0x1F8);
    // A lane is 0 exactly when subtracting 1 borrows out of it into its top bit where the lane
    // had none: some lane is 0 exactly when this is nonzero (a borrow only passes on from a
    // lane that was 0 itself).
    let zero = q.wrapping_sub(LANES) & !q & TOPS;
    let bad = zero | (q & RESERVED);
    // Per lane as the one-descriptor count (6 bits, at most 6), then the four lanes summed by
    // a multiply into the top lane (at most 24).
    let c = (q & CHANNELS) >> 3;
    let c = c - ((c >> 1) & ODD);
    let c = (c & TWOS) + ((c >> 2) & TWOS);
    let c = (c + (c >> 4)) & LOW;
    (bad, c.wrapping_mul(LANES) >> 48)
}

/// The little-endian u16s of `b` (a trailing odd byte is not one).
fn words(b: &[u8]) -> impl Iterator<Item = u16> + '_ {
    b.chunks_exact(2).map(|w| u16::from_le_bytes([w[0], w[1]]))
}

/// How many frames are below the one before them (counted in byte lanes a block at a time,
/// which the compiler turns into vector compares).
fn descents(frames: &[u8]) -> usize {
    const BLOCK: usize = 128;
    let Some((_, rest)) = frames.split_first() else { return 0 };
    let (a, b) = (&frames[..rest.len()], rest);
    a.chunks(BLOCK)
        .zip(b.chunks(BLOCK))
        .map(|(a, b)| usize::from(a.iter().zip(b).fold(0u8, |n, (x, y)| n + u8::from(y < x))))
        .sum()
}

/// [`descents`] and [`largest`] of u16 frames (`frames` holds them, little-endian), as words
/// (no index to check a frame, so the compiler can run both in vector lanes).
fn wide_descents(frames: &[u8]) -> (usize, u16) {
    let next = frames.get(2..).unwrap_or_default();
    (words(frames).zip(words(next)).filter(|(a, b)| b < a).count(), words(frames).max().unwrap_or(0))
}

/// The largest frame (0 for none).
fn largest(frames: &[u8]) -> u8 {
    frames.iter().fold(0, |m, &f| m.max(f))
}

/// The sum of every 2-bit field of `bytes`.
fn pair_sum(bytes: &[u8]) -> usize {
    let mut words = bytes.chunks_exact(8);
    let mut sum = 0usize;
    for w in words.by_ref() {
        sum += word_pairs(u64::from_le_bytes(w.try_into().unwrap_or_default()));
    }
    // The last 0-7 bytes as one more word (its high bytes zero: zero pairs add nothing), in
    // one pass over them rather than four fields a byte.
    sum + word_pairs(words.remainder().iter().rev().fold(0u64, |w, &b| w << 8 | u64::from(b)))
}

/// The sum of the 32 2-bit fields of `w`.
fn word_pairs(w: u64) -> usize {
    const PAIRS: u64 = 0x3333_3333_3333_3333;
    const NIBBLES: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    // Two pairs a nibble (at most 6), then two nibbles a byte (at most 12), then the bytes
    // (at most 96, within the top byte of the product).
    let nibbles = (w & PAIRS) + (w >> 2 & PAIRS);
    let bytes = (nibbles & NIBBLES) + (nibbles >> 4 & NIBBLES);
    (bytes.wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize
}

/// No half of `halves` (little-endian pairs) has its exponent all ones (infinity or NaN).
fn all_finite(halves: &[u8]) -> bool {
    const EXP: u64 = 0x7C00_7C00_7C00_7C00;
    const ONE: u64 = 0x0400_0400_0400_0400;
    const TOP: u64 = 0x8000_8000_8000_8000;
    // A lane's exponent bits plus 0x0400 reach 0x8000 exactly when they are all set, and never
    // carry into the next lane (0x7C00 + 0x0400 = 0x8000), so the sums of every word can be
    // gathered by OR and their top bits looked at once: four halves a word, no branch (the
    // compiler takes two words a vector).
    let mut words = halves.chunks_exact(8);
    let found = words.by_ref().fold(0u64, |found, w| {
        // `chunks_exact(8)`: the copy is of 8 bytes by construction.
        let mut b = [0u8; 8];
        b.copy_from_slice(w);
        found | ((u64::from_le_bytes(b) & EXP) + ONE)
    });
    found & TOP == 0 && words.remainder().chunks_exact(2).all(|h| h[1] & 0x7C != 0x7C)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scan passes exactly the sequences the full decode reads: every byte of every
    /// of the demo MOTN's (boneyard's encoder) first sequences set to other values.
    #[test]
    fn the_scan_passes_what_the_decode_reads() {
        let files = crate::demo::demo_files().unwrap();
        let (_, data) = files.iter().find(|(n, _)| n.ends_with(".bin")).unwrap();
        let motn = super::super::MotnFile::parse(data).unwrap();
        let mut tried = 0;
        // The first two decoded sequences (a debug build decodes each mutation in full).
        for b in motn.blocks.iter().filter(|b| b.motion().is_some()).take(2) {
            let region = &data[b.offset..b.region_end];
            for at in 0..region.len() {
                for v in [0x00, 0xFF, region[at] ^ 0x01, region[at] ^ 0x80] {
                    let mut m = region.to_vec();
                    m[at] = v;
                    let h: Vec<u16> = m[..12].chunks_exact(2).map(|x| u16::from_le_bytes([x[0], x[1]])).collect();
                    let offs = [h[2], h[3], h[4], h[5]];
                    let r = boneyard_core::Reader::new(&m, boneyard_core::Endian::Little);
                    let full = super::super::parse_curves(&r, h[0], offs);
                    let fast = scan(&m, h[0], offs, &mut Vec::new());
                    assert_eq!(fast.is_some(), full.is_ok(), "byte {at} = {v:#04x}: {:?}", full.err());
                    if let (Some(f), Ok(d)) = (fast, full) {
                        let block1 = &m[12..usize::from(h[2]) - 2];
                        assert_eq!(
                            d.descriptors.iter().collect::<Vec<_>>(),
                            crate::motn::Descriptors::copy_from(block1).iter().collect::<Vec<_>>()
                        );
                        assert_eq!(f.channels, d.curves.len());
                        assert_eq!((f.trailing, f.block5_pad), (d.trailing, d.block5_pad));
                    }
                    tried += 1;
                }
            }
        }
        assert!(tried > 1000, "{tried}");
    }

    /// The two-pass narrow scan agrees with the one-walk [`runs`] (and the descents count it
    /// is compared with) on random counts, frames and block 4 bytes, seeded: small values, so
    /// that runs of no frames, equal and descending frames, short and long block 4s all occur.
    #[test]
    fn narrow_runs_agree_with_the_walk() {
        let mut rng = boneyard_core::testdata::XorShift64(0x9E37_79B9_7F4A_7C15u64);
        let mut next = |m: u64| rng.next_u64() % m;
        let (mut passed, mut marks) = (0, Vec::new());
        for _ in 0..200_000 {
            let n = next(6) as usize;
            let counts: Vec<u8> = (0..n).map(|_| [0, 1, 2, 3, 5, 6, 7, 255][next(8) as usize]).collect();
            let total: usize = counts.iter().map(|&c| usize::from(c)).sum();
            let hi = 1 + next(4);
            let frames: Vec<u8> = (0..total).map(|_| next(hi) as u8).collect();
            let need: usize = counts.iter().map(|&c| (usize::from(c) + 5) / 4).sum();
            let len4 = (need + next(3) as usize).saturating_sub(next(2) as usize);
            let block4: Vec<u8> = (0..len4).map(|_| if next(4) == 0 { next(256) as u8 } else { 0 }).collect();
            let walk = runs(n, total, &block4, |i| usize::from(counts[i]), |k| u16::from(frames[k]))
                .filter(|&(_, starts)| starts == descents(&frames))
                .map(|(at4, _)| at4);
            assert_eq!(narrow_runs(&counts, &frames, &block4, &mut marks), walk, "{counts:?} {frames:?} {block4:?}");
            passed += usize::from(walk.is_some());
        }
        // Both outcomes are exercised.
        assert!(passed > 10_000 && passed < 190_000, "{passed}");
    }

    /// Block 1's check agrees with a walk descriptor by descriptor (as `parse_curves` reads
    /// them) on random blocks, seeded: ids mostly ascending, some zero or reserved bits.
    #[test]
    fn descriptors_are_checked_as_the_walk_does() {
        let mut rng = boneyard_core::testdata::XorShift64(0x2545_F491_4F6C_DD1Du64);
        let mut next = |m: u64| rng.next_u64() % m;
        let (mut passed, mut failed) = (0, 0);
        for _ in 0..50_000 {
            let n = next(40) as usize;
            let mut id = next(3) as u16;
            let mut v: Vec<u16> = Vec::new();
            for _ in 0..n {
                id = (id + [1, 1, 1, 2, 0][next(5) as usize] as u16).min(127);
                let bits = (next(64) as u16) << 3 | if next(50) == 0 { 1 << next(3) } else { 0 };
                v.push(if next(200) == 0 { 0 } else { id << 9 | bits });
            }
            let mut block1: Vec<u8> = v.iter().flat_map(|w| w.to_le_bytes()).collect();
            block1.extend_from_slice(&[0, 0]);
            let mut last: Option<u16> = None;
            let mut walk = Some(0usize);
            for &w in &v {
                let id = w >> 9;
                if w == 0 || w & 7 != 0 || last.is_some_and(|p| id <= p) {
                    walk = None;
                    break;
                }
                last = Some(id);
                walk = walk.map(|c| c + (w & 0x1F8).count_ones() as usize);
            }
            assert_eq!(channels(&block1), walk, "{v:04x?}");
            if walk.is_some() {
                passed += 1
            } else {
                failed += 1
            }
        }
        assert!(passed > 1000 && failed > 1000, "{passed} {failed}");
    }

    #[test]
    fn pairs_are_summed() {
        // Against a byte-by-byte sum, on every length to 400 of bytes all 0xFF (the largest
        // lanes) and of varied bytes.
        for len in 0..400 {
            let varied: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            for b in [vec![0xFF; len], varied] {
                let want: usize = b.iter().map(|&x| (0..4).map(|k| usize::from(x >> (2 * k) & 3)).sum::<usize>()).sum();
                assert_eq!(pair_sum(&b), want, "{len}");
            }
        }
        // 0b11_10_01_00 = 3 + 2 + 1 + 0, nine times (one word and one byte).
        assert_eq!(pair_sum(&[0xE4; 9]), 54);
        assert_eq!(pair_sum(&[]), 0);
        // Every pair 3 (32 of them in a word) and single pairs in each byte of a word.
        assert_eq!(pair_sum(&[0xFF; 8]), 96);
        assert_eq!(pair_sum(&[0x01, 0x04, 0x10, 0x40, 0x02, 0x08, 0x20, 0x80]), 12);
    }

    /// The u16 frames' descents and largest as words agree with them frame by frame, by
    /// index (as the scan read them before), on random frames, seeded.
    #[test]
    fn wide_descents_agree_with_indexing() {
        let mut rng = boneyard_core::testdata::XorShift64(0x6A09_E667_F3BC_C908u64);
        let mut next = |m: u64| rng.next_u64() % m;
        for _ in 0..20_000 {
            let total = next(70) as usize;
            let hi = [2, 5, 300, 65_536][next(4) as usize];
            let f: Vec<u8> = (0..total).flat_map(|_| (next(hi) as u16).to_le_bytes()).collect();
            let down = (1..total).filter(|&k| u16_at(&f, 2 * k) < u16_at(&f, 2 * k - 2)).count();
            let top = (0..total).map(|k| u16_at(&f, 2 * k)).max().unwrap_or(0);
            assert_eq!(wide_descents(&f), (down, top), "{f:?}");
        }
    }

    #[test]
    fn descents_are_counted() {
        assert_eq!(descents(&[0u8, 3, 3, 7]), 0);
        assert_eq!(descents(&[5u8, 3, 2, 9, 1]), 3);
        assert_eq!(descents(&[]), 0);
        // Across the 128-frame blocks: one descent between frames 127 and 128, one at 300.
        let mut f: Vec<u8> = (0..400).map(|i| if i < 128 { 200 } else { 1 }).collect();
        f[300] = 0;
        assert_eq!(descents(&f), 2);
        assert_eq!((largest(&f), largest(&[])), (200, 0));
    }

    #[test]
    fn non_finite_halves_are_found() {
        assert!(all_finite(&[0x00, 0x3C, 0xFF, 0x7B]));
        assert!(!all_finite(&[0x00, 0x3C, 0x00, 0x7C]));
        assert!(!all_finite(&[0x01, 0xFE]));
        // In every lane of a word, and after a word.
        for lane in 0..5 {
            let mut h = [0x00, 0x3C].repeat(5);
            h[2 * lane + 1] = 0xFC;
            assert!(!all_finite(&h), "{lane}");
        }
        assert!(all_finite(&[0xFF, 0x7B].repeat(9)));
        // In every lane of a 16-half block, and after one.
        for lane in 0..20 {
            let mut h = [0xFF, 0xFB].repeat(20);
            h[2 * lane + 1] = 0x7C;
            assert!(!all_finite(&h), "{lane}");
        }
        assert!(all_finite(&[0xFF, 0xFB].repeat(20)));
        // Every half value, in every lane of a word and in the tail, among finite ones.
        for bits in 0..=u16::MAX {
            let finite = bits & 0x7C00 != 0x7C00;
            for lane in [0, 1, 2, 3, 8, 9] {
                let mut h = [0xFF, 0x7B].repeat(10);
                h[2 * lane..2 * lane + 2].copy_from_slice(&bits.to_le_bytes());
                assert_eq!(all_finite(&h), finite, "{bits:#06x} in lane {lane}");
            }
        }
    }
}
