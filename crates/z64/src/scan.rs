//! Finding skeletons and animations in a file nobody has named (fan models, ROM files), by
//! their structure, as Z64Utils' object analyzer does:
//! * skeleton header: 4-aligned `SS oooooo NN 000000`, SS the file's segment, the limb pointer
//!   array 4-aligned and ending exactly at the header, every limb pointer inside the file;
//!   the limb tree must then read without error;
//! * animation header: `FFFF 0000 SSoooooo SSoooooo MMMM 0000`, frameCount > 0, both pointers
//!   inside the file, `frameData < jointIndices < header`, `staticIndexMax` within the frame
//!   data; the joint count is what fits between jointIndices and the header;
//! * Link animation headers (gameplay_keep): the longest run of consecutive `FFFF 0000 07oooooo`
//!   whose frames lie inside link_animetion (OoT: 573 from 0x2310).

use crate::layout::*;

/// The big-endian u32 at `at` of `data`, None past its end (a probe: short data is simply not
/// a candidate). Read from the slice directly: the scans call it for every limb pointer of
/// every candidate.
fn word(data: &[u8], at: usize) -> Option<u32> {
    let b = data.get(at..at.checked_add(4)?)?;
    Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

/// Which whole 4-aligned words of a file start with a segment byte, and which end in two zero
/// bytes (a 16-bit field and its zero padding, as headers begin: `FFFF 0000`, `NN DD 0000`, or
/// a count `NN` and its `000000`): bit `j` of block `i` is word `64i + j`. Built once per file
/// and segment, in one pass, and shared by every scan of it (each scan would otherwise test
/// every word of the file again).
pub struct SegWords {
    seg: u8,
    /// Words starting with `seg`. One spare block of zeros at the end, so the shifted reads
    /// of the last block see no bits past it.
    bits: Vec<u64>,
    /// Words whose bytes 2 and 3 are zero (the same blocks, the same spare).
    low_zero: Vec<u64>,
}

impl SegWords {
    /// The words of `data` that start with `seg`, and those ending in two zero bytes.
    pub fn new(data: &[u8], seg: u8) -> Self {
        let blocks = (data.len() / 4).div_ceil(64);
        let mut bits = vec![0u64; blocks + 1];
        let mut low_zero = vec![0u64; blocks + 1];
        // Whole blocks of 64 words, 16 words at a time, two words a u64 (SWAR): then the
        // whole words of the last block one by one.
        let mut whole = data.chunks_exact(256);
        for ((m, z), block) in bits.iter_mut().zip(low_zero.iter_mut()).zip(&mut whole) {
            for (j, sixteen) in block.chunks_exact(64).enumerate() {
                let (s, lz) = Self::sixteen(sixteen.try_into().expect("64 bytes"), seg);
                *m |= u64::from(s) << (16 * j);
                *z |= u64::from(lz) << (16 * j);
            }
        }
        let rest = whole.remainder();
        for (j, w) in rest.chunks_exact(4).enumerate() {
            bits[data.len() / 256] |= u64::from(w[0] == seg) << j;
            low_zero[data.len() / 256] |= u64::from(w[2] == 0 && w[3] == 0) << j;
        }
        SegWords { seg, bits, low_zero }
    }

    /// Bit `i` of the first: word `i` of the 16 starts with `seg`; of the second: its bytes 2
    /// and 3 are zero. With SSE2 (x86-64's baseline) where there is.
    #[inline]
    fn sixteen(words: &[u8; 64], seg: u8) -> (u16, u16) {
        #[cfg(target_arch = "x86_64")]
        return Self::sixteen_sse2(words, seg);
        #[cfg(not(target_arch = "x86_64"))]
        return Self::sixteen_swar(words, seg);
    }

    /// [`SegWords::sixteen`] by bytes compared sixteen at a time. A word's test is moved into
    /// its top bit (its first byte's comparison shifted up 24; its last two bytes' comparisons
    /// and-ed by a shift of 8), so that the word is negative exactly when it passes; packing
    /// with signed saturation keeps the sign, four registers of four words to one of sixteen
    /// bytes, whose top bits one mask gathers in word order.
    #[cfg(target_arch = "x86_64")]
    fn sixteen_sse2(words: &[u8; 64], seg: u8) -> (u16, u16) {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86-64 baseline; the loads are of 16 bytes from the
        // array's four 16-byte chunks (unaligned loads).
        unsafe {
            let load = |q: usize| _mm_loadu_si128(words[16 * q..16 * q + 16].as_ptr().cast::<__m128i>());
            let v = [load(0), load(1), load(2), load(3)];
            let (s, zero) = (_mm_set1_epi8(seg as i8), _mm_setzero_si128());
            let first = v.map(|v| _mm_slli_epi32::<24>(_mm_cmpeq_epi8(v, s)));
            let low_zero = v.map(|v| {
                let z = _mm_cmpeq_epi8(v, zero);
                _mm_and_si128(z, _mm_slli_epi32::<8>(z))
            });
            let gather = |w: [__m128i; 4]| {
                let bytes = _mm_packs_epi16(_mm_packs_epi32(w[0], w[1]), _mm_packs_epi32(w[2], w[3]));
                _mm_movemask_epi8(bytes) as u16
            };
            (gather(first), gather(low_zero))
        }
    }

    /// [`SegWords::sixteen`] in plain words (SWAR). Each u64 (little-endian) holds two words
    /// whose first bytes are its bits 0..8 and 32..40: xor-ed with `seg` and masked, a lane is
    /// 0 when the byte is `seg`, and adding 0xFF sets the lane's bit 8 when it is not (no carry
    /// crosses into the next lane). The u64 `k`'s two bits, shifted by `2k`, sit at `8 + 2k`
    /// (word `2k`) and `40 + 2k` (word `2k + 1`): `>> 8` and `>> 39` put them in word order.
    /// Likewise the words' last two bytes, bits 16..32 and 48..64, moved down 16 and plus
    /// 0xFFFF, set bits 16 and 48 when not zero: `>> 16` and `>> 47`.
    #[cfg_attr(all(target_arch = "x86_64", not(test)), allow(dead_code))]
    fn sixteen_swar(words: &[u8; 64], seg: u8) -> (u16, u16) {
        const LO: u64 = 0x0000_00FF_0000_00FF;
        const NE: u64 = 0x0000_0100_0000_0100;
        const HALF: u64 = 0x0000_FFFF_0000_FFFF;
        const NZ: u64 = 0x0001_0000_0001_0000;
        let s = u64::from(seg) * 0x0000_0001_0000_0001;
        let word = |k: usize| u64::from_le_bytes(words[8 * k..8 * k + 8].try_into().expect("8 bytes"));
        let n = (0..8).fold(0u64, |n, k| n | ((((word(k) ^ s) & LO) + LO) & NE) << (2 * k));
        let z = (0..8).fold(0u64, |z, k| z | ((((word(k) >> 16) & HALF) + HALF) & NZ) << (2 * k));
        (!(((n >> 8) | (n >> 39)) as u16), !(((z >> 16) | (z >> 47)) as u16))
    }

    /// The segment byte the words were tested for.
    pub fn seg(&self) -> u8 {
        self.seg
    }

    /// The 4-aligned offsets `h`, in increasing order, at which the word at `h + 4k` is whole
    /// and starts with the segment byte, for every `k` of `ks`: where a record holding
    /// segmented pointers at those words can start. Each scan's own checks (which imply these
    /// bytes) then run only there: 64 words tested at once instead of a test at every word.
    fn starts<const K: usize>(&self, ks: [usize; K]) -> Starts<'_, K, 0> {
        self.starts_where(ks, [])
    }

    /// [`SegWords::starts`] where also the word at `h + 4k` ends in two zero bytes, for every
    /// `k` of `zs` (a header's 16-bit field and its padding).
    /// (The distances are arrays, so that each scan's loop is made for its own: given as
    /// slices, finding a block's starts cost more than the scans' checks.)
    fn starts_where<const K: usize, const Z: usize>(&self, ks: [usize; K], zs: [usize; Z]) -> Starts<'_, K, Z> {
        Starts { words: self, ks, zs, block: 0, mask: self.run_starts(0, &ks, &zs) }
    }

    /// Bit j: word `64 * block + j` starts a run (its words + k of `ks` all start with `seg`,
    /// its words + k of `zs` all end in zeros).
    #[inline(always)]
    fn run_starts(&self, block: usize, ks: &[usize], zs: &[usize]) -> u64 {
        if block + 1 >= self.bits.len() {
            return 0;
        }
        // Bits of `map` shifted down by `k` words, from `block` on.
        let shifted = |map: &[u64], k: usize| {
            let (q, r) = (block + k / 64, k % 64);
            let lo = map.get(q).copied().unwrap_or(0);
            let hi = map.get(q + 1).copied().unwrap_or(0);
            if r == 0 {
                lo
            } else {
                (lo >> r) | (hi << (64 - r))
            }
        };
        let mut m = !0u64;
        for &k in ks {
            m &= shifted(&self.bits, k);
        }
        for &k in zs {
            m &= shifted(&self.low_zero, k);
        }
        m
    }

    /// The first word at index `from` or later that starts with the segment byte.
    fn next_word(&self, from: usize) -> Option<usize> {
        let mut i = from / 64;
        let mut m = *self.bits.get(i)? & (!0u64 << (from % 64));
        loop {
            if m != 0 {
                return Some(i * 64 + m.trailing_zeros() as usize);
            }
            i += 1;
            m = *self.bits.get(i)?;
        }
    }
}

