//! Writing rendered frames as PNG, APNG and GIF, and the frame delays each format can express.

use crate::palette::index_frame;
use crate::raster::Canvas;
use boneyard_core::{Error, ErrorKind, Result};
use std::borrow::Cow;

fn encoder_error(what: &str, e: impl std::fmt::Display) -> Error {
    Error::new(ErrorKind::Io(format!("{what} encoder: {e}")))
}

/// The fewest clip frames a GIF frame may stand for at `fps` when each shows `step` of them:
/// a multiple of `step` whose time is at least 2 hundredths of a second (browsers play a
/// delay of 0 or 1 as 10, so a 60 fps clip shows every other frame, at 30 fps).
pub fn gif_step(fps: f64, step: u32) -> u32 {
    let step = step.max(1);
    if !(fps.is_finite() && fps > 0.0) {
        return step;
    }
    // The smallest k with 100 k step / fps >= 2 (checked in whole numbers of the product, so
    // that 50 fps keeps every frame).
    let k = (2.0 * fps / (100.0 * f64::from(step))).ceil().max(1.0);
    (f64::from(step) * k).min(f64::from(u32::MAX)) as u32
}

/// GIF frame delays in hundredths of a second for frames shown every `step` clip frames at
/// `fps`, `count` of them: each frame ends at the hundredth nearest its true end time, so the
/// delays of a 30 fps clip go 3, 4, 3 and its loop lasts as long as the clip (a delay of 3
/// each played it 10% fast). With `step` from [`gif_step`] every delay is at least 2.
pub fn gif_delays_centiseconds(fps: f64, step: u32, count: usize) -> Vec<u16> {
    if !(fps.is_finite() && fps > 0.0) {
        return vec![10; count];
    }
    let end = |i: usize| (100.0 * i as f64 * f64::from(step) / fps).round();
    (0..count).map(|i| (end(i + 1) - end(i)).clamp(0.0, f64::from(u16::MAX)) as u16).collect()
}

/// An APNG frame delay `num / den` seconds equal to `step / fps`: exact for whole and decimal
/// frame rates (60 -> 1/60, 29.97 -> 100/2997), else the closest fraction with 16-bit terms.
pub fn apng_delay(fps: f64, step: u32) -> (u16, u16) {
    const MAX: u64 = u16::MAX as u64;
    if !(fps.is_finite() && fps > 0.0) {
        return (1, 30);
    }
    // Decimal frame rates first: fps * 10^d is a whole number for small d.
    for scale in [1u64, 10, 100, 1000] {
        let scaled = fps * scale as f64;
        if (scaled - scaled.round()).abs() < 1e-6 && scaled.round() >= 1.0 {
            let (mut num, mut den) = (u64::from(step) * scale, scaled.round() as u64);
            let g = gcd(num, den);
            (num, den) = (num / g, den / g);
            if num <= MAX && den <= MAX {
                return (num as u16, den as u16);
            }
        }
    }
    // Otherwise the last continued-fraction convergent of step / fps that fits in 16 bits.
    let x = f64::from(step) / fps;
    let (mut h0, mut h1, mut k0, mut k1) = (0u64, 1u64, 1u64, 0u64);
    let mut best = (1u64, MAX);
    let mut v = x;
    for _ in 0..40 {
        let a = (v + 1e-12).floor();
        if !(a.is_finite() && a >= 0.0 && a <= MAX as f64) {
            break;
        }
        let a = a as u64;
        let (h2, k2) = (a * h1 + h0, a * k1 + k0);
        if h2 > MAX || k2 > MAX {
            break;
        }
        if h2 > 0 {
            best = (h2, k2);
        }
        (h0, h1, k0, k1) = (h1, h2, k1, k2);
        let frac = v - a as f64;
        if frac < 1e-12 {
            break;
        }
        v = 1.0 / frac;
    }
    (best.0 as u16, best.1 as u16)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a.max(1)
    } else {
        gcd(b, a % b)
    }
}

