//! Write-back: [`Clip`]s (60 fps, the body's part names) encoded as TRAM `.oni` files in
//! OniSplit's layout ([`crate::encode`]), one file per clip, named `TRAM<clip>.oni` (the
//! instance name `TRAM<clip>`, as OniSplit names a file after its instance).
//!
//! * **Rotations.** Each part's local rotation per frame becomes the engine quaternion
//!   (`math::from_glam`). 6-byte keys by default: the Euler angles of the engine's
//!   `MUrXYZrEulerToQuat` ([`encode::quat_to_xyz`]), rounded to the 2π/65535 step, then, of the
//!   27 neighbouring u16 triples of each of the two Euler solutions, the one the engine decodes
//!   closest to the rotation ([`crate::keys`]);
//!   16-byte keys (the quaternion as four f32) with `key_size` 16. Keys are placed greedily:
//!   from a key, the next one is the farthest frame (at most 255 on) such that every frame in
//!   between, sampled as the engine does (`MUrQuat_Lerp` of the two decoded keys at
//!   `into / gap`), is within the tolerance (a rotation angle, [`DEFAULT_TOLERANCE`]) of the
//!   clip. A frame whose own key cannot get within it (a tolerance below the key's
//!   quantization) still gets its key.
//! * **Root motion.** The root part's translation at frame `f`, less the body's rest offset,
//!   gives the height (`y`) and the position (`x`, `z`); the engine's per-frame motion is
//!   `velocity[f] = position[f + 1] − position[f]` (f32). The motion after the last frame is
//!   not in a clip: the last velocity is the `like` animation's when it has as many frames, else
//!   the one before it (0 for a one-frame clip). A clip that does not start at the origin
//!   loses that offset (Oni's position starts at 0; a warning says so). Translations of other
//!   parts and scales are not in the format (a warning names the parts that had them).
//! * **Other fields** (type, states, flags, attacks, extents, sounds, position points...) are
//!   copied from the `like` animation; without one they are OniSplit's defaults for an
//!   animation without extras ([`encode::new_tram`]: type 6, states 7, no attacks, the extent
//!   sentinels). Position points are kept only when `like` has the same number of frames;
//!   copied extents are not recomputed (warnings say so).
//! * **Read back.** Every file is opened again by the reader ([`crate::open_files`]) and its
//!   rotations at every frame, heights and velocities must equal what the encoder computed,
//!   bit for bit; otherwise nothing is returned.

use crate::encode::{self, quat_to_xyz};
use crate::keys;
use crate::layout::tram as t;
use crate::math::{from_glam, quat_lerp, to_glam, EQuat, ANGLE_STEP_6};
use crate::tram::Tram;
use boneyard_core::{Clip, Document, Error, ImportOptions, Imported, ImportedAnim, ImportedFile, InputFile, Result};
use boneyard_core::{Warning, Writer};
use glam::Quat;
use serde_json::json;

/// Default tolerance: the largest rotation angle (radians) between the clip and the engine's
/// sampling of the written keys at any frame (about 0.017°; a 6-byte key alone is within
/// 1.5e-4).
pub const DEFAULT_TOLERANCE: f64 = 3e-4;

/// The angle (radians) between an engine quaternion and a glam rotation.
pub fn angle_between(e: EQuat, q: Quat) -> f64 {
    let g = to_glam(e);
    let a = [g.x as f64, g.y as f64, g.z as f64, g.w as f64];
    let b = [q.x as f64, q.y as f64, q.z as f64, q.w as f64];
    let nb = b.iter().map(|x| x * x).sum::<f64>().sqrt();
    let b = b.map(|x| x / nb);
    let s = if (0..4).map(|i| a[i] * b[i]).sum::<f64>() < 0.0 { -1.0 } else { 1.0 };
    let d = (0..4).map(|i| (a[i] - s * b[i]).powi(2)).sum::<f64>().sqrt();
    let p = (0..4).map(|i| (a[i] + s * b[i]).powi(2)).sum::<f64>().sqrt();
    4.0 * d.atan2(p)
}

