//! glTF 2.0 reading for write-back (`boneyard import`): a `.glb`/`.gltf` file's animations as
//! [`Clip`]s for a target skeleton, sampled at the target engine's frame rate.
//!
//! Rules (what `import` documents):
//! * **Bones by name.** A glTF node plays the target bone of the same name (boneyard's exports
//!   carry the engine's bone names); a map (`--map MAP.json`, `{"gltf node": "game bone"}`)
//!   renames nodes first. The first node of a name wins (a warning names the others).
//! * **Sampling.** Frame `f` of a clip is the glTF animation at `t0 + f / fps` seconds, `t0`
//!   the earliest key time of the animation and the frame count `round((t1 - t0) · fps) + 1`
//!   (`t1` the latest). Each sampler is evaluated as the file says: STEP holds the previous
//!   key, LINEAR interpolates (rotations by the shortest-path slerp the glTF specification
//!   prescribes), CUBICSPLINE by the specification's Hermite form. A frame time within
//!   1/10000 frame of a key takes that key's value exactly (boneyard's exports store
//!   `f / fps` as f32 times). Any input frame rate is resampled this way.
//! * **Rest-pose differences** between the glTF's nodes and the target's bones are
//!   compensated: the motion relative to the glTF rest, taken in the parent's frame, is put on
//!   the target's rest: `R = R_gltf · R_rest_gltf⁻¹ · R_rest_target`,
//!   `T = T_gltf − T_rest_gltf + T_rest_target`, `S = S_gltf / S_rest_gltf · S_rest_target`.
//!   With equal rests (boneyard's own exports) the values pass through unchanged.
//! * **Refused** (an error naming the clip and the bone): no animated node matches a bone of
//!   the target; a key time or value that is not finite; key times that go backwards; an
//!   accessor of the wrong type or outside its buffer; clips over [`MAX_FRAMES`] frames.
//!   Families refuse what their formats cannot hold (Oni: over 65535 frames).

use boneyard_core::error::ErrorKind;
use boneyard_core::{Clip, Error, Result, Skeleton, Transform, Warning};
use glam::{Quat, Vec3};
use gltf::accessor::{DataType, Dimensions};
use gltf::animation::{Interpolation, Property};
use gltf::json::validation::Checked;
use std::collections::HashMap;
use std::path::Path;

/// The longest clip read (frames), as for export.
pub const MAX_FRAMES: usize = crate::bake::MAX_FRAMES;
/// The most frames × bones one clip may hold (4 Mi transforms, about 170 MB; Oni's largest,
/// 65535 frames × 32 parts, is 2 Mi).
const MAX_SAMPLES: usize = 1 << 22;

fn invalid(msg: String) -> Error {
    Error::new(ErrorKind::Invalid(msg))
}

/// A node of the glTF file: its name and rest transform.
#[derive(Debug, Clone)]
pub struct SourceNode {
    /// The node's name, when it has one (clips bind to bones by it).
    pub name: Option<String>,
    /// The node's own TRS (or its matrix, decomposed).
    pub rest: Transform,
    /// The node whose child it is (the first, should a malformed file list it twice).
    pub parent: Option<usize>,
}

/// One channel: a node's property over time.
#[derive(Debug, Clone)]
pub struct SourceChannel {
    /// Index of the target node in [`GltfSource::nodes`].
    pub node: usize,
    /// "translation", "rotation" or "scale".
    pub property: &'static str,
    /// The sampler's interpolation (LINEAR or STEP; CUBICSPLINE is kept with its tangents).
    pub interpolation: Interpolation,
    /// Key times in seconds, ascending.
    pub times: Vec<f32>,
    /// `n` floats per key (3 or 4), three times that for CUBICSPLINE (in-tangent, value,
    /// out-tangent).
    pub values: Vec<f32>,
}

/// One glTF animation.
#[derive(Debug, Clone)]
pub struct SourceAnimation {
    /// The animation's name (or `animation<i>` when it has none).
    pub name: String,
    /// Its channels, in the file's order.
    pub channels: Vec<SourceChannel>,
}

/// A glTF file read for its animations.
#[derive(Debug, Clone)]
pub struct GltfSource {
    /// The file name, for messages.
    pub file: String,
    /// Every node of the file, in its order.
    pub nodes: Vec<SourceNode>,
    /// Every animation of the file, in its order.
    pub animations: Vec<SourceAnimation>,
    /// What was skipped (morph-target weight channels...).
    pub warnings: Vec<Warning>,
    /// The skeleton ids its scenes' extras name (`{"skeleton": id}`, as boneyard's glb
    /// exports record the skeleton they were made of), in scene order.
    pub skeletons: Vec<String>,
}

/// Decode standard base64 (RFC 4648, padding optional, no line breaks) for `data:` URIs.
/// A node that is its own ancestor (nodes whose parents, followed up, come back round), if any.
/// Each node has at most one parent here; every node is walked past once (linear in a chain of
/// any length): a walk that meets a node of its own walk has looped.
fn in_a_loop(nodes: &[SourceNode]) -> Option<usize> {
    const NEW: u8 = 0;
    const WALKING: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; nodes.len()];
    let mut path = Vec::new();
    for start in 0..nodes.len() {
        let mut at = Some(start);
        while let Some(n) = at.filter(|&n| state[n] != DONE) {
            if state[n] == WALKING {
                return Some(n);
            }
            state[n] = WALKING;
            path.push(n);
            at = nodes[n].parent;
        }
        for n in path.drain(..) {
            state[n] = DONE;
        }
    }
    None
}

