//! Turning an RGB frame into at most 256 palette entries for GIF.
//!
//! The rasterizer does no anti-aliasing, so an untextured frame holds one colour per visible
//! face plus the background and the overlay: usually far fewer than 256, and then the palette
//! is exact. Textured frames hold thousands (some 16,000 in each frame of `object_dekunuts`):
//! a median cut over the frame's histogram picks 256 colours, the most frequent colour (the
//! background) always kept exactly, and every colour takes its nearest entry. Everything
//! iterates in a fixed order (sorted keys), so the same frame always gives the same bytes.

/// Palette (RGB triples) and one index per pixel.
pub(crate) struct Indexed {
    pub palette: Vec<u8>,
    pub indices: Vec<u8>,
}

fn key(p: &[u8]) -> u32 {
    (p[0] as u32) << 16 | (p[1] as u32) << 8 | p[2] as u32
}

fn rgb(k: u32) -> [u8; 3] {
    [(k >> 16) as u8, (k >> 8) as u8, k as u8]
}

/// A frame as runs of one colour: each distinct colour (packed by [`key`]) with its pixel
/// count, in key order, and each run's length and place in that list, in pixel order.
struct Histogram {
    colours: Vec<(u32, u64)>,
    runs: Vec<(u32, u32)>,
}

impl Histogram {
    fn new(pixels: &[u8]) -> Self {
        // Flat-shaded frames come in long runs of one colour: count runs, not pixels.
        let mut runs: Vec<(u32, u32)> = Vec::new();
        for p in pixels.chunks_exact(3) {
            let k = key(p);
            match runs.last_mut() {
                Some((rk, n)) if *rk == k => *n += 1,
                _ => runs.push((k, 1)),
            }
        }
        // The runs by colour (then by position, which is distinct): sorting the packed pairs
        // groups each colour, and the positions say which run to point at its entry.
        let mut by_colour: Vec<u64> = runs.iter().enumerate().map(|(i, r)| u64::from(r.0) << 32 | i as u64).collect();
        by_colour.sort_unstable();
        let mut colours: Vec<(u32, u64)> = Vec::new();
        for packed in by_colour {
            let (k, i) = ((packed >> 32) as u32, packed as u32 as usize);
            let n = u64::from(runs[i].1);
            match colours.last_mut() {
                Some((ck, cn)) if *ck == k => *cn += n,
                _ => colours.push((k, n)),
            }
            runs[i].0 = (colours.len() - 1) as u32;
        }
        Histogram { colours, runs }
    }
}

pub(crate) fn index_frame(pixels: &[u8]) -> Indexed {
    let Histogram { colours: histogram, runs } = Histogram::new(pixels);
    // Every distinct colour's palette entry, by its position in `histogram`: exact when the
    // frame has at most 256 colours (the palette is the histogram's keys), else the nearest.
    let (colours, lookup): (Vec<[u8; 3]>, Vec<u8>) = if histogram.len() <= 256 {
        (histogram.iter().map(|&(k, _)| rgb(k)).collect(), (0..histogram.len()).map(|i| i as u8).collect())
    } else {
        let colours = median_cut(&histogram, 256);
        let near = Nearest::new(&colours);
        let mut hint = 0;
        let lookup = histogram
            .iter()
            .map(|&(k, _)| {
                hint = near.find(rgb(k), hint);
                hint
            })
            .collect();
        (colours, lookup)
    };
    let mut indices = Vec::with_capacity(pixels.len() / 3);
    for (entry, n) in runs {
        indices.resize(indices.len() + n as usize, lookup[entry as usize]);
    }
    Indexed { palette: colours.iter().flatten().copied().collect(), indices }
}

/// The nearest palette entry to a colour (squared RGB distance; of equal distances the first
/// entry), found by searching outwards from the colour's brightness `r + g + b` in the entries
/// sorted by theirs. Two colours whose brightnesses differ by `s` are at least `s² / 3` apart
/// (Cauchy-Schwarz), so once `s²` exceeds three times the best distance no entry further out
/// can be nearer. Shading and textures vary mostly in brightness: on a clip of
/// `object_dekunuts` searching along brightness took 182 M instructions where searching along
/// red took 198 M, green 225 M and blue 2,274 M (163 M with the previous colour's entry as the
/// first bound).
struct Nearest {
    /// (brightness, palette index, colour), sorted.
    sorted: Vec<(i32, u8, [u8; 3])>,
    /// The palette, by index.
    colours: Vec<[u8; 3]>,
}