/// The key bytes for `q` (a glam rotation) and their decoded value.
fn best_key(size: u16, q: Quat) -> Result<(Vec<u8>, EQuat)> {
    let e = from_glam(q.normalize());
    if size != 6 {
        let bytes = encode::encode_key(size, e)?;
        let dec = keys::decode(size, &bytes).ok_or_else(|| Error::unsupported(format!("key size {size}")))?;
        return Ok((bytes, dec));
    }
    // Both Euler solutions of the rotation: (x, y, z) and (x + π, π − y, z + π).
    let [x, y, z] = quat_to_xyz(e);
    let pi = std::f64::consts::PI;
    let step = |a: f64| (a.rem_euclid(std::f64::consts::TAU) / ANGLE_STEP_6 as f64).round() as i64;
    let mut best: Option<(f64, [u16; 3])> = None;
    for base in [[x, y, z], [x + pi, pi - y, z + pi]].map(|v| v.map(step)) {
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    let u = [base[0] + dx, base[1] + dy, base[2] + dz].map(|v| v.rem_euclid(65536) as u16);
                    let err = angle_between(keys::decode6(u), q);
                    if best.is_none_or(|(b, _)| err < b) {
                        best = Some((err, u));
                    }
                }
            }
        }
    }
    let u = best.map(|b| b.1).unwrap_or([0; 3]);
    let mut w = Writer::new(boneyard_core::Endian::Little);
    for v in u {
        w.u16(v);
    }
    Ok((w.into_bytes(), keys::decode6(u)))
}

/// One part's keys: (frame, key bytes) and the engine's sampling of them at every frame.
pub struct PartKeys {
    /// The frames at which keys are written.
    pub frames: Vec<usize>,
    /// The key bytes, one entry per frame of `frames`.
    pub keys: Vec<Vec<u8>>,
    /// The engine's sampling of the keys at every frame.
    pub sampled: Vec<EQuat>,
    /// Largest angle between the sampling and the clip.
    pub max_error: f64,
    /// How many of the keys written are the `stored` key of their frame, byte for byte.
    pub stored_keys: usize,
}

/// Place the keys of one part (see the module documentation). `stored`: per frame, the key an
/// animation the clip was made from holds there (`--like`, or the `--into` files' animation of
/// its name), written in place of the nearest key where it is as close to the clip's rotation:
/// an unedited round trip keeps OniSplit's (or Bungie's) very bytes, where gimbal lock leaves
/// two triples of one rotation.
pub fn place_keys(size: u16, target: &[Quat], tolerance: f64, stored: &[Option<&[u8]>]) -> Result<PartKeys> {
    let n = target.len();
    let enc: Vec<(Vec<u8>, EQuat, bool)> = target
        .iter()
        .enumerate()
        .map(|(f, &q)| {
            let (bytes, dec) = best_key(size, q)?;
            let kept = stored
                .get(f)
                .copied()
                .flatten()
                .filter(|b| b.len() == usize::from(size))
                .and_then(|b| keys::decode(size, b).map(|d| (b, d)))
                .filter(|&(_, d)| keys::is_unit(d) && angle_between(d, q) <= angle_between(dec, q));
            // (The third field: the key written is the stored one.)
            Ok(match kept {
                Some((b, d)) => (b.to_vec(), d, true),
                None => (bytes, dec, false),
            })
        })
        .collect::<Result<_>>()?;
    let lerp = |a: usize, b: usize, j: usize| -> EQuat {
        let gap = b - a;
        let into = j - a;
        if into == 0 {
            enc[a].1
        } else if into == gap {
            enc[b].1
        } else {
            quat_lerp(enc[a].1, enc[b].1, into as f32 / gap as f32)
        }
    };
    let mut frames = vec![0usize];
    let mut k = 0;
    while k + 1 < n {
        let mut best = k + 1;
        let top = (k + 255).min(n - 1);
        // The farthest end that holds. Not monotone (the engine's lerp is not a slerp, so a
        // shorter segment of a lerped stretch can fail where the whole one holds): ends are
        // tried from the farthest down, so a still or smooth stretch costs one check.
        for e in (k + 2..=top).rev() {
            if (k + 1..e).all(|j| angle_between(lerp(k, e, j), target[j]) <= tolerance)
                && angle_between(enc[e].1, target[e]) <= tolerance
            {
                best = e;
                break;
            }
        }
        frames.push(best);
        k = best;
    }
    let mut sampled = Vec::with_capacity(n);
    for w in frames.windows(2) {
        for j in w[0]..w[1] {
            sampled.push(lerp(w[0], w[1], j));
        }
    }
    sampled.push(enc[n - 1].1);
    let max_error = sampled.iter().zip(target).map(|(&s, &q)| angle_between(s, q)).fold(0.0, f64::max);
    let keys = frames.iter().map(|&f| enc[f].0.clone()).collect();
    let stored_keys = frames.iter().filter(|&&f| enc[f].2).count();
    Ok(PartKeys { frames, keys, sampled, max_error, stored_keys })
}