/// The offsets [`SegWords::starts_where`] gives, block by block.
struct Starts<'a, const K: usize, const Z: usize> {
    words: &'a SegWords,
    ks: [usize; K],
    zs: [usize; Z],
    block: usize,
    /// The block's starts not given yet.
    mask: u64,
}

impl<const K: usize, const Z: usize> Iterator for Starts<'_, K, Z> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.mask == 0 {
            if self.block + 2 >= self.words.bits.len() {
                return None;
            }
            self.block += 1;
            self.mask = self.words.run_starts(self.block, &self.ks, &self.zs);
        }
        let j = self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        Some((self.block * 64 + j) * 4)
    }
}

/// [`SegWords::starts`] of a new bitmap (tests).
#[cfg(test)]
fn pointer_words(data: &[u8], seg: u8, ks: &'static [usize]) -> Vec<usize> {
    starts_of(&SegWords::new(data, seg), ks, &[])
}

/// [`SegWords::starts_where`] with the distances as slices (tests; the shapes they use).
#[cfg(test)]
fn starts_of(words: &SegWords, ks: &[usize], zs: &[usize]) -> Vec<usize> {
    match (ks, zs) {
        (&[a], &[]) => words.starts([a]).collect(),
        (&[a, b], &[]) => words.starts([a, b]).collect(),
        (&[a, b, c], &[]) => words.starts([a, b, c]).collect(),
        (&[a, b, c, d], &[]) => words.starts([a, b, c, d]).collect(),
        (&[a], &[z]) => words.starts_where([a], [z]).collect(),
        (&[a, b], &[z]) => words.starts_where([a, b], [z]).collect(),
        (&[], &[y, z]) => words.starts_where([], [y, z]).collect(),
        _ => unreachable!("a shape the tests do not use: {ks:?} {zs:?}"),
    }
}

