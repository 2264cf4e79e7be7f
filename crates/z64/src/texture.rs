//! N64 texture formats to RGBA8 (for meshes): RGBA16 (5551), RGBA32, CI4/CI8 through an RGBA16
//! palette (TLUT), IA4/IA8/IA16, I4/I8. Texels are stored row after row, big-endian, as
//! `G_LOADBLOCK` loads them; the odd rows' 4-byte word swap TMEM applies happens on load and
//! is undone by the hardware on sampling, so the data in the file is already in image order.

use boneyard_core::model::Texture;

// The texels of one texture a document decodes are the caller's `Limits::max_texture_texels`
// and those of all its textures `Limits::max_document_texels` (both checked by the mesh
// decoder before it calls [`decode`]); `decode` itself is bounded by its data (at least half a
// byte a texel).

/// Image formats (`G_IM_FMT_*`) and sizes (`G_IM_SIZ_*`).
pub const FMT_RGBA: u8 = 0;
/// Colour-indexed (through a TLUT palette).
pub const FMT_CI: u8 = 2;
/// Intensity with alpha.
pub const FMT_IA: u8 = 3;
/// Intensity only.
pub const FMT_I: u8 = 4;

/// Bits per texel for `G_IM_SIZ_*` 0..3.
pub fn bits(siz: u8) -> usize {
    4 << (siz & 3)
}

/// A 5-bit channel widened to 8 bits as `x * 255 / 31` (truncated), by table.
const FIVE_TO_EIGHT: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut x = 0;
    while x < 32 {
        t[x] = (x * 255 / 31) as u8;
        x += 1;
    }
    t
};

fn rgba5551(v: u16) -> [u8; 4] {
    // Two lookups instead of three widenings and the packing of four bytes (this runs for
    // every RGBA16 texel and palette entry): `v >> 6` is at most 1023 and `v & 0x3F` at most
    // 63, inside the tables.
    (RED_GREEN[usize::from(v >> 6)] | BLUE_ALPHA[usize::from(v & 0x3F)]).to_le_bytes()
}

/// RGBA16's top 10 bits (red, green) widened: red in the low byte, green in the next.
const RED_GREEN: [u32; 1024] = {
    let mut t = [0u32; 1024];
    let mut i = 0;
    while i < 1024 {
        t[i] = FIVE_TO_EIGHT[i >> 5] as u32 | (FIVE_TO_EIGHT[i & 0x1F] as u32) << 8;
        i += 1;
    }
    t
};

/// RGBA16's low 6 bits (blue, the alpha bit) widened: blue in the third byte, alpha (0 or
/// 255) in the top one.
const BLUE_ALPHA: [u32; 64] = {
    let mut t = [0u32; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (FIVE_TO_EIGHT[i >> 1] as u32) << 16 | if i & 1 != 0 { 0xFF00_0000 } else { 0 };
        i += 1;
    }
    t
};

