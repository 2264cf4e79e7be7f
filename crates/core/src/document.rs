//! What a family hands out after reading files.
//!
//! A [`Document`] is the result of opening one or more files of one game family. It lists
//! skeletons and animations, samples an animation with the family's *own* engine numerics,
//! and poses a skeleton to world matrices the way the engine does. Everything the CLI,
//! export, preview and viewer do goes through this trait, so none of them names a format.

use crate::error::{Error, Result};
use crate::model::{Mesh, Skeleton, Texture, Transform};
use glam::{Mat4, Vec3};
use serde_json::{Map, Value};

/// One input file as `info` reports it.
#[derive(Debug, Clone, Default)]
pub struct FileSummary {
    /// The path as given by the caller (or the entry's name inside a container).
    pub path: String,
    /// e.g. "Oni level file", "Zelda 64 object", "Shenmue MOTN".
    pub format: String,
    /// version / variant, e.g. "VR31 PC retail", "OoT debug (GC EU MQ)".
    pub variant: String,
    /// Named counts ("instances", "TRAM", "sequences", ...), in display order.
    pub counts: Vec<(String, u64)>,
    /// Anything else worth telling (companion files found, layouts not decoded, ...).
    pub notes: Vec<String>,
}

/// Something a family skipped, guessed or left out while reading: never silent. The CLI prints
/// each on stderr and every `--json` output carries them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Warning {
    /// The file it concerns (as given on the command line or the entry's name inside it).
    pub file: String,
    /// The byte offset in that file where the skipped or doubtful bytes are, when known.
    pub offset: Option<u64>,
    /// What was skipped and why, in a user's words.
    pub message: String,
}

