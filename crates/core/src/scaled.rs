//! A document seen at another scale (`export --scale F`): every length multiplied by one
//! factor, so a model in engine units arrives in Blender or a game engine at the size the
//! user wants. Rotations, frame times and engine-native channel values are untouched.
//!
//! Scaling every translation by `f` (bone rests, sampled locals, root motion, mesh positions)
//! is the conjugation `S M S^-1` of every world matrix `M` with `S = diag(f, f, f, 1)`: the
//! upper 3x3 of `M` stays as the engine computed it and its translation is multiplied by
//! `f`, which is what [`Scaled::pose`] returns. So the scaled export still equals the scaled
//! engine pose at every frame.

use crate::document::{AnimInfo, Document, FileSummary, Sample, SkeletonInfo, Warning};
use crate::error::{Error, Result};
use crate::model::Transform;
use glam::{Mat4, Vec3};

/// The smallest factor [`Scaled::new`] takes: engine lengths (up to about 10^5 units) stay
/// far from f32's subnormals.
pub const MIN_FACTOR: f32 = 1e-9;
/// The largest factor [`Scaled::new`] takes: engine lengths stay far below f32's largest
/// value (a factor of 1e38 made rest transforms infinite, and previews blank).
pub const MAX_FACTOR: f32 = 1e9;

/// `inner` with every length multiplied by `factor`.
pub struct Scaled<'a> {
    inner: &'a dyn Document,
    factor: f32,
    skeletons: Vec<SkeletonInfo>,
}

/// A usage error ([`Error::not_found`]) unless `factor` lies in `MIN_FACTOR..=MAX_FACTOR`: what
/// [`Scaled::new`] asks, for a caller to ask once before any document is read.
pub fn check_factor(factor: f32) -> Result<()> {
    if (MIN_FACTOR..=MAX_FACTOR).contains(&factor) {
        return Ok(());
    }
    let shown = if factor.is_finite() && factor != 0.0 && !(1e-4..1e6).contains(&factor.abs()) {
        format!("{factor:e}")
    } else {
        format!("{factor}")
    };
    Err(Error::not_found(format!(
        "--scale {shown}: the factor must be from {MIN_FACTOR:e} to {MAX_FACTOR:e} (lengths past that are not finite in f32, or are all 0)"
    )))
}

/// `--scale TEXT` as a factor: read as a real number (f64, so that `1e40` is not taken for
/// f32's infinity, nor `1e-50` for 0), then checked as [`check_factor`] checks it, the error
/// naming the value as it was given (`--scale 1e40`, where an f32 parse said `--scale inf`).
pub fn parse_factor(text: &str) -> Result<f32> {
    let given = text.trim();
    let range = || {
        Error::not_found(format!(
            "--scale {given}: the factor must be from {MIN_FACTOR:e} to {MAX_FACTOR:e} (lengths past that are not finite in f32, or are all 0)"
        ))
    };
    let value: f64 = given
        .parse()
        .map_err(|_| Error::not_found(format!("--scale {given:?}: not a number (a factor such as 0.001 or 1e-3)")))?;
    if !(MIN_FACTOR as f64..=MAX_FACTOR as f64).contains(&value) {
        return Err(range());
    }
    let factor = value as f32;
    check_factor(factor).map_err(|_| range())?;
    Ok(factor)
}

impl<'a> Scaled<'a> {
    /// `factor` must lie in `MIN_FACTOR..=MAX_FACTOR` ([`check_factor`]).
    pub fn new(inner: &'a dyn Document, factor: f32) -> Result<Self> {
        check_factor(factor)?;
        let skeletons = inner
            .skeletons()
            .iter()
            .map(|s| {
                let mut s = s.clone();
                for b in &mut s.skeleton.bones {
                    b.rest.translation *= factor;
                }
                for m in &mut s.meshes {
                    for p in &mut m.positions {
                        *p *= factor;
                    }
                }
                s
            })
            .collect();
        Ok(Scaled { inner, factor, skeletons })
    }
}

