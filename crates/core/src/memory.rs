//! A document held in memory as baked poses: one local transform per bone per frame.
//! Used for built-in sample data and for tests of the exporters.

use crate::document::{AnimInfo, Channel, Document, FileSummary, Sample, SkeletonInfo};
use crate::error::{Error, Result};
use crate::model::Transform;
use glam::Vec3;

/// One animation as baked local transforms, one set per frame.
#[derive(Debug, Clone)]
pub struct BakedClip {
    /// The animation's metadata as [`Document::animations`] lists it.
    pub info: AnimInfo,
    /// `frames[f][bone]`.
    pub frames: Vec<Vec<Transform>>,
    /// Root displacement per frame (for in-place export), if the clip has root motion.
    pub root_motion: Option<Vec<Vec3>>,
}

/// A [`Document`] whose animations are baked poses: sampling returns the stored frame, no
/// engine numerics.
#[derive(Debug, Clone, Default)]
pub struct BakedDocument {
    /// The family name it reports ([`Document::family`]).
    pub family: &'static str,
    /// The input files as `info` shows them.
    pub files: Vec<FileSummary>,
    /// The skeletons the clips play on.
    pub skeletons: Vec<SkeletonInfo>,
    /// The clips' metadata (kept beside `clips` so `animations()` can lend a slice).
    pub infos: Vec<AnimInfo>,
    /// The baked clips, in `--anim #N` order.
    pub clips: Vec<BakedClip>,
}

impl BakedDocument {
    /// A document of these skeletons and clips; the animation list is taken from the clips.
    pub fn new(
        family: &'static str,
        files: Vec<FileSummary>,
        skeletons: Vec<SkeletonInfo>,
        clips: Vec<BakedClip>,
    ) -> Self {
        let infos = clips.iter().map(|c| c.info.clone()).collect();
        BakedDocument { family, files, skeletons, infos, clips }
    }
}

impl Document for BakedDocument {
    fn family(&self) -> &'static str {
        self.family
    }
    fn files(&self) -> Vec<FileSummary> {
        self.files.clone()
    }
    fn skeletons(&self) -> &[SkeletonInfo] {
        &self.skeletons
    }
    fn animations(&self) -> &[AnimInfo] {
        &self.infos
    }
    /// Whole frames only: the frame is rounded down and clamped to the clip.
    fn sample(&self, anim: usize, frame: f64) -> Result<Sample> {
        let c = self.clips.get(anim).ok_or_else(|| Error::not_found(format!("no animation #{anim}")))?;
        if c.frames.is_empty() {
            return Err(Error::invalid(0, format!("animation {} has no frames", c.info.name)));
        }
        let f = if frame.is_finite() { frame.floor().clamp(0.0, (c.frames.len() - 1) as f64) as usize } else { 0 };
        let locals = c.frames[f].clone();
        let channels = locals
            .iter()
            .enumerate()
            .map(|(i, t)| Channel::new(i.to_string(), "rotation", t.rotation.to_array().to_vec()))
            .collect();
        Ok(Sample {
            frame: f as f64,
            channels,
            locals,
            root_motion: c.root_motion.as_ref().and_then(|r| r.get(f).copied()),
            extra: Default::default(),
        })
    }
}