impl Warning {
    /// A warning at a byte offset of a file.
    pub fn at(file: impl Into<String>, offset: u64, message: impl Into<String>) -> Self {
        Warning { file: file.into(), offset: Some(offset), message: message.into() }
    }
    /// A warning about a whole file (no one offset).
    pub fn in_file(file: impl Into<String>, message: impl Into<String>) -> Self {
        Warning { file: file.into(), offset: None, message: message.into() }
    }
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.offset {
            Some(o) => write!(f, "{}: at byte offset {o} (0x{o:x}): {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// A skeleton with what is attached to it.
#[derive(Debug, Clone)]
pub struct SkeletonInfo {
    /// Stable identifier (`--skeleton` accepts it), e.g. "0x3268" or "TRBSkonoko".
    pub id: String,
    /// Display name (the engine's own name where the format stores one).
    pub name: String,
    /// Where it came from ("object_dekunuts@0x3268").
    pub source: String,
    /// The bones and their rest transforms.
    pub skeleton: Skeleton,
    /// Meshes bound to the skeleton's bones (empty when the format has none or they were not read).
    pub meshes: Vec<Mesh>,
    /// Format-specific fields for `list --json`.
    pub extra: Map<String, Value>,
}

impl SkeletonInfo {
    /// The box (min, max corners) around the rest pose: every joint and every mesh vertex
    /// (rigid meshes moved by their bone, skinned ones as they are at rest), in engine units.
    /// `None` for an empty skeleton.
    pub fn rest_bounds(&self) -> Option<(Vec3, Vec3)> {
        let world = self.skeleton.rest_world();
        let joints = world.iter().map(|m| m.w_axis.truncate());
        let verts = self.meshes.iter().flat_map(|m| {
            let to_world = match m.binding {
                crate::model::MeshBinding::Rigid { bone } => world.get(bone).copied().unwrap_or(Mat4::IDENTITY),
                crate::model::MeshBinding::Skinned { .. } => Mat4::IDENTITY,
            };
            m.positions.iter().map(move |p| to_world.transform_point3(*p))
        });
        joints.chain(verts).filter(|p| p.is_finite()).fold(None, |acc, p| match acc {
            None => Some((p, p)),
            Some((lo, hi)) => Some((lo.min(p), hi.max(p))),
        })
    }
}

/// How an exported clip should be interpolated between the engine's frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interpolation {
    /// The engine evaluates the clip between frames too (curves at a fractional frame, its
    /// own way); baked at every frame with LINEAR, exact at every frame time and near it
    /// between them.
    Linear,
    /// The engine holds each frame (it looks the clip up at a whole frame, the requested
    /// one rounded down): baked at every frame with STEP, exact at every time.
    Step,
}

/// An animation's metadata.
#[derive(Debug, Clone)]
pub struct AnimInfo {
    /// Position in `Document::animations` (what `--anim #N` selects).
    pub index: usize,
    /// The animation's name (from the file, or made from its offset when the format has none).
    pub name: String,
    /// Number of frames (samples 0..frames-1 are the clip's keys).
    pub frames: u32,
    /// The engine's playback rate in frames per second.
    pub fps: f64,
    /// Number of bones/joints/channels it drives.
    pub bones: usize,
    /// e.g. "TRAM/6", "z64 normal", "z64 link", "MOTN".
    pub format: String,
    /// Where it came from ("object_dekunuts@0x1a4c", "MOTION.BIN#12").
    pub source: String,
    /// Index into `Document::skeletons` of the skeleton it plays on, when known.
    pub skeleton: Option<usize>,
    /// How exporters interpolate between the baked engine frames.
    pub interpolation: Interpolation,
    /// Format-specific fields for `list --json` (never renamed once published).
    pub extra: Map<String, Value>,
}

/// One engine-native value (before conversion to the common model).
#[derive(Debug, Clone, PartialEq)]
pub struct Channel {
    /// What the value drives (a bone, joint or control name).
    pub target: String,
    /// Which property of the target ("rotation", "translation", a family's own channel name).
    pub path: String,
    /// The engine's value as JSON (numbers as the engine holds them, before conversion).
    pub value: Value,
}

impl Channel {
    /// A channel of `value` for `path` of `target`.
    pub fn new(target: impl Into<String>, path: impl Into<String>, value: impl Into<Value>) -> Self {
        Channel { target: target.into(), path: path.into(), value: value.into() }
    }
}

/// An animation sampled at one frame.
#[derive(Debug, Clone, Default)]
pub struct Sample {
    /// The frame that was actually sampled, after the engine's own rounding.
    pub frame: f64,
    /// Engine-native values (see cli.md for each family's channel names).
    pub channels: Vec<Channel>,
    /// Local transforms of every bone of the animation's skeleton, root motion included.
    pub locals: Vec<Transform>,
    /// The part of the root bone's translation that is root motion (displacement since
    /// frame 0), so exporters can offer an in-place variant. `None`: no root motion.
    pub root_motion: Option<Vec3>,
    /// Format-specific extras for `sample --json`.
    pub extra: Map<String, Value>,
}

/// What a family hands out after reading its files: skeletons and animations, sampled and
/// posed with the family's own engine numerics. Everything downstream (CLI, export, preview,
/// viewer) reads a game only through this trait.
pub trait Document: Send + Sync {
    /// The family's name ("oni", "z64", "shenmue").
    fn family(&self) -> &'static str;

    /// What each input file is.
    fn files(&self) -> Vec<FileSummary>;

    /// The skeletons read, in a stable order (`--skeleton` indexes or ids select one).
    fn skeletons(&self) -> &[SkeletonInfo];

    /// The animations read, in a stable order (`--anim #N` is an index into this list).
    fn animations(&self) -> &[AnimInfo];

    /// What was skipped, guessed or left out while reading (name-table entries that did not
    /// validate, meshes not drawn, layouts not decoded...), each naming file and offset.
    fn warnings(&self) -> &[Warning] {
        &[]
    }

    /// The format-specific fields of animation `anim` for `list --json` (merged after the
    /// common ones). The default is the info's `extra`; a family with thousands of
    /// animations may leave `extra` empty and build them here, when they are asked for, so
    /// that opening a whole level does not hold a JSON tree per animation.
    fn animation_extra(&self, anim: usize) -> Map<String, Value> {
        self.animations().get(anim).map(|a| a.extra.clone()).unwrap_or_default()
    }

    /// Sample animation `anim` at `frame` with the engine's own numerics.
    fn sample(&self, anim: usize, frame: f64) -> Result<Sample>;

    /// The lean path of [`Document::sample`] for callers that walk every frame (exporters,
    /// previews, `check`): the same local transforms, written into `locals` (cleared and
    /// refilled, so one buffer serves every frame), and the same root motion returned,
    /// without the engine-native channels and extras. The default calls `sample`; families
    /// override it when building those costs more than the pose.
    fn sample_locals(&self, anim: usize, frame: f64, locals: &mut Vec<Transform>) -> Result<Option<Vec3>> {
        let s = self.sample(anim, frame)?;
        locals.clear();
        locals.extend_from_slice(&s.locals);
        Ok(s.root_motion)
    }

    /// Whether animation `anim` is played on skeleton `skeleton` by [`Document::sample_locals_on`]:
    /// its own skeleton always; another where the family's engine plays a clip on any
    /// skeleton of its shape (Zelda 64: the Gibdo's and the Redead's clips are one set).
    /// Default: its own only.
    fn plays_on(&self, anim: usize, skeleton: usize) -> bool {
        self.animations().get(anim).is_some_and(|a| a.skeleton == Some(skeleton))
    }

    /// The skeletons besides its own that animation `anim` is written with when every clip
    /// of a skeleton is exported: those the family cannot tell apart as its player (Zelda 64:
    /// skeletons of one size whose names do not say which, the Gibdo's and the Redead's).
    /// Each is one [`Document::plays_on`] allows. Default: none.
    fn also_plays_on(&self, _anim: usize) -> &[usize] {
        &[]
    }

    /// Whether run-time state `key` of [`crate::OpenOptions::runtime`] (one of the family's
    /// `runtime_keys`) changes anything this document draws (Zelda 64: `tunic`, when a
    /// skeleton of its files is Link's). A caller says when a key it passed changed nothing.
    /// Default: no.
    fn uses_runtime(&self, _key: &str) -> bool {
        false
    }

    /// [`Document::sample_locals`] of `anim` played on `skeleton`, which
    /// [`Document::plays_on`] allows: the clip's channels with that skeleton's own rest
    /// values where the clip gives none. Default: the clip's own skeleton only.
    fn sample_locals_on(
        &self,
        anim: usize,
        skeleton: usize,
        frame: f64,
        locals: &mut Vec<Transform>,
    ) -> Result<Option<Vec3>> {
        if self.animations().get(anim).is_some_and(|a| a.skeleton.is_some_and(|s| s != skeleton)) {
            return Err(Error::new(crate::ErrorKind::Unsupported(format!(
                "animation #{anim} plays only on its own skeleton, not on skeleton #{skeleton}"
            ))));
        }
        self.sample_locals(anim, frame, locals)
    }

    /// Textures the engine binds at run time for `anim` at `frame` on `skeleton`, replacing
    /// those meshes' own (`SkeletonInfo::meshes[i].texture`): (mesh index, texture). Zelda
    /// 64: Link's eyes and mouth, as the animation's face word picks them. Default: none.
    fn frame_textures(&self, _skeleton: usize, _anim: Option<usize>, _frame: f64) -> Result<Vec<(usize, Texture)>> {
        Ok(Vec::new())
    }

    /// World matrices of skeleton `skeleton` posed by `anim` at `frame` (rest pose when
    /// `anim` is None), exactly as the engine computes them. The default is the generic
    /// forward kinematics over the sampled local transforms.
    fn pose(&self, skeleton: usize, anim: Option<usize>, frame: f64) -> Result<Vec<Mat4>> {
        let info =
            self.skeletons().get(skeleton).ok_or_else(|| Error::not_found(format!("no skeleton #{skeleton}")))?;
        match anim {
            None => Ok(info.skeleton.rest_world()),
            Some(a) => {
                let s = self.sample(a, frame)?;
                Ok(crate::fk::world_matrices(&info.skeleton, &s.locals))
            }
        }
    }

    /// One line per animation for `check`, walking all of them and failing on any
    /// invariant violation. The default samples every frame and hashes the local poses.
    fn check(&self) -> Result<Vec<String>> {
        crate::check::generic_lines(self)
    }
}

impl dyn Document + '_ {
    /// Resolve `--anim A`: `#N` (index), a name as `list` prints it (case aside, and an
    /// offset's zeros aside), its `source` (`object_dekunuts@0x1C4`), or a plain number (an index,
    /// when no name is that number); two that match at one step are an error naming both.
    pub fn find_animation(&self, spec: &str) -> Result<usize> {
        let anims = self.animations();
        find_named(spec, "animation", anims.len(), &|i| vec![anims[i].name.clone(), anims[i].source.clone()], &|i| {
            anims[i].source.clone()
        })
        .map_err(|e| match e {
            Some(e) => e,
            None => {
                let names = anims.iter().map(|a| a.name.as_str());
                Error::not_found(format!(
                    "no animation named {}{} (see `boneyard list`)",
                    quoted(spec),
                    did_you_mean(spec, names)
                ))
            }
        })
    }

    /// Resolve `--skeleton S` as `--anim` is resolved: an id, a name, its
    /// `source`, `#N` or a plain index. An id is taken in both the forms `list` prints: alone
    /// (`0x260`, one file given) and after its file (`object_oA10:0x260`, several files).
    pub fn find_skeleton(&self, spec: &str) -> Result<usize> {
        let sk = self.skeletons();
        find_named(
            spec,
            "skeleton",
            sk.len(),
            &|i| {
                let s = &sk[i];
                let mut keys = vec![s.id.clone(), s.name.clone(), s.source.clone()];
                // `<file>:<id>` and `<id>`, whichever of the two the id is not.
                match s.id.rsplit_once(':') {
                    Some((_, short)) => keys.push(short.to_string()),
                    None => {
                        if let Some((file, _)) = s.source.split_once('@') {
                            keys.push(format!("{file}:{}", s.id));
                        }
                    }
                }
                keys
            },
            &|i| sk[i].source.clone(),
        )
        .map_err(|e| match e {
            Some(e) => e,
            None => {
                let names = sk.iter().flat_map(|s| [s.id.as_str(), s.name.as_str()]);
                Error::not_found(format!(
                    "no skeleton {}{} (see `boneyard list`)",
                    quoted(spec),
                    did_you_mean(spec, names)
                ))
            }
        })
    }

    /// The skeleton an animation plays on: its own (None when no skeleton of the document
    /// fits it, as Link's clips in `gameplay_keep` read without Link's object: the first
    /// skeleton, the arrow's, is not theirs).
    pub fn skeleton_for(&self, anim: usize) -> Option<usize> {
        self.animations().get(anim).and_then(|a| a.skeleton)
    }
}

/// How `--anim` and `--skeleton` find what they name among `count` items, each with its
/// `keys` (names, ids, source), in this order: `#N` (an index); a key equal to `spec`; a key
/// equal but for case; a key equal but for case and the zeros padding an offset
/// (`object_oE_anime_Anim_00001034` for `object_oE_anime_Anim_001034`); a plain number (an
/// index). At the first step that finds any, two items or more are an error naming them
/// (by index and `source`): which one is meant is not for boneyard to guess (one file given twice, or
/// two files of one name). `Err(None)`: nothing matched.
fn find_named(
    spec: &str,
    what: &str,
    count: usize,
    keys: &dyn Fn(usize) -> Vec<String>,
    source: &dyn Fn(usize) -> String,
) -> std::result::Result<usize, Option<Error>> {
    let by_index = |i: usize| {
        if i < count {
            Ok(i)
        } else {
            Err(Some(Error::not_found(format!("no {what} #{i} (there are {count})"))))
        }
    };
    if let Some(i) = spec.strip_prefix('#').and_then(|n| n.parse::<usize>().ok()) {
        return by_index(i);
    }
    let all: Vec<Vec<String>> = (0..count).map(keys).collect();
    let padded = name_and_offset(spec);
    let tests: [&dyn Fn(&str) -> bool; 3] =
        [&|k| k == spec, &|k| k.eq_ignore_ascii_case(spec), &|k| padded.is_some() && name_and_offset(k) == padded];
    for test in tests {
        let hits: Vec<usize> = (0..count).filter(|&i| all[i].iter().any(|k| !k.is_empty() && test(k))).collect();
        match hits.as_slice() {
            [] => continue,
            [one] => return Ok(*one),
            [first, second, rest @ ..] => {
                let more = if rest.is_empty() { String::new() } else { format!(" and {} more", rest.len()) };
                let (a, b) = (source(*first), source(*second));
                // Two copies of one file (in two folders, or one file given twice) give their
                // items one source: say so, or the message seems to name one item twice.
                let alike = if a == b { "; the same place in two files of one name" } else { "" };
                return Err(Some(Error::not_found(format!(
                    "{} names {} {what}s of these files (#{first} from {a}, #{second} from {b}{more}{alike}): give one by its index",
                    quoted(spec),
                    hits.len(),
                ))));
            }
        }
    }
    match spec.parse::<usize>() {
        Ok(i) => by_index(i),
        Err(_) => Err(None),
    }
}

/// A name ending in `_<4 to 16 hex digits>` (an offset, not a count such as `A_WALK_L_02`'s)
/// as (the rest in lower case, the number): names that differ only in case and in the zeros
/// padding an offset are one.
fn name_and_offset(name: &str) -> Option<(String, u64)> {
    let (head, hex) = name.rsplit_once('_')?;
    if !(4..=16).contains(&hex.len()) || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    Some((head.to_ascii_lowercase(), u64::from_str_radix(hex, 16).ok()?))
}

/// The longest name `did_you_mean` looks for close names of.
const MAX_SUGGESTED: usize = 256;

/// `spec` for a message: quoted, and cut after 80 characters (a name asked for may be a
/// hostile request's 64 KB).
fn quoted(spec: &str) -> String {
    match spec.char_indices().nth(80) {
        Some((at, _)) => format!("{:?}... ({} bytes)", &spec[..at], spec.len()),
        None => format!("{spec:?}"),
    }
}

/// `; did you mean "A", "B"?` for the (at most three) names closest to `spec`, case aside
/// (Jaro-Winkler similarity of at least 0.8, best first); empty when none is close.
pub fn did_you_mean<'a>(spec: &str, names: impl Iterator<Item = &'a str>) -> String {
    let close = close_names(spec, names);
    if close.is_empty() {
        return String::new();
    }
    let shown: Vec<String> = close.iter().map(|n| format!("{n:?}")).collect();
    format!("; did you mean {}?", shown.join(", "))
}

/// The (at most three) names closest to `spec`, case aside (Jaro-Winkler similarity of at
/// least 0.8), best first: what [`did_you_mean`] offers (a caller gathering them from several
/// documents offers the closest of all).
pub fn close_names<'a>(spec: &str, names: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    // No name is this long: a 64,000-character `--anim` (or a viewer request) took seconds of
    // comparisons with each of 1,559 names, for no suggestion.
    if spec.len() > MAX_SUGGESTED {
        return Vec::new();
    }
    let want = spec.to_ascii_lowercase();
    let mut close: Vec<(f64, &str)> = names
        .filter(|n| !n.is_empty())
        .map(|n| (strsim::jaro_winkler(&want, &n.to_ascii_lowercase()), n))
        .filter(|(score, _)| *score >= 0.8)
        .collect();
    close.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    close.dedup_by(|a, b| a.1 == b.1);
    close.into_iter().take(3).map(|(_, n)| n).collect()
}
