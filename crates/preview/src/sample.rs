//! Texture sampling as the N64's RDP does it: texel centres at half-texel offsets, wrapping,
//! and for bilinear filtering its 3-point filter: of the four texels around the sample point,
//! the three of the triangle the point is in (upper-left when `fs + ft < 1`, lower-right
//! otherwise), interpolated linearly. Point sampling takes the nearest texel.

use boneyard_core::model::{Texture, TextureFilter, TextureWrap};

/// `UNIT[v]` is `v as f32 / 255.0`: a channel as 0..1.
static UNIT: [f32; 256] = {
    let mut t = [0.0f32; 256];
    let mut v = 0;
    while v < 256 {
        t[v] = v as f32 / 255.0;
        v += 1;
    }
    t
};

/// The texel at (x, y), both already wrapped into the texture, as 0..1 RGBA (white if the
/// texture holds fewer texels than it says).
fn texel(t: &Texture, x: usize, y: usize) -> [f32; 4] {
    let i = (y * t.width as usize + x) * 4;
    match t.rgba.get(i..i + 4) {
        Some(px) => [UNIT[px[0] as usize], UNIT[px[1] as usize], UNIT[px[2] as usize], UNIT[px[3] as usize]],
        None => [1.0; 4],
    }
}

/// `v` wrapped into 0..n, for the `v >= 0` that [`sample`] makes.
fn wrap(v: i64, n: u32) -> usize {
    // N64 textures are mostly powers of two, where the remainder is a mask (no division).
    if n.is_power_of_two() {
        (v as u64 & u64::from(n - 1)) as usize
    } else {
        (v as u64 % u64::from(n)) as usize
    }
}

/// Texel coordinate `v` (not negative) along an axis of `n` texels, as the texture wraps there
/// (a clamped coordinate is already in range).
fn place(v: i64, n: u32, how: TextureWrap) -> usize {
    match how {
        TextureWrap::Repeat | TextureWrap::ClampToEdge => wrap(v, n),
        TextureWrap::MirroredRepeat => {
            // Every other period runs backwards: 0 1 .. n-1 n-1 .. 1 0 0 1 ..
            let p = wrap(v, 2 * n);
            if p >= n as usize {
                2 * n as usize - 1 - p
            } else {
                p
            }
        }
    }
}