/// Offsets of candidate skeleton headers in `data` (bound to `seg`).
pub fn skeleton_candidates(data: &[u8], seg: u8) -> Vec<usize> {
    skeleton_candidates_in(data, &SegWords::new(data, seg))
}

/// [`skeleton_candidates`] over the file's [`SegWords`] for its segment.
pub fn skeleton_candidates_in(data: &[u8], words: &SegWords) -> Vec<usize> {
    let seg = words.seg;
    let mut out = Vec::new();
    // `SS oooooo NN 000000`: a pointer word, then a word ending in zeros.
    for h in words.starts_where([0], [1]).take_while(|&h| h + SKELETON_HEADER_SIZE <= data.len()) {
        // `SS oooooo NN 000000`. The segment byte and the padding first: this runs at every
        // pointer word of every file a probe looks at, and a whole record read costs more.
        if data[h] == seg && data[h + 5..h + 8] == [0, 0, 0] {
            if let Ok(SkeletonHeader { segment: w, limb_count, pad: [0, 0, 0] }) = SkeletonHeader::parse_at(data, h) {
                let n = limb_count as usize;
                let (s, off) = split_segmented(w);
                if w >> 28 == 0
                    && s == seg
                    && n > 0
                    && off % 4 == 0
                    && off as usize + 4 * n == h
                    && (0..n).all(|i| {
                        word(data, off as usize + 4 * i).is_some_and(|p| {
                            let (ps, po) = split_segmented(p);
                            p >> 28 == 0 && ps == seg && (po as usize) + STANDARD_LIMB_SIZE <= data.len()
                        })
                    })
                {
                    out.push(h);
                }
            }
        }
    }
    out
}

/// Offsets of candidate normal animation headers, with the joint count the gap allows.
/// `words`: the file's [`SegWords`] for its segment.
pub fn animation_candidates_in(data: &[u8], words: &SegWords) -> Vec<(usize, usize)> {
    let seg = words.seg;
    let mut out = Vec::new();
    // `FFFF 0000 SSoooooo SSoooooo`: a word ending in zeros, then two pointer words.
    for h in words.starts_where([1, 2], [0]).take_while(|&h| h + ANIMATION_HEADER_SIZE <= data.len()) {
        if let Some(found) = animation_at(data, seg, h) {
            out.push((h, found));
        }
    }
    out
}

fn animation_at(data: &[u8], seg: u8, h: usize) -> Option<usize> {
    // `FFFF 0000 SSoooooo SSoooooo`: the padding and both segment bytes first (this runs at
    // every pair of pointer words of the file; the checks below imply these).
    let b = data.get(h..h.checked_add(ANIMATION_HEADER_SIZE)?)?;
    if b[2] != 0 || b[3] != 0 || b[4] != seg || b[8] != seg {
        return None;
    }
    let a = AnimationHeader::parse_at(data, h).ok()?;
    let frames = a.frame_count as i16;
    if frames <= 0 || a.pad0 != 0 || a.pad1 != 0 {
        return None;
    }
    let (fd, ji) = (a.frame_data, a.joint_indices);
    let ((s1, o1), (s2, o2)) = (split_segmented(fd), split_segmented(ji));
    if fd >> 28 != 0 || ji >> 28 != 0 || s1 != seg || s2 != seg || o1 % 2 != 0 || o2 % 2 != 0 {
        return None;
    }
    let (o1, o2) = (o1 as usize, o2 as usize);
    if !(o1 < o2 && o2 < h) {
        return None;
    }
    let gap = h - o2;
    let joints = gap / JOINT_INDEX_SIZE;
    if !(2..=MAX_LIMBS + 1).contains(&joints) || data.get(o2 + joints * JOINT_INDEX_SIZE..h)?.iter().any(|&b| b != 0) {
        return None;
    }
    let static_max = a.static_index_max as usize;
    let values = (o2 - o1) / 2;
    if static_max > values {
        return None;
    }
    Some(joints)
}

