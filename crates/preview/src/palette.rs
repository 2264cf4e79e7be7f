//! Turning an RGB frame into at most 256 palette entries for GIF.
//!
//! The rasterizer does no anti-aliasing and shades flat, so a frame holds one colour per
//! visible face plus the background and the overlay: usually far fewer than 256, and then the
//! palette is exact. Otherwise a median cut over the frame's histogram picks 256 colours; the
//! most frequent colour (the background) is always kept exactly. Everything iterates in a
//! fixed order (sorted maps), so the same frame always gives the same bytes.

use std::collections::BTreeMap;

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

pub(crate) fn index_frame(pixels: &[u8]) -> Indexed {
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
    let colours: Vec<[u8; 3]> =
        if histogram.len() <= 256 { histogram.keys().map(|&k| rgb(k)).collect() } else { median_cut(&histogram, 256) };
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
    let rest: Vec<([u8; 3], u64)> = histogram.iter().filter(|(&k, _)| k != top).map(|(&k, &c)| (rgb(k), c)).collect();
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

#[cfg(test)]
mod tests {
    use super::*;

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
