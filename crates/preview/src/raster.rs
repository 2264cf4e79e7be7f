//! A small deterministic rasterizer: an RGB colour buffer with a z-buffer, triangles filled
//! with integer edge functions, and overlay lines and dots.
//!
//! Why integer edge functions: vertex positions are snapped to 1/16 pixel, so whether a pixel
//! centre is inside a triangle is decided exactly (no float ties), and the top-left rule makes
//! two triangles sharing an edge cover every pixel on it exactly once. Same input, same pixels.

use glam::Vec3;

/// Sub-pixel precision: positions are snapped to 1/`SUBPIXEL` of a pixel.
const SUBPIXEL: f32 = 16.0;
/// Screen coordinates beyond this (in pixels) are not rasterized (guards the fixed-point range;
/// a framed camera never produces them).
const MAX_COORD: f32 = 1.0e6;

/// An RGB8 image with a depth buffer (larger depth = closer to the viewer).
#[derive(Debug, Clone, PartialEq)]
pub struct Canvas {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Row-major RGB8, top row first.
    pub rgb: Vec<u8>,
    depth: Vec<f32>,
}

impl Canvas {
    /// A canvas cleared to `background`. The caller bounds `width * height` (see `RenderOptions`).
    pub fn new(width: u32, height: u32, background: [u8; 3]) -> Self {
        let n = width as usize * height as usize;
        Canvas { width, height, rgb: background.repeat(n), depth: vec![f32::NEG_INFINITY; n] }
    }

