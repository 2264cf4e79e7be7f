//! The game's sine: libultra `sins`/`coss` through a 1024-entry quarter-wave table, and
//! `Math_SinS`/`Math_CosS` (z_lib.c: `sins(angle) * SHT_MINV`, `SHT_MINV = 1.0f / 32767.0f`).
//!
//! The table (libultra `sintable`) is not `round(32767 * sin(i * pi / 2048))`. Checked entry by
//! entry against the published table, it is `trunc(32767 * sin(i * (pi / 2) / 1023))`: the
//! quarter wave is spread over 1023 steps, not 1024, and the value truncated. That is why it
//! exceeds the exact sine by up to ~18/32767 near 45 degrees, and why `coss(a)` (the mirrored
//! entry `1023 - i`) is the exact partner of `sins(a)` (sin^2 + cos^2 stays 1 within the
//! truncation). Every generated value is at least 3e-3 away from an integer, so f64 `sin`
//! differences between platforms cannot change it.

use std::sync::OnceLock;

/// The 1024-entry quarter-wave table as libultra has it.
pub fn sin_table() -> &'static [i16; 1024] {
    static TABLE: OnceLock<[i16; 1024]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [0i16; 1024];
        for (i, v) in t.iter_mut().enumerate() {
            let a = i as f64 * std::f64::consts::PI / 2.0 / 1023.0;
            // Truncation toward zero, as the table's values show; all are in 0..=32767.
            *v = (32767.0 * a.sin()) as i16;
        }
        t
    })
}

/// libultra `sins(u16)`: 4096 steps per turn (`x >> 4`), quarter table mirrored.
pub fn sins(x: u16) -> i16 {
    let x = x >> 4;
    let t = sin_table();
    let value = if x & 0x400 != 0 { t[(0x3FF - (x & 0x3FF)) as usize] } else { t[(x & 0x3FF) as usize] };
    if x & 0x800 != 0 {
        -value
    } else {
        value
    }
}

/// libultra `coss(u16) = sins(x + 0x4000)`.
pub fn coss(x: u16) -> i16 {
    sins(x.wrapping_add(0x4000))
}

/// `1.0f / 32767.0f`, computed in f32 as the game's constant is.
const SHT_MINV: f32 = 1.0 / 32767.0;

/// `Math_SinS(s16)`.
pub fn math_sin_s(angle: i16) -> f32 {
    sins(angle as u16) as f32 * SHT_MINV
}

/// `Math_CosS(s16)`.
pub fn math_cos_s(angle: i16) -> f32 {
    coss(angle as u16) as f32 * SHT_MINV
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entries copied by hand from the published libultra table (src/libultra/gu/sintable),
    /// and its CRC-32 over the big-endian s16 values and its sum, computed from that table.
    #[test]
    fn table_matches_libultra() {
        let t = sin_table();
        let known = [
            (0, 0x0000),
            (1, 0x0032),
            (3, 0x0096),
            (4, 0x00C9),
            (256, 12551),
            (511, 0x5A6F),
            (512, 0x5A93),
            (699, 28794),
            (910, 32275),
            (1022, 0x7FFE),
            (1023, 0x7FFF),
        ];
        for (i, v) in known {
            assert_eq!(t[i], v as i16, "entry {i}");
        }
        let bytes: Vec<u8> = t.iter().flat_map(|v| v.to_be_bytes()).collect();
        assert_eq!(crc32fast::hash(&bytes), 0xc13dee03);
        assert_eq!(t.iter().map(|&v| v as i64).sum::<i64>(), 21355780);
    }

    #[test]
    fn sins_quadrants_by_hand() {
        assert_eq!(sins(0), 0);
        assert_eq!(sins(0x4000), 0x7FFF); // x>>4 = 0x400 -> t[0x3FF]
        assert_eq!(sins(0x8000), 0); // 0x800 -> -t[0]
        assert_eq!(sins(0xC000), -0x7FFF);
        assert_eq!(sins(0x2000), 0x5A93); // 45 degrees: t[0x200]
        assert_eq!(coss(0x2000), 0x5A6F); // sins(0x6000): t[0x3FF - 0x200] = t[0x1FF]
        assert_eq!(sins(0x000F), 0); // steps of 16
        assert_eq!(sins(0x0010), 0x32);
        assert_eq!(math_sin_s(0x4000), 32767.0 * (1.0f32 / 32767.0));
        assert_eq!(math_cos_s(0), math_sin_s(0x4000));
        assert_eq!(math_sin_s(-0x4000), -math_sin_s(0x4000));
    }
}