/// Squared RGB distance.
fn distance(p: [u8; 3], c: [u8; 3]) -> i32 {
    (0..3).map(|i| (i32::from(p[i]) - i32::from(c[i])).pow(2)).sum()
}

fn brightness(c: [u8; 3]) -> i32 {
    c.iter().map(|&v| i32::from(v)).sum()
}

impl Nearest {
    fn new(colours: &[[u8; 3]]) -> Self {
        let mut sorted: Vec<(i32, u8, [u8; 3])> =
            colours.iter().take(256).enumerate().map(|(i, &c)| (brightness(c), i as u8, c)).collect();
        sorted.sort_unstable();
        Nearest { sorted, colours: colours.iter().take(256).copied().collect() }
    }

    /// The entry for `c`. `hint` is any entry, best a near one (the previous colour's, since
    /// colours come in order): its distance bounds the search from the start.
    fn find(&self, c: [u8; 3], hint: u8) -> u8 {
        let b = brightness(c);
        let start = self.sorted.partition_point(|e| e.0 < b);
        // Upwards from the first entry at least as bright, then downwards.
        let (down, up) = self.sorted.split_at(start);
        let mut best = match self.colours.get(usize::from(hint)) {
            Some(&p) => (distance(p, c), hint),
            None => (i32::MAX, 0),
        };
        scan(up.iter(), c, b, &mut best);
        scan(down.iter().rev(), c, b, &mut best);
        best.1
    }
}

/// Visit entries in order of growing brightness difference from `c` (brightness `b`) until
/// that difference alone rules out the rest, keeping in `best` the least (distance, index).
fn scan<'a>(entries: impl Iterator<Item = &'a (i32, u8, [u8; 3])>, c: [u8; 3], b: i32, best: &mut (i32, u8)) {
    for &(bright, index, p) in entries {
        if (bright - b).pow(2) > best.0.saturating_mul(3) {
            break;
        }
        let d = distance(p, c);
        if (d, index) < *best {
            *best = (d, index);
        }
    }
}

/// A box of the median cut: its colours (packed by [`key`], in no particular order), their
/// pixel count, and the colour that comes first in the order the box was cut in. The boxes are
/// kept in the order of those first colours.
struct CutBox {
    colours: Vec<(u32, u64)>,
    total: u64,
    first: u32,
}

/// `n` colours for a histogram (in key order) with more than `n` entries: the most frequent
/// colour exactly, then the rest split into boxes along their widest channel at the weighted
/// median.
fn median_cut(histogram: &[(u32, u64)], n: usize) -> Vec<[u8; 3]> {
    let top = histogram.iter().max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0))).map(|&(k, _)| k).unwrap_or(0);
    let rest: Vec<(u32, u64)> = histogram.iter().filter(|&&(k, _)| k != top).copied().collect();
    // `rest` is in key order, so its first colour is its least.
    let first = rest.first().map_or(0, |e| e.0);
    let mut boxes = vec![CutBox { total: rest.iter().map(|e| e.1).sum(), first, colours: rest }];
    while boxes.len() < n - 1 {
        // Split the box with the most pixels among those holding more than one colour (the
        // first of equals).
        let mut pick: Option<(usize, u64)> = None;
        for (i, b) in boxes.iter().enumerate() {
            if b.colours.len() > 1 && pick.is_none_or(|(_, best)| b.total > best) {
                pick = Some((i, b.total));
            }
        }
        let Some((i, _)) = pick else {
            break;
        };
        let b = boxes.remove(i);
        for half in split(b.colours, b.total) {
            let at = boxes.partition_point(|o| o.first < half.first);
            boxes.insert(at, half);
        }
    }
    let mut out = vec![rgb(top)];
    for b in &boxes {
        let total = b.total.max(1);
        let avg = |ch: usize| {
            ((b.colours.iter().map(|e| u64::from(channel(e.0, ch)) * e.1).sum::<u64>() + total / 2) / total) as u8
        };
        out.push([avg(0), avg(1), avg(2)]);
    }
    out
}