fn base64(s: &str) -> Option<Vec<u8>> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        } as u32)
    };
    let s = s.trim_end_matches('=').as_bytes();
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    for chunk in s.chunks(4) {
        let mut acc = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            acc |= val(c)? << (18 - 6 * i);
        }
        let n = match chunk.len() {
            4 => 3,
            3 => 2,
            2 => 1,
            _ => return None,
        };
        for i in 0..n {
            out.push((acc >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

/// The bytes of `count` elements of an accessor as f32 (normalized integers converted as the
/// glTF specification says), `dims` floats each. Every range is checked.
fn read_floats(acc: &gltf::Accessor<'_>, buffers: &[Vec<u8>], want: &[Dimensions], what: &str) -> Result<Vec<f32>> {
    let bad = |m: String| invalid(format!("accessor {} ({what}): {m}", acc.index()));
    if acc.sparse().is_some() {
        return Err(Error::unsupported(format!("accessor {} ({what}): sparse accessors are not read", acc.index())));
    }
    if !want.contains(&acc.dimensions()) {
        return Err(bad(format!("type {:?}, expected {:?}", acc.dimensions(), want)));
    }
    let dims = acc.dimensions().multiplicity();
    let (csize, conv): (usize, fn(&[u8]) -> f32) = match (acc.data_type(), acc.normalized()) {
        (DataType::F32, _) => (4, |b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        (DataType::I8, true) => (1, |b| (b[0] as i8 as f32 / 127.0).max(-1.0)),
        (DataType::U8, true) => (1, |b| b[0] as f32 / 255.0),
        (DataType::I16, true) => (2, |b| (i16::from_le_bytes([b[0], b[1]]) as f32 / 32767.0).max(-1.0)),
        (DataType::U16, true) => (2, |b| u16::from_le_bytes([b[0], b[1]]) as f32 / 65535.0),
        (t, n) => return Err(bad(format!("component type {t:?}{} is not read", if n { " normalized" } else { "" }))),
    };
    let count = acc.count();
    if count == 0 {
        return Err(bad("no elements".into()));
    }
    let elem = csize * dims;
    let view = acc.view().ok_or_else(|| bad("no buffer view".into()))?;
    let stride = view.stride().unwrap_or(elem);
    if stride < elem {
        return Err(bad(format!("stride {stride} is shorter than an element ({elem} bytes)")));
    }
    let buf = buffers.get(view.buffer().index()).ok_or_else(|| bad("buffer not loaded".into()))?;
    let vstart = view.offset();
    let vend = vstart.checked_add(view.length()).filter(|&e| e <= buf.len());
    let vend = vend.ok_or_else(|| bad("buffer view runs past its buffer".into()))?;
    let data = &buf[vstart..vend];
    let need =
        (count - 1).checked_mul(stride).and_then(|n| n.checked_add(acc.offset())).and_then(|n| n.checked_add(elem));
    if need.is_none_or(|n| n > data.len()) {
        return Err(bad(format!("{count} elements run past the buffer view ({} bytes)", data.len())));
    }
    let mut out = Vec::with_capacity(count * dims);
    for i in 0..count {
        let at = acc.offset() + i * stride;
        for c in 0..dims {
            out.push(conv(&data[at + c * csize..at + (c + 1) * csize]));
        }
    }
    Ok(out)
}

/// `bytes` (a `.glb` or a `.gltf`'s JSON) without its animation channels that have no target
/// node, and those channels named (`animation A channel C`); `None` when there are none or the
/// file cannot be taken apart.
fn without_nodeless_channels(bytes: &[u8]) -> Option<(Vec<u8>, Vec<String>)> {
    let glb = bytes.starts_with(b"glTF");
    // A GLB: 12-byte header, the JSON chunk (length, "JSON", text), then a BIN chunk (length,
    // "BIN\0", data) or nothing.
    let (json, bin) = if glb {
        let len = u32::from_le_bytes(bytes.get(12..16)?.try_into().ok()?) as usize;
        let rest = bytes.get(20usize.checked_add(len)?..)?;
        let bin = match rest.get(..8) {
            Some(head) if &head[4..] == b"BIN\0" => {
                let n = u32::from_le_bytes(head[..4].try_into().ok()?) as usize;
                rest.get(8..8usize.checked_add(n)?)?
            }
            Some(_) => return None,
            None => &[][..],
        };
        (bytes.get(20..20 + len)?, bin)
    } else {
        (bytes, &[][..])
    };
    let mut root: serde_json::Value = serde_json::from_slice(json).ok()?;
    let mut gone = Vec::new();
    for (ai, a) in root.get_mut("animations")?.as_array_mut()?.iter_mut().enumerate() {
        let Some(channels) = a.get_mut("channels").and_then(|c| c.as_array_mut()) else { continue };
        let mut ci = 0;
        channels.retain(|c| {
            let keep = c.get("target").and_then(|t| t.get("node")).is_some();
            if !keep {
                gone.push(format!("animation {ai} channel {ci}"));
            }
            ci += 1;
            keep
        });
    }
    if gone.is_empty() {
        return None;
    }
    let text = serde_json::to_vec(&root).ok()?;
    Some((if glb { crate::glb::glb_container(&text, bin.to_vec()) } else { text }, gone))
}

impl GltfSource {
    /// Read a `.glb` or `.gltf` file (`bytes`, named `file`); a `.gltf`'s external buffers are
    /// read relative to `base` (its folder), `data:` URIs decoded.
    pub fn read(file: &str, bytes: &[u8], base: Option<&Path>) -> Result<GltfSource> {
        let err = |m: String| invalid(m).in_file(file);
        // A GLB whose header gives a length shorter than the header: gltf subtracts the header's
        // size from it unchecked (a panic where overflow is checked).
        if let [b'g', b'l', b'T', b'F', _, _, _, _, l0, l1, l2, l3, ..] = *bytes {
            let length = u32::from_le_bytes([l0, l1, l2, l3]);
            if length < 12 {
                return Err(err(format!("not a valid glTF 2.0 file: the GLB header gives a length of {length} bytes")));
            }
        }
        let invalid_gltf = |e: gltf::Error| err(format!("not a valid glTF 2.0 file: {e}"));
        // Channels with no target node (glTF 2.0 allows them: an extension's target, such as
        // KHR_animation_pointer's, which are to be ignored) fail the parser's model: taken out,
        // each said, and the file read again.
        let mut ignored: Vec<String> = Vec::new();
        let parsed = match gltf::Gltf::from_slice_without_validation(bytes) {
            Ok(g) => Ok(g),
            Err(e) => match without_nodeless_channels(bytes) {
                Some((fixed, gone)) => {
                    ignored = gone;
                    gltf::Gltf::from_slice_without_validation(&fixed).map_err(|_| e)
                }
                None => Err(e),
            },
        };
        let gltf::Gltf { document, blob } = parsed.map_err(invalid_gltf)?;
        let root = document.into_json();
        check_position_accessors(&root).map_err(err)?;
        let skeletons: Vec<String> = root
            .scenes
            .iter()
            .filter_map(|sc| sc.extras.as_ref())
            .filter_map(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok())
            .filter_map(|v| v.get("skeleton").and_then(|s| s.as_str()).map(str::to_string))
            .collect();
        let g = gltf::Gltf { document: gltf::Document::from_json(root).map_err(invalid_gltf)?, blob };
        let mut buffers = Vec::new();
        for b in g.document.buffers() {
            let data = match b.source() {
                gltf::buffer::Source::Bin => {
                    g.blob.clone().ok_or_else(|| err("no binary chunk for buffer 0".into()))?
                }
                gltf::buffer::Source::Uri(uri) if uri.starts_with("data:") => {
                    let payload = uri
                        .split_once(";base64,")
                        .map(|x| x.1)
                        .ok_or_else(|| err(format!("buffer {}: only base64 data URIs are read", b.index())))?;
                    base64(payload).ok_or_else(|| err(format!("buffer {}: the data URI is not base64", b.index())))?
                }
                gltf::buffer::Source::Uri(raw) => {
                    // A URI's reserved and non-ASCII bytes are percent-encoded (`my%20data.bin`,
                    // as glTF writers escape a space); the path is checked once decoded, so an
                    // encoded `..` is caught too.
                    let uri = percent_decode(raw)
                        .ok_or_else(|| err(format!("buffer {}: URI {raw:?} has a bad percent-encoding", b.index())))?;
                    if raw.contains("://")
                        || uri.starts_with('/')
                        || uri.contains(':')
                        || uri.split(['/', '\\']).any(|c| c == "..")
                    {
                        return Err(err(format!("buffer {}: URI {raw:?} is not a file beside the glTF", b.index())));
                    }
                    let p = base.unwrap_or(Path::new(".")).join(&uri);
                    std::fs::read(&p).map_err(|e| Error::io(&p, e))?
                }
            };
            if data.len() < b.length() {
                return Err(err(format!(
                    "buffer {} holds {} bytes of the {} declared",
                    b.index(),
                    data.len(),
                    b.length()
                )));
            }
            buffers.push(data);
        }
        let nodes = g
            .document
            .nodes()
            .map(|n| {
                let (t, r, s) = n.transform().decomposed();
                let rot = Quat::from_array(r);
                let rot =
                    if rot.is_finite() && rot.length_squared() > 1e-12 { rot.normalize() } else { Quat::IDENTITY };
                SourceNode {
                    name: n.name().map(str::to_string),
                    rest: Transform { translation: Vec3::from(t), rotation: rot, scale: Vec3::from(s) },
                    parent: None,
                }
            })
            .collect::<Vec<_>>();
        let mut nodes = nodes;
        // glTF 2.0: the nodes form disjoint trees. A node with two parents or a loop of nodes
        // has no one hierarchy to compare with the game's, so the file is refused, naming them.
        for n in g.document.nodes() {
            for c in n.children() {
                if let Some(child) = nodes.get_mut(c.index()) {
                    if let Some(first) = child.parent {
                        return Err(err(format!(
                            "node {} is a child of both node {first} and node {}: glTF nodes form trees",
                            c.index(),
                            n.index()
                        )));
                    }
                    child.parent = Some(n.index());
                }
            }
        }
        if let Some(n) = in_a_loop(&nodes) {
            return Err(err(format!("node {n} is its own ancestor: glTF nodes form trees, not loops")));
        }
        let mut animations = Vec::new();
        let mut warnings: Vec<Warning> = ignored
            .iter()
            .map(|c| {
                Warning::in_file(
                    file,
                    format!("{c} has no target node (an extension's target): ignored, as glTF 2.0 says"),
                )
            })
            .collect();
        for (ai, a) in g.document.animations().enumerate() {
            let name = a.name().map(str::to_string).unwrap_or_else(|| format!("animation{ai}"));
            let mut channels = Vec::new();
            for (ci, ch) in a.channels().enumerate() {
                // Nor does it check that the target node exists (`Target::node` unwraps it).
                let node = g.document.as_json().animations[ai].channels[ci].target.node.value();
                if node >= g.document.nodes().len() {
                    return Err(err(format!("animation {name:?} channel {ci}: target node {node} does not exist")));
                }
                // gltf's validation lets an unknown target path through, and
                // `Target::property` unwraps it: checked here, as an error.
                let raw = &g.document.as_json().animations[ai].channels[ci];
                let Checked::Valid(path) = raw.target.path else {
                    return Err(err(format!(
                        "animation {name:?} channel {ci}: the target path is not one glTF defines"
                    )));
                };
                let sampler = g.document.as_json().animations[ai].samplers.get(raw.sampler.value());
                if sampler.is_some_and(|s| matches!(s.interpolation, Checked::Invalid)) {
                    return Err(err(format!(
                        "animation {name:?} channel {ci}: the interpolation is not one glTF defines"
                    )));
                }
                let (property, dims) = match path {
                    Property::Translation => ("translation", Dimensions::Vec3),
                    Property::Rotation => ("rotation", Dimensions::Vec4),
                    Property::Scale => ("scale", Dimensions::Vec3),
                    Property::MorphTargetWeights => {
                        warnings.push(Warning::in_file(
                            file,
                            format!("animation {name:?} channel {ci}: morph target weights are not imported"),
                        ));
                        continue;
                    }
                };
                let s = ch.sampler();
                let what = format!("animation {name:?} channel {ci} ({property} of node {node})");
                let times =
                    read_floats(&s.input(), &buffers, &[Dimensions::Scalar], &what).map_err(|e| e.in_file(file))?;
                let values = read_floats(&s.output(), &buffers, &[dims], &what).map_err(|e| e.in_file(file))?;
                let per_key = dims.multiplicity() * if s.interpolation() == Interpolation::CubicSpline { 3 } else { 1 };
                if values.len() != times.len() * per_key {
                    return Err(err(format!(
                        "{what}: {} output values for {} key times ({per_key} per key expected)",
                        values.len(),
                        times.len()
                    )));
                }
                channels.push(SourceChannel { node, property, interpolation: s.interpolation(), times, values });
            }
            animations.push(SourceAnimation { name, channels });
        }
        Ok(GltfSource { file: file.to_string(), nodes, animations, warnings, skeletons })
    }

    /// Which animations `specs` select (`--anim A`: a name or `#N`); all of them when empty.
    pub fn select(&self, specs: &[String]) -> Result<Vec<usize>> {
        if specs.is_empty() {
            return Ok((0..self.animations.len()).collect());
        }
        specs
            .iter()
            .map(|s| {
                if let Some(i) = s.strip_prefix('#').and_then(|n| n.parse::<usize>().ok()) {
                    return if i < self.animations.len() {
                        Ok(i)
                    } else {
                        Err(Error::not_found(format!(
                            "{}: no animation #{i} (there are {})",
                            self.file,
                            self.animations.len()
                        )))
                    };
                }
                self.animations.iter().position(|a| &a.name == s).ok_or_else(|| {
                    let names = self.animations.iter().map(|a| a.name.as_str());
                    Error::not_found(format!(
                        "{}: no animation named {s:?}{}",
                        self.file,
                        boneyard_core::document::did_you_mean(s, names)
                    ))
                })
            })
            .collect()
    }

    /// The bones of `target` whose glTF nodes (named as the bones, after `map`) hang from
    /// another bone's node than the bone's game parent, each as `bone (in the glTF under ...,
    /// in the game under ...)`; a node under a node that names no bone is said by that node's
    /// name. Another character's animation with bones of the same names (Zelda's `limb_NN`)
    /// shows here.
    pub fn hierarchy_differences(&self, target: &Skeleton, map: &HashMap<String, String>) -> Vec<String> {
        let bone_of = |n: usize| {
            self.nodes.get(n).and_then(|x| x.name.as_ref()).and_then(|m| target.find(map.get(m).unwrap_or(m)))
        };
        let mut bone_node: Vec<Option<usize>> = vec![None; target.len()];
        for n in 0..self.nodes.len() {
            if let Some(b) = bone_of(n) {
                bone_node[b].get_or_insert(n);
            }
        }
        (0..target.len())
            .filter_map(|b| {
                let n = bone_node[b]?;
                let up = self.nodes.get(n)?.parent;
                let glb = up.and_then(bone_of);
                let game = target.bones[b].parent;
                let in_glb = match (up, glb) {
                    (_, Some(p)) => target.bones[p].name.clone(),
                    (Some(u), None) => format!(
                        "node {} (no bone of the game)",
                        self.nodes[u].name.clone().unwrap_or_else(|| format!("node{u}"))
                    ),
                    (None, None) => "no node".to_string(),
                };
                let in_game = game.map_or("no bone".to_string(), |p| target.bones[p].name.clone());
                (glb != game && (glb.is_some() || game.is_some())).then(|| {
                    format!("{} (in the glTF under {in_glb}, in the game under {in_game})", target.bones[b].name)
                })
            })
            .collect()
    }

    /// Animation `anim` as a clip for skeleton `target` at `fps` frames per second, nodes renamed
    /// by `map` (glTF name → target bone name) before matching. Warnings tell what was left out.
    pub fn clip(
        &self,
        anim: usize,
        target: &Skeleton,
        fps: f64,
        map: &HashMap<String, String>,
        warnings: &mut Vec<Warning>,
    ) -> Result<Clip> {
        let a = self.animations.get(anim).ok_or_else(|| Error::not_found(format!("no animation #{anim}")))?;
        let clip_err = |m: String| invalid(format!("clip {:?}: {m}", a.name)).in_file(&self.file);
        if !(fps.is_finite() && fps > 0.0) {
            return Err(clip_err(format!("frame rate {fps}")));
        }
        let node_name = |n: usize| self.nodes.get(n).and_then(|x| x.name.clone()).unwrap_or_else(|| format!("node{n}"));
        // Check every channel: finite times that never go backwards, finite values.
        for ch in &a.channels {
            let bone = node_name(ch.node);
            if let Some(k) = ch.times.iter().position(|t| !t.is_finite()) {
                return Err(clip_err(format!("bone {bone:?}: {} key {k} has a time that is not finite", ch.property)));
            }
            if let Some(k) = ch.times.windows(2).position(|w| w[1] < w[0]) {
                return Err(clip_err(format!(
                    "bone {bone:?}: {} key times go backwards at key {} ({} s after {} s)",
                    ch.property,
                    k + 1,
                    ch.times[k + 1],
                    ch.times[k]
                )));
            }
            if let Some(i) = ch.values.iter().position(|v| !v.is_finite()) {
                let per = ch.values.len() / ch.times.len().max(1);
                return Err(clip_err(format!(
                    "bone {bone:?}: {} key {} has a value that is not finite",
                    ch.property,
                    i / per.max(1)
                )));
            }
            // Rotations must be unit quaternions (glTF 2.0): a key of another length is made
            // unit and said.
            if ch.property == "rotation" {
                let per = if ch.interpolation == Interpolation::CubicSpline { 12 } else { 4 };
                let at = if per == 12 { 4 } else { 0 };
                let lengths: Vec<f64> = ch
                    .values
                    .chunks_exact(per)
                    .map(|k| k[at..at + 4].iter().map(|&x| f64::from(x) * f64::from(x)).sum::<f64>().sqrt())
                    .collect();
                // (Keys of length 0 are said where the rest rotation stands in for them.)
                let off: Vec<usize> =
                    (0..lengths.len()).filter(|&k| lengths[k] > 1e-6 && (lengths[k] - 1.0).abs() > 1e-3).collect();
                if let Some(&k) = off.first() {
                    warnings.push(Warning::in_file(
                        &self.file,
                        format!(
                            "clip {:?}: bone {bone:?}: {} of its {} rotation keys are not unit quaternions (key {k} has length {:.4}); made unit, as glTF requires them",
                            a.name,
                            off.len(),
                            lengths.len(),
                            lengths[k]
                        ),
                    ));
                }
            }
        }
        // glTF 2.0: within one animation, a node's path is the target of one channel at most
        // (a second one, as an editing script may append, had been passed over silently).
        let mut targets: Vec<(usize, &str)> = a.channels.iter().map(|c| (c.node, c.property)).collect();
        targets.sort_unstable();
        if let Some(w) = targets.windows(2).find(|w| w[0] == w[1]) {
            let (node, path) = w[0];
            let which: Vec<String> = a
                .channels
                .iter()
                .enumerate()
                .filter(|(_, c)| c.node == node && c.property == path)
                .map(|(i, _)| i.to_string())
                .collect();
            return Err(clip_err(format!(
                "bone {:?}: its {path} is the target of channels {} (glTF allows one channel a node and path)",
                node_name(node),
                which.join(" and ")
            )));
        }
        // Nodes to target bones.
        let mut bone_node: Vec<Option<usize>> = vec![None; target.len()];
        for (n, node) in self.nodes.iter().enumerate() {
            let Some(name) = &node.name else { continue };
            let game = map.get(name).unwrap_or(name);
            if let Some(b) = target.find(game) {
                match bone_node[b] {
                    None => bone_node[b] = Some(n),
                    Some(first) => warnings.push(Warning::in_file(
                        &self.file,
                        format!(
                            "clip {:?}: nodes {first} and {n} both play bone {game:?}; node {first} is used",
                            a.name
                        ),
                    )),
                }
            }
        }
        let animated_nodes: std::collections::BTreeSet<usize> = a.channels.iter().map(|c| c.node).collect();
        let animated: Vec<bool> = bone_node.iter().map(|n| n.is_some_and(|n| animated_nodes.contains(&n))).collect();
        if !animated.iter().any(|&x| x) {
            let names: Vec<String> = animated_nodes.iter().map(|&n| node_name(n)).take(8).collect();
            return Err(clip_err(format!(
                "none of its animated nodes ({}) matches a bone of skeleton {} ({}); {}",
                names.join(", "),
                target.name,
                target.bones.iter().map(|b| b.name.as_str()).take(8).collect::<Vec<_>>().join(", "),
                if map.is_empty() {
                    "name them as the game does or give --map"
                } else {
                    "the --map given maps none of them to one of its bones"
                }
            )));
        }
        // One warning about the clip naming the bones (or nodes) concerned, when there are any.
        let say = |warnings: &mut Vec<Warning>, what: &str, names: &[&str]| {
            if !names.is_empty() {
                warnings.push(Warning::in_file(&self.file, format!("clip {:?}: {what}: {}", a.name, names.join(", "))));
            }
        };
        let unmatched: Vec<String> =
            animated_nodes.iter().filter(|n| !bone_node.contains(&Some(**n))).map(|&n| node_name(n)).collect();
        if !unmatched.is_empty() {
            warnings.push(Warning::in_file(
                &self.file,
                format!("clip {:?}: animated nodes that match no bone were left out: {}", a.name, unmatched.join(", ")),
            ));
        }
        let at_rest: Vec<&str> =
            (0..target.len()).filter(|&b| !animated[b]).map(|b| target.bones[b].name.as_str()).collect();
        say(warnings, "bones the glTF does not animate are held at rest", &at_rest);
        // A bone whose node hangs from another bone's in the glTF than in the game: the clip's
        // local rotations are written as they are, and the game composes them down its own
        // hierarchy, so it plays otherwise than the editor showed it.
        let moved = self.hierarchy_differences(target, map);
        if !moved.is_empty() {
            warnings.push(Warning::in_file(
                &self.file,
                format!(
                    "clip {:?}: bones hang from other bones in the glTF than in the game, which plays them down its own hierarchy: {}",
                    a.name,
                    moved.join(", ")
                ),
            ));
        }
        // Nodes above the skeleton's root (an editor's `Armature`, rotated to stand Y-up or
        // scaled to metres): the game places its root at the origin, so their transform is not
        // played, and that is said.
        let mut above: Vec<String> = Vec::new();
        for b in (0..target.len()).filter(|&b| target.bones[b].parent.is_none()) {
            let Some(n) = bone_node[b] else { continue };
            let mut up = self.nodes.get(n).and_then(|x| x.parent);
            // The parent links were checked to form trees (no loops), so this walk ends.
            while let Some(p) = up {
                let node = &self.nodes[p];
                let moved = !node.rest.translation.abs_diff_eq(Vec3::ZERO, 1e-6)
                    || !node.rest.rotation.abs_diff_eq(Quat::IDENTITY, 1e-6)
                    || !node.rest.scale.abs_diff_eq(Vec3::ONE, 1e-6)
                    || animated_nodes.contains(&p);
                if moved && !bone_node.contains(&Some(p)) && !above.contains(&node_name(p)) {
                    above.push(node_name(p));
                }
                up = node.parent;
            }
        }
        if !above.is_empty() {
            warnings.push(Warning::in_file(
                &self.file,
                format!(
                    "clip {:?}: nodes above the skeleton's root move, turn or scale it ({}): not played (the game's root stands at its own origin)",
                    a.name,
                    above.join(", ")
                ),
            ));
        }
        // Time range and frames.
        let t0 = a.channels.iter().filter_map(|c| c.times.first()).fold(f32::INFINITY, |m, &t| m.min(t)) as f64;
        let t1 = a.channels.iter().filter_map(|c| c.times.last()).fold(f32::NEG_INFINITY, |m, &t| m.max(t)) as f64;
        let span = ((t1 - t0) * fps).round();
        if !(span.is_finite() && span >= 0.0 && span < MAX_FRAMES as f64) {
            return Err(clip_err(format!("{} s at {fps} fps is over {MAX_FRAMES} frames", t1 - t0)));
        }
        let frames = span as usize + 1;
        // A clip whose keys start after 0 (an editor's frame 1 at 1/24 s, or a clip cut from a
        // longer timeline) plays from its first key: said, since the time before it is gone.
        if t0 < 0.0 {
            warnings.push(Warning::in_file(
                &self.file,
                format!(
                    "clip {:?}: its keys start at {t0} s, before 0 (glTF times are never negative): its first key is the game's frame 0",
                    a.name
                ),
            ));
        }
        if t0 * fps >= 0.5 {
            warnings.push(Warning::in_file(
                &self.file,
                format!(
                    "clip {:?}: its keys start at {t0} s, which is the game's frame 0 (the time before it is not kept)",
                    a.name
                ),
            ));
        }
        if frames.saturating_mul(target.len().max(1)) > MAX_SAMPLES {
            return Err(Error::ceiling(
                0,
                format!("clip {:?}: {frames} frames x {} bones is too large", a.name, target.len()),
            )
            .in_file(&self.file));
        }
        // Lengths: a glTF whose rest offsets are all the game's times one factor (boneyard's
        // `export --scale F`, or a rig scaled in an editor) has its translations divided by
        // it, and says so; read as offsets from the rest, a scaled root motion was lost.
        let length_scale = uniform_length_scale(
            bone_node
                .iter()
                .enumerate()
                .filter_map(|(b, n)| n.map(|n| (self.nodes[n].rest.translation, target.bones[b].rest.translation))),
        );
        if let Some(f) = length_scale {
            let f = significant(f);
            warnings.push(Warning::in_file(
                &self.file,
                format!(
                    "clip {:?}: the glTF's lengths are {f} times the game's (its bones' rest offsets): its translations are divided by {f}",
                    a.name
                ),
            ));
        }
        let unscale = length_scale.map_or(1.0, |f| 1.0 / f);
        // Sample.
        let mut poses = vec![target.rest_locals(); frames];
        // Bones with a rotation of length 0 at some frame (no rotation at all): their glTF rest
        // rotation stands in there, and that is said.
        let mut no_rotation: Vec<&str> = Vec::new();
        // Bones the clip animates by another path only: their rotation (a root's position)
        // is the glTF's rest, said (a deleted channel had been taken silently).
        let (mut rest_rotation, mut rest_position) = (Vec::new(), Vec::new());
        for (b, node) in bone_node.iter().enumerate() {
            let Some(n) = *node else { continue };
            let mut rest_g = self.nodes[n].rest;
            rest_g.translation *= unscale;
            let rest_t = target.bones[b].rest;
            let chan = |p: &str| a.channels.iter().find(|c| c.node == n && c.property == p);
            let (ct, cr, cs) = (chan("translation"), chan("rotation"), chan("scale"));
            if animated[b] && cr.is_none() {
                rest_rotation.push(target.bones[b].name.as_str());
            }
            if animated[b] && ct.is_none() && target.bones[b].parent.is_none() {
                rest_position.push(target.bones[b].name.as_str());
            }
            let rot_fix = rest_g.rotation.inverse() * rest_t.rotation;
            for (f, pose) in poses.iter_mut().enumerate() {
                let t = t0 + f as f64 / fps;
                let tr = ct.map(|c| Vec3::from_slice(&sample(c, t, fps)) * unscale).unwrap_or(rest_g.translation);
                let rot = cr.map(|c| Quat::from_slice(&sample(c, t, fps))).unwrap_or(rest_g.rotation);
                let sc = cs.map(|c| Vec3::from_slice(&sample(c, t, fps))).unwrap_or(rest_g.scale);
                let rot = if rot.length_squared() > 1e-12 {
                    rot.normalize()
                } else {
                    if no_rotation.last() != Some(&target.bones[b].name.as_str()) {
                        no_rotation.push(&target.bones[b].name);
                    }
                    rest_g.rotation
                };
                let same_rot = rest_g.rotation == rest_t.rotation;
                let rotation = if same_rot { rot } else { (rot * rot_fix).normalize() };
                let translation = if rest_g.translation == rest_t.translation {
                    tr
                } else {
                    tr - rest_g.translation + rest_t.translation
                };
                let ratio = |g: f32, r: f32| if g != 0.0 { r / g } else { 1.0 };
                let scale = if rest_g.scale == rest_t.scale {
                    sc
                } else {
                    sc * Vec3::new(
                        ratio(rest_g.scale.x, rest_t.scale.x),
                        ratio(rest_g.scale.y, rest_t.scale.y),
                        ratio(rest_g.scale.z, rest_t.scale.z),
                    )
                };
                let tf = Transform { translation, rotation, scale };
                if !(tf.translation.is_finite() && tf.rotation.is_finite() && tf.scale.is_finite()) {
                    return Err(clip_err(format!(
                        "bone {:?} frame {f}: a sampled value is not finite",
                        target.bones[b].name
                    )));
                }
                pose[b] = tf;
            }
        }
        say(warnings, "bones it animates with no rotation channel hold their rest rotation", &rest_rotation);
        say(warnings, "roots it animates with no translation channel hold their rest position", &rest_position);
        if !no_rotation.is_empty() {
            warnings.push(Warning::in_file(
                &self.file,
                format!(
                    "clip {:?}: rotations of length 0 (no rotation) at some frames of {}: the rest rotation is used there",
                    a.name,
                    no_rotation.join(", ")
                ),
            ));
        }
        let clip = Clip {
            name: a.name.clone(),
            fps,
            bones: target.bones.iter().map(|b| b.name.clone()).collect(),
            poses,
            animated,
            root_motion: None,
            source: format!("{}#{anim}", self.file),
        };
        clip.validate().map_err(|e| e.in_file(&self.file))?;
        Ok(clip)
    }
}

/// `uri` with its `%XX` escapes decoded (RFC 3986), as UTF-8; None when an escape is cut
/// short, not hexadecimal, or the bytes are not UTF-8.
fn percent_decode(uri: &str) -> Option<String> {
    let b = uri.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Read a bone map (`--map`): a JSON object of glTF node name → target bone name.
pub fn read_map(file: &str, bytes: &[u8]) -> Result<HashMap<String, String>> {
    let v: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| invalid(format!("not JSON: {e}")).in_file(file))?;
    let obj = v
        .as_object()
        .ok_or_else(|| invalid("expected an object {\"gltf bone\": \"game bone\", ...}".into()).in_file(file))?;
    obj.iter()
        .map(|(k, v)| {
            v.as_str()
                .map(|s| (k.clone(), s.to_string()))
                .ok_or_else(|| invalid(format!("{k:?}: the game bone must be a string")).in_file(file))
        })
        .collect()
}

/// The channel's value at time `t` (seconds), `n` floats.
fn sample(c: &SourceChannel, t: f64, fps: f64) -> Vec<f32> {
    let n = if c.property == "rotation" { 4 } else { 3 };
    let cubic = c.interpolation == Interpolation::CubicSpline;
    let value = |k: usize| -> &[f32] {
        let at = if cubic { (3 * k + 1) * n } else { k * n };
        &c.values[at..at + n]
    };
    let keys = c.times.len();
    // The last key at or before t (snapping to a key within 1/10000 frame).
    let snap = 1e-4 / fps;
    let k = c.times.partition_point(|&x| (x as f64) <= t + snap);
    if k == 0 {
        return value(0).to_vec();
    }
    let k0 = k - 1;
    if k0 + 1 >= keys || (t - c.times[k0] as f64).abs() <= snap || c.interpolation == Interpolation::Step {
        return value(k0).to_vec();
    }
    let (ta, tb) = (c.times[k0] as f64, c.times[k0 + 1] as f64);
    let dt = tb - ta;
    if dt <= 0.0 {
        return value(k0 + 1).to_vec();
    }
    let u = ((t - ta) / dt).clamp(0.0, 1.0);
    let (a, b) = (value(k0), value(k0 + 1));
    match c.interpolation {
        Interpolation::CubicSpline => {
            let out_a = &c.values[(3 * k0 + 2) * n..(3 * k0 + 3) * n];
            let in_b = &c.values[(3 * (k0 + 1)) * n..(3 * (k0 + 1) + 1) * n];
            let (u2, u3) = (u * u, u * u * u);
            let h00 = 2.0 * u3 - 3.0 * u2 + 1.0;
            let h10 = u3 - 2.0 * u2 + u;
            let h01 = -2.0 * u3 + 3.0 * u2;
            let h11 = u3 - u2;
            let v: Vec<f32> = (0..n)
                .map(|i| {
                    (h00 * a[i] as f64 + h10 * dt * out_a[i] as f64 + h01 * b[i] as f64 + h11 * dt * in_b[i] as f64)
                        as f32
                })
                .collect();
            v
        }
        _ if n == 4 => slerp(a, b, u),
        _ => (0..n).map(|i| (a[i] as f64 + (b[i] as f64 - a[i] as f64) * u) as f32).collect(),
    }
}

/// Shortest-path spherical interpolation in double precision, of the keys made unit first
/// (glTF requires unit quaternions; a key of another length, warned about by `clip`, was
/// interpolated as it was: 25.7° where its rotation's slerp has 36.4°).
fn slerp(a: &[f32], b: &[f32], u: f64) -> Vec<f32> {
    let unit = |q: &[f32]| -> Vec<f64> {
        let v: Vec<f64> = q.iter().map(|&x| x as f64).collect();
        let len = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if len > 0.0 {
            v.iter().map(|x| x / len).collect()
        } else {
            v
        }
    };
    let a = unit(a);
    let mut b = unit(b);
    let mut d: f64 = (0..4).map(|i| a[i] * b[i]).sum();
    if d < 0.0 {
        b.iter_mut().for_each(|x| *x = -*x);
        d = -d;
    }
    let (wa, wb) = if d > 0.9999995 {
        (1.0 - u, u)
    } else {
        let th = d.min(1.0).acos();
        let s = th.sin();
        (((1.0 - u) * th).sin() / s, (u * th).sin() / s)
    };
    (0..4).map(|i| (wa * a[i] + wb * b[i]) as f32).collect()
}

/// gltf-json 1.4's validation of a primitive's POSITION attribute indexes the accessor list
/// without checking the index (a panic on a file naming an accessor that does not exist; found
/// by the `gltf_in` fuzz target), so that one index is checked before gltf's validation runs.
fn check_position_accessors(root: &gltf::json::Root) -> std::result::Result<(), String> {
    let position = Checked::Valid(gltf::json::mesh::Semantic::Positions);
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            if let Some(index) = primitive.attributes.get(&position) {
                if index.value() >= root.accessors.len() {
                    return Err(format!(
                        "not a valid glTF 2.0 file: mesh {m} primitive {p}: POSITION accessor {} does not exist ({} accessors)",
                        index.value(),
                        root.accessors.len()
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The factor `f` with `glTF = f × game` for every pair of rest offsets (glTF, game) whose
/// game offset is not zero, when there is one and it is not 1 (within a thousandth of each
/// offset's length): the glTF's lengths are the game's scaled. None when fewer than two
/// offsets tell (one bone's rest moved in an editor is not a scale), or they disagree
/// (another rig's proportions, mapped with `--map`).
fn uniform_length_scale(pairs: impl Iterator<Item = (Vec3, Vec3)>) -> Option<f32> {
    let pairs: Vec<(Vec3, Vec3)> = pairs.filter(|(_, t)| t.length() > 1e-6).collect();
    if pairs.len() < 2 {
        return None;
    }
    // Least squares over the offsets: f = sum(g . t) / sum(t . t).
    let (gt, tt) = pairs.iter().fold((0.0f64, 0.0f64), |(a, b), (g, t)| (a + g.dot(*t) as f64, b + t.dot(*t) as f64));
    if tt <= 0.0 {
        return None;
    }
    let f = (gt / tt) as f32;
    let fits = |g: Vec3, t: Vec3| (g - f * t).length() <= 1e-3 * (f * t).length();
    if !(f.is_finite() && f > 0.0 && pairs.iter().all(|&(g, t)| fits(g, t))) {
        return None;
    }
    // 1 within the same tolerance: the game's own lengths.
    if (f - 1.0).abs() <= 1e-3 {
        return None;
    }
    Some(f)
}

/// `f` to 6 significant digits, without trailing zeros (`0.001`, not `0.0009999999`).
fn significant(f: f32) -> String {
    let f = f as f64;
    let decimals = (5 - f.abs().log10().floor() as i32).max(0) as usize;
    let s = format!("{f:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uniform_length_scale_is_told_only_by_offsets_that_agree() {
        let game =
            [Vec3::new(0.0, 0.0, 0.0), Vec3::new(10.0, 0.0, 0.0), Vec3::new(0.0, -25.0, 4.0), Vec3::new(3.0, 3.0, 3.0)];
        let at = |f: f32| game.iter().map(move |&t| (t * f, t));
        assert_eq!(uniform_length_scale(at(0.001)).map(significant).as_deref(), Some("0.001"));
        assert_eq!(uniform_length_scale(at(100.0)).map(significant).as_deref(), Some("100"));
        // The game's own lengths, within a thousandth.
        assert_eq!(uniform_length_scale(at(1.0005)), None);
        // One offset does not tell a scale from a rest moved in an editor.
        assert_eq!(uniform_length_scale(at(0.001).take(2)), None);
        // Offsets that disagree: another rig's proportions.
        let mixed = at(0.001).enumerate().map(|(i, (g, t))| if i == 2 { (g * 2.0, t) } else { (g, t) });
        assert_eq!(uniform_length_scale(mixed), None);
    }

    #[test]
    fn a_node_loop_is_found_whatever_its_length() {
        let chain = |parents: &[Option<usize>]| -> Vec<SourceNode> {
            parents.iter().map(|&parent| SourceNode { name: None, rest: Transform::IDENTITY, parent }).collect()
        };
        assert_eq!(in_a_loop(&chain(&[])), None);
        assert_eq!(in_a_loop(&chain(&[None, Some(0), Some(1), Some(0)])), None);
        assert_eq!(in_a_loop(&chain(&[Some(0)])), Some(0));
        // 0 -> 1 -> 2 -> 1: the loop is 1 and 2; node 0 only hangs from it.
        assert_eq!(in_a_loop(&chain(&[Some(1), Some(2), Some(1)])), Some(1));
        // A chain of 200,000 nodes under a root, then the same closed into a ring.
        let mut long: Vec<Option<usize>> = (0..200_000usize).map(|i| i.checked_sub(1)).collect();
        assert_eq!(in_a_loop(&chain(&long)), None);
        long[0] = Some(199_999);
        assert_eq!(in_a_loop(&chain(&long)), Some(0));
    }

    #[test]
    fn base64_decodes() {
        assert_eq!(base64("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(base64("aGVsbG8").unwrap(), b"hello");
        assert_eq!(base64("").unwrap(), b"");
        assert!(base64("a$==").is_none());
    }

    #[test]
    fn sampling_follows_the_interpolation() {
        let mut c = SourceChannel {
            node: 0,
            property: "translation",
            interpolation: Interpolation::Linear,
            times: vec![0.0, 1.0],
            values: vec![0.0, 0.0, 0.0, 2.0, 4.0, 6.0],
        };
        assert_eq!(sample(&c, 0.5, 60.0), vec![1.0, 2.0, 3.0]);
        assert_eq!(sample(&c, 2.0, 60.0), vec![2.0, 4.0, 6.0]);
        assert_eq!(sample(&c, -1.0, 60.0), vec![0.0, 0.0, 0.0]);
        c.interpolation = Interpolation::Step;
        assert_eq!(sample(&c, 0.99, 60.0), vec![0.0, 0.0, 0.0]);
        let q = slerp(&[0.0, 0.0, 0.0, 1.0], &[0.0, 0.0, 1.0, 0.0], 0.5);
        assert!((q[2] - std::f32::consts::FRAC_1_SQRT_2).abs() < 1e-6 && (q[3] - q[2]).abs() < 1e-6);
    }

    /// Keys that are not unit quaternions (3·q: glTF requires unit ones) are made unit before
    /// they are interpolated, and said. Worked by hand: half
    /// way between the identity and 60° about Z is 30° about Z, q = (0, 0, sin 15°, cos 15°),
    /// whatever length the keys had (unnormalised, the slerp's cosine was 7.8: no rotation).
    #[test]
    fn rotation_keys_are_made_unit() {
        let (s15, c15) = (15f64.to_radians().sin(), 15f64.to_radians().cos());
        let (s30, c30) = (30f64.to_radians().sin() as f32, 30f64.to_radians().cos() as f32);
        let q = slerp(&[0.0, 0.0, 0.0, 3.0], &[0.0, 0.0, 3.0 * s30, 3.0 * c30], 0.5);
        assert!((f64::from(q[2]) - s15).abs() < 1e-6 && (f64::from(q[3]) - c15).abs() < 1e-6, "{q:?}");
        let bone = |name: &str, parent| boneyard_core::Bone { name: name.into(), parent, rest: Transform::IDENTITY };
        let skeleton = Skeleton::new("s", vec![bone("root", None), bone("arm", Some(0))]).unwrap();
        let node = |name: &str, parent| SourceNode { name: Some(name.into()), rest: Transform::IDENTITY, parent };
        let source = |values: Vec<f32>| GltfSource {
            file: "t.glb".into(),
            nodes: vec![node("root", None), node("arm", Some(0))],
            animations: vec![SourceAnimation {
                name: "a".into(),
                channels: vec![SourceChannel {
                    node: 1,
                    property: "rotation",
                    interpolation: Interpolation::Linear,
                    times: vec![0.0, 1.0],
                    values,
                }],
            }],
            warnings: Vec::new(),
            skeletons: Vec::new(),
        };
        let mut warnings = Vec::new();
        let clip = source(vec![0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 3.0 * s30, 3.0 * c30])
            .clip(0, &skeleton, 2.0, &HashMap::new(), &mut warnings)
            .unwrap();
        let r = clip.poses[1][1].rotation;
        assert!((f64::from(r.z) - s15).abs() < 1e-6 && (f64::from(r.w) - c15).abs() < 1e-6, "{r:?}");
        assert!(
            warnings.iter().any(|w| w
                .message
                .contains("2 of its 2 rotation keys are not unit quaternions (key 0 has length 3.0000)")),
            "{warnings:?}"
        );
    }
}
