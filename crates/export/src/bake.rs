//! Baking a clip: the document's own sampled local pose at every engine frame.
//!
//! Exporters never interpolate: frame `f` of the file is `Document::sample_locals_on(anim, skeleton, f)`
//! (`sample`'s pose without its channels), at time
//! `f / fps` (the clip's native rate), so the file reproduces the engine at every frame time.
//! With [`ExportOptions::subframes`] `n > 1`, a clip the engine evaluates between frames
//! (LINEAR) is baked at every `1/n` of a frame instead: key `k` is the sample at frame `k / n`,
//! at time `k / (n · fps)`, the last key still the last frame.

use boneyard_core::error::ErrorKind;
use boneyard_core::model::continuous;
use boneyard_core::{AnimInfo, Document, Error, Interpolation, Result, SkeletonInfo};
use glam::{Quat, Vec3};

use crate::ExportOptions;

/// Refuse clips whose baked keys would take more than this many bytes (hostile frame counts).
/// Export limits stay constants (export takes a `Document`, not `OpenOptions`; their errors are
/// `ErrorKind::Ceiling`).
pub(crate) const MAX_BAKED_BYTES: u64 = 256 << 20;
/// And clips longer than this many frames (over 9 hours at 30 fps).
pub(crate) const MAX_FRAMES: usize = 1_000_000;

/// A clip baked for export. Per-bone arrays are stored bone-major: `translations[b * keys + k]`.
#[derive(Debug, Clone)]
pub(crate) struct Baked {
    pub name: String,
    pub index: usize,
    pub fps: f64,
    /// The clip's engine frames.
    pub frames: usize,
    /// Keys per engine frame: 1, or [`ExportOptions::subframes`] for a LINEAR clip.
    pub subframes: u32,
    /// Keys baked: `(frames - 1) * subframes + 1`.
    pub keys: usize,
    pub interpolation: Interpolation,
    pub bones: usize,
    /// Key times in seconds, `k / (subframes · fps)` rounded once to f32; strictly increasing.
    pub times: Vec<f32>,
    pub translations: Vec<Vec3>,
    /// Unit quaternions, each in the hemisphere of the previous frame's.
    pub rotations: Vec<Quat>,
    pub scales: Vec<Vec3>,
    pub info: AnimInfo,
}

impl Baked {
    pub fn translation(&self, bone: usize, key: usize) -> Vec3 {
        self.translations[bone * self.keys + key]
    }
    pub fn rotation(&self, bone: usize, key: usize) -> Quat {
        self.rotations[bone * self.keys + key]
    }
    pub fn scale(&self, bone: usize, key: usize) -> Vec3 {
        self.scales[bone * self.keys + key]
    }
}

fn invalid(msg: String) -> Error {
    Error::new(ErrorKind::Invalid(msg))
}

/// A rotation the exporters may write: finite and unit. Already-unit quaternions (within
/// f32 rounding) are kept bit for bit; others are normalized.
pub(crate) fn unit_rotation(q: Quat) -> Option<Quat> {
    if !q.is_finite() {
        return None;
    }
    let l2 = q.length_squared();
    if (l2 - 1.0).abs() <= 1e-6 {
        Some(q)
    } else if l2 > 1e-12 {
        Some(q.normalize())
    } else {
        None
    }
}

/// The animation's metadata, checked against the skeleton it is exported with.
pub(crate) fn anim_info(doc: &dyn Document, skeleton: usize, anim: usize) -> Result<&AnimInfo> {
    let info = doc.animations().get(anim).ok_or_else(|| Error::not_found(format!("no animation #{anim}")))?;
    if let Some(s) = info.skeleton {
        if s != skeleton && !doc.plays_on(anim, skeleton) {
            return Err(invalid(format!(
                "animation #{anim} {} plays on skeleton #{s} {}, not on skeleton #{skeleton} {}",
                info.name,
                doc.skeletons().get(s).map_or("", |x| x.id.as_str()),
                doc.skeletons().get(skeleton).map_or("", |x| x.id.as_str())
            )));
        }
    }
    if info.frames == 0 {
        return Err(invalid(format!("animation #{anim} {} has no frames", info.name)));
    }
    if !(info.fps.is_finite() && info.fps > 0.0) {
        return Err(invalid(format!("animation #{anim} {} has frame rate {}", info.name, info.fps)));
    }
    Ok(info)
}