/// Channel `ch` (0 red, 1 green, 2 blue) of a packed colour.
fn channel(k: u32, ch: usize) -> u8 {
    (k >> (16 - 8 * ch)) as u8
}

/// Cut a box of at least two colours along its widest channel (the first of equals): in the
/// order of (that channel, colour), the colours up to the one that brings the running pixel
/// count to half the total go first, at least one and never all. Only the cut is computed,
/// not the order: the pixel counts by the channel's value find the median's value, and only
/// the colours of that value are sorted.
fn split(colours: Vec<(u32, u64)>, total: u64) -> [CutBox; 2] {
    let (mut lo, mut hi) = ([u8::MAX; 3], [0u8; 3]);
    for &(k, _) in &colours {
        for ch in 0..3 {
            lo[ch] = lo[ch].min(channel(k, ch));
            hi[ch] = hi[ch].max(channel(k, ch));
        }
    }
    let ch = (0..3).max_by_key(|&ch| (hi[ch] - lo[ch], std::cmp::Reverse(ch))).unwrap_or(0);
    // Colours are distinct, so (channel, colour) orders them completely.
    let order = |k: u32| (u32::from(channel(k, ch)) << 24) | k;
    let mut by_value = [0u64; 256];
    for &(k, c) in &colours {
        by_value[usize::from(channel(k, ch))] += c;
    }
    let (mut value, mut below) = (0usize, 0u64);
    while value < 255 && (below + by_value[value]) * 2 < total {
        below += by_value[value];
        value += 1;
    }
    let mut bucket: Vec<(u32, u64)> =
        colours.iter().filter(|e| usize::from(channel(e.0, ch)) == value).copied().collect();
    bucket.sort_unstable_by_key(|e| e.0);
    let mut acc = below;
    let in_bucket = bucket
        .iter()
        .position(|e| {
            acc += e.1;
            acc * 2 >= total
        })
        .unwrap_or(bucket.len().saturating_sub(1));
    let median = bucket.get(in_bucket).map_or(0, |e| order(e.0));
    let j = colours.iter().filter(|e| usize::from(channel(e.0, ch)) < value).count() + in_bucket;
    // The last colour of the first half: the median, or the one before it when the median is
    // the last colour (the second half must not be empty).
    let last = if j + 1 < colours.len() {
        median
    } else {
        colours.iter().map(|e| order(e.0)).filter(|&o| o < median).max().unwrap_or(median)
    };
    let (lower, upper): (Vec<_>, Vec<_>) = colours.into_iter().partition(|e| order(e.0) <= last);
    [lower, upper].map(|c| {
        let first = c.iter().map(|e| order(e.0)).min().map_or(0, |o| o & 0xFF_FFFF);
        CutBox { total: c.iter().map(|e| e.1).sum(), first, colours: c }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The palette as first written (a sorted map for the histogram, a median cut that sorts
    /// every box it splits, a linear search for each colour's nearest entry): what the faster
    /// one is held to, byte for byte.
    mod reference {
        use super::super::{key, rgb, Indexed};
        use std::collections::BTreeMap;

        pub(super) fn index_frame(pixels: &[u8]) -> Indexed {
            // Flat-shaded frames come in long runs of one colour: count runs, not pixels, in the map.
            let mut histogram: BTreeMap<u32, u64> = BTreeMap::new();
            let mut run: Option<(u32, u64)> = None;
            for p in pixels.chunks_exact(3) {
                let k = key(p);
                run = match run {
                    Some((rk, n)) if rk == k => Some((rk, n + 1)),
                    Some((rk, n)) => {
                        *histogram.entry(rk).or_insert(0) += n;
                        Some((k, 1))
                    }
                    None => Some((k, 1)),
                };
            }
            if let Some((rk, n)) = run {
                *histogram.entry(rk).or_insert(0) += n;
            }
            let colours: Vec<[u8; 3]> = if histogram.len() <= 256 {
                histogram.keys().map(|&k| rgb(k)).collect()
            } else {
                median_cut(&histogram, 256)
            };
            // Every distinct colour maps to its nearest palette entry (exact when present).
            let lookup: BTreeMap<u32, u8> = histogram.keys().map(|&k| (k, nearest(&colours, rgb(k)))).collect();
            let mut last = (u32::MAX, 0u8);
            let indices = pixels
                .chunks_exact(3)
                .map(|p| {
                    let k = key(p);
                    if k != last.0 {
                        last = (k, lookup.get(&k).copied().unwrap_or(0));
                    }
                    last.1
                })
                .collect();
            Indexed { palette: colours.iter().flatten().copied().collect(), indices }
        }

        fn nearest(colours: &[[u8; 3]], c: [u8; 3]) -> u8 {
            let dist = |p: &[u8; 3]| -> i32 { (0..3).map(|i| (p[i] as i32 - c[i] as i32).pow(2)).sum() };
            // First minimum wins, so ties resolve the same way every time.
            let mut best = (0usize, i32::MAX);
            for (i, p) in colours.iter().enumerate() {
                let d = dist(p);
                if d < best.1 {
                    best = (i, d);
                }
            }
            best.0 as u8
        }

        /// `n` colours for a histogram with more than `n` entries: the most frequent colour exactly,
        /// then the rest split into boxes along their widest channel at the weighted median.
        fn median_cut(histogram: &BTreeMap<u32, u64>, n: usize) -> Vec<[u8; 3]> {
            let top = histogram.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0))).map(|(&k, _)| k).unwrap_or(0);
            let rest: Vec<([u8; 3], u64)> =
                histogram.iter().filter(|(&k, _)| k != top).map(|(&k, &c)| (rgb(k), c)).collect();
            let mut boxes: Vec<Vec<([u8; 3], u64)>> = vec![rest];
            while boxes.len() < n - 1 {
                // Split the box with the most pixels among those holding more than one colour.
                let Some(i) = (0..boxes.len())
                    .filter(|&i| boxes[i].len() > 1)
                    .max_by_key(|&i| (boxes[i].iter().map(|e| e.1).sum::<u64>(), std::cmp::Reverse(i)))
                else {
                    break;
                };
                let mut b = boxes.swap_remove(i);
                let range = |ch: usize| {
                    let lo = b.iter().map(|e| e.0[ch]).min().unwrap_or(0);
                    let hi = b.iter().map(|e| e.0[ch]).max().unwrap_or(0);
                    hi - lo
                };
                let ch = (0..3).max_by_key(|&ch| (range(ch), std::cmp::Reverse(ch))).unwrap_or(0);
                b.sort_by_key(|e| (e.0[ch], e.0));
                let total: u64 = b.iter().map(|e| e.1).sum();
                let mut acc = 0;
                let mut cut = 1;
                for (j, e) in b.iter().enumerate() {
                    acc += e.1;
                    if acc * 2 >= total {
                        cut = (j + 1).clamp(1, b.len() - 1);
                        break;
                    }
                }
                let tail = b.split_off(cut);
                boxes.push(b);
                boxes.push(tail);
                // Keep a fixed order independent of the swap_remove above.
                boxes.sort_by_key(|b| b.first().map(|e| e.0));
            }
            let mut out = vec![rgb(top)];
            for b in &boxes {
                let total: u64 = b.iter().map(|e| e.1).sum::<u64>().max(1);
                let avg = |ch: usize| ((b.iter().map(|e| e.0[ch] as u64 * e.1).sum::<u64>() + total / 2) / total) as u8;
                out.push([avg(0), avg(1), avg(2)]);
            }
            out
        }
    }

    /// Frames of every kind the encoder meets: few colours in runs, thousands of colours from
    /// gradients and noise, one dominant colour, heavy single colours at the end of a channel
    /// (the cut that may not take all), exactly 256 and 257 colours, and the empty frame.
    fn frames() -> Vec<Vec<u8>> {
        let mut rng = boneyard_core::testdata::XorShift64(0x9E37_79B9_7F4A_7C15);
        let mut out: Vec<Vec<u8>> = vec![Vec::new(), vec![1, 2, 3]];
        for case in 0..60u64 {
            let n = 1 + (rng.next_u64() % 20_000) as usize;
            let colours = match case % 6 {
                0 => 1 + rng.next_u64() % 40,
                1 => 256,
                2 => 257,
                _ => 300 + rng.next_u64() % 30_000,
            };
            let spread = [4u64, 32, 256][(case % 3) as usize];
            let base: Vec<[u8; 3]> = (0..colours)
                .map(|_| {
                    let v = rng.next_u64();
                    [(v % spread) as u8, (v >> 8) as u8, ((v >> 16) % spread) as u8]
                })
                .collect();
            let mut px = Vec::with_capacity(n * 3);
            while px.len() < n * 3 {
                let pick = rng.next_u64();
                let c =
                    if case % 4 == 3 && !pick.is_multiple_of(3) { base[0] } else { base[(pick % colours) as usize] };
                // Runs of 1 to 16 pixels.
                for _ in 0..1 + (pick >> 32) % 16 {
                    px.extend_from_slice(&c);
                }
            }
            px.truncate(n * 3);
            out.push(px);
        }
        // A gradient whose heaviest colours sit at the top of the red channel.
        let mut px = Vec::new();
        for r in 0..=255u8 {
            for g in (0..=255u8).step_by(15) {
                let repeat = if r > 250 { 400 } else { 1 };
                for _ in 0..repeat {
                    px.extend_from_slice(&[r, g, 7]);
                }
            }
        }
        out.push(px);
        // A box whose last colour along its widest channel holds most of its pixels: the cut
        // would take every colour and must leave that one for the second half.
        let mut px = [9u8, 9, 9].repeat(50_000);
        for r in 0..=254u8 {
            px.extend_from_slice(&[r, 0, r / 3]);
        }
        px.extend_from_slice(&[255u8, 0, 85].repeat(10_000));
        out.push(px);
        out
    }

    #[test]
    fn indexing_matches_the_first_written_palette_byte_for_byte() {
        let mut median_cuts = 0;
        for (i, px) in frames().iter().enumerate() {
            let fast = index_frame(px);
            let slow = reference::index_frame(px);
            assert_eq!(fast.palette, slow.palette, "frame {i}: palette");
            assert_eq!(fast.indices, slow.indices, "frame {i}: indices");
            median_cuts += usize::from(fast.palette.len() == 256 * 3);
        }
        // Half the frames have more than 256 colours, so the median cut and the search ran.
        println!("{median_cuts} of {} frames median-cut", frames().len());
        assert!(median_cuts >= 30, "{median_cuts}");
    }

    #[test]
    fn few_colours_are_exact() {
        let px = [10, 20, 30, 200, 100, 0, 10, 20, 30];
        let ix = index_frame(&px);
        assert_eq!(ix.palette.len(), 6);
        for (p, &i) in px.chunks_exact(3).zip(&ix.indices) {
            assert_eq!(&ix.palette[i as usize * 3..i as usize * 3 + 3], p);
        }
    }

    #[test]
    fn many_colours_get_256_with_the_background_exact() {
        // A gradient of 4096 colours on a background covering most pixels.
        let mut px = Vec::new();
        for _ in 0..10_000 {
            px.extend_from_slice(&[7, 8, 9]);
        }
        for r in 0..64u32 {
            for g in 0..64u32 {
                px.extend_from_slice(&[(r * 4) as u8, (g * 4) as u8, 128]);
            }
        }
        let ix = index_frame(&px);
        assert_eq!(ix.palette.len(), 256 * 3);
        assert_eq!(&ix.palette[..3], &[7, 8, 9]);
        assert_eq!(ix.indices[0], 0);
        // Median cut of a 64 x 64 grid into 255 boxes: no pixel further than a few steps away.
        let worst = px
            .chunks_exact(3)
            .zip(&ix.indices)
            .map(|(p, &i)| (0..3).map(|c| (p[c] as i32 - ix.palette[i as usize * 3 + c] as i32).abs()).max().unwrap())
            .max()
            .unwrap();
        assert!(worst <= 24, "{worst}");
        // Deterministic.
        let again = index_frame(&px);
        assert_eq!((again.palette, again.indices), (ix.palette, ix.indices));
    }
}