    /// The colour of pixel (x, y), if it is on the canvas.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 3]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (y as usize * self.width as usize + x as usize) * 3;
        Some([self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]])
    }

    /// Fill a triangle given in screen space (x right, y down, in pixels; z = depth, larger is
    /// closer). With `depth_test` a pixel is written only when it is strictly closer than what is
    /// there; without, it is overwritten (overlays). Returns the number of pixels written.
    pub fn fill_triangle(&mut self, v: [Vec3; 3], color: [u8; 3], depth_test: bool) -> usize {
        self.fill_triangle_with(v, depth_test, |_| Some(color))
    }

    /// [`Canvas::fill_triangle`] with a colour per pixel: `shade` gets the pixel centre's
    /// barycentric weights of `v[0]`, `v[1]`, `v[2]` (summing to 1) and returns the colour, or
    /// None to leave the pixel as it is (a transparent texel), depth included.
    pub fn fill_triangle_with(
        &mut self,
        v: [Vec3; 3],
        depth_test: bool,
        mut shade: impl FnMut([f32; 3]) -> Option<[u8; 3]>,
    ) -> usize {
        if v.iter().any(|p| !p.is_finite() || p.x.abs() > MAX_COORD || p.y.abs() > MAX_COORD) {
            return 0;
        }
        let fx = |p: &Vec3| ((p.x * SUBPIXEL).round() as i64, (p.y * SUBPIXEL).round() as i64);
        let mut a = fx(&v[0]);
        let mut b = fx(&v[1]);
        let c = fx(&v[2]);
        let (mut za, mut zb, zc) = (v[0].z, v[1].z, v[2].z);
        let mut area = edge(a, b, c);
        if area == 0 {
            return 0;
        }
        let swapped = area < 0;
        if swapped {
            // Make the winding positive so "inside" is edge >= 0 for every edge.
            std::mem::swap(&mut a, &mut b);
            std::mem::swap(&mut za, &mut zb);
            area = -area;
        }
        let sub = SUBPIXEL as i64;
        // Pixel (px, py) has its centre at (px + 0.5, py + 0.5) pixels.
        let min_x = a.0.min(b.0).min(c.0);
        let max_x = a.0.max(b.0).max(c.0);
        let min_y = a.1.min(b.1).min(c.1);
        let max_y = a.1.max(b.1).max(c.1);
        let first = |lo: i64| (lo - sub / 2).div_euclid(sub).max(0);
        let last = |hi: i64, n: u32| (hi - sub / 2).div_euclid(sub).min(n as i64 - 1);
        let (x0, x1) = (first(min_x), last(max_x, self.width));
        let (y0, y1) = (first(min_y), last(max_y, self.height));
        // Top-left rule: a pixel centre exactly on an edge belongs to the triangle only when the
        // edge is a top or left edge (in this winding: going up, or going right horizontally).
        let bias = |p: (i64, i64), q: (i64, i64)| {
            let (dx, dy) = (q.0 - p.0, q.1 - p.1);
            if dy < 0 || (dy == 0 && dx > 0) {
                0
            } else {
                -1
            }
        };
        let (bias_a, bias_b, bias_c) = (bias(b, c), bias(c, a), bias(a, b));
        let inv_area = 1.0 / area as f64;
        let mut written = 0;
        // Edge functions are linear: step them per pixel instead of recomputing.
        let step_x = |p: (i64, i64), q: (i64, i64)| -(q.1 - p.1) * sub;
        let (dxa, dxb, dxc) = (step_x(b, c), step_x(c, a), step_x(a, b));
        for py in y0..=y1 {
            let start = (x0 * sub + sub / 2, py * sub + sub / 2);
            // Weight of vertex a is the edge function of the opposite edge b->c, and so on.
            let (wa0, wb0, wc0) = (edge(b, c, start), edge(c, a, start), edge(a, b, start));
            // The pixels of the row inside all three edges, solved from the edge functions
            // rather than tested pixel by pixel: the same integers, so the same pixels.
            let mut span = (0, x1 - x0);
            for (w, d, bias) in [(wa0, dxa, bias_a), (wb0, dxb, bias_b), (wc0, dxc, bias_c)] {
                span = inside(span, w + bias, d);
            }
            if span.0 > span.1 {
                continue;
            }
            let (mut wa, mut wb, mut wc) = (wa0 + span.0 * dxa, wb0 + span.0 * dxb, wc0 + span.0 * dxc);
            let row = py as usize * self.width as usize;
            for px in x0 + span.0..=x0 + span.1 {
                let i = row + px as usize;
                let z = ((wa as f64 * za as f64 + wb as f64 * zb as f64 + wc as f64 * zc as f64) * inv_area) as f32;
                if !depth_test || z > self.depth[i] {
                    let (fa, fb) = ((wa as f64 * inv_area) as f32, (wb as f64 * inv_area) as f32);
                    let fc = (wc as f64 * inv_area) as f32;
                    let weights = if swapped { [fb, fa, fc] } else { [fa, fb, fc] };
                    if let Some(color) = shade(weights) {
                        if depth_test {
                            self.depth[i] = z;
                        }
                        self.rgb[i * 3..i * 3 + 3].copy_from_slice(&color);
                        written += 1;
                    }
                }
                wa += dxa;
                wb += dxb;
                wc += dxc;
            }
        }
        written
    }

    /// A line segment `thickness` pixels wide, drawn over everything (no depth test).
    pub fn line(&mut self, a: Vec3, b: Vec3, thickness: f32, color: [u8; 3]) {
        let d = (b - a).truncate();
        let len = d.length();
        if !len.is_finite() || len < 1e-6 {
            return;
        }
        let n = glam::Vec2::new(-d.y, d.x) / len * (thickness * 0.5);
        let n = n.extend(0.0);
        let (p0, p1, p2, p3) = (a + n, b + n, b - n, a - n);
        self.fill_triangle([p0, p1, p2], color, false);
        self.fill_triangle([p0, p2, p3], color, false);
    }

    /// A filled disc of `radius` pixels around `centre`, drawn over everything.
    pub fn dot(&mut self, centre: Vec3, radius: f32, color: [u8; 3]) {
        if !centre.is_finite() || !radius.is_finite() || centre.x.abs() > MAX_COORD || centre.y.abs() > MAX_COORD {
            return;
        }
        let x0 = ((centre.x - radius).floor() as i64).max(0);
        let x1 = ((centre.x + radius).ceil() as i64).min(self.width as i64 - 1);
        let y0 = ((centre.y - radius).floor() as i64).max(0);
        let y1 = ((centre.y + radius).ceil() as i64).min(self.height as i64 - 1);
        for py in y0..=y1 {
            for px in x0..=x1 {
                let dx = px as f32 + 0.5 - centre.x;
                let dy = py as f32 + 0.5 - centre.y;
                if dx * dx + dy * dy <= radius * radius {
                    let i = (py as usize * self.width as usize + px as usize) * 3;
                    self.rgb[i..i + 3].copy_from_slice(&color);
                }
            }
        }
    }
}