/// The rotation block of parts' keys (as [`encode::rotation_block`] lays it out).
fn block(size: u16, parts: &[PartKeys]) -> Result<(Vec<u8>, Vec<crate::tram::Stream>)> {
    let mut out = vec![0u8; parts.len() * 2];
    let mut streams = Vec::with_capacity(parts.len());
    for (p, pk) in parts.iter().enumerate() {
        let start = out.len();
        if start > u16::MAX as usize {
            return Err(Error::ceiling(
                0,
                "rotation block over 64 KiB (u16 offsets): use fewer keys or a higher tolerance",
            ));
        }
        out[2 * p..2 * p + 2].copy_from_slice(&(start as u16).to_le_bytes());
        for (k, key) in pk.keys.iter().enumerate() {
            if k > 0 {
                out.push((pk.frames[k] - pk.frames[k - 1]) as u8);
            }
            debug_assert_eq!(key.len(), size as usize);
            out.extend_from_slice(key);
        }
        streams.push(crate::tram::Stream { start, end: out.len(), keys: pk.keys.len() });
    }
    Ok((out, streams))
}

/// Instance/file name of a clip: its name with characters other than ASCII letters, digits,
/// `_`, `-` and `.` replaced by `_`, without a leading "TRAM".
pub fn instance_name(clip: &str) -> String {
    let s = clip.strip_prefix("TRAM").unwrap_or(clip);
    let s: String = s.chars().map(|c| if c.is_ascii_alphanumeric() || "_-.".contains(c) { c } else { '_' }).collect();
    if s.is_empty() {
        "imported".into()
    } else {
        s
    }
}

/// The figures of one written clip.
#[derive(Debug, Clone)]
pub struct Encoded {
    /// The TRAM as written.
    pub tram: Tram,
    /// Number of keys written per part.
    pub keys_per_part: Vec<usize>,
    /// Largest angle (radians) between the engine's sampling of the written keys and the clip.
    pub max_error: f64,
    /// Per part, per frame: the engine's sampling of the keys written (what the reader must
    /// give back).
    pub sampled: Vec<Vec<EQuat>>,
    /// The animation the clip was made from and how many of the keys written are its own.
    pub original: Option<(String, usize)>,
}

/// How rotation keys are written.
#[derive(Debug, Clone, Copy)]
pub struct Keying {
    /// Bytes a key (6: u16 Euler angles; 16: f32 quaternions).
    pub size: u16,
    /// The largest angle (radians) between the clip and the engine's sampling of the keys.
    pub tolerance: f64,
}

