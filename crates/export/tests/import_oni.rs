//! Write-back on the real OniSplit fixtures: `TRAMfixture_walk19.oni` on `TRBSfixture_body19.oni`
//! exported to glb, read back by `gltf_in`, encoded by the Oni family, decoded by the Oni
//! reader and compared at every frame with the original as the engine samples it; OniSplit's
//! XML reading of the original is a second, independent oracle. Plus an edit of one joint in
//! the glb, and the bad inputs that must be refused.

use boneyard_core::testdata::shared_data;
use boneyard_core::{Family, ImportOptions, Imported, InputFile, Warning};
use boneyard_export::gltf_in::GltfSource;
use boneyard_export::{glb, ExportOptions};
use boneyard_oni::Tram;
use boneyard_oni::{to_glam, EQuat};
use glam::Quat;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

const CLIP: &str = "fixture_walk19";

fn paths(test: &str) -> Option<(PathBuf, PathBuf)> {
    Some((shared_data("oni/TRAMfixture_walk19.oni", test)?, shared_data("oni/TRBSfixture_body19.oni", test)?))
}

/// The original TRAM and the glb boneyard exports of it on the body.
fn original(walk: &Path, body: &Path) -> (Tram, Vec<u8>) {
    let doc = boneyard_oni::open_paths(&[walk, body]).unwrap();
    let d: &dyn boneyard_core::Document = &doc;
    let a = d.find_animation(CLIP).unwrap();
    let sk = d.skeleton_for(a).unwrap();
    let bytes = glb(d, sk, &[a], &ExportOptions::default()).unwrap();
    (doc.trams()[a].clone(), bytes)
}

/// glb → clip → TRAM `.oni` on the body.
fn import(glb: &[u8], body: &Path, opts: &ImportOptions) -> boneyard_core::Result<(Imported, Vec<Warning>)> {
    let target = boneyard_oni::open_paths(&[body]).unwrap();
    let d: &dyn boneyard_core::Document = &target;
    let src = GltfSource::read("walk19.glb", glb, None)?;
    let mut warnings = src.warnings.clone();
    let clip = src.clip(0, &d.skeletons()[0].skeleton, 60.0, &HashMap::new(), &mut warnings)?;
    let out = boneyard_oni::Oni.import_clips(
        vec![InputFile::read(body).unwrap()],
        &[clip],
        opts,
        &boneyard_core::DiskCompanions::default(),
    )?;
    Ok((out, warnings))
}

/// The glb's clip on the body, as `import` reads it.
fn clip_of(glb: &[u8], body: &Path) -> boneyard_core::Clip {
    let target = boneyard_oni::open_paths(&[body]).unwrap();
    let d: &dyn boneyard_core::Document = &target;
    let src = GltfSource::read("walk19.glb", glb, None).unwrap();
    src.clip(0, &d.skeletons()[0].skeleton, 60.0, &HashMap::new(), &mut Vec::new()).unwrap()
}

/// `clip` imported into the body with the walk beside it (`like`: `--like` the walk).
fn import_beside_walk(clip: boneyard_core::Clip, walk: &Path, body: &Path, like: bool) -> Imported {
    let into = vec![InputFile::read(body).unwrap(), InputFile::read(walk).unwrap()];
    let opts = ImportOptions {
        like: like.then(|| CLIP.into()),
        skeleton: Some("TRBSfixture_body19".into()),
        ..Default::default()
    };
    boneyard_oni::Oni.import_clips(into, &[clip], &opts, &boneyard_core::DiskCompanions::default()).unwrap()
}

fn read_back(out: &Imported) -> Tram {
    assert_eq!(out.files.len(), 1);
    let f = &out.files[0];
    let doc = boneyard_oni::open_files(vec![InputFile::new(&f.name, f.bytes.clone())]).unwrap();
    doc.trams()[0].clone()
}

/// The angle between two rotations, in double precision and well-conditioned near 0
/// (4·atan2(|a − b|, |a + b|) in one hemisphere; an f32 acos of the dot product is only good
/// to 7e-4 rad there).
fn angle(a: Quat, b: Quat) -> f64 {
    let a = a.normalize().to_array().map(|x| x as f64);
    let b = b.normalize().to_array().map(|x| x as f64);
    let s = if (0..4).map(|i| a[i] * b[i]).sum::<f64>() < 0.0 { -1.0 } else { 1.0 };
    let d = (0..4).map(|i| (a[i] - s * b[i]).powi(2)).sum::<f64>().sqrt();
    let p = (0..4).map(|i| (a[i] + s * b[i]).powi(2)).sum::<f64>().sqrt();
    4.0 * d.atan2(p)
}