impl Document for Scaled<'_> {
    fn family(&self) -> &'static str {
        self.inner.family()
    }
    fn files(&self) -> Vec<FileSummary> {
        self.inner.files()
    }
    fn skeletons(&self) -> &[SkeletonInfo] {
        &self.skeletons
    }
    fn animations(&self) -> &[AnimInfo] {
        self.inner.animations()
    }
    fn warnings(&self) -> &[Warning] {
        self.inner.warnings()
    }
    fn animation_extra(&self, anim: usize) -> serde_json::Map<String, serde_json::Value> {
        self.inner.animation_extra(anim)
    }
    fn sample(&self, anim: usize, frame: f64) -> Result<Sample> {
        let mut s = self.inner.sample(anim, frame)?;
        for t in &mut s.locals {
            t.translation *= self.factor;
        }
        if let Some(r) = s.root_motion.as_mut() {
            *r *= self.factor;
        }
        Ok(s)
    }
    fn sample_locals(&self, anim: usize, frame: f64, locals: &mut Vec<Transform>) -> Result<Option<Vec3>> {
        let root = self.inner.sample_locals(anim, frame, locals)?;
        for t in locals.iter_mut() {
            t.translation *= self.factor;
        }
        Ok(root.map(|r| r * self.factor))
    }
    fn pose(&self, skeleton: usize, anim: Option<usize>, frame: f64) -> Result<Vec<Mat4>> {
        let mut world = self.inner.pose(skeleton, anim, frame)?;
        for m in &mut world {
            m.w_axis.x *= self.factor;
            m.w_axis.y *= self.factor;
            m.w_axis.z *= self.factor;
        }
        Ok(world)
    }
    fn check(&self) -> Result<Vec<String>> {
        self.inner.check()
    }
    fn frame_textures(
        &self,
        skeleton: usize,
        anim: Option<usize>,
        frame: f64,
    ) -> Result<Vec<(usize, crate::model::Texture)>> {
        self.inner.frame_textures(skeleton, anim, frame)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The demo character at scale 0.01: every rest translation, sampled translation and posed
    /// world translation is a hundredth of the original; rotations are bit-identical.
    #[test]
    fn lengths_scale_rotations_do_not() {
        let doc = crate::demo::baked_document(30.0);
        let d: &dyn Document = &doc;
        let s = Scaled::new(d, 0.01).unwrap();
        let (a, b) = (&d.skeletons()[0].skeleton, &s.skeletons()[0].skeleton);
        for (x, y) in a.bones.iter().zip(&b.bones) {
            assert_eq!(y.rest.translation, x.rest.translation * 0.01);
            assert_eq!(y.rest.rotation, x.rest.rotation);
        }
        let (sa, sb) = (d.sample(0, 7.0).unwrap(), s.sample(0, 7.0).unwrap());
        for (x, y) in sa.locals.iter().zip(&sb.locals) {
            assert_eq!(y.translation, x.translation * 0.01);
            assert_eq!(y.rotation, x.rotation);
        }
        let (pa, pb) = (d.pose(0, Some(0), 7.0).unwrap(), s.pose(0, Some(0), 7.0).unwrap());
        for (x, y) in pa.iter().zip(&pb) {
            assert_eq!(y.x_axis, x.x_axis);
            assert_eq!(y.w_axis.truncate(), x.w_axis.truncate() * 0.01);
        }
        // The scaled pose is the forward kinematics of the scaled locals (what export bakes).
        let fk = crate::fk::world_matrices(b, &sb.locals);
        for (x, y) in fk.iter().zip(&pb) {
            assert!((x.w_axis - y.w_axis).abs().max_element() < 1e-6);
        }
        assert!(Scaled::new(d, 0.0).is_err() && Scaled::new(d, f32::NAN).is_err());
    }
}