/// Decode `width * height` texels of format `fmt`/`siz` from `data` (palette `tlut` for CI:
/// RGBA16 entries). None when the data is short or the format unknown, or for CI when a
/// texel's index is past the palette's end.
pub fn decode(fmt: u8, siz: u8, width: usize, height: usize, data: &[u8], tlut: Option<&[u8]>) -> Option<Texture> {
    let n = width.checked_mul(height)?;
    if n == 0 || data.len() < n.checked_mul(bits(siz))?.div_ceil(8) {
        return None;
    }
    // The texels' length was checked above: each format below walks its slice, writing each
    // texel's 4 bytes in place (this runs for every texel of every mesh).
    // Written in place where the texture will be kept: shared by the meshes drawing it.
    let mut shared: std::sync::Arc<[u8]> = std::iter::repeat_n(0, n.checked_mul(4)?).collect();
    let rgba = std::sync::Arc::get_mut(&mut shared).expect("made just now, not shared");
    let out = rgba.chunks_exact_mut(4);
    // 4-bit texels: the high nibble of each byte first.
    let nibbles = || data.iter().flat_map(|&b| [b >> 4, b & 0xF]).take(n);
    match (fmt, siz) {
        (FMT_RGBA, 2) => {
            for (px, t) in out.zip(data.chunks_exact(2)) {
                px.copy_from_slice(&rgba5551(u16::from_be_bytes([t[0], t[1]])));
            }
        }
        (FMT_RGBA, 3) => rgba.copy_from_slice(&data[..n * 4]),
        (FMT_CI, 0) | (FMT_CI, 1) => {
            // The palette's entries that are there (at most 16 or 256 are addressable).
            let tlut = tlut?;
            let entries = (tlut.len() / 2).min(if siz == 0 { 16 } else { 256 });
            // The largest index a texel uses: past the entries there, the texture is not
            // readable; below, only the entries up to it are converted (a small CI8 texture
            // used to cost more in its 256 palette entries than in its texels).
            // CI4: the texels' `n / 2` whole bytes (two texels each, the high nibble first)
            // and, for odd `n`, the high nibble of the next (`data` holds them, checked above).
            let (pairs, odd) = (data.get(..n / 2)?, if n % 2 == 1 { data.get(n / 2).map(|b| b >> 4) } else { None });
            let used = if siz == 0 {
                pairs.iter().map(|&b| (b >> 4).max(b & 0xF)).chain(odd).max().unwrap_or(0)
            } else {
                data.iter().take(n).copied().max().unwrap_or(0)
            } as usize;
            if used >= entries {
                return None;
            }
            let mut palette = [[0u8; 4]; 256];
            for (e, t) in palette.iter_mut().zip(tlut.chunks_exact(2)).take(used + 1) {
                *e = rgba5551(u16::from_be_bytes([t[0], t[1]]));
            }
            // Every index is at most `used`, converted above (and a u8 indexes the 256).
            if siz == 0 {
                let mut two = rgba.chunks_exact_mut(8);
                for (px, &b) in (&mut two).zip(pairs) {
                    px[..4].copy_from_slice(&palette[(b >> 4) as usize]);
                    px[4..].copy_from_slice(&palette[(b & 0xF) as usize]);
                }
                if let Some(i) = odd {
                    two.into_remainder().copy_from_slice(&palette[i as usize]);
                }
            } else {
                for (px, &i) in out.zip(data) {
                    px.copy_from_slice(&palette[i as usize]);
                }
            }
        }
        (FMT_IA, 0) => {
            for (px, v) in out.zip(nibbles()) {
                // In u16: 7 * 255 does not fit a u8.
                let l = (u16::from(v >> 1) * 255 / 7) as u8;
                px.copy_from_slice(&[l, l, l, if v & 1 != 0 { 255 } else { 0 }]);
            }
        }
        (FMT_IA, 1) => {
            for (px, &t) in out.zip(data) {
                let (l, a) = ((t >> 4) * 17, (t & 0xF) * 17);
                px.copy_from_slice(&[l, l, l, a]);
            }
        }
        (FMT_IA, 2) => {
            for (px, t) in out.zip(data.chunks_exact(2)) {
                px.copy_from_slice(&[t[0], t[0], t[0], t[1]]);
            }
        }
        (FMT_I, 0) => {
            for (px, v) in out.zip(nibbles()) {
                let l = v * 17;
                px.copy_from_slice(&[l, l, l, l]);
            }
        }
        (FMT_I, 1) => {
            for (px, &t) in out.zip(data) {
                px.copy_from_slice(&[t, t, t, t]);
            }
        }
        _ => return None,
    }
    Some(Texture {
        width: width as u32,
        height: height as u32,
        rgba: shared,
        filter: Default::default(),
        wrap: Default::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// RGBA16 widened channel by channel, as [`rgba5551`] did before its tables.
    fn rgba5551_reference(v: u16) -> [u8; 4] {
        let c = |x: u16| FIVE_TO_EIGHT[(x & 0x1F) as usize];
        [c(v >> 11), c(v >> 6), c(v >> 1), if v & 1 != 0 { 255 } else { 0 }]
    }

    /// The tables give what the channel by channel widening gives, for every RGBA16 value.
    #[test]
    fn rgba5551_tables_match_the_channel_widening() {
        for v in 0..=u16::MAX {
            assert_eq!(rgba5551(v), rgba5551_reference(v), "{v:#06x}");
        }
    }

    /// CI textures as [`decode`] read them before it converted only the palette entries used:
    /// every entry there converted, each texel looked up with a check.
    fn ci_reference(siz: u8, width: usize, height: usize, data: &[u8], tlut: &[u8]) -> Option<Vec<u8>> {
        let n = width * height;
        if n == 0 || data.len() < (n * bits(siz)).div_ceil(8) {
            return None;
        }
        let entries = (tlut.len() / 2).min(if siz == 0 { 16 } else { 256 });
        let palette: Vec<[u8; 4]> =
            tlut.chunks_exact(2).take(entries).map(|t| rgba5551(u16::from_be_bytes([t[0], t[1]]))).collect();
        let indices: Vec<u8> =
            if siz == 0 { data.iter().flat_map(|&b| [b >> 4, b & 0xF]).take(n).collect() } else { data[..n].to_vec() };
        let mut rgba = Vec::new();
        for i in indices {
            rgba.extend_from_slice(palette.get(i as usize)?);
        }
        Some(rgba)
    }

    proptest! {
        #[test]
        fn ci_matches_reference(
            siz in 0u8..2,
            width in 1usize..9,
            height in 1usize..5,
            data in proptest::collection::vec(any::<u8>(), 0..48),
            tlut in proptest::collection::vec(any::<u8>(), 0..520),
            small in any::<bool>(),
        ) {
            // Indices kept small half the time, so that short palettes are often enough.
            let data: Vec<u8> = if small { data.iter().map(|b| b & 0x33).collect() } else { data };
            let ours = decode(FMT_CI, siz, width, height, &data, Some(&tlut)).map(|t| t.rgba.to_vec());
            prop_assert_eq!(ours, ci_reference(siz, width, height, &data, &tlut));
        }
    }

    #[test]
    fn formats_by_hand() {
        // RGBA16 0xF801 = red, opaque; 0x07C0 = green, transparent.
        let t = decode(FMT_RGBA, 2, 2, 1, &[0xF8, 0x01, 0x07, 0xC0], None).unwrap();
        assert_eq!(t.rgba[..], [255, 0, 0, 255, 0, 255, 0, 0]);
        // CI4: indices 1, 0 into a two-entry palette.
        let t = decode(FMT_CI, 0, 2, 1, &[0x10], Some(&[0x00, 0x3F, 0xF8, 0x01])).unwrap();
        assert_eq!(t.rgba[..], [255, 0, 0, 255, 0, 0, 255, 255]);
        // IA8 0xF8: intensity 15*17 = 255, alpha 8*17 = 136. I4 0x0F: 0 then 255.
        assert_eq!(decode(FMT_IA, 1, 1, 1, &[0xF8], None).unwrap().rgba[..], [255, 255, 255, 136]);
        assert_eq!(decode(FMT_I, 0, 2, 1, &[0x0F], None).unwrap().rgba[..], [0, 0, 0, 0, 255, 255, 255, 255]);
        assert!(decode(FMT_RGBA, 2, 4, 4, &[0; 8], None).is_none(), "short data");
        assert!(decode(FMT_CI, 1, 1, 1, &[5], None).is_none(), "no palette");
    }
}