fn png_encoder<W: std::io::Write>(out: W, width: u32, height: u32) -> png::Encoder<'static, W> {
    let mut e = png::Encoder::new(out, width, height);
    e.set_color(png::ColorType::Rgb);
    e.set_depth(png::BitDepth::Eight);
    e
}

pub(crate) fn png(canvas: &Canvas) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let err = |e| encoder_error("PNG", e);
    let mut w = png_encoder(&mut out, canvas.width, canvas.height).write_header().map_err(err)?;
    w.write_image_data(&canvas.rgb).map_err(err)?;
    w.finish().map_err(err)?;
    Ok(out)
}

/// An APNG looping forever, each frame shown for `delay` = (num, den) seconds. As in the GIF,
/// the first frame is the whole image and each later one only the rectangle that changed,
/// replacing those pixels (blend "source") and left in place (dispose "none").
pub(crate) fn apng(
    width: u32,
    height: u32,
    count: usize,
    delay: (u16, u16),
    frames: impl Iterator<Item = Result<Canvas>>,
) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let err = |e| encoder_error("APNG", e);
    let count = u32::try_from(count).map_err(|_| Error::ceiling(0, "too many frames"))?;
    let mut e = png_encoder(&mut out, width, height);
    e.set_animated(count, 0).map_err(err)?;
    e.set_frame_delay(delay.0, delay.1).map_err(err)?;
    e.set_blend_op(png::BlendOp::Source).map_err(err)?;
    e.set_dispose_op(png::DisposeOp::None).map_err(err)?;
    let mut w = e.write_header().map_err(err)?;
    for change in changes(frames) {
        let (r, pixels) = change?;
        w.set_frame_delay(delay.0, delay.1).map_err(err)?;
        // The position first goes back to the corner, so that the new size fits wherever the
        // last rectangle was.
        w.reset_frame_position().map_err(err)?;
        w.set_frame_dimension(r.width, r.height).map_err(err)?;
        w.set_frame_position(r.left, r.top).map_err(err)?;
        w.write_image_data(&pixels).map_err(err)?;
    }
    w.finish().map_err(err)?;
    Ok(out)
}

/// A GIF looping forever, frame i shown for `delays[i]` hundredths of a second (the last delay
/// again past the end). The first frame is the whole image; each later one only the rectangle
/// that changed since the previous frame (drawn over it: disposal "keep"), with its own palette.
pub(crate) fn gif(
    width: u32,
    height: u32,
    delays: &[u16],
    frames: impl Iterator<Item = Result<Canvas>>,
) -> Result<Vec<u8>> {
    let err = |e| encoder_error("GIF", e);
    let side = |v: u32| u16::try_from(v).map_err(|_| Error::ceiling(0, format!("GIF side {v} exceeds 65535")));
    let (w, h) = (side(width)?, side(height)?);
    let mut e = gif::Encoder::new(Vec::new(), w, h, &[]).map_err(err)?;
    e.set_repeat(gif::Repeat::Infinite).map_err(err)?;
    for (i, change) in changes(frames).enumerate() {
        let (r, pixels) = change?;
        let delay = delays.get(i).or(delays.last()).copied().unwrap_or(10);
        let ix = index_frame(&pixels);
        // Rect fits in the canvas, whose sides were checked to fit in u16 above.
        let frame = gif::Frame {
            left: r.left as u16,
            top: r.top as u16,
            width: r.width as u16,
            height: r.height as u16,
            delay,
            dispose: gif::DisposalMethod::Keep,
            palette: Some(ix.palette),
            buffer: Cow::Owned(ix.indices),
            ..Default::default()
        };
        e.write_frame(&frame).map_err(err)?;
    }
    e.into_inner().map_err(err)
}