/// A TRAM for `clip` on `body`'s parts (`names`: the skeleton's bone names, in part order),
/// with `like`'s fields; `original`: the animation the clip was made from, whose keys are kept
/// where they are as close (see `place_keys`).
pub fn clip_to_tram(
    clip: &Clip,
    body: &crate::body::Body,
    names: &[String],
    like: Option<&Tram>,
    original: Option<&Tram>,
    keying: Keying,
    warnings: &mut Vec<Warning>,
) -> Result<Encoded> {
    let Keying { size: key_size, tolerance } = keying;
    let err = |m: String| Error::unplaced(format!("clip {:?}: {m}", clip.name)).in_file(&clip.source);
    clip.validate()?;
    let parts = body.parts();
    if clip.bones != names {
        return Err(err(format!("its bones are not the body's {parts} parts in order")));
    }
    if clip.fps != t::ENGINE_FPS as f64 {
        return Err(err(format!("sampled at {} fps; Oni plays {} fps", clip.fps, t::ENGINE_FPS)));
    }
    let frames = clip.frames();
    if frames > u16::MAX as usize {
        return Err(err(format!("{frames} frames; an Oni animation holds at most {} (u16)", u16::MAX)));
    }
    if ![6u16, 16].contains(&key_size) {
        return Err(Error::unsupported(format!("Oni key size {key_size} (6 or 16 are written)")));
    }
    if !(tolerance.is_finite() && tolerance >= 0.0) {
        return Err(err(format!("tolerance {tolerance}")));
    }
    let warn =
        |w: &mut Vec<Warning>, m: String| w.push(Warning::in_file(&clip.source, format!("clip {:?}: {m}", clip.name)));
    // The instance's name: "TRAM", the name and its end within the name field the reader (and
    // OniSplit) take; said when characters had to change (the file is named after it).
    let name = instance_name(&clip.name);
    let most = crate::container::MAX_NAME - "TRAM".len() - 1;
    if name.len() > most {
        return Err(err(format!("its name has {} characters; a TRAM's name holds at most {most}", name.len())));
    }
    if name != clip.name.strip_prefix("TRAM").unwrap_or(&clip.name) {
        warn(warnings, format!("written as TRAM{name}: a TRAM's name holds ASCII letters, digits, _, - and . only"));
    }
    let root = (0..parts).find(|&p| body.parents[p].is_none()).unwrap_or(0);
    // Rotations.
    let mut pks = Vec::with_capacity(parts);
    // The keys of the animation the clip was made from, where it has as many parts and keys
    // of this size.
    let original = original.filter(|o| o.parts == parts && o.key_size == key_size);
    let mut stored: Vec<Option<&[u8]>> = vec![None; frames];
    for p in 0..parts {
        let target: Vec<Quat> = clip.poses.iter().map(|pose| pose[p].rotation).collect();
        stored.iter_mut().for_each(|k| *k = None);
        for (f, key) in original.map(|o| o.part_keys(p)).unwrap_or_default() {
            if let Some(slot) = stored.get_mut(f) {
                *slot = Some(key);
            }
        }
        pks.push(place_keys(key_size, &target, tolerance, &stored)?);
    }
    let (rotations, streams) = block(key_size, &pks)?;
    // What the format does not hold.
    let mut moved = Vec::new();
    for p in 0..parts {
        let rest = glam::Vec3::from(body.translations[p]);
        let off = clip.poses.iter().any(|pose| {
            (p != root && (pose[p].translation - rest).abs().max_element() > 1e-4)
                || (pose[p].scale - glam::Vec3::ONE).abs().max_element() > 1e-4
        });
        if off {
            moved.push(names[p].clone());
        }
    }
    if !moved.is_empty() {
        warn(warnings, format!("Oni animates rotations only (and the root's height and motion); the translations or scales of {} are not kept", moved.join(", ")));
    }
    // Root motion.
    let rest = glam::Vec3::from(body.translations[root]);
    let rt: Vec<glam::Vec3> = clip.poses.iter().map(|pose| pose[root].translation).collect();
    let heights: Vec<f32> = rt.iter().map(|v| v.y - rest.y).collect();
    let pos: Vec<[f32; 2]> = rt.iter().map(|v| [v.x - rest.x, v.z - rest.z]).collect();
    if pos[0][0].abs() > 1e-4 || pos[0][1].abs() > 1e-4 {
        warn(
            warnings,
            format!(
                "the root starts at x {} z {}, not at the origin; Oni positions start at 0, the offset is dropped",
                pos[0][0], pos[0][1]
            ),
        );
    }
    let mut velocities: Vec<[f32; 2]> = pos.windows(2).map(|w| [w[1][0] - w[0][0], w[1][1] - w[0][1]]).collect();
    let last = match like {
        Some(l) if l.frames == frames => l.velocities.last().copied().unwrap_or([0.0, 0.0]),
        _ => velocities.last().copied().unwrap_or([0.0, 0.0]),
    };
    velocities.push(last);
    // A motion that overflows f32 (positions a world apart from frame to frame) is no motion
    // the engine can play: refused, as a non-finite value is (it was written as `inf`).
    let bad = heights.iter().position(|h| !h.is_finite()).map(|f| (f, "height"));
    let bad =
        bad.or_else(|| velocities.iter().position(|v| !(v[0].is_finite() && v[1].is_finite())).map(|f| (f, "motion")));
    if let Some((f, what)) = bad {
        return Err(err(format!("the root's {what} at frame {f} is not finite as an f32 (the root moves too far)")));
    }
    // The TRAM.
    let mut tr = match like {
        Some(l) => {
            let mut tr = l.clone();
            if l.frames != frames && !l.positions.is_empty() {
                tr.positions.clear();
                warn(
                    warnings,
                    format!(
                        "--like {} has {} frames, the clip {frames}: its position points are left out",
                        l.name, l.frames
                    ),
                );
            }
            if l.flags & crate::layout::tram::FLAG_OVERLAY != 0 {
                warn(
                    warnings,
                    format!(
                        "--like {} is an overlay (flags {:#x}): the new clip is one too, and the game plays only its parts {:#x} over another animation",
                        l.name, l.flags, l.used_parts
                    ),
                );
            }
            if !l.attack_extents.is_empty() || !l.attacks.is_empty() {
                warn(
                    warnings,
                    format!("attacks and extents are copied from --like {}, not recomputed for the new motion", l.name),
                );
            }
            for said in fit_events(&mut tr, frames) {
                warn(warnings, format!("--like {}: {said}", l.name));
            }
            if l.frames != frames {
                let events = event_frames(&tr);
                if !events.is_empty() {
                    warn(
                        warnings,
                        format!(
                            "--like {} has {} frames, the clip {frames}: its events are kept at its own frames, not retimed ({})",
                            l.name,
                            l.frames,
                            events.join("; ")
                        ),
                    );
                }
            }
            if l.duration as usize == l.frames {
                tr.duration = frames as u16;
            }
            tr
        }
        None => encode::new_tram(&name, key_size, parts, frames),
    };
    tr.name = name;
    tr.key_size = key_size;
    tr.fps = t::ENGINE_FPS;
    tr.parts = parts;
    tr.frames = frames;
    if like.is_none() {
        tr.duration = frames as u16;
    }
    tr.heights = heights;
    tr.velocities = velocities;
    tr.rotations = rotations.into();
    tr.streams = streams;
    let max_error = pks.iter().map(|p| p.max_error).fold(0.0, f64::max);
    let keys_per_part = pks.iter().map(|p| p.keys.len()).collect();
    let original = original.map(|o| (o.name.clone(), pks.iter().map(|p| p.stored_keys).sum()));
    let sampled = pks.into_iter().map(|p| p.sampled).collect();
    Ok(Encoded { tram: tr, keys_per_part, max_error, sampled, original })
}