/// `FFFF 0000 07oooooo`'s padding and segment byte, which the full checks of a Link animation
/// header imply: tested first, as the Link header scans run at every word of gameplay_keep.
fn likely_link_header(keep: &[u8], h: usize) -> bool {
    matches!(keep.get(h + 2..h + 5), Some(&[0, 0, SEG_LINK_ANIMETION]))
}

/// Link (player) animation headers in a gameplay_keep: the longest run of consecutive 8-byte
/// `FFFF 0000 07oooooo` headers whose frames lie inside link_animetion (`link_len` bytes). OoT's
/// run is 573 headers from 0x2310; MM keeps its player animations elsewhere, and the run finds
/// them too. Runs shorter than 16 headers are not taken.
pub fn link_headers(keep: &[u8], link_len: usize) -> Vec<usize> {
    link_headers_in(keep, link_len, &SegWords::new(keep, SEG_LINK_ANIMETION))
}

/// [`link_headers`] over gameplay_keep's bitmap of words starting with segment 7 (`words`).
pub fn link_headers_in(keep: &[u8], link_len: usize, words: &SegWords) -> Vec<usize> {
    debug_assert_eq!(words.seg, SEG_LINK_ANIMETION);
    let valid = |h: usize| -> bool {
        if !likely_link_header(keep, h) {
            return false;
        }
        let Ok(LinkAnimationHeader { frame_count: f, pad, segment: p }) = LinkAnimationHeader::parse_at(keep, h) else {
            return false;
        };
        let (s, off) = split_segmented(p);
        f > 0
            && f < 0x8000
            && pad == 0
            && p >> 28 == 0
            && s == SEG_LINK_ANIMETION
            && off as usize + f as usize * LINK_FRAME_SIZE <= link_len
    };
    // Only offsets whose segment byte (at `h + 4`) is 7 can be valid: a failed one steps to
    // the next of those in its phase instead of to the next header.
    let mut best = (0, 0);
    for phase in [0, 4] {
        let mut h = phase;
        while h + LINK_ANIMATION_HEADER_SIZE <= keep.len() {
            if valid(h) {
                let start = h;
                while h + LINK_ANIMATION_HEADER_SIZE <= keep.len() && valid(h) {
                    h += LINK_ANIMATION_HEADER_SIZE;
                }
                let n = (h - start) / LINK_ANIMATION_HEADER_SIZE;
                if n > best.1 {
                    best = (start, n);
                }
            } else {
                // The candidate h' >= h + 8 has its segment word at h' / 4 + 1.
                let mut from = (h + LINK_ANIMATION_HEADER_SIZE) / 4 + 1;
                h = loop {
                    match words.next_word(from) {
                        Some(w) if (w - 1) * 4 % LINK_ANIMATION_HEADER_SIZE == phase => break (w - 1) * 4,
                        Some(w) => from = w + 1,
                        None => break usize::MAX,
                    }
                };
                if h == usize::MAX {
                    break;
                }
            }
        }
    }
    if best.1 < 16 {
        return Vec::new();
    }
    (0..best.1).map(|i| best.0 + i * LINK_ANIMATION_HEADER_SIZE).collect()
}

/// Link animation headers appended after the run `run` ([`link_headers`]), as `boneyard
/// import` writes them: 4-aligned, past the run, their frames wholly inside link_animetion
/// (`link_len` bytes, the real one) and past every frame the run's headers use. In the game's
/// files the run's frames end within the last 16 bytes of link_animetion, so none qualifies.
pub fn appended_link_headers(keep: &[u8], link_len: usize, run: &[usize]) -> Vec<usize> {
    appended_link_headers_in(keep, link_len, run, &SegWords::new(keep, SEG_LINK_ANIMETION))
}

/// [`appended_link_headers`] over gameplay_keep's bitmap of words starting with segment 7
/// (`words`, as [`link_headers_in`] takes it).
pub fn appended_link_headers_in(keep: &[u8], link_len: usize, run: &[usize], words: &SegWords) -> Vec<usize> {
    debug_assert_eq!(words.seg, SEG_LINK_ANIMETION);
    let Some(&last) = run.last() else { return Vec::new() };
    let data_end = run
        .iter()
        .filter_map(|&h| {
            let a = LinkAnimationHeader::parse_at(keep, h).ok()?;
            Some(split_segmented(a.segment).1 as usize + a.frame_count as usize * LINK_FRAME_SIZE)
        })
        .max()
        .unwrap_or(0);
    let valid = |h: usize| -> bool {
        if !likely_link_header(keep, h) {
            return false;
        }
        let Ok(LinkAnimationHeader { frame_count: f, pad, segment: p }) = LinkAnimationHeader::parse_at(keep, h) else {
            return false;
        };
        let (s, off) = split_segmented(p);
        let (off, f) = (off as usize, f as usize);
        f > 0
            && f < 0x8000
            && pad == 0
            && p >> 28 == 0
            && s == SEG_LINK_ANIMETION
            && off >= data_end
            && off + f * LINK_FRAME_SIZE <= link_len
    };
    // From a 4-aligned start, only offsets whose segment byte (at `h + 4`) is 7 can be valid:
    // a failed one steps to the next of those.
    let mut out = Vec::new();
    let mut h = last + LINK_ANIMATION_HEADER_SIZE;
    while h + LINK_ANIMATION_HEADER_SIZE <= keep.len() {
        if valid(h) {
            out.push(h);
            h += LINK_ANIMATION_HEADER_SIZE;
        } else if last % 4 == 0 {
            // The candidate h' >= h + 4 has its segment word at h' / 4 + 1.
            match words.next_word((h + 4) / 4 + 1) {
                Some(w) => h = (w - 1) * 4,
                None => break,
            }
        } else {
            h += 4;
        }
    }
    out
}