/// What an animation stores of each frame: the whole first frame, then the rectangle that
/// changed since the frame before, each with its RGB pixels row by row.
fn changes(frames: impl Iterator<Item = Result<Canvas>>) -> impl Iterator<Item = Result<(Rect, Vec<u8>)>> {
    let mut previous: Option<Canvas> = None;
    frames.map(move |f| {
        let f = f?;
        let r = match &previous {
            Some(p) => changed_rect(p, &f),
            None => Rect { left: 0, top: 0, width: f.width, height: f.height },
        };
        let pixels = crop(&f, r);
        previous = Some(f);
        Ok((r, pixels))
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rect {
    left: u32,
    top: u32,
    width: u32,
    height: u32,
}

/// The smallest rectangle holding every pixel that differs between two same-sized frames
/// (a 1 x 1 one at the origin when nothing changed: a GIF frame cannot be empty).
fn changed_rect(a: &Canvas, b: &Canvas) -> Rect {
    let row = a.width as usize * 3;
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    if row > 0 {
        for (y, (p, q)) in a.rgb.chunks_exact(row).zip(b.rgb.chunks_exact(row)).enumerate() {
            if p == q {
                continue;
            }
            // The first and last differing bytes of the row give its first and last pixels.
            let Some(first) = p.iter().zip(q).position(|(u, v)| u != v) else { continue };
            let last = p.iter().zip(q).rposition(|(u, v)| u != v).unwrap_or(first);
            x0 = x0.min(first / 3);
            x1 = x1.max(last / 3);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
    }
    if x0 == usize::MAX {
        return Rect { left: 0, top: 0, width: 1, height: 1 };
    }
    Rect { left: x0 as u32, top: y0 as u32, width: (x1 - x0 + 1) as u32, height: (y1 - y0 + 1) as u32 }
}

/// The RGB pixels of rectangle `r` of `c`, row by row.
fn crop(c: &Canvas, r: Rect) -> Vec<u8> {
    let mut out = Vec::with_capacity(r.width as usize * r.height as usize * 3);
    for y in r.top..r.top + r.height {
        let start = (y as usize * c.width as usize + r.left as usize) * 3;
        out.extend_from_slice(&c.rgb[start..start + r.width as usize * 3]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The changed rectangle as first written: every pixel compared, its place found by
    /// dividing its index by the width.
    fn changed_rect_pixel_by_pixel(a: &Canvas, b: &Canvas) -> Rect {
        let w = a.width as usize;
        let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
        for (i, (p, q)) in a.rgb.chunks_exact(3).zip(b.rgb.chunks_exact(3)).enumerate() {
            if p != q {
                let (x, y) = (i % w, i / w);
                x0 = x0.min(x);
                x1 = x1.max(x);
                y0 = y0.min(y);
                y1 = y1.max(y);
            }
        }
        if x0 == usize::MAX {
            return Rect { left: 0, top: 0, width: 1, height: 1 };
        }
        Rect { left: x0 as u32, top: y0 as u32, width: (x1 - x0 + 1) as u32, height: (y1 - y0 + 1) as u32 }
    }

    #[test]
    fn changed_rectangle_row_by_row_matches_pixel_by_pixel() {
        let mut rng = boneyard_core::testdata::XorShift64(0x2545_F491_4F6C_DD1D);
        for case in 0..400 {
            let (w, h) = (1 + (rng.next_u64() % 40) as u32, 1 + (rng.next_u64() % 40) as u32);
            let a = Canvas::new(w, h, [1, 2, 3]);
            let mut b = a.clone();
            // None, one or a few changed bytes, anywhere (a single channel of a pixel too).
            for _ in 0..case % 5 {
                let i = (rng.next_u64() % b.rgb.len() as u64) as usize;
                b.rgb[i] ^= 1 + (rng.next_u64() % 255) as u8;
            }
            assert_eq!(changed_rect(&a, &b), changed_rect_pixel_by_pixel(&a, &b), "case {case}: {w}x{h}");
        }
    }

    #[test]
    fn changed_rectangle_by_hand() {
        let a = Canvas::new(6, 4, [0, 0, 0]);
        let mut b = a.clone();
        assert_eq!(changed_rect(&a, &b), Rect { left: 0, top: 0, width: 1, height: 1 });
        // Pixels (1, 2) and (4, 1) change: the box spans x 1..=4, y 1..=2.
        for (x, y) in [(1usize, 2usize), (4, 1)] {
            b.rgb[(y * 6 + x) * 3] = 9;
        }
        let r = changed_rect(&a, &b);
        assert_eq!(r, Rect { left: 1, top: 1, width: 4, height: 2 });
        let c = crop(&b, r);
        assert_eq!(c.len(), 4 * 2 * 3);
        assert_eq!((c[0], c[3 * 3], c[4 * 3]), (0, 9, 9)); // (1,1), (4,1), (1,2)
    }

    #[test]
    fn gif_delays_by_hand() {
        // 30 fps: 3.33 cs a frame, the ends at 3, 7, 10, 13, 17, 20 cs.
        assert_eq!((gif_step(30.0, 1), gif_delays_centiseconds(30.0, 1, 6)), (1, vec![3, 4, 3, 3, 4, 3]));
        assert_eq!((gif_step(20.0, 1), gif_delays_centiseconds(20.0, 1, 3)), (1, vec![5, 5, 5]));
        assert_eq!((gif_step(50.0, 1), gif_delays_centiseconds(50.0, 1, 3)), (1, vec![2, 2, 2]));
        // 60 fps: every other frame (1.67 cs is under 2), 3.33 cs each as at 30 fps.
        assert_eq!((gif_step(60.0, 1), gif_delays_centiseconds(60.0, 2, 3)), (2, vec![3, 4, 3]));
        assert_eq!(gif_step(60.0, 2), 2);
        assert_eq!(gif_step(60.0, 3), 3); // 5 cs
        assert_eq!(gif_step(200.0, 1), 4); // 2 cs
        assert_eq!(gif_step(f64::NAN, 1), 1);
    }

    #[test]
    fn gif_delays_add_up_to_the_clip_and_are_never_under_2() {
        for fps in [12.5, 15.0, 20.0, 24.0, 25.0, 29.97, 30.0, 50.0, 59.94, 60.0, 120.0, 1000.0] {
            for base in [1, 2, 3, 7] {
                let step = gif_step(fps, base);
                assert_eq!(step % base, 0, "{fps} {base}");
                let n = 600;
                let d = gif_delays_centiseconds(fps, step, n);
                assert!(d.iter().all(|&x| x >= 2), "{fps} {base}: {d:?}");
                let total: u64 = d.iter().map(|&x| u64::from(x)).sum();
                let exact = 100.0 * n as f64 * f64::from(step) / fps;
                assert!((total as f64 - exact).abs() <= 0.5, "{fps} {base}: {total} for {exact}");
            }
        }
    }

    #[test]
    fn apng_delays_are_exact_fractions() {
        assert_eq!(apng_delay(60.0, 1), (1, 60));
        assert_eq!(apng_delay(30.0, 3), (1, 10));
        assert_eq!(apng_delay(20.0, 1), (1, 20));
        assert_eq!(apng_delay(29.97, 1), (100, 2997));
        assert_eq!(apng_delay(59.94, 2), (100, 2997));
        // 1 / (1000/7) = 7/1000 via the continued fraction (not a decimal rate).
        assert_eq!(apng_delay(1000.0 / 7.0, 1), (7, 1000));
        // Anything: a fraction that fits and is close.
        let (n, d) = apng_delay(std::f64::consts::PI * 10.0, 1);
        assert!((n as f64 / d as f64 - 1.0 / (std::f64::consts::PI * 10.0)).abs() < 1e-8);
    }
}