/// The steps `k` of `span` (inclusive) at which `w + k * d >= 0`: one edge's inside along a row.
/// An empty result has its start past its end.
fn inside(span: (i64, i64), w: i64, d: i64) -> (i64, i64) {
    let (lo, hi) = span;
    match d.cmp(&0) {
        // k >= -w / d, rounded up.
        std::cmp::Ordering::Greater => (lo.max(-(w.div_euclid(d))), hi),
        // k <= w / -d, rounded down.
        std::cmp::Ordering::Less => (lo, hi.min(w.div_euclid(-d))),
        std::cmp::Ordering::Equal if w >= 0 => span,
        std::cmp::Ordering::Equal => (1, 0),
    }
}

/// Twice the signed area of (a, b, p) in fixed point: positive when p is to the right of a->b
/// on a y-down screen (counter-clockwise in the usual y-up sense).
fn edge(a: (i64, i64), b: (i64, i64), p: (i64, i64)) -> i64 {
    (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BG: [u8; 3] = [0, 0, 0];
    const INK: [u8; 3] = [255, 255, 255];

    fn count(c: &Canvas, color: [u8; 3]) -> usize {
        c.rgb.chunks_exact(3).filter(|p| *p == color).count()
    }

    /// Coverage as first written: every pixel of the bounding box tested against the three
    /// edge functions (with the top-left rule), stepping them pixel by pixel.
    fn covered_testing_each_pixel(v: [Vec3; 3], width: u32, height: u32) -> Vec<bool> {
        let mut out = vec![false; (width * height) as usize];
        let fx = |p: &Vec3| ((p.x * SUBPIXEL).round() as i64, (p.y * SUBPIXEL).round() as i64);
        let (mut a, mut b, c) = (fx(&v[0]), fx(&v[1]), fx(&v[2]));
        let area = edge(a, b, c);
        if area == 0 {
            return out;
        }
        if area < 0 {
            std::mem::swap(&mut a, &mut b);
        }
        let sub = SUBPIXEL as i64;
        let first = |lo: i64| (lo - sub / 2).div_euclid(sub).max(0);
        let last = |hi: i64, n: u32| (hi - sub / 2).div_euclid(sub).min(n as i64 - 1);
        let (x0, x1) = (first(a.0.min(b.0).min(c.0)), last(a.0.max(b.0).max(c.0), width));
        let (y0, y1) = (first(a.1.min(b.1).min(c.1)), last(a.1.max(b.1).max(c.1), height));
        let bias = |p: (i64, i64), q: (i64, i64)| {
            let (dx, dy) = (q.0 - p.0, q.1 - p.1);
            if dy < 0 || (dy == 0 && dx > 0) {
                0
            } else {
                -1
            }
        };
        let step_x = |p: (i64, i64), q: (i64, i64)| -(q.1 - p.1) * sub;
        for py in y0..=y1 {
            let start = (x0 * sub + sub / 2, py * sub + sub / 2);
            let (mut wa, mut wb, mut wc) = (edge(b, c, start), edge(c, a, start), edge(a, b, start));
            for px in x0..=x1 {
                if wa + bias(b, c) >= 0 && wb + bias(c, a) >= 0 && wc + bias(a, b) >= 0 {
                    out[(py * width as i64 + px) as usize] = true;
                }
                wa += step_x(b, c);
                wb += step_x(c, a);
                wc += step_x(a, b);
            }
        }
        out
    }

    #[test]
    fn solved_row_spans_cover_the_pixels_testing_each_pixel_covers() {
        let mut rng = boneyard_core::testdata::XorShift64(0x6A09_E667_F3BC_C908);
        // Corners on the sixteenth-pixel grid (pixel centres, edges through them, horizontal
        // and vertical edges included), inside, across and outside a 24 x 20 canvas.
        let mut coord = |span: u64| (rng.next_u64() % (span * 16)) as f32 / 16.0 - 8.0;
        let (mut triangles, mut pixels) = (0, 0);
        for case in 0..3000 {
            let span = if case % 3 == 0 { 6 } else { 40 };
            let mut v = [(); 3].map(|_| Vec3::new(coord(span), coord(span), 0.0));
            if case % 7 == 0 {
                v[1].y = v[0].y; // a horizontal edge
            }
            if case % 11 == 0 {
                v[2].x = v[0].x; // a vertical edge
            }
            let mut c = Canvas::new(24, 20, BG);
            let mut drawn = vec![false; 24 * 20];
            // Each pixel the fill shades, marked through the colour it is given.
            c.fill_triangle(v, INK, false);
            for (i, px) in c.rgb.chunks_exact(3).enumerate() {
                drawn[i] = px == INK;
            }
            let expected = covered_testing_each_pixel(v, 24, 20);
            assert_eq!(drawn, expected, "case {case}: {v:?}");
            triangles += usize::from(expected.iter().any(|&p| p));
            pixels += expected.iter().filter(|&&p| p).count();
        }
        assert!(triangles > 1500 && pixels > 50_000, "{triangles} triangles, {pixels} pixels");
    }

    #[test]
    fn right_triangle_coverage_by_hand() {
        // Legs of 8 px along the axes from the corner (0,0). Pixel centres (i+.5, j+.5) strictly
        // inside x + y < 8 are those with i + j <= 6: 7+6+...+1 = 28. The 8 centres exactly on
        // the hypotenuse (i + j = 7) lie on a right/bottom edge and are left to the neighbour.
        let mut c = Canvas::new(16, 16, BG);
        let n = c.fill_triangle([Vec3::new(0., 0., 0.), Vec3::new(8., 0., 0.), Vec3::new(0., 8., 0.)], INK, true);
        assert_eq!(n, 28);
        assert_eq!(count(&c, INK), 28);
        assert_eq!(c.pixel(6, 0), Some(INK));
        assert_eq!(c.pixel(7, 0), Some(BG));
        // The other half of the square takes the diagonal: 64 - 28 = 36, whatever the winding.
        let mut d = Canvas::new(16, 16, BG);
        let m = d.fill_triangle([Vec3::new(8., 8., 0.), Vec3::new(8., 0., 0.), Vec3::new(0., 8., 0.)], INK, true);
        assert_eq!(m, 36);
    }

    #[test]
    fn shared_edges_cover_each_pixel_once() {
        // A fan of triangles around an off-grid centre covering a 10x10 square: every pixel once.
        let centre = Vec3::new(4.3, 5.7, 0.0);
        let corners = [Vec3::new(0., 0., 0.), Vec3::new(10., 0., 0.), Vec3::new(10., 10., 0.), Vec3::new(0., 10., 0.)];
        let mut c = Canvas::new(12, 12, BG);
        let mut total = 0;
        for k in 0..4 {
            // Overlay mode, so a doubly covered pixel would count twice.
            total += c.fill_triangle([centre, corners[k], corners[(k + 1) % 4]], INK, false);
        }
        assert_eq!(total, 100);
        assert_eq!(count(&c, INK), 100);
    }

    #[test]
    fn depth_test_keeps_the_nearer_triangle() {
        let tri = |z: f32| [Vec3::new(0., 0., z), Vec3::new(10., 0., z), Vec3::new(0., 10., z)];
        let mut c = Canvas::new(10, 10, BG);
        c.fill_triangle(tri(1.0), [255, 0, 0], true);
        c.fill_triangle(tri(0.5), [0, 255, 0], true); // farther: hidden
        assert_eq!(c.pixel(1, 1), Some([255, 0, 0]));
        c.fill_triangle(tri(2.0), [0, 0, 255], true); // nearer: shown
        assert_eq!(c.pixel(1, 1), Some([0, 0, 255]));
    }

    #[test]
    fn degenerate_and_hostile_triangles_draw_nothing() {
        let mut c = Canvas::new(8, 8, BG);
        let p = Vec3::new(1., 1., 0.);
        assert_eq!(c.fill_triangle([p, p, Vec3::new(5., 5., 0.)], INK, true), 0);
        assert_eq!(c.fill_triangle([p, Vec3::new(f32::NAN, 0., 0.), Vec3::new(5., 5., 0.)], INK, true), 0);
        assert_eq!(c.fill_triangle([p, Vec3::new(1e30, 0., 0.), Vec3::new(5., 5., 0.)], INK, true), 0);
        // Far off-canvas but in range: clipped to nothing, no panic.
        assert_eq!(
            c.fill_triangle(
                [Vec3::new(-900., -900., 0.), Vec3::new(-800., -900., 0.), Vec3::new(-900., -800., 0.)],
                INK,
                true
            ),
            0
        );
        c.dot(Vec3::new(f32::INFINITY, 0., 0.), 3.0, INK);
        c.line(p, p, 2.0, INK);
        assert_eq!(count(&c, INK), 0);
    }

    #[test]
    fn dot_area_is_close_to_pi_r_squared() {
        let mut c = Canvas::new(40, 40, BG);
        c.dot(Vec3::new(20., 20., 0.), 10.0, INK);
        let n = count(&c, INK) as f32;
        assert!((n - std::f32::consts::PI * 100.0).abs() < 20.0, "{n}");
    }
}