/// Legacy (beta) animation headers, as ZSaten finds them: `FFFF LLLL SSoooooo SSoooooo`,
/// frames > 0, 1..=255 limbs, `frameData < jointKey`, and the limbCount + 1 joint keys ending at
/// the header (up to 15 zero bytes of padding). Returns (header offset, limb count).
/// `words`: the file's [`SegWords`] for its segment.
pub fn legacy_animation_candidates_in(data: &[u8], words: &SegWords) -> Vec<(usize, usize)> {
    let seg = words.seg;
    let mut out = Vec::new();
    for h in words.starts([1, 2]).take_while(|&h| h + LEGACY_ANIMATION_HEADER_SIZE <= data.len()) {
        // `FFFF LLLL SSoooooo SSoooooo`: both segment bytes first (implied by the checks below).
        let hit = (data[h + 4] == seg && data[h + 8] == seg).then(|| {
            let a = LegacyAnimationHeader::parse_at(data, h).ok()?;
            let (frames, limbs) = (a.frame_count as i16, a.limb_count as usize);
            let (fd, keys) = (a.frame_data, a.joint_key);
            let ((s1, o1), (s2, o2)) = (split_segmented(fd), split_segmented(keys));
            let ok = frames > 0
                && (1..=MAX_LIMBS).contains(&limbs)
                && fd >> 28 == 0
                && keys >> 28 == 0
                && s1 == seg
                && s2 == seg
                && o1 % 2 == 0
                && o2 % 2 == 0
                && o1 < o2;
            let end = o2 as usize + (limbs + 1) * LEGACY_JOINT_KEY_SIZE;
            (ok && end <= h && h - end < 16 && data.get(end..h)?.iter().all(|&b| b == 0)).then_some(limbs)
        });
        let hit = hit.flatten();
        if let Some(l) = hit {
            out.push((h, l));
        }
    }
    out
}

/// Legacy limb tables of `count` limb pointers: every entry a distinct pointer to a 0x20-byte
/// limb inside the file whose child and sibling pointers are NULL or entries of the table, the
/// first entry being the root (no limb's child or sibling).
/// Tables the legacy limb table scan may return for one limb count (a cut of candidates, not a
/// resource the caller sizes: kept a constant).
pub const MAX_LEGACY_TABLES: usize = 64;

/// `budget` is the caller's `Limits::max_legacy_table_reads` (limb pointers the
/// scan may read in one file over all limb counts: a file of valid pointers with legacy
/// animation headers for all 255 counts would otherwise cost 255 reads at every word for
/// every count); the scan stops when it runs out. The bool is true when the scan stopped at
/// [`MAX_LEGACY_TABLES`] with bytes left to try (the caller warns).
#[cfg(test)]
pub fn legacy_limb_tables(
    data: &[u8],
    seg: u8,
    count: usize,
    budget: &mut boneyard_core::Budget,
) -> (Vec<usize>, bool) {
    legacy_limb_tables_in(data, &legacy_pointer_runs(data, seg), count, budget)
}

/// Per word of `data` (and one past the last), how many words from it on are legacy limb
/// pointers of segment `seg` (the scan reads the first `count` of them at a word, and spends
/// that many plus one). Found once a file, from the end: walking `count` words from every
/// position read each word of a run up to `count` times, and finding the runs again for each
/// limb count read the file up to 255 times (a crafted 64 MB file took 8 s).
pub fn legacy_pointer_runs(data: &[u8], seg: u8) -> Vec<u32> {
    let in_file = |p: u32| is_legacy_limb_pointer(data, seg, p);
    let words = data.len() / 4;
    let mut run = vec![0u32; words + 1];
    for w in (0..words).rev() {
        if word(data, 4 * w).is_some_and(in_file) {
            run[w] = run[w + 1].saturating_add(1);
        }
    }
    run
}