/// The `.oni` of an encoded TRAM, read back and compared with the encoder's own figures.
fn write_checked(enc: &Encoded, file: &str) -> Result<Vec<u8>> {
    let inst = encode::tram_instance(&enc.tram)?;
    let bytes = encode::write_oni(&[inst])?;
    let doc = crate::open_files(vec![InputFile::new(file, bytes.clone())])
        .map_err(|e| Error::unplaced(format!("the written TRAM does not read back: {e}")).in_file(file))?;
    let back = doc.trams().first().ok_or_else(|| Error::unplaced("the written file holds no TRAM").in_file(file))?;
    let bad = |m: String| Err(Error::unplaced(format!("read back differs: {m}")).in_file(file));
    if back.frames != enc.tram.frames || back.parts != enc.tram.parts || back.key_size != enc.tram.key_size {
        return bad("frames, parts or key size".into());
    }
    for (p, want) in enc.sampled.iter().enumerate() {
        let got = back.part_rotations(p)?;
        if got.iter().zip(want).any(|(a, b)| a.map(f32::to_bits) != b.map(f32::to_bits)) || got.len() != want.len() {
            return bad(format!("rotations of part {p}"));
        }
    }
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    if bits(&back.heights) != bits(&enc.tram.heights) {
        return bad("heights".into());
    }
    let vel = |v: &[[f32; 2]]| v.iter().flat_map(|x| x.map(f32::to_bits)).collect::<Vec<_>>();
    if vel(&back.velocities) != vel(&enc.tram.velocities) {
        return bad("velocities".into());
    }
    Ok(bytes)
}

