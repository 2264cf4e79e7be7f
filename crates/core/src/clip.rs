//! Write-back: a clip to write into a game's own format, family-neutral.
//!
//! A [`Clip`] is what an importer (glTF reading, in `boneyard-export`) hands a family: one
//! animation already sampled at the target engine's frame rate, with the target skeleton's
//! bone names and, per frame, every bone's local transform in the engine's units and axes
//! (the conventions of [`crate::model`]: `T * R * S` relative to the parent). The family
//! encodes it ([`crate::Family::import_clips`]) and reads every file it writes back before
//! handing it out.

use crate::document::Warning;
use crate::error::{Error, Result};
use crate::model::Transform;
use glam::Vec3;

/// One animation to write back.
#[derive(Debug, Clone, PartialEq)]
pub struct Clip {
    /// The animation's name (a glTF animation's name); families derive file and instance
    /// names from it.
    pub name: String,
    /// Frames per second of `poses` (the target engine's rate).
    pub fps: f64,
    /// The target skeleton's bone names, in its order; `poses[f][b]` is bone `bones[b]`.
    pub bones: Vec<String>,
    /// Per frame (0..frames), per bone, the local transform. Bones the source did not animate
    /// hold the target skeleton's rest transform.
    pub poses: Vec<Vec<Transform>>,
    /// Per bone: whether the source animated it (false: held at rest).
    pub animated: Vec<bool>,
    /// Per frame, the part of the root bone's translation that is root motion (displacement
    /// since frame 0), when the source says so. `None`: the root's translation is all there is
    /// (a family then derives its own root motion from it).
    pub root_motion: Option<Vec<Vec3>>,
    /// Where it came from ("walk.glb#0"), for messages.
    pub source: String,
}

impl Clip {
    /// Number of frames.
    pub fn frames(&self) -> usize {
        self.poses.len()
    }

    /// Check the clip is whole: at least one frame, one pose entry per bone on every frame, a
    /// finite positive rate, every value finite. The error names the clip, the frame and the bone.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::unplaced(format!("clip {:?} ({}): {m}", self.name, self.source)));
        if !(self.fps.is_finite() && self.fps > 0.0) {
            return bad(format!("frame rate {} is not a positive number", self.fps));
        }
        if self.poses.is_empty() {
            return bad("no frames".into());
        }
        if self.animated.len() != self.bones.len() {
            return bad(format!("{} animated flags for {} bones", self.animated.len(), self.bones.len()));
        }
        for (f, pose) in self.poses.iter().enumerate() {
            if pose.len() != self.bones.len() {
                return bad(format!("frame {f} has {} bones, the clip {}", pose.len(), self.bones.len()));
            }
            for (b, t) in pose.iter().enumerate() {
                let finite = t.translation.is_finite() && t.rotation.is_finite() && t.scale.is_finite();
                if !finite {
                    return bad(format!("frame {f} bone {:?}: a value is not finite", self.bones[b]));
                }
            }
        }
        if let Some(rm) = &self.root_motion {
            if rm.len() != self.poses.len() {
                return bad(format!("{} root motion entries for {} frames", rm.len(), self.poses.len()));
            }
            if let Some(f) = rm.iter().position(|v| !v.is_finite()) {
                return bad(format!("frame {f}: root motion is not finite"));
            }
        }
        Ok(())
    }
}

/// What the caller asks of [`crate::Family::import_clips`] beyond the clips.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// `--skeleton S`: the skeleton of the `into` files the clips were matched to (id, name
    /// or `#N`, as `Document::find_skeleton` takes it); None: the family's default (the first).
    pub skeleton: Option<String>,
    /// Family-specific key size (Oni: `--oni-keys 6|16`); None: the family's default.
    pub key_size: Option<u16>,
    /// Largest rotation error (radians) a family that drops keys may leave at any frame;
    /// None: the family's default.
    pub tolerance: Option<f64>,
    /// `--like ANIM`: an animation of the `into` files whose other fields (type, states,
    /// attacks...) the written ones copy.
    pub like: Option<String>,
}

/// One animation in a written file, for `import --json`.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedAnim {
    /// The animation's name as it is stored in the written file.
    pub name: String,
    /// Its position in the written file's animation list (as `--anim #N` takes it).
    pub index: usize,
    /// Byte offset of its header in the written file, when the format has one worth naming.
    pub offset: Option<u64>,
    /// Number of frames written (the engine's samples 0..frames-1).
    pub frames: u32,
    /// The playback rate the written file declares, in frames per second.
    pub fps: f64,
    /// Format-specific figures (keys written, largest error...).
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// One file written by an import.
#[derive(Debug, Clone)]
pub struct ImportedFile {
    /// File name (no directories) to write under `--out`.
    pub name: String,
    /// The whole file, ready to write.
    pub bytes: Vec<u8>,
    /// e.g. "Oni instance file (OniSplit .oni)".
    pub format: String,
    /// The animations the file holds, in its own order.
    pub animations: Vec<ImportedAnim>,
}

/// What [`crate::Family::import_clips`] hands back: the files (each already read back by the
/// family's own reader) and what was guessed or left out.
#[derive(Debug, Clone, Default)]
pub struct Imported {
    /// The files written, each already read back by the family's own reader.
    pub files: Vec<ImportedFile>,
    /// What was guessed or left out while writing, each naming file and offset where known.
    pub warnings: Vec<Warning>,
    /// What reading the `into` files said (the document's own warnings, as `list` gives
    /// them): apart, so that a caller can show the writing's first and count these.
    pub read_warnings: Vec<Warning>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clip() -> Clip {
        Clip {
            name: "a".into(),
            fps: 60.0,
            bones: vec!["root".into()],
            poses: vec![vec![Transform::IDENTITY]; 3],
            animated: vec![true],
            root_motion: None,
            source: "t.glb#0".into(),
        }
    }

    #[test]
    fn validate_names_clip_frame_and_bone() {
        assert!(clip().validate().is_ok());
        let mut c = clip();
        c.poses[2][0].rotation.x = f32::NAN;
        let e = c.validate().unwrap_err().to_string();
        assert!(e.contains("clip \"a\"") && e.contains("frame 2") && e.contains("\"root\""), "{e}");
        let mut c = clip();
        c.poses.clear();
        assert!(c.validate().is_err());
        let mut c = clip();
        c.fps = 0.0;
        assert!(c.validate().is_err());
    }
}