/// Skeleton `skeleton` of the document, checked to be ordered parents-first (its fields are
/// public, so a family could build one without `Skeleton::new`; forward kinematics and the
/// writers index parents and rely on it).
pub(crate) fn skeleton(doc: &dyn Document, skeleton: usize) -> Result<&SkeletonInfo> {
    let info = doc.skeletons().get(skeleton).ok_or_else(|| Error::not_found(format!("no skeleton #{skeleton}")))?;
    for (i, b) in info.skeleton.bones.iter().enumerate() {
        if let Some(p) = b.parent.filter(|&p| p >= i) {
            return Err(invalid(format!(
                "skeleton {}: bone {i} ({}) has parent {p}, which does not precede it",
                info.name, b.name
            )));
        }
    }
    Ok(info)
}

/// Bake animation `anim` on skeleton `skel` (`skeleton` is its index in the document).
pub(crate) fn bake(doc: &dyn Document, skeleton: usize, anim: usize, opts: &ExportOptions) -> Result<Baked> {
    let skel = &self::skeleton(doc, skeleton)?.skeleton;
    let info = anim_info(doc, skeleton, anim)?;
    let bones = skel.len();
    let frames = info.frames as usize;
    if opts.subframes == 0 || opts.subframes > crate::MAX_SUBFRAMES {
        return Err(invalid(format!("{} keys a frame: from 1 to {}", opts.subframes, crate::MAX_SUBFRAMES)));
    }
    // Only a clip the engine evaluates between frames has anything between its frames.
    let subframes = if info.interpolation == Interpolation::Linear { opts.subframes } else { 1 };
    let keys = (frames - 1).saturating_mul(subframes as usize).saturating_add(1);
    // Each key holds up to 10 floats (T, R, S) per bone plus its time.
    let bytes = (keys as u64).saturating_mul(bones as u64 * 40 + 4);
    if bytes > MAX_BAKED_BYTES || keys > MAX_FRAMES {
        let per = if subframes > 1 { format!(" ({subframes} keys a frame)") } else { String::new() };
        return Err(Error::new(ErrorKind::Ceiling(format!(
            "animation #{anim} {}: {frames} frames{per} x {bones} bones is too large to export",
            info.name
        ))));
    }
    let mut times = Vec::with_capacity(keys);
    let n = keys * bones;
    let mut translations = vec![Vec3::ZERO; n];
    let mut rotations = vec![Quat::IDENTITY; n];
    let mut scales = vec![Vec3::ONE; n];
    let mut locals = Vec::with_capacity(bones);
    // `k / (n · fps)`: with one key a frame exactly `f / fps` as before (the product is exact
    // for any rate), and key `f · n` the same time as frame `f`'s.
    let key_rate = info.fps * subframes as f64;
    for k in 0..keys {
        let t = (k as f64 / key_rate) as f32;
        if times.last().is_some_and(|&p| t <= p) || !t.is_finite() {
            let at = if subframes > 1 { format!("key {k} ({subframes} a frame)") } else { format!("frame {k}") };
            return Err(Error::new(ErrorKind::Ceiling(format!(
                "animation #{anim} {}: {at} at {} fps has no distinct 32-bit time",
                info.name, info.fps
            ))));
        }
        times.push(t);
        let f = k / subframes as usize;
        let frame = f as f64 + (k % subframes as usize) as f64 / subframes as f64;
        let root_motion = doc.sample_locals_on(anim, skeleton, frame, &mut locals)?;
        for (b, bone) in skel.bones.iter().enumerate() {
            let mut local = locals.get(b).copied().unwrap_or(bone.rest);
            if opts.in_place && b == 0 {
                if let Some(rm) = root_motion {
                    local.translation -= rm;
                }
            }
            let bad = |what: &str| {
                invalid(format!("animation #{anim} {} frame {frame} bone {b} ({}): {what}", info.name, bone.name))
            };
            if !local.translation.is_finite() {
                return Err(bad("translation is not finite"));
            }
            if !local.scale.is_finite() {
                return Err(bad("scale is not finite"));
            }
            let mut q = unit_rotation(local.rotation).ok_or_else(|| bad("rotation is not a quaternion"))?;
            if k > 0 {
                q = continuous(rotations[b * keys + k - 1], q);
            }
            translations[b * keys + k] = local.translation;
            rotations[b * keys + k] = q;
            scales[b * keys + k] = local.scale;
        }
    }
    Ok(Baked {
        name: info.name.clone(),
        index: anim,
        fps: info.fps,
        frames,
        subframes,
        keys,
        interpolation: info.interpolation,
        bones,
        times,
        translations,
        rotations,
        scales,
        info: info.clone(),
    })
}