/// Keys on the same frames in both (panics otherwise); how many have the same bytes and how
/// many not.
fn key_agreement(a: &Tram, b: &Tram) -> (usize, usize) {
    let (mut same, mut differ) = (0, 0);
    for p in 0..a.parts {
        let (sa, sb) = (a.stream_bytes(p), b.stream_bytes(p));
        assert_eq!(sa.len(), sb.len(), "part {p}: other key frames");
        let ks = a.key_size as usize;
        let mut at = 0;
        while at < sa.len() {
            if at > 0 {
                assert_eq!(sa[at], sb[at], "part {p}: other gaps");
                at += 1;
            }
            if sa[at..at + ks] == sb[at..at + ks] {
                same += 1;
            } else {
                differ += 1;
            }
            at += ks;
        }
    }
    (same, differ)
}

fn rotations(t: &Tram) -> Vec<Vec<EQuat>> {
    (0..t.parts).map(|p| t.part_rotations(p).unwrap()).collect()
}

/// The glb's BIN chunk start and the byte offset of accessor `acc`'s data in the file.
fn accessor_at(glb: &[u8], acc: usize) -> (usize, serde_json::Value) {
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let json: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let bin = 20 + json_len + 8;
    let a = &json["accessors"][acc];
    let v = &json["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
    let at = bin + v["byteOffset"].as_u64().unwrap_or(0) as usize + a["byteOffset"].as_u64().unwrap_or(0) as usize;
    (at, json)
}

/// (input accessor, output accessor) of the `path` channel of node `node` in animation 0.
fn channel(glb: &[u8], node: usize, path: &str) -> (usize, usize) {
    let (_, json) = accessor_at(glb, 0);
    let anim = &json["animations"][0];
    let ch = anim["channels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["target"]["node"] == node && c["target"]["path"] == path)
        .unwrap();
    let s = &anim["samplers"][ch["sampler"].as_u64().unwrap() as usize];
    (s["input"].as_u64().unwrap() as usize, s["output"].as_u64().unwrap() as usize)
}

fn get_f32(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn put_f32(b: &mut [u8], at: usize, v: f32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn walk19_round_trips_through_glb_within_the_key_step() {
    let Some((walk, body)) = paths("walk19_round_trips_through_glb_within_the_key_step") else { return };
    let (orig, glb) = original(&walk, &body);
    let (out, warnings) = import(&glb, &body, &ImportOptions::default()).unwrap();
    assert_eq!(out.files[0].name, format!("TRAM{CLIP}.oni"));
    let back = read_back(&out);
    assert_eq!((back.frames, back.parts, back.key_size, back.fps), (orig.frames, orig.parts, 6, 60));
    // Rotations at every frame, as the engine samples both files.
    let (ro, rb) = (rotations(&orig), rotations(&back));
    let mut worst = 0f64;
    for p in 0..orig.parts {
        for f in 0..orig.frames {
            let e = angle(to_glam(ro[p][f]), to_glam(rb[p][f]));
            assert!(e < 5e-4, "part {p} frame {f}: {e} rad");
            worst = worst.max(e);
        }
    }
    // Heights exactly; motion within f32 rounding of the summed positions; the motion after
    // the last frame is not in a glb (the one before it is repeated).
    let dh = orig.heights.iter().zip(&back.heights).map(|(a, b)| (a - b).abs()).fold(0f32, f32::max);
    assert_eq!(dh, 0.0);
    let n = orig.frames - 1;
    let dv = orig.velocities[..n]
        .iter()
        .zip(&back.velocities[..n])
        .flat_map(|(a, b)| [(a[0] - b[0]).abs(), (a[1] - b[1]).abs()])
        .fold(0f32, f32::max);
    assert!(dv < 2e-6, "velocity error {dv}");
    assert_eq!(back.velocities[n], back.velocities[n - 1]);
    let keys: usize = back.streams.iter().map(|s| s.keys).sum();
    eprintln!(
        "keys per part: {:?} (original {:?})",
        back.streams.iter().map(|s| s.keys).collect::<Vec<_>>(),
        orig.streams.iter().map(|s| s.keys).collect::<Vec<_>>()
    );
    let orig_keys: usize = orig.streams.iter().map(|s| s.keys).sum();
    // The keys come back on the frames OniSplit put them, and with its u16 angles except where
    // another triple is the same rotation (gimbal lock: y = ±90° trades x for z).
    let (same, differ) = key_agreement(&orig, &back);
    assert!(differ <= 4, "{differ} keys differ");
    eprintln!(
        "walk19 round trip: max rotation error {worst:.3e} rad, height error {dh}, velocity error {dv:.3e} \
         (frames 0..{n}), {keys} keys written for {} frames x {} parts (original {orig_keys}; {same} with OniSplit's very bytes, {differ} another triple of the same rotation); warnings: {warnings:?} {:?}",
        orig.frames, orig.parts, out.warnings
    );
}

/// OniSplit's XML reading of the original (an oracle independent of boneyard's reader): at
/// every key it lists, the written TRAM as the engine decodes it has OniSplit's rotation
/// (o = qX·qY·qZ of its degrees, which are s16·180/32767.5: up to 0.0055° off the engine's
/// unsigned view), and the heights and motion it lists.
/// `--like` the original: every other field (type, states, attacks, extents, sounds, position
/// points...) is copied, and the last frame's motion is the original's.
#[test]
fn like_copies_the_other_fields() {
    let Some((walk, body)) = paths("like_copies_the_other_fields") else { return };
    let (orig, glb) = original(&walk, &body);
    let out = import_beside_walk(clip_of(&glb, &body), &walk, &body, true);
    assert!(out.warnings.iter().any(|w| w.message.contains("not recomputed")), "{:?}", out.warnings);
    let back = read_back(&out);
    assert_eq!(back.velocities.last(), orig.velocities.last());
    // The original's keys are kept where they are as close to the clip: every key is
    // OniSplit's very bytes, the two at gimbal lock too (159 of 161 from the body alone).
    assert_eq!(key_agreement(&orig, &back), (161, 0));
    assert_eq!(back.info_json(), {
        let mut o = orig.info_json();
        o.insert("instance".into(), back.info_json()["instance"].clone());
        o
    });
    assert_eq!(back.positions, orig.positions);
    assert_eq!(back.heights, orig.heights);
}

#[test]
fn walk19_import_agrees_with_onisplits_xml() {
    let Some((walk, body)) = paths("walk19_import_agrees_with_onisplits_xml") else { return };
    let Some(xml) = shared_data("oni/TRAMfixture_walk19.oni.xml", "walk19_import_agrees_with_onisplits_xml") else {
        return;
    };
    let xml = std::fs::read_to_string(xml).unwrap();
    let (_, glb) = original(&walk, &body);
    let back = read_back(&import(&glb, &body, &ImportOptions::default()).unwrap().0);
    let rb = rotations(&back);
    let tag = |s: &str, t: &str| -> Vec<String> {
        let (open, close) = (format!("<{t}>"), format!("</{t}>"));
        s.split(&open).skip(1).filter_map(|x| x.split(&close).next()).map(str::to_string).collect()
    };
    let rot_xml = &tag(&xml, "Rotations")[0];
    let bones = tag(rot_xml, "Bone");
    assert_eq!(bones.len(), 19);
    let axis = |ax: usize, deg: f64| {
        let h = deg.to_radians() / 2.0;
        let mut q = [0.0, 0.0, 0.0, h.cos()];
        q[ax] = h.sin();
        Quat::from_xyzw(q[0] as f32, q[1] as f32, q[2] as f32, q[3] as f32)
    };
    let mut worst = 0f64;
    let mut checked = 0;
    for (p, b) in bones.iter().enumerate() {
        let mut frame = 0usize;
        for k in tag(b, "EKey") {
            let v: Vec<f64> = k.split_whitespace().map(|x| x.parse().unwrap()).collect();
            let o = (axis(0, v[1]) * axis(1, v[2]) * axis(2, v[3])).normalize();
            let e = angle(o, to_glam(rb[p][frame]));
            assert!(e < 5e-4 + 3.0 * 9.6e-5, "part {p} frame {frame}: {e}");
            worst = worst.max(e);
            checked += 1;
            frame += v[0] as usize;
        }
        assert_eq!(frame, back.frames);
    }
    let heights: Vec<f32> = tag(&tag(&xml, "Heights")[0], "Height").iter().map(|h| h.trim().parse().unwrap()).collect();
    assert_eq!(heights, back.heights);
    let vels = tag(&tag(&xml, "Velocities")[0], "Velocity");
    let mut dv = 0f32;
    for (f, v) in vels.iter().enumerate().take(back.frames - 1) {
        let v: Vec<f32> = v.split_whitespace().map(|x| x.parse().unwrap()).collect();
        dv = dv.max((v[0] - back.velocities[f][0]).abs()).max((v[1] - back.velocities[f][1]).abs());
    }
    assert!(dv < 2e-6, "{dv}");
    eprintln!("walk19 vs OniSplit XML: {checked} keys, max rotation difference {worst:.3e} rad, velocity {dv:.3e}");
}

/// Turn one joint (left_biceps, part 12) by 20° about its local X axis in the glb: the imported
/// TRAM has the turn at every frame, and every other part, the heights and the motion are
/// exactly those of the unedited import.
#[test]
fn an_edit_of_one_joint_in_the_glb_reaches_the_tram_and_nothing_else() {
    let Some((walk, body)) = paths("an_edit_of_one_joint_in_the_glb_reaches_the_tram_and_nothing_else") else {
        return;
    };
    let (orig, glb) = original(&walk, &body);
    const PART: usize = 12;
    let (input, output) = channel(&glb, PART, "rotation");
    let (at, json) = accessor_at(&glb, output);
    let count = json["accessors"][output]["count"].as_u64().unwrap() as usize;
    assert_eq!(count, orig.frames, "the export keys left_biceps at every frame");
    let _ = input;
    let turn = Quat::from_rotation_x(20f32.to_radians());
    let mut edited = glb.clone();
    for k in 0..count {
        let q: Vec<f32> = (0..4).map(|c| get_f32(&glb, at + 16 * k + 4 * c)).collect();
        let q = Quat::from_slice(&q) * turn;
        for (c, v) in q.to_array().into_iter().enumerate() {
            put_f32(&mut edited, at + 16 * k + 4 * c, v);
        }
    }
    let plain = read_back(&import(&glb, &body, &ImportOptions::default()).unwrap().0);
    let turned = read_back(&import(&edited, &body, &ImportOptions::default()).unwrap().0);
    let (rp, rt, ro) = (rotations(&plain), rotations(&turned), rotations(&orig));
    let mut worst = 0f64;
    let mut delta = 0f64;
    for f in 0..orig.frames {
        let want = to_glam(ro[PART][f]) * turn;
        let e = angle(want, to_glam(rt[PART][f]));
        worst = worst.max(e);
        assert!(e < 5e-4, "frame {f}: {e}");
        delta = delta.max((angle(to_glam(rp[PART][f]), to_glam(rt[PART][f])) - 20f64.to_radians()).abs());
    }
    for p in (0..orig.parts).filter(|&p| p != PART) {
        assert_eq!(plain.stream_bytes(p), turned.stream_bytes(p), "part {p} changed");
    }
    assert_eq!(plain.heights, turned.heights);
    assert_eq!(plain.velocities, turned.velocities);
    eprintln!(
        "edit: left_biceps +20° within {worst:.3e} rad of original·Rx(20°) at all {} frames; \
         turn measured against the unedited import 20° ± {delta:.3e} rad; other 18 parts byte-identical",
        orig.frames
    );
}

fn import_err(glb: &[u8], body: &Path, map: &HashMap<String, String>) -> String {
    let target = boneyard_oni::open_paths(&[body]).unwrap();
    let d: &dyn boneyard_core::Document = &target;
    let r = (|| {
        let src = GltfSource::read("walk19.glb", glb, None)?;
        let clip = src.clip(0, &d.skeletons()[0].skeleton, 60.0, map, &mut Vec::new())?;
        boneyard_oni::Oni.import_clips(
            vec![InputFile::read(body).unwrap()],
            &[clip],
            &ImportOptions::default(),
            &boneyard_core::DiskCompanions::default(),
        )
    })();
    r.expect_err("must be refused").to_string()
}

#[test]
fn bad_input_is_refused_naming_the_clip_and_the_bone() {
    let Some((walk, body)) = paths("bad_input_is_refused_naming_the_clip_and_the_bone") else { return };
    let (_, glb) = original(&walk, &body);
    // NaN in right_calf's (part 5) rotation.
    let (input, output) = channel(&glb, 5, "rotation");
    let (at, _) = accessor_at(&glb, output);
    let mut g = glb.clone();
    put_f32(&mut g, at + 16 * 3 + 4, f32::NAN);
    let e = import_err(&g, &body, &HashMap::new());
    assert!(e.contains(CLIP) && e.contains("right_calf") && e.contains("not finite"), "{e}");
    let mut g = glb.clone();
    put_f32(&mut g, at + 16 * 3, f32::INFINITY);
    assert!(import_err(&g, &body, &HashMap::new()).contains("right_calf"));
    // Times that go backwards (frames 10 and 11 swapped).
    let (tat, _) = accessor_at(&glb, input);
    let mut g = glb.clone();
    let (a, b) = (get_f32(&glb, tat + 40), get_f32(&glb, tat + 44));
    put_f32(&mut g, tat + 40, b);
    put_f32(&mut g, tat + 44, a);
    let e = import_err(&g, &body, &HashMap::new());
    assert!(e.contains(CLIP) && e.contains("backwards") && e.contains("bone \""), "{e}");
    // No bone matches (every node renamed away by the map).
    let map: HashMap<String, String> =
        boneyard_oni::PART_NAMES.iter().map(|n| (n.to_string(), format!("other_{n}"))).collect();
    let e = import_err(&glb, &body, &map);
    assert!(e.contains(CLIP) && e.contains("matches a bone") && e.contains("pelvis"), "{e}");
    // Longer than Oni's u16 frame count: the last key moved to 1200 s (72001 frames at 60 fps).
    let count = 40;
    let mut g = glb.clone();
    put_f32(&mut g, tat + 4 * (count - 1), 1200.0);
    let e = import_err(&g, &body, &HashMap::new());
    assert!(e.contains(CLIP) && e.contains("72001 frames") && e.contains("65535"), "{e}");
}

/// 16-byte keys (`--oni-keys 16`): the quaternions as f32, within the tolerance at every frame.
#[test]
fn walk19_with_sixteen_byte_keys() {
    let Some((walk, body)) = paths("walk19_with_sixteen_byte_keys") else { return };
    let (orig, glb) = original(&walk, &body);
    let opts = ImportOptions { key_size: Some(16), ..Default::default() };
    let back = read_back(&import(&glb, &body, &opts).unwrap().0);
    assert_eq!(back.key_size, 16);
    let (ro, rb) = (rotations(&orig), rotations(&back));
    let mut worst = 0f64;
    for p in 0..orig.parts {
        for f in 0..orig.frames {
            worst = worst.max(angle(to_glam(ro[p][f]), to_glam(rb[p][f])));
        }
    }
    assert!(worst < 5e-4, "{worst}");
    let keys: usize = back.streams.iter().map(|s| s.keys).sum();
    eprintln!("walk19 16-byte keys: max rotation error {worst:.3e} rad, {keys} keys");
}

/// Hostile glb files (the real one with bytes overwritten, deterministic): reading, matching,
/// sampling and encoding either work or fail with an error; never a panic.
#[test]
fn mutated_glb_files_never_panic() {
    let Some((walk, body)) = paths("mutated_glb_files_never_panic") else { return };
    let (_, glb) = original(&walk, &body);
    let target = boneyard_oni::open_paths(&[body.as_path()]).unwrap();
    let d: &dyn boneyard_core::Document = &target;
    let skel = &d.skeletons()[0].skeleton;
    let into = InputFile::read(&body).unwrap();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut read, mut clipped, mut encoded) = (0, 0, 0);
    let bin = 20 + u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize + 8;
    for i in 0..300 {
        let mut g = glb.clone();
        for _ in 0..1 + next() % 6 {
            // Half the files get their JSON hit, half their binary chunk (keys, times).
            let at = if i % 2 == 0 { (next() as usize) % g.len() } else { bin + (next() as usize) % (g.len() - bin) };
            g[at] = match next() % 4 {
                0 => 0xff,
                1 => 0,
                2 => g[at] ^ (1 << (next() % 8)),
                _ => next() as u8,
            };
        }
        let Ok(src) = GltfSource::read("m.glb", &g, None) else { continue };
        read += 1;
        for a in 0..src.animations.len() {
            let Ok(clip) = src.clip(a, skel, 60.0, &HashMap::new(), &mut Vec::new()) else { continue };
            clipped += 1;
            if boneyard_oni::Oni
                .import_clips(
                    vec![into.clone()],
                    &[clip],
                    &ImportOptions::default(),
                    &boneyard_core::DiskCompanions::default(),
                )
                .is_ok()
            {
                encoded += 1;
            }
        }
    }
    eprintln!("mutated glb: {read} read, {clipped} clips sampled, {encoded} encoded of 300");
}

/// A GLB from a JSON document and a binary chunk.
fn glb_from(json: &serde_json::Value, bin: &[u8]) -> Vec<u8> {
    let mut j = serde_json::to_vec(json).unwrap();
    while !j.len().is_multiple_of(4) {
        j.push(b' ');
    }
    let mut out = Vec::new();
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&((12 + 8 + j.len() + 8 + bin.len()) as u32).to_le_bytes());
    out.extend_from_slice(&(j.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&j);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(bin);
    out
}

/// Another rig: nodes named `Rig:<bone>` (a `--map` names them), and left_biceps with a rest
/// rotation of its own, its keys being that rest followed by the motion (`R = R_motion · R_rest`).
/// The import equals the one of boneyard's own glb: same keys on every part.
#[test]
fn other_rigs_through_a_map_and_a_rest_rotation() {
    let Some((walk, body)) = paths("other_rigs_through_a_map_and_a_rest_rotation") else { return };
    let (orig, glb) = original(&walk, &body);
    const PART: usize = 12;
    let (_, output) = channel(&glb, PART, "rotation");
    let (at, mut json) = accessor_at(&glb, output);
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let bin_start = 20 + json_len + 8;
    let mut bin = glb[bin_start..].to_vec();
    let rest = Quat::from_euler(glam::EulerRot::XYZ, 0.4, -1.1, 2.0).normalize();
    for k in 0..orig.frames {
        let o = at - bin_start + 16 * k;
        let q: Vec<f32> = (0..4).map(|c| get_f32(&bin, o + 4 * c)).collect();
        let q = Quat::from_slice(&q) * rest;
        for (c, v) in q.to_array().into_iter().enumerate() {
            put_f32(&mut bin, o + 4 * c, v);
        }
    }
    json["nodes"][PART]["rotation"] = serde_json::json!(rest.to_array());
    let mut map = HashMap::new();
    for node in json["nodes"].as_array_mut().unwrap().iter_mut().take(orig.parts) {
        let name = node["name"].as_str().unwrap().to_string();
        node["name"] = serde_json::json!(format!("Rig:{name}"));
        map.insert(format!("Rig:{name}"), name);
    }
    let rig = glb_from(&json, &bin);
    let target = boneyard_oni::open_paths(&[body.as_path()]).unwrap();
    let d: &dyn boneyard_core::Document = &target;
    let skel = &d.skeletons()[0].skeleton;
    let src = GltfSource::read("rig.glb", &rig, None).unwrap();
    // Without the map nothing matches.
    let e = src.clip(0, skel, 60.0, &HashMap::new(), &mut Vec::new()).unwrap_err().to_string();
    assert!(e.contains("--map") && e.contains("Rig:pelvis"), "{e}");
    let clip = src.clip(0, skel, 60.0, &map, &mut Vec::new()).unwrap();
    let out = boneyard_oni::Oni.import_clips(
        vec![InputFile::read(&body).unwrap()],
        &[clip],
        &ImportOptions::default(),
        &boneyard_core::DiskCompanions::default(),
    );
    let back = read_back(&out.unwrap());
    let plain = read_back(&import(&glb, &body, &ImportOptions::default()).unwrap().0);
    let (rb, rp) = (rotations(&back), rotations(&plain));
    let mut worst = 0f64;
    for p in 0..orig.parts {
        if p != PART {
            assert_eq!(back.stream_bytes(p), plain.stream_bytes(p), "part {p}");
        }
        for f in 0..orig.frames {
            worst = worst.max(angle(to_glam(rb[p][f]), to_glam(rp[p][f])));
        }
    }
    assert!(worst < 5e-4, "{worst}");
    eprintln!("other rig (map + rest rotation on left_biceps): max difference {worst:.3e} rad");
}

/// Another frame rate: the glb's key times doubled (the walk at 30 fps) is resampled at 60:
/// 79 frames, the even ones the original's keys, the odd ones between (LINEAR: the slerp
/// midpoint, within the tolerance of it); as STEP the odd frames hold the previous key.
#[test]
fn other_frame_rates_are_resampled() {
    let Some((walk, body)) = paths("other_frame_rates_are_resampled") else { return };
    let (orig, glb) = original(&walk, &body);
    let (input, _) = channel(&glb, 0, "rotation");
    let (tat, json) = accessor_at(&glb, input);
    let mut slow = glb.clone();
    for k in 0..orig.frames {
        let t = get_f32(&glb, tat + 4 * k);
        put_f32(&mut slow, tat + 4 * k, (k as f64 / 30.0) as f32);
        assert_eq!(t, (k as f64 / 60.0) as f32);
    }
    let target = boneyard_oni::open_paths(&[body.as_path()]).unwrap();
    let d: &dyn boneyard_core::Document = &target;
    let skel = &d.skeletons()[0].skeleton;
    let ro = rotations(&orig);
    for step in [false, true] {
        // (The export's samplers are STEP, as Oni holds each frame: both are set here.)
        let g = {
            let mut j = json.clone();
            for s in j["animations"][0]["samplers"].as_array_mut().unwrap() {
                s["interpolation"] = serde_json::json!(if step { "STEP" } else { "LINEAR" });
            }
            let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
            glb_from(&j, &slow[20 + json_len + 8..])
        };
        let src = GltfSource::read("slow.glb", &g, None).unwrap();
        let clip = src.clip(0, skel, 60.0, &HashMap::new(), &mut Vec::new()).unwrap();
        assert_eq!(clip.frames(), 2 * orig.frames - 1);
        let out = boneyard_oni::Oni.import_clips(
            vec![InputFile::read(&body).unwrap()],
            &[clip],
            &Default::default(),
            &boneyard_core::DiskCompanions::default(),
        );
        let back = read_back(&out.unwrap());
        let rb = rotations(&back);
        let mut worst = 0f64;
        for p in 0..orig.parts {
            for f in 0..back.frames {
                let want = if f % 2 == 0 || step {
                    to_glam(ro[p][f / 2])
                } else {
                    to_glam(ro[p][f / 2]).slerp(to_glam(ro[p][f / 2 + 1]), 0.5)
                };
                worst = worst.max(angle(want, to_glam(rb[p][f])));
            }
        }
        assert!(worst < 5e-4, "step {step}: {worst}");
        // Motion: half the original's per frame (LINEAR), or all of it on the even frames (STEP).
        let (v, vo) = (&back.velocities, &orig.velocities);
        let dv = (0..back.frames - 1)
            .map(|f| {
                let want = if step {
                    if f % 2 == 1 {
                        vo[f / 2][1]
                    } else {
                        0.0
                    }
                } else {
                    vo[f / 2][1] / 2.0
                };
                (v[f][1] - want).abs()
            })
            .fold(0f32, f32::max);
        assert!(dv < 2e-6, "step {step}: {dv}");
        eprintln!(
            "30 fps glb resampled at 60 ({}): max rotation error {worst:.3e} rad, motion {dv:.2e}",
            if step { "STEP" } else { "LINEAR" }
        );
    }
}

/// What the sampling changes is said: keys that start after 0 (the time before the first key
/// is not kept) and rotations of length 0 (the rest rotation stands in). Both were taken
/// without a word.
#[test]
fn late_keys_and_zero_rotations_are_said() {
    let Some((walk, body)) = paths("late_keys_and_zero_rotations_are_said") else { return };
    let (orig, glb) = original(&walk, &body);
    let target = boneyard_oni::open_paths(&[body.as_path()]).unwrap();
    let d: &dyn boneyard_core::Document = &target;
    let skel = &d.skeletons()[0].skeleton;
    // Every time of part 0's rotation keys 1 s later (other parts' keys unchanged: the clip
    // starts at the earliest key, 0, so only a clip of late keys everywhere is said).
    let mut late = glb.clone();
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let json: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let inputs: std::collections::BTreeSet<u64> =
        json["animations"][0]["samplers"].as_array().unwrap().iter().map(|s| s["input"].as_u64().unwrap()).collect();
    for &input in &inputs {
        let (tat, j) = accessor_at(&glb, input as usize);
        for k in 0..j["accessors"][input as usize]["count"].as_u64().unwrap() as usize {
            let t = get_f32(&glb, tat + 4 * k);
            put_f32(&mut late, tat + 4 * k, t + 1.0);
        }
    }
    let src = GltfSource::read("late.glb", &late, None).unwrap();
    let mut warnings = Vec::new();
    let clip = src.clip(0, skel, 60.0, &HashMap::new(), &mut warnings).unwrap();
    assert_eq!(clip.frames(), orig.frames);
    assert!(warnings.iter().any(|w| w.message.contains("its keys start at 1 s")), "{warnings:?}");
    // Part 12's rotation at its first key set to (0, 0, 0, 0).
    let (_, output) = channel(&glb, 12, "rotation");
    let (at, _) = accessor_at(&glb, output);
    let mut zero = glb.clone();
    for c in 0..4 {
        put_f32(&mut zero, at + 4 * c, 0.0);
    }
    let src = GltfSource::read("zero.glb", &zero, None).unwrap();
    let mut warnings = Vec::new();
    src.clip(0, skel, 60.0, &HashMap::new(), &mut warnings).unwrap();
    let said: Vec<&str> = warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(said.iter().any(|m| m.contains("rotations of length 0") && m.contains(&skel.bones[12].name)), "{said:?}");
    // The glb as exported: neither.
    let src = GltfSource::read("walk19.glb", &glb, None).unwrap();
    let mut warnings = Vec::new();
    src.clip(0, skel, 60.0, &HashMap::new(), &mut warnings).unwrap();
    assert!(
        !warnings.iter().any(|w| w.message.contains("keys start") || w.message.contains("length 0")),
        "{warnings:?}"
    );
}

/// `--like` a longer animation (the walk's 40 frames, its events per OniSplit's XML: footsteps
/// 5 15 25 35, sounds at 5 and 20, damage at 30, a particle 10..20, a blur 12..18, atomic
/// 10..20, action frame 14, invulnerable 2..4) for a clip of its first 10 frames: what starts
/// past frame 9 is left out, ranges past it end by it (one wholly past: 0..0, a new clip's),
/// each said; what is kept is said to be at the walk's frames (they were all copied, past
/// the clip's end).
#[test]
fn like_events_past_a_shorter_clips_end_are_left_out_and_said() {
    let Some((walk, body)) = paths("like_events_past_a_shorter_clips_end") else { return };
    let (orig, glb) = original(&walk, &body);
    assert_eq!(orig.footsteps.iter().map(|f| f[0]).collect::<Vec<_>>(), [5, 15, 25, 35]);
    assert_eq!((orig.atomic, orig.action_frame, orig.invulnerable), ([10, 20], 14, [2, 4]));
    let mut clip = clip_of(&glb, &body);
    clip.poses.truncate(10);
    clip.name = "walk_short".into();
    let out = import_beside_walk(clip, &walk, &body, true);
    let back = read_back(&out);
    assert_eq!(back.frames, 10);
    assert_eq!(back.footsteps.iter().map(|f| f[0]).collect::<Vec<_>>(), [5]);
    assert_eq!(back.sounds.iter().map(|s| s.1).collect::<Vec<_>>(), [5]);
    assert!(back.damages.is_empty() && back.particles.is_empty() && back.blurs.is_empty());
    assert_eq!((back.atomic, back.action_frame, back.invulnerable), ([0, 0], -1, [2, 4]));
    let said: Vec<&str> = out.warnings.iter().map(|w| w.message.as_str()).collect();
    for want in [
        "3 of its 4 footsteps past the clip's last frame 9 left out",
        "1 of its 2 sounds past",
        "1 of its 1 damage frames past",
        "1 of its 1 particles past",
        "1 of its 1 blurs past",
        "atomic 10..20 now 0..0",
        "its action frame 14 is past the clip's last frame 9: none written",
        "its attacks reach frame 15",
        "has 40 frames, the clip 10: its events are kept at its own frames, not retimed (footsteps at 5; sounds at 5; attacks from 12; invulnerable 2..4)",
    ] {
        assert!(said.iter().any(|m| m.contains(want)), "{want:?} not in {said:#?}");
    }
}

/// Without `--like`, the `--into` files' animation of the clip's name is the one it was made
/// from: its keys are kept where they are as close (its other fields are not taken, as a
/// warning says).
#[test]
fn the_animation_of_the_clips_name_gives_its_keys() {
    let Some((walk, body)) = paths("the_animation_of_the_clips_name_gives_its_keys") else { return };
    let (orig, glb) = original(&walk, &body);
    let clip = clip_of(&glb, &body);
    assert_eq!(clip.name, CLIP);
    let out = import_beside_walk(clip, &walk, &body, false);
    assert!(out.warnings.iter().any(|w| w.message.contains("is an animation of the --into files already")));
    let back = read_back(&out);
    assert_eq!(key_agreement(&orig, &back), (161, 0));
}