/// The colour of `t` at `uv` (glTF convention: (0, 0) the top-left corner of the image, 1 a
/// whole image). The caller has checked that `t.rgba` holds `width * height` texels.
pub fn sample(t: &Texture, uv: [f32; 2]) -> [f32; 4] {
    if t.width == 0 || t.height == 0 || !uv[0].is_finite() || !uv[1].is_finite() {
        return [1.0; 4];
    }
    let s = uv[0] as f64 * t.width as f64 - 0.5;
    let u = uv[1] as f64 * t.height as f64 - 0.5;
    // Far outside the image wraps all the same; keep the integer part in range (and not
    // negative, so the texel coordinates below wrap with a plain remainder, and truncating is
    // flooring). A value already in range is its own remainder.
    let in_range = |v: f64, n: u32| {
        let lim = n as f64 * 1024.0;
        if (0.0..lim).contains(&v) {
            v
        } else {
            v.rem_euclid(lim)
        }
    };
    // Clamped: the edge texel's centre at most, so both texels of the filter are the edge's
    // past it. (Repeated and mirrored: 1024 images is a whole number of mirrored pairs.)
    let range = |v: f64, n: u32, how: TextureWrap| match how {
        TextureWrap::ClampToEdge => v.clamp(0.0, f64::from(n - 1)),
        _ => in_range(v, n),
    };
    let [ws, wt] = t.wrap;
    let (s, u) = (range(s, t.width, ws), range(u, t.height, wt));
    match t.filter {
        TextureFilter::Point => texel(t, place((s + 0.5) as i64, t.width, ws), place((u + 0.5) as i64, t.height, wt)),
        TextureFilter::ThreePoint => {
            let (sf, uf) = ((s as i64) as f64, (u as i64) as f64);
            let (x, y) = (place(s as i64, t.width, ws), place(u as i64, t.height, wt));
            let next = |v: usize, at: f64, n: u32, how: TextureWrap| match how {
                TextureWrap::Repeat => {
                    if v + 1 == n as usize {
                        0
                    } else {
                        v + 1
                    }
                }
                TextureWrap::MirroredRepeat => place(at as i64 + 1, n, how),
                TextureWrap::ClampToEdge => (v + 1).min(n as usize - 1),
            };
            let (x1, y1) = (next(x, s, t.width, ws), next(y, u, t.height, wt));
            let (fs, ft) = ((s - sf) as f32, (u - uf) as f32);
            let t00 = texel(t, x, y);
            let t10 = texel(t, x1, y);
            let t01 = texel(t, x, y1);
            let t11 = texel(t, x1, y1);
            std::array::from_fn(|k| {
                if fs + ft < 1.0 {
                    t00[k] + fs * (t10[k] - t00[k]) + ft * (t01[k] - t00[k])
                } else {
                    t11[k] + (1.0 - fs) * (t01[k] - t11[k]) + (1.0 - ft) * (t10[k] - t11[k])
                }
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sampling as first written: each coordinate wrapped by `rem_euclid` and floored by the
    /// library, each channel divided by 255.
    fn sample_as_first_written(t: &Texture, uv: [f32; 2]) -> [f32; 4] {
        fn texel(t: &Texture, x: i64, y: i64) -> [f32; 4] {
            let (w, h) = (t.width as i64, t.height as i64);
            let (x, y) = (x.rem_euclid(w) as usize, y.rem_euclid(h) as usize);
            let i = (y * t.width as usize + x) * 4;
            [0, 1, 2, 3].map(|k| t.rgba.get(i + k).copied().unwrap_or(255) as f32 / 255.0)
        }
        if t.width == 0 || t.height == 0 || !uv[0].is_finite() || !uv[1].is_finite() {
            return [1.0; 4];
        }
        let s = uv[0] as f64 * t.width as f64 - 0.5;
        let u = uv[1] as f64 * t.height as f64 - 0.5;
        let (s, u) = (s.rem_euclid(t.width as f64 * 1024.0), u.rem_euclid(t.height as f64 * 1024.0));
        match t.filter {
            TextureFilter::Point => texel(t, (s + 0.5).floor() as i64, (u + 0.5).floor() as i64),
            TextureFilter::ThreePoint => {
                let (x, y) = (s.floor() as i64, u.floor() as i64);
                let (fs, ft) = ((s - s.floor()) as f32, (u - u.floor()) as f32);
                let t00 = texel(t, x, y);
                let t10 = texel(t, x + 1, y);
                let t01 = texel(t, x, y + 1);
                let t11 = texel(t, x + 1, y + 1);
                std::array::from_fn(|k| {
                    if fs + ft < 1.0 {
                        t00[k] + fs * (t10[k] - t00[k]) + ft * (t01[k] - t00[k])
                    } else {
                        t11[k] + (1.0 - fs) * (t01[k] - t11[k]) + (1.0 - ft) * (t10[k] - t11[k])
                    }
                })
            }
        }
    }

    #[test]
    fn sampling_matches_the_first_written_bit_for_bit() {
        let mut rng = boneyard_core::testdata::XorShift64(0xD1B5_4A32_D192_ED03);
        for case in 0..200 {
            let (w, h) = (1 + (rng.next_u64() % 70) as u32, 1 + (rng.next_u64() % 70) as u32);
            let rgba: Vec<u8> = (0..w * h * 4).map(|_| rng.next_u64() as u8).collect();
            let filter = if case % 2 == 0 { TextureFilter::ThreePoint } else { TextureFilter::Point };
            let t = Texture { width: w, height: h, rgba: rgba.into(), filter, wrap: Default::default() };
            for _ in 0..200 {
                let v = rng.next_u64();
                // Inside, just outside, far outside (past the 1024-image wrap), on texel edges
                // and centres, negative.
                let pick = |bits: u64| -> f32 {
                    let unit = (bits % 100_000) as f32 / 10_000.0 - 5.0;
                    match (bits >> 20) % 5 {
                        0 => unit,
                        1 => unit * 3000.0,
                        2 => ((bits >> 24) % 64) as f32 / 16.0 - 2.0,
                        3 => ((bits >> 24) % 64) as f32 / w.max(h) as f32,
                        _ => -unit.abs() * 1e-7,
                    }
                };
                let uv = [pick(v), pick(v.rotate_left(32))];
                let (fast, slow) = (sample(&t, uv), sample_as_first_written(&t, uv));
                assert_eq!(fast.map(f32::to_bits), slow.map(f32::to_bits), "case {case}: {w}x{h} at {uv:?}");
            }
        }
    }

    fn tex(filter: TextureFilter) -> Texture {
        // 2x2: black, red / green, white.
        let rgba = vec![0, 0, 0, 255, 255, 0, 0, 255, 0, 255, 0, 255, 255, 255, 255, 255];
        Texture { width: 2, height: 2, rgba: rgba.into(), filter, wrap: Default::default() }
    }

    /// Past the image, worked by hand on the 2x2 (black, red / green, white), nearest texel:
    /// u = 1.25 is texel 2 of the row, which repeats as texel 0 (black) and mirrors as texel
    /// 1 (red); u = -2.25 is texel -5: repeated texel 1, clamped texel 0; u = 5 clamps to 1.
    #[test]
    fn mirrored_and_clamped_by_hand() {
        let mut t = tex(TextureFilter::Point);
        let (black, red) = ([0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(sample(&t, [1.25, 0.25]), black);
        assert_eq!(sample(&t, [-2.25, 0.25]), red);
        t.wrap = [TextureWrap::MirroredRepeat, TextureWrap::Repeat];
        assert_eq!(sample(&t, [1.25, 0.25]), red);
        assert_eq!(sample(&t, [1.75, 0.25]), black);
        assert_eq!(sample(&t, [-0.25, 0.25]), black);
        assert_eq!(sample(&t, [-0.75, 0.25]), red);
        t.wrap = [TextureWrap::ClampToEdge, TextureWrap::Repeat];
        assert_eq!(sample(&t, [-2.25, 0.25]), black);
        assert_eq!(sample(&t, [5.0, 0.25]), red);
        // 3-point, clamped: past the edge both texels of the filter are the edge's.
        let mut t = tex(TextureFilter::ThreePoint);
        t.wrap = [TextureWrap::ClampToEdge; 2];
        assert_eq!(sample(&t, [9.0, -4.0]), red);
        // Mirrored: between texel 1 and its mirror image (texel 2 = 1 again) is texel 1.
        t.wrap = [TextureWrap::MirroredRepeat; 2];
        assert_eq!(sample(&t, [1.0, 0.25]), red);
    }

    #[test]
    fn three_point_by_hand() {
        let t = tex(TextureFilter::ThreePoint);
        // At a texel centre: that texel.
        assert_eq!(sample(&t, [0.25, 0.25]), [0.0, 0.0, 0.0, 1.0]);
        // A quarter texel right and down of texel (0,0)'s centre: fs = ft = 0.25, upper-left
        // triangle: black + 0.25 (red - black) + 0.25 (green - black).
        assert_eq!(sample(&t, [0.375, 0.375]), [0.25, 0.25, 0.0, 1.0]);
        // fs = ft = 0.75: lower-right triangle from white: white + 0.25 (green - white)
        // + 0.25 (red - white) = (0.75, 0.75, 0.5); a 4-point bilinear would give 0.5625.
        assert_eq!(sample(&t, [0.625, 0.625]), [0.75, 0.75, 0.5, 1.0]);
        // Wrapping: u = 1.25 is u = 0.25.
        assert_eq!(sample(&t, [1.25, 0.25]), sample(&t, [0.25, 0.25]));
    }

    #[test]
    fn point_takes_the_nearest_texel() {
        let t = tex(TextureFilter::Point);
        assert_eq!(sample(&t, [0.74, 0.2]), [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(sample(&t, [0.2, 0.9]), [0.0, 1.0, 0.0, 1.0]);
    }
}