/// [`legacy_limb_tables`] over the runs [`legacy_pointer_runs`] found in `data`.
pub fn legacy_limb_tables_in(
    data: &[u8],
    run: &[u32],
    count: usize,
    budget: &mut boneyard_core::Budget,
) -> (Vec<usize>, bool) {
    let mut out = Vec::new();
    let run = &run[..run.len().min(data.len() / 4 + 1)];
    // The positions: `t = 4w` while `t + 4 * count` bytes are there.
    let positions = data.len().checked_sub(4 * count).map_or(0, |last| last / 4 + 1);
    // The reads of the positions since the last table, spent together at the next table
    // (the budget is checked before each table, as when every position spent its own). Past
    // the limit the scan stops: with no table left out, the budget used up all the same.
    let mut owed = 0u64;
    for (w, &r) in run[..positions].iter().enumerate() {
        if out.len() == MAX_LEGACY_TABLES {
            break;
        }
        let valid = (r as usize).min(count);
        owed += valid as u64 + 1;
        if valid < count {
            if owed > budget.left() {
                // No table can be read past here: the spend below uses the budget up.
                break;
            }
            continue;
        }
        // A failed spend leaves the budget used up, which the caller's warning names.
        if budget.spend(std::mem::take(&mut owed)).is_err() {
            break;
        }
        let t = 4 * w;
        let table: Vec<u32> = (0..count).filter_map(|i| word(data, t + 4 * i)).collect();
        if is_legacy_table(data, &table) {
            out.push(t);
        }
    }
    if owed > 0 {
        let _ = budget.spend(owed);
    }
    // Stopped at the cap with positions left to try: the tables' last plus one is one.
    let cut = out.len() == MAX_LEGACY_TABLES && out.last().is_some_and(|&t| t / 4 + 1 < positions);
    (out, cut)
}

/// `p` as an entry of a legacy limb table: a 4-aligned pointer in segment `seg` to a whole
/// legacy limb inside `data`.
fn is_legacy_limb_pointer(data: &[u8], seg: u8, p: u32) -> bool {
    let (s, o) = split_segmented(p);
    p >> 28 == 0 && s == seg && o % 4 == 0 && o as usize + LEGACY_LIMB_SIZE <= data.len()
}

/// `table` (limb pointers into `data`) as a legacy limb table: distinct, every limb's child and
/// sibling NULL or an entry, the first entry the root (no limb names it as a child or sibling).
fn is_legacy_table(data: &[u8], table: &[u32]) -> bool {
    let mut sorted = table.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let links_ok = sorted.len() == table.len()
        && table.iter().all(|&p| {
            let o = (p & 0xFF_FFFF) as usize;
            LegacyLimb::parse_at(data, o)
                .is_ok_and(|l| [l.sibling, l.child].iter().all(|&p| p == 0 || sorted.binary_search(&p).is_ok()))
        });
    links_ok
        && table.iter().all(|&p| {
            let o = (p & 0xFF_FFFF) as usize;
            LegacyLimb::parse_at(data, o).is_ok_and(|l| l.sibling != table[0] && l.child != table[0])
        })
}

/// MM keyframe skeleton headers (`KeyFrameSkeleton`): 4-aligned `NN DD 0000 SSoooooo` with
/// 2..=255 limbs, 1..=NN display lists and the limb array (0xC or 0x8 bytes a limb) inside the
/// file; the limb tree and the display-list count are checked when the skeleton is read.
/// `words`: the file's [`SegWords`] for its segment.
pub fn kf_skeleton_candidates_in(data: &[u8], words: &SegWords) -> Vec<usize> {
    let seg = words.seg;
    let mut out = Vec::new();
    // `NN DD 0000 SSoooooo`: a word ending in zeros, then a pointer word.
    for h in words.starts_where([1], [0]).take_while(|&h| h + KF_SKELETON_SIZE <= data.len()) {
        // `NN DD 0000 SSoooooo`: the padding and the segment byte first (implied below).
        let hit = (data[h + 2] == 0 && data[h + 3] == 0 && data[h + 4] == seg).then(|| {
            let k = KeyFrameSkeleton::parse_at(data, h).ok()?;
            let (n, d, pad, p) = (k.limb_count as usize, k.dlist_count as usize, k.pad, k.limbs);
            let (s, off) = split_segmented(p);
            let ok = n >= 2
                && (1..=n).contains(&d)
                && pad == 0
                && p >> 28 == 0
                && s == seg
                && off % 4 == 0
                && off as usize + n * KF_FLEX_LIMB_SIZE <= data.len();
            ok.then_some(())
        });
        let hit = hit.flatten();
        if hit.is_some() {
            out.push(h);
        }
    }
    out
}

/// MM keyframe animation headers (`KeyFrameAnimation`, 0x14 bytes): 4-aligned, four pointers
/// into the file (bitFlags, keyFrames 2-aligned, kfNums 2-aligned, fixedValues 2-aligned) and
/// frameCount > 0. Whether the arrays fit a skeleton is checked when they are paired.
/// `words`: the file's [`SegWords`] for its segment.
pub fn kf_animation_candidates_in(data: &[u8], words: &SegWords) -> Vec<usize> {
    let seg = words.seg;
    let mut out = Vec::new();
    for h in words.starts([0, 1, 2, 3]).take_while(|&h| h + KF_ANIMATION_SIZE <= data.len()) {
        // Four pointers into the file: their segment bytes first (implied below).
        let hit = (data[h] == seg && data[h + 4] == seg && data[h + 8] == seg && data[h + 12] == seg).then(|| {
            let a = KeyFrameAnimation::parse_at(data, h).ok()?;
            let in_file = |p: u32, align: u32| {
                let (s, off) = split_segmented(p);
                p >> 28 == 0 && s == seg && off % align == 0 && (off as usize) < data.len()
            };
            (a.frame_count > 0
                && in_file(a.bit_flags, 1)
                && in_file(a.key_frames, 2)
                && in_file(a.kf_nums, 2)
                && in_file(a.fixed_values, 2))
            .then_some(())
        });
        let hit = hit.flatten();
        if hit.is_some() {
            out.push(h);
        }
    }
    out
}