/// [`boneyard_core::Family::import_clips`] for Oni: `into` opened as one document (a TRBS,
/// an ONCC with its body, a level; TRAMs among them can be `like`).
pub fn import_clips(
    into: Vec<InputFile>,
    clips: &[Clip],
    options: &ImportOptions,
    companions: &dyn boneyard_core::Companions,
) -> Result<Imported> {
    let doc = crate::open_with_companions(into, companions)?;
    let d: &dyn Document = &doc;
    let sk = match &options.skeleton {
        Some(s) => d.find_skeleton(s)?,
        None if d.skeletons().is_empty() => {
            return Err(Error::unplaced("the --into files hold no body (TRBS, ONCC or TRCM)"))
        }
        None => 0,
    };
    let info = &d.skeletons()[sk];
    let body = &doc.bodies()[sk];
    let names: Vec<String> = info.skeleton.bones.iter().map(|b| b.name.clone()).collect();
    let like = match &options.like {
        Some(a) => Some(&doc.trams()[d.find_animation(a)?]),
        None => None,
    };
    if let Some(l) = like {
        if l.parts != body.parts() {
            return Err(Error::unplaced(format!(
                "--like {}: {} parts, the body {} has {}",
                l.name,
                l.parts,
                info.name,
                body.parts()
            )));
        }
    }
    let key_size = options.key_size.unwrap_or(6);
    let tolerance = options.tolerance.unwrap_or(DEFAULT_TOLERANCE);
    let mut out = Imported::default();
    out.read_warnings.extend(d.warnings().iter().cloned());
    let mut taken = std::collections::HashSet::new();
    for clip in clips {
        // The animation the clip was made from: --like's, else the one of its name.
        let original = like.or_else(|| doc.trams().iter().find(|t| t.name == instance_name(&clip.name)));
        let enc =
            clip_to_tram(clip, body, &names, like, original, Keying { size: key_size, tolerance }, &mut out.warnings)?;
        // A clip that takes the place of an animation of the --into files takes none of its
        // fields without --like: said, as they change how the game plays it.
        if let Some(old) = doc.trams().iter().find(|t| like.is_none() && t.name == enc.tram.name) {
            let (new, was) = (&enc.tram, old);
            out.warnings.push(Warning::in_file(
                &clip.source,
                format!(
                    "clip {:?}: {} is an animation of the --into files already (type {}, states {} -> {}, flags {:#x}); the new one has OniSplit's defaults (type {}, states {} -> {}, flags {:#x}): --like {} keeps its fields",
                    clip.name, was.name, was.kind, was.from_state, was.to_state, was.flags,
                    new.kind, new.from_state, new.to_state, new.flags, was.name
                ),
            ));
        }
        let file = format!("TRAM{}.oni", enc.tram.name);
        if !taken.insert(file.to_ascii_lowercase()) {
            return Err(Error::unplaced(format!(
                "clip {:?}: a second clip would also be written as {file}",
                clip.name
            ))
            .in_file(&clip.source));
        }
        let bytes = write_checked(&enc, &file)?;
        let mut extra = serde_json::Map::new();
        extra.insert("key_size".into(), json!(key_size));
        extra.insert("keys".into(), json!(enc.keys_per_part.iter().sum::<usize>()));
        extra.insert("keys_per_part".into(), json!(enc.keys_per_part));
        if let Some((name, kept)) = &enc.original {
            extra.insert("original".into(), json!(name));
            extra.insert("original_keys_kept".into(), json!(kept));
        }
        extra.insert("tolerance".into(), json!(tolerance));
        extra.insert("max_rotation_error".into(), json!(enc.max_error));
        extra.insert("like".into(), json!(like.map(|l| l.name.clone())));
        extra.insert("skeleton".into(), json!(info.id));
        out.files.push(ImportedFile {
            name: file,
            bytes,
            format: "Oni instance file (OniSplit .oni)".into(),
            animations: vec![ImportedAnim {
                name: enc.tram.name.clone(),
                index: 0,
                offset: None,
                frames: enc.tram.frames as u32,
                fps: t::ENGINE_FPS as f64,
                extra,
            }],
        });
    }
    Ok(out)
}

