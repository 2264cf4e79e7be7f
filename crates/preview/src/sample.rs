//! Texture sampling as the N64's RDP does it: texel centres at half-texel offsets, wrapping,
//! and for bilinear filtering its 3-point filter: of the four texels around the sample point,
//! the three of the triangle the point is in (upper-left when `fs + ft < 1`, lower-right
//! otherwise), interpolated linearly. Point sampling takes the nearest texel.

use boneyard_core::model::{Texture, TextureFilter};

/// The texel at integer (x, y), wrapped into the texture, as 0..1 RGBA.
fn texel(t: &Texture, x: i64, y: i64) -> [f32; 4] {
    let (w, h) = (t.width as i64, t.height as i64);
    let (x, y) = (x.rem_euclid(w) as usize, y.rem_euclid(h) as usize);
    let i = (y * t.width as usize + x) * 4;
    [0, 1, 2, 3].map(|k| t.rgba.get(i + k).copied().unwrap_or(255) as f32 / 255.0)
}

/// The colour of `t` at `uv` (glTF convention: (0, 0) the top-left corner of the image, 1 a
/// whole image). The caller has checked that `t.rgba` holds `width * height` texels.
pub fn sample(t: &Texture, uv: [f32; 2]) -> [f32; 4] {
    if t.width == 0 || t.height == 0 || !uv[0].is_finite() || !uv[1].is_finite() {
        return [1.0; 4];
    }
    let s = uv[0] as f64 * t.width as f64 - 0.5;
    let u = uv[1] as f64 * t.height as f64 - 0.5;
    // Far outside the image wraps all the same; keep the integer part in range.
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

#[cfg(test)]
mod tests {
    use super::*;

    fn tex(filter: TextureFilter) -> Texture {
        // 2x2: black, red / green, white.
        let rgba = vec![0, 0, 0, 255, 255, 0, 0, 255, 0, 255, 0, 255, 255, 255, 255, 255];
        Texture { width: 2, height: 2, rgba: rgba.into(), filter }
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