/// Curve animation headers (`CurveAnimationHeader`, 0x10 bytes): 4-aligned, knotCounts,
/// interpolationData (4-aligned: its knots hold an f32) and constantData (2-aligned) inside
/// the file, `unk_0C` 1 (as in every object) and frameCount > 0.
/// `words`: the file's [`SegWords`] for its segment.
pub fn curve_animation_candidates_in(data: &[u8], words: &SegWords) -> Vec<usize> {
    let seg = words.seg;
    let mut out = Vec::new();
    for h in words.starts([0, 1, 2]).take_while(|&h| h + CURVE_ANIMATION_HEADER_SIZE <= data.len()) {
        // Three pointers into the file, then `0001`: those bytes first (implied below).
        let likely = data[h] == seg && data[h + 4] == seg && data[h + 8] == seg && data[h + 12..h + 14] == [0, 1];
        let hit = likely.then(|| {
            let a = CurveAnimationHeader::parse_at(data, h).ok()?;
            let in_file = |p: u32, align: u32| {
                let (s, off) = split_segmented(p);
                p >> 28 == 0 && s == seg && off % align == 0 && (off as usize) < data.len()
            };
            (a.unk_0c == 1
                && a.frame_count > 0
                && in_file(a.knot_counts, 1)
                && in_file(a.interpolation_data, 4)
                && in_file(a.constant_data, 2))
            .then_some(())
        });
        let hit = hit.flatten();
        if hit.is_some() {
            out.push(h);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scan as it was first written (a walk of up to `count` words from every position):
    /// the reference the run lengths are held to.
    fn legacy_limb_tables_walking(
        data: &[u8],
        seg: u8,
        count: usize,
        budget: &mut boneyard_core::Budget,
    ) -> (Vec<usize>, bool) {
        let mut out = Vec::new();
        let in_file = |p: u32| is_legacy_limb_pointer(data, seg, p);
        let mut t = 0;
        while t + 4 * count <= data.len() && out.len() < MAX_LEGACY_TABLES {
            let valid = (0..count).take_while(|&i| word(data, t + 4 * i).is_some_and(in_file)).count();
            if budget.spend(valid as u64 + 1).is_err() {
                break;
            }
            let table: Option<Vec<u32>> =
                (valid == count).then(|| (0..count).filter_map(|i| word(data, t + 4 * i)).collect());
            if table.is_some_and(|table| is_legacy_table(data, &table)) {
                out.push(t);
            }
            t += 4;
        }
        let cut = out.len() == MAX_LEGACY_TABLES && t + 4 * count <= data.len();
        (out, cut)
    }

    /// The run-length scan finds the same tables, says the same about the cap and leaves the
    /// budget as the walk does, on files dense with limb pointers (runs of every length, limbs
    /// whose links are entries or not), for every count 0-9 and budgets from nothing to plenty.
    #[test]
    fn legacy_limb_tables_match_the_walk() {
        let mut rng = boneyard_core::testdata::XorShift64(0x1e9a_c7ab);
        let mut kept = 0;
        for case in 0..300 {
            let len = 4 * (rng.next_u64() % 200) as usize + (case % 4);
            let limbs = (len.saturating_sub(LEGACY_LIMB_SIZE) / 4) as u64 + 1;
            let data: Vec<u8> = (0..len.div_ceil(4))
                .flat_map(|_| {
                    let r = rng.next_u64();
                    let w = match r % 5 {
                        0 => 0,
                        4 => r as u32 >> 8,
                        // A word-aligned pointer into the file, in segment 6 (or a stray 7).
                        _ => {
                            (if r.is_multiple_of(17) { 0x0700_0000 } else { 0x0600_0000 })
                                | (4 * ((r >> 8) % limbs)) as u32
                        }
                    };
                    w.to_be_bytes()
                })
                .take(len)
                .collect();
            for count in 0..10 {
                for max in [0, 3, 40, 400, 1 << 20] {
                    let budget = || boneyard_core::Budget::new(boneyard_core::Limit::new("reads", max), "reads");
                    let (mut a, mut b) = (budget(), budget());
                    let got = legacy_limb_tables(&data, 6, count, &mut a);
                    let want = legacy_limb_tables_walking(&data, 6, count, &mut b);
                    assert_eq!(got, want, "case {case} count {count} max {max}");
                    // (What was spent past the limit is not told: only that nothing is left.)
                    assert_eq!(a.left(), b.left(), "case {case} count {count} max {max}");
                    if b.left() > 0 {
                        assert_eq!(a.spent(), b.spent(), "case {case} count {count} max {max}");
                    }
                    kept += got.0.len();
                }
            }
        }
        // The files hold tables (not a comparison of empty results).
        assert!(kept > 1000, "{kept} tables found");
    }

    /// 100 one-limb tables in a row (each word points at the same all-zero legacy limb: no
    /// sibling, no child, so every one is a valid root): the scan keeps the first
    /// `MAX_LEGACY_TABLES` and says it stopped; 10 tables are all kept, nothing cut.
    #[test]
    fn legacy_limb_tables_stop_at_the_cap_and_say_so() {
        let tables = |n: usize| {
            let limb = 4 * n as u32;
            let mut data: Vec<u8> = (0..n).flat_map(|_| (0x0600_0000 | limb).to_be_bytes()).collect();
            data.resize(limb as usize + LEGACY_LIMB_SIZE, 0);
            let mut budget = boneyard_core::Budget::new(boneyard_core::Limit::new("reads", 1 << 20), "reads");
            legacy_limb_tables(&data, 6, 1, &mut budget)
        };
        let (found, cut) = tables(100);
        assert_eq!(found, (0..MAX_LEGACY_TABLES).map(|i| 4 * i).collect::<Vec<_>>());
        assert!(cut);
        let (found, cut) = tables(10);
        assert_eq!(found, (0..10).map(|i| 4 * i).collect::<Vec<_>>());
        assert!(!cut);
    }

    /// `starts_where` against the test at every word, on bytes where `seg` and zeros are both
    /// frequent (a third of the bytes 6, a third 0), for pointer and zero-ending words asked
    /// for at several distances (one past the 64-word blocks), on lengths not whole words.
    #[test]
    fn starts_where_match_a_test_at_every_word() {
        let mut rng = boneyard_core::testdata::XorShift64(0x5EED_2E05);
        let data: Vec<u8> = (0..3001)
            .map(|_| {
                let r = rng.next_u64();
                match r % 3 {
                    0 => 6,
                    1 => 0,
                    _ => (r >> 8) as u8,
                }
            })
            .collect();
        let mut found = 0;
        for len in [0, 3, 4, 255, 256, 257, 1000, 3001] {
            let d = &data[..len];
            let words = SegWords::new(d, 6);
            let seg = |h: usize, k: usize| h + 4 * k + 4 <= len && d[h + 4 * k] == 6;
            let low_zero = |h: usize, k: usize| h + 4 * k + 4 <= len && d[h + 4 * k + 2] == 0 && d[h + 4 * k + 3] == 0;
            for (ks, zs) in
                [(&[0usize][..], &[1usize][..]), (&[1], &[0]), (&[1, 2], &[0]), (&[], &[0, 2]), (&[0], &[70])]
            {
                let want: Vec<usize> = (0..len / 4)
                    .map(|w| w * 4)
                    .filter(|&h| ks.iter().all(|&k| seg(h, k)) && zs.iter().all(|&k| low_zero(h, k)))
                    .collect();
                let got: Vec<usize> = starts_of(&words, ks, zs);
                assert_eq!(got, want, "len {len} ks {ks:?} zs {zs:?}");
                found += got.len();
            }
        }
        assert!(found > 50, "{found} starts");
    }

    /// Both ways of testing sixteen words give the test of each word, on blocks where the
    /// segment byte and zeros are frequent, for every segment byte.
    #[test]
    fn sixteen_words_by_either_way() {
        let mut rng = boneyard_core::testdata::XorShift64(0x16_5EED);
        for _ in 0..2000 {
            let seg = (rng.next_u64() % 256) as u8;
            let block: [u8; 64] = std::array::from_fn(|_| match rng.next_u64() % 4 {
                0 => seg,
                1 => 0,
                _ => rng.next_u64() as u8,
            });
            let want = (0..16).fold((0u16, 0u16), |(f, z), i| {
                let w = &block[4 * i..4 * i + 4];
                (f | u16::from(w[0] == seg) << i, z | u16::from(w[2] == 0 && w[3] == 0) << i)
            });
            assert_eq!(SegWords::sixteen(&block, seg), want);
            assert_eq!(SegWords::sixteen_swar(&block, seg), want);
        }
    }

    /// `pointer_words` against the test at every word it stands for, on bytes where `seg`
    /// is frequent (runs across the 64-word blocks) and on lengths that are not whole words.
    #[test]
    fn pointer_words_match_a_test_at_every_word() {
        let mut x = 0x1234_5678u32;
        let data: Vec<u8> = (0..3001)
            .map(|_| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                if (x >> 16).is_multiple_of(3) {
                    6
                } else {
                    (x >> 24) as u8
                }
            })
            .collect();
        let all: [&'static [usize]; 5] = [&[0], &[1], &[1, 2], &[0, 1, 2], &[0, 1, 2, 3]];
        for len in [0, 3, 4, 255, 256, 257, 1000, 3001] {
            let d = &data[..len];
            for ks in all {
                // Each word `h + 4k` whole and starting with `seg`.
                let at = |h: usize, k: usize| h + 4 * k + 4 <= len && d[h + 4 * k] == 6;
                let want: Vec<usize> = (0..len / 4).map(|w| w * 4).filter(|&h| ks.iter().all(|&k| at(h, k))).collect();
                let got: Vec<usize> = pointer_words(d, 6, ks);
                assert_eq!(got, want, "len {len} ks {ks:?}");
            }
            let words = SegWords::new(d, 6);
            for from in 0..len / 4 + 70 {
                let want = (from..len / 4).find(|&w| d[4 * w] == 6);
                assert_eq!(words.next_word(from), want, "len {len} from {from}");
            }
        }
    }
}