/// The frames of `tr`'s events, by kind (`footsteps 5, 15`; `action frame 14`...), for the
/// warning that a clip of another length keeps them where they were.
fn event_frames(tr: &crate::tram::Tram) -> Vec<String> {
    let list = |v: Vec<u16>| v.iter().map(u16::to_string).collect::<Vec<_>>().join(", ");
    let mut out = Vec::new();
    let mut kind = |name: &str, v: Vec<u16>| {
        if !v.is_empty() {
            out.push(format!("{name} {}", list(v)));
        }
    };
    kind("footsteps at", tr.footsteps.iter().map(|f| f[0]).collect());
    kind("sounds at", tr.sounds.iter().map(|s| s.1).collect());
    kind("damage taken at", tr.damages.iter().map(|d| d[1]).collect());
    kind("particles from", tr.particles.iter().map(|p| p.start).collect());
    kind("blurs from", tr.blurs.iter().map(|b| b.first_frame).collect());
    kind("attacks from", tr.attacks.iter().map(|a| a.first_frame).collect());
    if tr.action_frame >= 0 {
        out.push(format!("action frame {}", tr.action_frame));
    }
    if tr.atomic != [0, 0] {
        out.push(format!("atomic {}..{}", tr.atomic[0], tr.atomic[1]));
    }
    if tr.invulnerable != [0, 0] {
        out.push(format!("invulnerable {}..{}", tr.invulnerable[0], tr.invulnerable[1]));
    }
    out
}

