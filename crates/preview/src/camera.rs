//! An orthographic camera orbiting the character, framed on a bounding box.
//!
//! Orthographic because a preview is for looking at poses: sizes do not change with distance,
//! so a clip with root motion stays the same size while it walks across the frame.

use glam::{Vec2, Vec3};

/// View axes and the mapping from view space to pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    /// Screen right, screen up and "towards the viewer", as world directions (orthonormal,
    /// right-handed: right x up = back).
    pub right: Vec3,
    /// Screen up, as a world direction.
    pub up: Vec3,
    /// Towards the viewer, as a world direction.
    pub back: Vec3,
    /// The view-space (right, up) point drawn at the centre of the image.
    pub centre: Vec2,
    /// Pixels per world unit.
    pub scale: f32,
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
}

impl Camera {
    /// Axes of a camera orbiting the Y axis. Yaw 0 looks from +Z towards -Z (so a character
    /// facing +Z shows its front); positive yaw moves the camera towards +X; positive pitch
    /// raises it to look down.
    pub fn orbit(yaw_degrees: f32, pitch_degrees: f32, width: u32, height: u32) -> Self {
        let (yaw, pitch) = (yaw_degrees.to_radians(), pitch_degrees.to_radians());
        let back = Vec3::new(yaw.sin() * pitch.cos(), pitch.sin(), yaw.cos() * pitch.cos());
        let right = Vec3::new(yaw.cos(), 0.0, -yaw.sin());
        let up = back.cross(right);
        Camera { right, up, back, centre: Vec2::ZERO, scale: 1.0, width, height }
    }

    /// View-space coordinates: (right, up, towards the viewer).
    pub fn view(&self, p: Vec3) -> Vec3 {
        Vec3::new(p.dot(self.right), p.dot(self.up), p.dot(self.back))
    }

    /// Screen position in pixels (x right, y down) and depth (larger = closer).
    pub fn project(&self, p: Vec3) -> Vec3 {
        let v = self.view(p);
        Vec3::new(
            self.width as f32 * 0.5 + (v.x - self.centre.x) * self.scale,
            self.height as f32 * 0.5 - (v.y - self.centre.y) * self.scale,
            v.z,
        )
    }

    /// Centre and scale the camera so that the view-space box `bounds` fills the image with a
    /// margin of `margin` (a fraction of the smaller side) all round.
    pub fn fit(&mut self, bounds: &Bounds, margin: f32) {
        let Some((lo, hi)) = bounds.get() else {
            return;
        };
        self.centre = (lo + hi) * 0.5;
        let pad = margin * self.width.min(self.height) as f32;
        let avail = Vec2::new((self.width as f32 - 2.0 * pad).max(1.0), (self.height as f32 - 2.0 * pad).max(1.0));
        let size = hi - lo;
        let sx = if size.x > 1e-9 { avail.x / size.x } else { f32::INFINITY };
        let sy = if size.y > 1e-9 { avail.y / size.y } else { f32::INFINITY };
        let s = sx.min(sy);
        self.scale = if s.is_finite() && s > 0.0 { s } else { 1.0 };
    }
}

/// A 2-D bounding box in view space, grown point by point (non-finite points are ignored).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Bounds {
    extent: Option<(Vec2, Vec2)>,
}

impl Bounds {
    /// Grow the box to hold `v` (non-finite points are ignored).
    pub fn add(&mut self, v: Vec2) {
        if !v.is_finite() {
            return;
        }
        self.extent = Some(match self.extent {
            None => (v, v),
            Some((lo, hi)) => (lo.min(v), hi.max(v)),
        });
    }
    /// The (min, max) corners, or `None` when nothing was added.
    pub fn get(&self) -> Option<(Vec2, Vec2)> {
        self.extent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaw_zero_looks_down_minus_z() {
        let c = Camera::orbit(0.0, 0.0, 100, 100);
        assert!((c.right - Vec3::X).length() < 1e-6);
        assert!((c.up - Vec3::Y).length() < 1e-6);
        assert!((c.back - Vec3::Z).length() < 1e-6);
    }

    #[test]
    fn axes_are_orthonormal_and_right_handed() {
        let c = Camera::orbit(37.0, 21.0, 10, 10);
        assert!((c.right.cross(c.up) - c.back).length() < 1e-5);
        assert!((c.up.length() - 1.0).abs() < 1e-5);
        assert!(c.right.dot(c.back).abs() < 1e-6);
        // Pitched up: the camera is above and screen-up leans away from the viewer.
        assert!(c.back.y > 0.0 && c.up.dot(Vec3::Z) < 0.0);
    }

    #[test]
    fn fit_maps_the_box_into_the_margins() {
        // A 2 x 1 box into 100 x 100 with 10 % margins: scale 80 / 2 = 40 px per unit.
        let mut c = Camera::orbit(0.0, 0.0, 100, 100);
        let mut b = Bounds::default();
        b.add(Vec2::new(-1.0, 0.0));
        b.add(Vec2::new(1.0, 1.0));
        b.add(Vec2::new(f32::NAN, 5.0));
        c.fit(&b, 0.1);
        assert_eq!(c.scale, 40.0);
        let left = c.project(Vec3::new(-1.0, 0.5, 0.0));
        assert_eq!((left.x, left.y), (10.0, 50.0));
        let top = c.project(Vec3::new(0.0, 1.0, 0.0));
        assert_eq!((top.x, top.y), (50.0, 30.0));
    }
}