/// Events copied from `--like` that fall past the clip's last frame: those that start past it
/// are dropped (footsteps, sounds, damage, particles, blurs; the action frame becomes none),
/// ranges that end past it end on it (particles, blurs, atomic, invulnerable). Attacks are kept
/// as they are (their extents and bounds index them), said when they reach past it. Each
/// change is returned, said (they were copied past a shortened clip's end with one warning).
fn fit_events(tr: &mut crate::tram::Tram, frames: usize) -> Vec<String> {
    let last = frames.saturating_sub(1).min(usize::from(u16::MAX)) as u16;
    let mut said = Vec::new();
    let left_out = |what: &str, before: usize, after: usize, said: &mut Vec<String>| {
        if before != after {
            said.push(format!("{} of its {before} {what} past the clip's last frame {last} left out", before - after));
        }
    };
    let n = tr.footsteps.len();
    tr.footsteps.retain(|f| f[0] <= last);
    left_out("footsteps", n, tr.footsteps.len(), &mut said);
    let n = tr.sounds.len();
    tr.sounds.retain(|s| s.1 <= last);
    left_out("sounds", n, tr.sounds.len(), &mut said);
    let n = tr.damages.len();
    tr.damages.retain(|d| d[1] <= last);
    left_out("damage frames", n, tr.damages.len(), &mut said);
    let n = tr.particles.len();
    tr.particles.retain(|p| p.start <= last);
    left_out("particles", n, tr.particles.len(), &mut said);
    let n = tr.blurs.len();
    tr.blurs.retain(|b| b.first_frame <= last);
    left_out("blurs", n, tr.blurs.len(), &mut said);
    let mut ended = Vec::new();
    for p in tr.particles.iter_mut().filter(|p| p.stop > last) {
        ended.push(format!("particle {} stopped at {}", p.name, p.stop));
        p.stop = last;
    }
    for b in tr.blurs.iter_mut().filter(|b| b.last_frame > last) {
        ended.push(format!("blur ended at {}", b.last_frame));
        b.last_frame = last;
    }
    // A range that starts past the end becomes a new clip's (0..0).
    let fit = |r: [u16; 2]| if r[0] > last { [0, 0] } else { [r[0], r[1].min(last)] };
    if tr.atomic[1] > last {
        let now = fit(tr.atomic);
        ended.push(format!("atomic {}..{} now {}..{}", tr.atomic[0], tr.atomic[1], now[0], now[1]));
        tr.atomic = now;
    }
    if u16::from(tr.invulnerable[1]) > last {
        let now = fit(tr.invulnerable.map(u16::from)).map(|v| v as u8);
        ended.push(format!("invulnerable {}..{} now {}..{}", tr.invulnerable[0], tr.invulnerable[1], now[0], now[1]));
        tr.invulnerable = now;
    }
    if !ended.is_empty() {
        said.push(format!("ranges past the clip's last frame {last} end by it: {}", ended.join(", ")));
    }
    if tr.action_frame >= 0 && tr.action_frame as usize > usize::from(last) {
        said.push(format!("its action frame {} is past the clip's last frame {last}: none written", tr.action_frame));
        tr.action_frame = -1;
    }
    if let Some(a) = tr.attacks.iter().map(|a| a.last_frame).max().filter(|&f| f > last) {
        said.push(format!("its attacks reach frame {a}, past the clip's last frame {last}: kept as it has them (their extents are indexed by them)"));
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A root that jumps a world apart each frame overflows f32's motion: refused, naming the
    /// frame (it was written as `inf`, exit 0).
    #[test]
    fn a_root_motion_that_overflows_is_refused() {
        let body = crate::body::Body::generic(19);
        let names: Vec<String> = (0..19).map(|i| crate::body::part_name(i, 19)).collect();
        let rest: Vec<boneyard_core::Transform> = (0..19)
            .map(|p| boneyard_core::Transform {
                translation: glam::Vec3::from(body.translations[p]),
                ..boneyard_core::Transform::IDENTITY
            })
            .collect();
        let mut poses = vec![rest; 4];
        for (f, pose) in poses.iter_mut().enumerate() {
            pose[0].translation.z = if f % 2 == 0 { 3e38 } else { -3e38 };
        }
        let clip = Clip {
            name: "overflow".into(),
            fps: t::ENGINE_FPS as f64,
            bones: names.clone(),
            poses,
            animated: vec![true; 19],
            root_motion: None,
            source: "edited.glb#0".into(),
        };
        let e = clip_to_tram(
            &clip,
            &body,
            &names,
            None,
            None,
            Keying { size: 6, tolerance: DEFAULT_TOLERANCE },
            &mut Vec::new(),
        )
        .err()
        .unwrap();
        assert!(e.to_string().contains("the root's motion at frame 0 is not finite"), "{e}");
        assert_eq!(e.file.as_deref(), Some("edited.glb#0"));
    }

    #[test]
    fn a_still_part_needs_two_keys_and_a_turn_needs_more() {
        let still = vec![Quat::from_rotation_x(0.3); 300];
        let k = place_keys(6, &still, DEFAULT_TOLERANCE, &[]).unwrap();
        // 300 frames: gaps of at most 255.
        assert_eq!(k.frames, vec![0, 255, 299]);
        assert!(k.max_error < 1.5e-4, "{}", k.max_error);
        let turn: Vec<Quat> = (0..60).map(|f| Quat::from_rotation_y((f as f32 * 0.1).sin())).collect();
        let k = place_keys(6, &turn, DEFAULT_TOLERANCE, &[]).unwrap();
        assert!(k.frames.len() > 2 && k.frames.len() < 60, "{:?}", k.frames);
        assert!(k.max_error <= DEFAULT_TOLERANCE, "{}", k.max_error);
        let k16 = place_keys(16, &turn, DEFAULT_TOLERANCE, &[]).unwrap();
        assert!(k16.max_error <= DEFAULT_TOLERANCE);
    }

    #[test]
    fn a_long_still_clip_is_quick_and_keyed_every_255_frames() {
        let still = vec![Quat::from_rotation_z(1.0); u16::MAX as usize];
        let t = std::time::Instant::now();
        let k = place_keys(6, &still, DEFAULT_TOLERANCE, &[]).unwrap();
        assert_eq!(k.frames.len(), 1 + (u16::MAX as usize - 1).div_ceil(255));
        assert!(k.frames.windows(2).all(|w| w[1] - w[0] <= 255));
        // Not an assertion (no timed tests): the figure, for whoever reads the log.
        eprintln!("took {:?}", t.elapsed());
    }

    #[test]
    fn six_byte_keys_decode_within_the_step() {
        for i in 0..500 {
            let a = i as f32 * 0.37;
            let q = Quat::from_euler(glam::EulerRot::XYZ, a.sin() * 3.0, (a * 1.3).cos() * 1.5, a * 0.7).normalize();
            let (_, dec) = best_key(6, q).unwrap();
            assert!(angle_between(dec, q) < 1.5e-4, "{i}: {}", angle_between(dec, q));
        }
    }
}
