//! `boneyard import` end to end on the real OniSplit fixtures (cli.md, "Import"): the walk
//! exported to glb, imported onto the body, listed and sampled again; bad input is exit 1
//! with one line naming the clip and the bone, and nothing written.

use boneyard_core::testdata::shared_data;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use tempfile::TempDir;

fn boneyard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boneyard")).args(args).output().expect("run boneyard")
}

/// A new empty folder, removed when the returned value is dropped.
fn tmpdir(tag: &str) -> TempDir {
    tempfile::Builder::new().prefix(&format!("boneyard-import-{tag}-")).tempdir().unwrap()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `export --format glb` of `args` (files and flags) into `dir`, which must then hold one glb:
/// its path.
fn export_one_glb(dir: &Path, args: &[&str]) -> PathBuf {
    let mut all = vec!["-q", "export", "--format", "glb", "--out", s(dir)];
    all.extend_from_slice(args);
    let o = boneyard(&all);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let files: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files.into_iter().next().unwrap()
}

/// The fixtures and the glb `boneyard export` makes of the walk on the body, in the folder
/// returned last.
fn setup(tag: &str) -> Option<(PathBuf, PathBuf, PathBuf, TempDir)> {
    let walk = shared_data("oni/TRAMfixture_walk19.oni", tag)?;
    let body = shared_data("oni/TRBSfixture_body19.oni", tag)?;
    let d = tmpdir(tag);
    let o = boneyard(&["-q", "export", s(&walk), s(&body), "--format", "glb", "--out", s(&d.path().join("glb"))]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // (Named after the body's file, which holds the model.)
    let glb = d.path().join("glb/TRBSfixture_body19.glb");
    assert!(glb.is_file());
    Some((walk, body, glb, d))
}

fn sample(file: &Path, frame: u32) -> Value {
    let o = boneyard(&["sample", s(file), "--anim", "fixture_walk19", "--frame", &frame.to_string(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn import_writes_a_tram_that_lists_and_samples_like_the_original() {
    let Some((walk, body, glb, tmp)) = setup("roundtrip") else { return };
    let d = tmp.path();
    let out = d.join("out");
    let o = boneyard(&["import", s(&glb), "--into", s(&body), "--out", s(&out), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    let w = &j["written"][0];
    assert_eq!(w["path"], "TRAMfixture_walk19.oni");
    assert_eq!(w["format"], "Oni instance file (OniSplit .oni)");
    let a = &w["animations"][0];
    assert_eq!(
        (a["name"].as_str(), a["index"].as_u64(), a["frames"].as_u64()),
        (Some("fixture_walk19"), Some(0), Some(40))
    );
    assert_eq!(a["fps"], 60.0);
    assert!(a["offset"].is_null());
    assert_eq!(a["keys"], 161);
    assert!(j["warnings"].as_array().unwrap().is_empty());
    let written = out.join("TRAMfixture_walk19.oni");
    // The written file as the reader sees it, against the original, frame by frame.
    let o = boneyard(&["list", s(&written), "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let l: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(l["animations"][0]["frames"], 40);
    assert_eq!(l["animations"][0]["format"], "TRAM/6");
    let mut worst = 0f64;
    for f in 0..40 {
        let (a, b) = (sample(&walk, f), sample(&written, f));
        for (ca, cb) in a["channels"].as_array().unwrap().iter().zip(b["channels"].as_array().unwrap()) {
            assert_eq!((&ca["target"], &ca["path"]), (&cb["target"], &cb["path"]));
            let (va, vb) = (&ca["value"], &cb["value"]);
            match ca["path"].as_str().unwrap() {
                "rotation" => {
                    let q = |v: &Value| v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect::<Vec<_>>();
                    let (qa, qb) = (q(va), q(vb));
                    // 4·atan2(|a − b|, |a + b|) in one hemisphere: well-conditioned near 0,
                    // where an acos of the dot of f32 values is only good to 1e-3 rad.
                    let sg = if (0..4).map(|i| qa[i] * qb[i]).sum::<f64>() < 0.0 { -1.0 } else { 1.0 };
                    let dd = (0..4).map(|i| (qa[i] - sg * qb[i]).powi(2)).sum::<f64>().sqrt();
                    let pp = (0..4).map(|i| (qa[i] + sg * qb[i]).powi(2)).sum::<f64>().sqrt();
                    worst = worst.max(4.0 * dd.atan2(pp));
                }
                "height" => assert_eq!(va, vb, "frame {f}"),
                _ if f < 39 => {
                    let v = |v: &Value, i: usize| v[i].as_f64().unwrap();
                    assert!((v(va, 0) - v(vb, 0)).abs() < 2e-6 && (v(va, 1) - v(vb, 1)).abs() < 2e-6, "frame {f}");
                }
                _ => {}
            }
        }
    }
    assert!(worst < 5e-4, "{worst}");
    eprintln!("CLI round trip: max rotation difference {worst:.3e} rad over 40 frames x 19 parts");
    // Text output names the file; nothing but it in --out.
    let out2 = d.join("out2");
    let o = boneyard(&["import", s(&glb), "--into", s(&body), "--out", s(&out2)]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("TRAMfixture_walk19.oni"));
    let names: Vec<_> = std::fs::read_dir(&out2).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["TRAMfixture_walk19.oni"]);
}

#[test]
fn options_like_keys_and_tolerance() {
    let Some((walk, body, glb, tmp)) = setup("options") else { return };
    let d = tmp.path();
    let out = d.join("out");
    let o = boneyard(&[
        "import",
        s(&glb),
        "--into",
        s(&body),
        s(&walk),
        "--like",
        "fixture_walk19",
        "--oni-keys",
        "16",
        "--tolerance",
        "0.5deg",
        "--skeleton",
        "TRBSfixture_body19",
        "--out",
        s(&out),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    let a = &j["written"][0]["animations"][0];
    assert_eq!(a["key_size"], 16);
    assert_eq!(a["like"], "fixture_walk19");
    // A looser tolerance drops keys (161 at 0.0003 rad).
    assert!(a["keys"].as_u64().unwrap() < 161, "{a}");
    assert!(a["max_rotation_error"].as_f64().unwrap() <= 0.5f64.to_radians());
    assert!(j["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w["message"].as_str().unwrap().contains("not recomputed")));
    let l = boneyard(&["list", s(&out.join("TRAMfixture_walk19.oni")), "--json"]);
    let l: Value = serde_json::from_slice(&l.stdout).unwrap();
    let orig = boneyard(&["list", s(&walk), "--json"]);
    let orig: Value = serde_json::from_slice(&orig.stdout).unwrap();
    for k in ["type", "from_state", "to_state", "flags", "attacks", "sounds", "footsteps", "particles", "throw"] {
        assert_eq!(l["animations"][0][k], orig["animations"][0][k], "{k}");
    }
    // Usage errors: exit 2.
    for bad in [&["--oni-keys", "8"][..], &["--tolerance", "fast"], &["--anim", "nope"], &["--skeleton", "nope"]] {
        let mut args = vec!["import", s(&glb), "--into", s(&body), "--out", s(&out)];
        args.extend_from_slice(bad);
        assert_eq!(boneyard(&args).status.code(), Some(2), "{bad:?}");
    }
}

/// The byte offset of the first rotation value of node `node` in the glb.
fn rotation_at(glb: &[u8], node: u64) -> usize {
    output_at(glb, node, "rotation")
}

/// Byte offset of node `node`'s `path` output in the glb (its first key).
fn output_at(glb: &[u8], node: u64, path: &str) -> usize {
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let j: Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let anim = &j["animations"][0];
    let ch = anim["channels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["target"]["node"] == node && c["target"]["path"] == path)
        .unwrap();
    let acc = &j["accessors"]
        [anim["samplers"][ch["sampler"].as_u64().unwrap() as usize]["output"].as_u64().unwrap() as usize];
    let view = &j["bufferViews"][acc["bufferView"].as_u64().unwrap() as usize];
    20 + json_len
        + 8
        + view["byteOffset"].as_u64().unwrap_or(0) as usize
        + acc["byteOffset"].as_u64().unwrap_or(0) as usize
}

#[test]
fn bad_input_is_exit_one_naming_clip_and_bone_and_writes_nothing() {
    let Some((_, body, glb, tmp)) = setup("bad") else { return };
    let d = tmp.path();
    let bytes = std::fs::read(&glb).unwrap();
    // A NaN in the head's rotation (node 10).
    let mut nan = bytes.clone();
    let at = rotation_at(&bytes, 10) + 16 * 2;
    nan[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    let nan_glb = d.join("nan.glb");
    std::fs::write(&nan_glb, &nan).unwrap();
    // A map that renames two bones to names the body lacks.
    let map = d.join("map.json");
    std::fs::write(&map, r#"{"pelvis": "hips", "head": "skull"}"#).unwrap();
    let junk = d.join("junk.glb");
    std::fs::write(&junk, b"glTF not really").unwrap();
    let out = d.join("out");
    let cases: Vec<(Vec<&str>, &[&str])> = vec![
        (vec![s(&nan_glb), "--into", s(&body)], &["fixture_walk19", "head", "not finite"]),
        (vec![s(&junk), "--into", s(&body)], &["junk.glb"]),
        (vec![s(&glb), "--into", s(&junk)], &["junk.glb"]),
        (vec![s(&glb), "--into", s(&body), "--map", s(&junk)], &["junk.glb", "JSON"]),
    ];
    for (args, want) in cases {
        let mut a = vec!["import"];
        a.extend(args.iter().copied());
        a.extend(["--out", s(&out)]);
        let o = boneyard(&a);
        assert_eq!(o.status.code(), Some(1), "{a:?}: {}", stderr(&o));
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(want.iter().all(|w| e.contains(w)), "{a:?}: {e}");
        assert!(!e.contains("panicked"));
        assert!(!out.exists() || std::fs::read_dir(&out).unwrap().next().is_none(), "{a:?} wrote something");
    }
    // Bones renamed to names the body lacks: their channels would be dropped, pelvis and head
    // held at rest (that was written, warned): a usage error naming the first, nothing written.
    let o = boneyard(&["import", s(&glb), "--into", s(&body), "--map", s(&map), "--out", s(&out), "--json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains(r#"--map: "skull" (for "head") names no bone of skeleton"#), "{}", stderr(&o));
    assert!(!out.exists() || std::fs::read_dir(&out).unwrap().next().is_none());
}

/// A level as the target: its body set picked with `--skeleton`, its own walk as `--like`.
#[test]
fn import_onto_a_level() {
    let Some((_, _, glb, tmp)) = setup("level") else { return };
    let d = tmp.path();
    let Some(level) = shared_data("oni/level1_Final.dat", "import_onto_a_level") else { return };
    let out = d.join("out");
    let o = boneyard(&[
        "import",
        s(&glb),
        "--into",
        s(&level),
        "--skeleton",
        "TRBSfixture_body19",
        "--like",
        "fixture_walk19",
        "--out",
        s(&out),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["written"][0]["animations"][0]["skeleton"], "TRBSfixture_body19");
    assert_eq!(j["written"][0]["animations"][0]["keys"], 161);
    let l = boneyard(&["check", s(&out.join("TRAMfixture_walk19.oni"))]);
    assert_eq!(l.status.code(), Some(0), "{}", stderr(&l));
    // Like an overlay, the clip is one: said (a QA found the written TRAM an overlay that only
    // `list` showed).
    let j = import_json_with(&glb, &[&level], &d.join("overlay"), &["--like", "fixture_walk19_overlay"]);
    assert!(
        messages(&j).iter().any(|m| m.contains(
            "--like fixture_walk19_overlay is an overlay (flags 0x2000): the new clip is one too, and the game plays only its parts 0x7ff80"
        )),
        "{:?}",
        messages(&j)
    );
}

fn import_json_with(glb: &Path, into: &[&Path], out: &Path, more: &[&str]) -> Value {
    let mut args = vec!["import", s(glb), "--into"];
    args.extend(into.iter().map(|p| s(p)));
    args.extend(["--out", s(out), "--json"]);
    args.extend(more);
    let o = boneyard(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

// ---- Shenmue: MOTN write-back, checked by new-yokosuka's runtime (an independent reader) ----

/// `node ny_pose.mjs MOTION.BIN NAME INDEX` of the peer runtime (`../shared/peers/new-yokosuka`):
/// every control's world position at every frame. `None` (with a SKIPPED line) when node or
/// the peer is missing; a failure when BONEYARD_REQUIRE_PEERS=1 (`testdata::shared_peer`).
fn peer_positions(motion: &Path, name: &str, index: usize) -> Option<Vec<Vec<[f64; 3]>>> {
    let m = peer_matrices(motion, name, index)?;
    Some(m.iter().map(|f| f.iter().map(|m| [12, 13, 14].map(|i| m[i])).collect()).collect())
}

/// The peer's world matrix of every control at every frame (16 floats, translation at 12..15).
fn peer_matrices(motion: &Path, name: &str, index: usize) -> Option<Vec<Vec<[f64; 16]>>> {
    let peer = boneyard_core::testdata::shared_peer("new-yokosuka", "peer runtime")?.join("ny_pose.mjs");
    let o = Command::new("node").arg(&peer).arg(motion).arg(name).arg(index.to_string()).output().expect("node runs");
    assert!(o.status.success(), "peer on {}: {}", motion.display(), stderr(&o));
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    let frames = j["matrices"].as_array().unwrap();
    Some(
        frames
            .iter()
            .map(|f| {
                f.as_array()
                    .unwrap()
                    .iter()
                    .map(|m| {
                        let m = m.as_array().unwrap();
                        std::array::from_fn(|i| m[i].as_f64().unwrap())
                    })
                    .collect()
            })
            .collect(),
    )
}

/// The angle (radians) between the rotations of two of the peer's matrices (the angle of
/// `Aᵀ·B`, from its trace; the same whichever way the matrices are laid out).
fn peer_angle(a: &[f64; 16], b: &[f64; 16]) -> f64 {
    let trace: f64 = (0..3).flat_map(|r| (0..3).map(move |c| (r, c))).map(|(r, c)| a[4 * r + c] * b[4 * r + c]).sum();
    ((trace - 1.0) / 2.0).clamp(-1.0, 1.0).acos()
}

fn dist(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f64>().sqrt()
}

const RUN: &str = "AKI_AKI_RUN_LP";

/// The real MOTION.BIN and the glb `boneyard export` makes of the run loop, in the folder
/// returned last.
fn shenmue_setup(tag: &str) -> Option<(PathBuf, PathBuf, TempDir)> {
    let motion = shared_data("shenmue/motion.bin", tag)?;
    let d = tmpdir(tag);
    let o =
        boneyard(&["-q", "export", s(&motion), "--anim", RUN, "--format", "glb", "--out", s(&d.path().join("glb"))]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let glb = d.path().join("glb/motion_human_rig_AKI_AKI_RUN_LP.glb");
    assert!(glb.is_file());
    Some((motion, glb, d))
}

/// Turn node `name`'s rotation keys by `q · Ry(deg)` (a script editing the glTF, as Blender would).
fn turn_node(glb: &[u8], name: &str, deg: f32) -> Vec<u8> {
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let j: Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let node = j["nodes"].as_array().unwrap().iter().position(|n| n["name"] == name).unwrap() as u64;
    let anim = &j["animations"][0];
    let ch = anim["channels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["target"]["node"] == node && c["target"]["path"] == "rotation")
        .unwrap();
    let sampler = &anim["samplers"][ch["sampler"].as_u64().unwrap() as usize];
    assert_ne!(sampler["interpolation"], "CUBICSPLINE");
    let count = j["accessors"][sampler["output"].as_u64().unwrap() as usize]["count"].as_u64().unwrap() as usize;
    let at = rotation_at(glb, node);
    let mut out = glb.to_vec();
    let turn = glam::Quat::from_rotation_y(deg.to_radians());
    for k in 0..count {
        let p = at + 16 * k;
        let v: Vec<f32> =
            (0..4).map(|i| f32::from_le_bytes(out[p + 4 * i..p + 4 * i + 4].try_into().unwrap())).collect();
        let q = (glam::Quat::from_xyzw(v[0], v[1], v[2], v[3]) * turn).normalize();
        for (i, x) in q.to_array().iter().enumerate() {
            out[p + 4 * i..p + 4 * i + 4].copy_from_slice(&x.to_le_bytes());
        }
    }
    out
}

#[test]
fn shenmue_run_loop_round_trip_and_edit_as_the_peer_runtime_solves_them() {
    let Some((motion, glb, tmp)) = shenmue_setup("shenmue") else { return };
    let d = tmp.path();
    let out = d.join("out");
    let o = boneyard(&["import", s(&glb), "--into", s(&motion), "--out", s(&out), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    let w = &j["written"][0];
    assert_eq!((w["path"].as_str(), w["format"].as_str()), (Some("motion.bin"), Some("Shenmue MOTN")));
    let a = &w["animations"][0];
    assert_eq!((a["name"].as_str(), a["index"].as_u64(), a["frames"].as_u64()), (Some(RUN), Some(64), Some(19)));
    assert_eq!((a["fps"].as_f64(), a["replaced"].as_bool()), (Some(30.0), Some(true)));
    assert!(a["offset"].as_u64().is_some());
    // Through the glb, every channel plays as Sega keyed it: all 63 keep Sega's keys, and the
    // rig puts every control where the glb's pose has it within its f32 rounding (1.5 µm).
    assert_eq!((a["original"].as_str(), a["original_channels_kept"].as_u64()), (Some(RUN), Some(63)));
    assert_eq!(a["channels"].as_u64(), Some(63));
    assert!(a["max_control_error_m"].as_f64().unwrap() < 1e-5, "{}", a["max_control_error_m"]);
    // Nothing the rig cannot hold: only the input's own summary and the shared block's note.
    let warns: Vec<&str> = j["warnings"].as_array().unwrap().iter().map(|w| w["message"].as_str().unwrap()).collect();
    assert!(warns.iter().all(|w| !w.contains("not kept") && !w.contains("more than")), "{warns:?}");
    assert!(warns.iter().any(|w| w.contains("shared with AKI_AKI_BATTLE_RUN_LP")), "{warns:?}");
    let written = out.join("motion.bin");
    // boneyard lists the written file like the original, plus nothing.
    let l = boneyard(&["list", s(&written), "--json"]);
    assert_eq!(l.status.code(), Some(0), "{}", stderr(&l));
    let l: Value = serde_json::from_slice(&l.stdout).unwrap();
    // Every warning the game's file gives `list` is in the import's JSON too (only its summary
    // line was), then the writing's own.
    let listed = boneyard(&["list", s(&motion), "--json"]);
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    let read: Vec<&Value> = listed["warnings"].as_array().unwrap().iter().collect();
    assert_eq!(read.len(), 32);
    // (Each said to come from reading the --into file.)
    let from_into: Vec<Value> = j["warnings"].as_array().unwrap()[..read.len()]
        .iter()
        .map(|w| {
            let mut w = w.clone();
            assert_eq!(w.as_object_mut().unwrap().remove("from"), Some(Value::from("into")));
            w
        })
        .collect();
    assert_eq!(from_into.iter().collect::<Vec<_>>(), read);
    assert_eq!(l["animations"].as_array().unwrap().len(), 1559);
    assert_eq!(l["animations"][64]["name"], RUN);
    assert_eq!(l["animations"][64]["data_offset"], a["offset"]);

    // The peer's solve of the written file against its solve of the original, every frame.
    let Some(orig_m) = peer_matrices(&motion, RUN, 64) else { return };
    let new_m = peer_matrices(&written, RUN, 64).unwrap();
    // The bone the import says is turned most from the glb's pose (the export of the
    // original, within 0.014° of the peer's solve of it), and by how much: the peer's solves
    // of the two files turn it by as much (the channels' own figure understated it 5-fold, as
    // half-float IK targets move the bones the solver places).
    let (bone, at) = (&a["max_bone_rotation_error_at"]["bone"], a["max_bone_rotation_error_at"]["frame"].as_u64());
    let said = a["max_bone_rotation_error_rad"].as_f64().unwrap();
    let c = boneyard_shenmue::HUMAN_RIG.iter().position(|r| bone == r.name).unwrap();
    let f = at.unwrap() as usize;
    let peer = peer_angle(&orig_m[f][c], &new_m[f][c]);
    println!(
        "{RUN} round trip: the import reports {bone} at frame {f} turned {:.4}° from the glb's pose (its channels: {:.4}°); the peer's solves turn it {:.4}°",
        said.to_degrees(),
        a["max_rotation_error_rad"].as_f64().unwrap().to_degrees(),
        peer.to_degrees()
    );
    assert!((said - peer).abs() < 5e-4 && said < 0.5f64.to_radians(), "{said} {peer}");
    let orig: Vec<Vec<[f64; 3]>> =
        orig_m.iter().map(|f| f.iter().map(|m| [12, 13, 14].map(|i| m[i])).collect()).collect();
    let new: Vec<Vec<[f64; 3]>> =
        new_m.iter().map(|f| f.iter().map(|m| [12, 13, 14].map(|i| m[i])).collect()).collect();
    assert_eq!((orig.len(), new.len()), (19, 19));
    let mut worst = (0f64, 0, 0);
    for (f, (a, b)) in orig.iter().zip(&new).enumerate() {
        for (c, (p, q)) in a.iter().zip(b).enumerate() {
            if dist(*p, *q) > worst.0 {
                worst = (dist(*p, *q), f, c);
            }
        }
    }
    // boneyard's reader of the written file against the peer's, every frame.
    let mut readers = 0f64;
    for (f, peer) in new.iter().enumerate() {
        let o = boneyard(&["pose", s(&written), "--anim", RUN, "--frame", &f.to_string(), "--json"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let p: Value = serde_json::from_slice(&o.stdout).unwrap();
        for (c, b) in p["bones"].as_array().unwrap().iter().enumerate() {
            let m = b["matrix"].as_array().unwrap();
            readers = readers.max(dist([12, 13, 14].map(|i| m[i].as_f64().unwrap()), peer[c]));
        }
    }
    println!(
        "{RUN}: 19 frames, {} controls, {} channels, {} keys; max control error vs the peer's solve of the original {:.2} mm (frame {}, control {}); boneyard and the peer on the written file agree to {:.1e} m",
        orig[0].len(),
        a["channels"],
        a["keys"],
        worst.0 * 1e3,
        worst.1,
        worst.2,
        readers
    );
    assert!(worst.0 < 5e-3, "{worst:?}");
    assert!(readers < 1e-4, "{readers}");

    // A new name is appended (entry #1559) and the peer finds it by the name table's span.
    let renamed = d.join("renamed.glb");
    let b = std::fs::read(&glb).unwrap();
    let pat = format!("\"name\":\"{RUN}\"");
    let at = b.windows(pat.len()).position(|w| w == pat.as_bytes()).unwrap() + pat.len() - 2;
    let mut b2 = b.clone();
    b2[at] = b'Q';
    std::fs::write(&renamed, &b2).unwrap();
    let out3 = d.join("out3");
    let o = boneyard(&["import", s(&renamed), "--into", s(&motion), "--out", s(&out3), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["written"][0]["animations"][0]["index"], 1559);
    assert_eq!(j["written"][0]["animations"][0]["replaced"], false);
    let app = peer_positions(&out3.join("motion.bin"), "AKI_AKI_RUN_LQ", 1559).unwrap();
    let appended =
        orig.iter().zip(&app).flat_map(|(a, b)| a.iter().zip(b).map(|(p, q)| dist(*p, *q))).fold(0.0, f64::max);
    println!(
        "AKI_AKI_RUN_LQ appended as #1559: max control error vs the peer's solve of the original {:.2} mm",
        appended * 1e3
    );
    assert!(appended < 5e-3, "{appended}");

    // The edit: the right thigh (control 6) turned 20° in the glTF. The peer's solve of the
    // written file moves the right leg (6-10) and nothing else.
    let edited = d.join("edited.glb");
    std::fs::write(&edited, turn_node(&std::fs::read(&glb).unwrap(), "R_thigh", 20.0)).unwrap();
    let out2 = d.join("out2");
    let o = boneyard(&["import", s(&edited), "--into", s(&motion), "--out", s(&out2), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let moved = peer_positions(&out2.join("motion.bin"), RUN, 64).unwrap();
    let (mut leg, mut rest) = (0f64, 0f64);
    for (a, b) in orig.iter().zip(&moved) {
        for (c, (p, q)) in a.iter().zip(b).enumerate() {
            if (7..=10).contains(&c) {
                leg = leg.max(dist(*p, *q));
            } else {
                rest = rest.max(dist(*p, *q));
            }
        }
    }
    println!("{RUN} edited (R_thigh +20°): the peer moves the right leg up to {:.0} mm, every other control at most {:.2} mm", leg * 1e3, rest * 1e3);
    assert!(leg > 0.05 && rest < 5e-3, "{leg} {rest}");
}

#[test]
fn shenmue_bad_input_names_clip_and_bone_and_writes_nothing() {
    let Some((motion, glb, tmp)) = shenmue_setup("shenmue_bad") else { return };
    let d = tmp.path();
    let bytes = std::fs::read(&glb).unwrap();
    let json_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let j: Value = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
    let foot = j["nodes"].as_array().unwrap().iter().position(|n| n["name"] == "L_foot").unwrap() as u64;
    let mut nan = bytes.clone();
    let at = rotation_at(&bytes, foot) + 16 * 4;
    nan[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    let nan_glb = d.join("nan.glb");
    std::fs::write(&nan_glb, &nan).unwrap();
    let out = d.join("out");
    let o = boneyard(&["import", s(&nan_glb), "--into", s(&motion), "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains(RUN) && e.contains("L_foot") && e.contains("not finite"), "{e}");
    assert!(!out.exists() || std::fs::read_dir(&out).unwrap().next().is_none());
    // The root a thousand kilometres away at frame 3: past the largest half (65504), which was
    // written as that half with nothing said.
    let root = j["nodes"].as_array().unwrap().iter().position(|n| n["name"] == "root").unwrap() as u64;
    let mut far = bytes.clone();
    let at = output_at(&bytes, root, "translation") + 12 * 3;
    let x = f32::from_le_bytes(far[at..at + 4].try_into().unwrap()) + 1.0e6;
    far[at..at + 4].copy_from_slice(&x.to_le_bytes());
    let far_glb = d.join("far.glb");
    std::fs::write(&far_glb, &far).unwrap();
    let o = boneyard(&["import", s(&far_glb), "--into", s(&motion), "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains(RUN) && e.contains("(root) position.x at frame 3") && e.contains("±65504"), "{e}");
    assert!(!out.exists() || std::fs::read_dir(&out).unwrap().next().is_none());
}

/// `pose --json` of `file` (with `extra` files) at `frame`: per bone the column-major matrix.
fn pose(files: &[&Path], anim: &str, frame: u32) -> Vec<Vec<f64>> {
    let mut args = vec!["pose"];
    args.extend(files.iter().map(|p| s(p)));
    let f = frame.to_string();
    args.extend(["--anim", anim, "--frame", &f, "--json"]);
    let o = boneyard(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    j["bones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["matrix"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect())
        .collect()
}

/// Largest rotation element difference (world matrices) and root translation difference of
/// the written animation against the original, every frame, as `pose` (the game's matrices)
/// gives them.
fn compare_poses(orig: &[&Path], anim: &str, written: &[&Path], new: &str, frames: u32) -> (f64, f64) {
    let (mut rot, mut root) = (0f64, 0f64);
    for f in 0..frames {
        let (a, b) = (pose(orig, anim, f), pose(written, new, f));
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            for c in 0..3 {
                for r in 0..3 {
                    rot = rot.max((x[c * 4 + r] - y[c * 4 + r]).abs());
                }
            }
        }
        for r in 12..15 {
            root = root.max((a[0][r] - b[0][r]).abs());
        }
    }
    (rot, root)
}

/// Zelda 64: the Deku Scrub's run exported to glb and imported back onto object_dekunuts: the
/// copy of the object with the animation appended, C and XML beside it; the written object
/// lists the new animation at the offset reported and poses it as the original at every frame.
#[test]
fn z64_dekunuts_run_round_trip() {
    let Some(obj) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "z64_dekunuts_run_round_trip") else { return };
    let tmp = tmpdir("z64");
    let d = tmp.path();
    let o = boneyard(&[
        "-q",
        "export",
        s(&obj),
        "--format",
        "glb",
        "--anim",
        "gDekuNutsRunAnim",
        "--out",
        s(&d.join("glb")),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let glb = d.join("glb/object_dekunuts_gDekuNutsRunAnim.glb");
    let out = d.join("out");
    let o = boneyard(&["import", s(&glb), "--into", s(&obj), "--out", s(&out), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    let paths: Vec<&str> = j["written"].as_array().unwrap().iter().map(|w| w["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["object_dekunuts", "object_dekunuts_imported.c", "object_dekunuts_imported.xml"]);
    let a = &j["written"][0]["animations"][0];
    assert_eq!((a["frames"].as_u64(), a["fps"].as_f64(), a["index"].as_u64()), (Some(18), Some(20.0), Some(10)));
    let off = a["offset"].as_u64().unwrap();
    // Through the glb, every limb rotation is the one Nintendo stored (18 frames x 24 limbs).
    assert_eq!(a["original"].as_str(), Some("gDekuNutsRunAnim"));
    assert_eq!((a["original_rotations_kept"].as_u64(), a["rotations"].as_u64()), (Some(432), Some(432)));
    let written = out.join("object_dekunuts");
    let l = boneyard(&["list", s(&written), "--json"]);
    let l: Value = serde_json::from_slice(&l.stdout).unwrap();
    let new = &l["animations"][10];
    assert_eq!(new["header"], format!("0x{off:X}"));
    assert_eq!(new["frames"].as_u64(), Some(18));
    let (rot, root) = compare_poses(&[&obj], "gDekuNutsRunAnim", &[&written], "#10", 18);
    eprintln!(
        "CLI z64 round trip: gDekuNutsRunAnim, 18 frames, max rotation matrix error {rot:.2e}, root within {root}"
    );
    // The game's matrices within f32 noise, limbs 15 and 20 in gimbal lock included (their
    // angles were found from the rotation alone, 6.6e-5 off, before the glb's scale was read).
    assert!(rot < 1e-6 && root == 0.0, "{rot} {root}");
    let xml = std::fs::read_to_string(out.join("object_dekunuts_imported.xml")).unwrap();
    assert!(xml.contains(&format!("Offset=\"0x{off:X}\"")), "{xml}");
    // The Deku Scrub's clip onto adult Link: no bone matches; exit 1, one line, nothing written.
    let t = "z64_dekunuts_run_round_trip";
    if let (Some(boy), Some(gk), Some(la)) = (
        shared_data("z64/oot-gc-eu-mq-dbg/object_link_boy", t),
        shared_data("z64/oot-gc-eu-mq-dbg/gameplay_keep", t),
        shared_data("z64/oot-gc-eu-mq-dbg/link_animetion", t),
    ) {
        let bad = d.join("bad");
        let o = boneyard(&["import", s(&glb), "--into", s(&boy), s(&gk), s(&la), "--out", s(&bad)]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains("gDekuNutsRunAnim") && e.contains("gLinkAdultSkel") && e.lines().count() == 1, "{e}");
        assert!(!bad.exists() || std::fs::read_dir(&bad).unwrap().next().is_none());
    }
}

/// Zelda 64: adult Link's walk exported and imported back (with gameplay_keep and
/// link_animetion): header and frames appended to their copies, posed as the original.
#[test]
fn z64_link_walk_round_trip() {
    let t = "z64_link_walk_round_trip";
    let (Some(boy), Some(gk), Some(la)) = (
        shared_data("z64/oot-gc-eu-mq-dbg/object_link_boy", t),
        shared_data("z64/oot-gc-eu-mq-dbg/gameplay_keep", t),
        shared_data("z64/oot-gc-eu-mq-dbg/link_animetion", t),
    ) else {
        return;
    };
    let tmp = tmpdir("z64link");
    let d = tmp.path();
    let walk = "gPlayerAnim_link_normal_walk";
    let o = boneyard(&[
        "-q",
        "export",
        s(&boy),
        s(&gk),
        s(&la),
        "--format",
        "glb",
        "--anim",
        walk,
        "--out",
        s(&d.join("glb")),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let glb = d.join(format!("glb/object_link_boy_gLinkAdultSkel_{walk}.glb"));
    let out = d.join("out");
    let o =
        boneyard(&["import", s(&glb), "--into", s(&boy), s(&gk), s(&la), "--like", walk, "--out", s(&out), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    let paths: Vec<&str> = j["written"].as_array().unwrap().iter().map(|w| w["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["gameplay_keep", "link_animetion", "player_anim_imported.c", "player_anim_imported.xml"]);
    let a = &j["written"][0]["animations"][0];
    assert_eq!((a["frames"].as_u64(), a["fps"].as_f64()), (Some(29), Some(30.0)));
    let index = format!("#{}", a["index"].as_u64().unwrap());
    let (wgk, wla) = (out.join("gameplay_keep"), out.join("link_animetion"));
    let (rot, root) = compare_poses(&[&boy, &gk, &la], walk, &[&boy, &wgk, &wla], &index, 29);
    eprintln!("CLI z64 round trip: {walk}, 29 frames, max rotation matrix error {rot:.2e}, root within {root}");
    assert!(rot == 0.0 && root == 0.0, "{rot} {root}");
}

#[test]
fn a_scaled_export_imports_as_the_unscaled_one() {
    // Link's box-opening clip exported in metres (`--scale 0.001`, as the README suggests for
    // Blender) and as is: both import to the same bytes, and the scaled one says what it
    // divided. Read as offsets from the rest, the scaled root motion was lost (joint 0 held
    // near its rest at every frame).
    let dir = "z64/oot-gc-eu-mq-dbg";
    let mut link = Vec::new();
    for n in ["object_link_boy", "gameplay_keep", "link_animetion"] {
        let Some(p) = shared_data(&format!("{dir}/{n}"), "a_scaled_export_imports_as_the_unscaled_one") else { return };
        link.push(p);
    }
    let d = tmpdir("scaled");
    let mut outputs = Vec::new();
    for (tag, scale) in [("plain", "1"), ("metres", "0.001")] {
        let glb = d.path().join(format!("{tag}-glb"));
        let mut args =
            vec!["-q", "export", "--format", "glb", "--scale", scale, "--anim", "gPlayerAnim_clink_demo_DDbox_open"];
        args.extend(["--out", s(&glb)]);
        args.extend(link.iter().map(|p| s(p)));
        let o = boneyard(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let file = std::fs::read_dir(&glb).unwrap().next().unwrap().unwrap().path();
        let out = d.path().join(format!("{tag}-game"));
        let mut args = vec!["import", s(&file), "--out", s(&out), "--into"];
        args.extend(link.iter().map(|p| s(p)));
        let o = boneyard(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let said = stderr(&o).contains("the glTF's lengths are 0.001 times the game's");
        assert_eq!(said, tag == "metres", "{}", stderr(&o));
        outputs.push(std::fs::read(out.join("gameplay_keep")).unwrap());
    }
    assert!(outputs[0] == outputs[1], "the scaled export imported to other bytes");
    // And the root moves as in the game's own clip: joint 0 of the imported clip (#583, after
    // gameplay_keep's 583) against the original's, read from the real files.
    let root = |files: &[&str], anim: &str, frame: &str| -> Vec<Value> {
        let mut args = vec!["sample", "--json", "--anim", anim, "--frame", frame];
        args.extend(files);
        let o = boneyard(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        v["channels"].as_array().unwrap()[..3].iter().map(|c| c["value"].clone()).collect()
    };
    let game = d.path().join("metres-game");
    let (keep, anim) = (game.join("gameplay_keep"), game.join("link_animetion"));
    let original: Vec<&str> = link.iter().map(|p| s(p)).collect();
    let imported = [s(&link[0]), s(&keep), s(&anim)];
    for frame in ["0", "10", "30", "50"] {
        let want = root(&original, "gPlayerAnim_clink_demo_DDbox_open", frame);
        assert_eq!(root(&imported, "#583", frame), want, "frame {frame}");
    }
}

#[test]
fn without_skeleton_the_one_the_glb_names_is_taken() {
    // The level's export of its 3-part clips (on boneyard's generic 3-part skeleton), imported
    // back into the level without --skeleton: the skeleton the glb names (its scene's extras)
    // is the target, not the level's first body (which refused it: "none of its animated
    // nodes ...").
    let Some(level) = shared_data("oni/level1_Final.dat", "without_skeleton_the_one_the_glb_names_is_taken") else {
        return;
    };
    let d = tmpdir("best-skeleton");
    let glb = d.path().join("glb");
    let o = boneyard(&["-q", "export", "--format", "glb", "--out", s(&glb), s(&level)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let three = glb.join("level1_Final_generic_3_parts.glb");
    let o = boneyard(&["import", s(&three), "--into", s(&level), "--out", s(&d.path().join("out"))]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .contains("importing onto skeleton generic3 (generic_3_parts), the skeleton the glTF was exported from"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn an_import_never_replaces_a_file_it_was_given() {
    let Some(obj) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "an_import_never_replaces_a_file_it_was_given")
    else {
        return;
    };
    let d = tmpdir("replace");
    let copy = d.path().join("object_dekunuts");
    std::fs::copy(&obj, &copy).unwrap();
    let before = std::fs::read(&copy).unwrap();
    let glb = d.path().join("glb");
    let o = boneyard(&["-q", "export", "--format", "glb", "--out", s(&glb), s(&copy)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = boneyard(&["import", s(&glb.join("object_dekunuts.glb")), "--into", s(&copy), "--out", s(d.path())]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("is the folder of the --into file"), "{}", stderr(&o));
    assert!(std::fs::read(&copy).unwrap() == before, "the input was changed");
    // Oni writes TRAM<clip>.oni files: into the folder of its body, they replaced the game's
    // own TRAMs of those names, which were not given, exit 0.
    let (Some(body), Some(walk)) = (
        shared_data("oni/TRBSfixture_body19.oni", "an_import_never_replaces_a_file_it_was_given"),
        shared_data("oni/TRAMfixture_walk19.oni", "an_import_never_replaces_a_file_it_was_given"),
    ) else {
        return;
    };
    let game = d.path().join("GameDataFolder");
    std::fs::create_dir(&game).unwrap();
    for f in [&body, &walk] {
        std::fs::copy(f, game.join(f.file_name().unwrap())).unwrap();
    }
    let tram = std::fs::read(&walk).unwrap();
    let exported = export_one_glb(&d.path().join("oni_glb"), &[s(&body), s(&walk)]);
    let into = game.join("TRBSfixture_body19.oni");
    let o = boneyard(&["import", s(&exported), "--into", s(&into), "--out", s(&game)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("is the folder of the --into file"), "{}", stderr(&o));
    assert!(std::fs::read(game.join("TRAMfixture_walk19.oni")).unwrap() == tram, "the game's TRAM was replaced");
    assert_eq!(std::fs::read_dir(&game).unwrap().count(), 2, "nothing written beside them");
}

/// An import run again into the same --out wrote object_dekunuts and its `_imported.c`/`.xml`
/// again without a word, over whatever had been edited in them: now every file it would
/// replace is named, exit 2, nothing written; `--force` replaces them.
#[test]
fn an_import_run_again_replaces_nothing_without_force() {
    let Some(obj) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "an_import_run_again") else { return };
    let d = tmpdir("again");
    let glb = export_one_glb(&d.path().join("glb"), &[s(&obj), "--anim", "gDekuNutsRunAnim"]);
    let out = d.path().join("mod");
    let run = |force: bool| {
        let mut args = vec!["import", s(&glb), "--into", s(&obj), "--out", s(&out)];
        if force {
            args.push("--force");
        }
        boneyard(&args)
    };
    let o = run(false);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let names = ["object_dekunuts", "object_dekunuts_imported.c", "object_dekunuts_imported.xml"];
    let first: Vec<Vec<u8>> = names.iter().map(|n| std::fs::read(out.join(n)).unwrap()).collect();
    // The user's edit of the C file, which a second run replaced.
    let edited = b"/* edited by hand */\n".to_vec();
    std::fs::write(out.join(names[1]), &edited).unwrap();
    let o = run(false);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    for n in names {
        assert!(e.contains(s(&out.join(n))), "{n}: {e}");
    }
    assert!(e.contains("already exist in --out (an earlier import?): nothing written; --force replaces them"), "{e}");
    assert_eq!(std::fs::read(out.join(names[1])).unwrap(), edited, "the edit was kept");
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 3, "nothing written beside them");
    // --force: the same files as the first run.
    let o = run(true);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for (n, bytes) in names.iter().zip(&first) {
        assert!(std::fs::read(out.join(n)).unwrap() == *bytes, "{n}");
    }
}

#[test]
fn an_import_writes_every_file_or_none() {
    // A clip, and the same clip renamed so that its file name is too long for a file system:
    // exit 1 and nothing written (the first was written, then the second failed, exit 1).
    let (Some(body), Some(walk)) = (
        shared_data("oni/TRBSfixture_body19.oni", "an_import_writes_every_file_or_none"),
        shared_data("oni/TRAMfixture_walk19.oni", "an_import_writes_every_file_or_none"),
    ) else {
        return;
    };
    let d = tmpdir("all-or-none");
    let exported = export_one_glb(&d.path().join("glb"), &[s(&body), s(&walk)]);
    let bytes = std::fs::read(&exported).unwrap();
    let out = d.path().join("out");
    // 249 characters: a TRAM's name holds them (251 at most), a file name does not once
    // "TRAM" and ".oni" are added (257 bytes of 255).
    let long = d.path().join("long.glb");
    std::fs::write(&long, rename_clip(&bytes, 0, &"n".repeat(249))).unwrap();
    let o = boneyard(&["import", s(&exported), s(&long), "--into", s(&body), "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("has 257 bytes; a file system takes at most 255"), "{}", stderr(&o));
    assert!(!out.exists(), "nothing written, not even the folder");
    // 252: past a TRAM's name, said before anything is encoded.
    std::fs::write(&long, rename_clip(&bytes, 0, &"n".repeat(252))).unwrap();
    let o = boneyard(&["import", s(&long), "--into", s(&body), "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("its name has 252 characters; a TRAM's name holds at most 251"), "{}", stderr(&o));
    assert!(stderr(&o).contains("long.glb"), "the error names the glTF file: {}", stderr(&o));
    assert!(!out.exists());
    // Two clips of one name (a copy of the glb: the same file given twice is read once):
    // refused, naming the glTF file.
    let copy = d.path().join("copy.glb");
    std::fs::copy(&exported, &copy).unwrap();
    let o = boneyard(&["import", s(&exported), s(&copy), "--into", s(&body), "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains(&format!("{}#0: clip", copy.display())), "{e}");
    assert!(e.contains("a second clip would also be written as TRAMfixture_walk19.oni"), "{e}");
    // A folder with the name of one of the files (found only when renaming, after the others
    // were renamed into place): refused before anything is written.
    let blocked = d.path().join("blocked");
    std::fs::create_dir_all(blocked.join("TRAMfixture_walk19.oni")).unwrap();
    std::fs::write(&long, rename_clip(&bytes, 0, "aaa_first")).unwrap();
    let o = boneyard(&["import", s(&long), s(&exported), "--into", s(&body), "--out", s(&blocked)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("something that is not a file"), "{}", stderr(&o));
    let left: Vec<_> = std::fs::read_dir(&blocked).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["TRAMfixture_walk19.oni"], "nothing written beside the folder");
    // A name with characters a TRAM's name does not hold: written, and said.
    std::fs::write(&long, rename_clip(&bytes, 0, "walk ä/1")).unwrap();
    let o = boneyard(&["import", s(&long), "--into", s(&body), "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("written as TRAMwalk___1"), "{}", stderr(&o));
    assert!(out.join("TRAMwalk___1.oni").is_file());
}

/// The glb with animation `index` named `name` (its JSON chunk rewritten, the BIN chunk kept).
fn rename_clip(glb: &[u8], index: usize, name: &str) -> Vec<u8> {
    edit_json(glb, |j| j["animations"][index]["name"] = Value::from(name))
}

/// The index of the glTF node named `name` (a bone) in a glb's JSON.
fn node_named(j: &Value, name: &str) -> usize {
    j["nodes"].as_array().unwrap().iter().position(|n| n["name"] == name).unwrap()
}

/// The glb with its JSON chunk edited by `edit`.
fn edit_json(glb: &[u8], edit: impl FnOnce(&mut Value)) -> Vec<u8> {
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let mut j: Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    edit(&mut j);
    let mut json = serde_json::to_vec(&j).unwrap();
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let rest = &glb[20 + json_len..];
    let mut out = Vec::new();
    out.extend_from_slice(&glb[..8]);
    out.extend_from_slice(&((12 + 8 + json.len() + rest.len()) as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    out.extend_from_slice(rest);
    out
}

#[test]
fn appended_link_clips_make_no_false_headers_readable() {
    // Link's 20 longest clips (3,602 frames, 483 KB of frames appended to link_animetion)
    // imported back: gameplay_keep then lists its 573 and the 20, nothing else. Three words
    // of gameplay_keep (0x39560, 0x395D0, 0x39630) read as headers of 1,505 frames at one
    // pointer once link_animetion was long enough to hold them, and were listed as clips.
    let dir = "z64/oot-gc-eu-mq-dbg";
    let mut link = Vec::new();
    for n in ["object_link_boy", "gameplay_keep", "link_animetion"] {
        let Some(p) = shared_data(&format!("{dir}/{n}"), "appended_link_clips_make_no_false_headers_readable") else {
            return;
        };
        link.push(p);
    }
    let longest = "gPlayerAnim_clink_op3_okiagari gPlayerAnim_link_normal_heavy_carry gPlayerAnim_link_derth_rebirth \
        gPlayerAnim_link_uma_wait_1 gPlayerAnim_link_normal_waitF_typeC_20f gPlayerAnim_link_normal_wait_typeC_20f \
        gPlayerAnim_link_uma_wait_2 gPlayerAnim_link_normal_waitF_typeB_20f gPlayerAnim_link_normal_wait_typeB_20f \
        gPlayerAnim_link_normal_waitF_typeA_20f gPlayerAnim_link_normal_wait_typeA_20f gPlayerAnim_link_swimer_swim_down \
        gPlayerAnim_link_waitF_typeD_20f gPlayerAnim_link_wait_typeD_20f gPlayerAnim_clink_demo_Tbox_open \
        gPlayerAnim_link_demo_Tbox_open gPlayerAnim_link_bottle_bug_out gPlayerAnim_link_bottle_drink_demo \
        gPlayerAnim_link_bottle_fish_out gPlayerAnim_link_normal_electric_shock_end";
    let d = tmpdir("appended-link");
    let glb = d.path().join("glb");
    let mut args = vec!["-q", "export", "--format", "glb", "--out", s(&glb)];
    for a in longest.split_whitespace() {
        args.extend(["--anim", a]);
    }
    args.extend(link.iter().map(|p| s(p)));
    let o = boneyard(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let file = std::fs::read_dir(&glb).unwrap().next().unwrap().unwrap().path();
    let out = d.path().join("game");
    let mut args = vec!["-q", "import", s(&file), "--out", s(&out), "--into"];
    args.extend(link.iter().map(|p| s(p)));
    let o = boneyard(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (keep, anim) = (out.join("gameplay_keep"), out.join("link_animetion"));
    assert!(
        std::fs::metadata(&anim).unwrap().len() > 0x2A0000 + 1505 * 134,
        "link_animetion is not long enough to test"
    );
    let o = boneyard(&["list", "--json", s(&link[0]), s(&keep), s(&anim)]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let clips: Vec<&str> = v["animations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["format"] == "z64 link")
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(clips.len(), 573 + 20, "{:?}", &clips[573..]);
    assert!(!clips.iter().any(|n| n.starts_with("link_anim_0395")), "{:?}", &clips[573..]);
}

#[test]
fn options_and_map_entries_that_can_do_nothing_are_said() {
    // Zelda 64 keeps a value a frame (no keys to drop, no key size), and a map entry naming no
    // node or no bone matched nothing: each was taken without a word.
    let Some(obj) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "options_and_map_entries_that_can_do_nothing")
    else {
        return;
    };
    let d = tmpdir("ignored");
    let exported = export_one_glb(&d.path().join("glb"), &["--anim", "#0", s(&obj)]);
    let map = d.path().join("map.json");
    std::fs::write(&map, r#"{"ghost": "limb_01"}"#).unwrap();
    let out = d.path().join("out");
    let o = boneyard(&[
        "import",
        s(&exported),
        "--into",
        s(&obj),
        "--out",
        s(&out),
        "--tolerance",
        "0.1",
        "--oni-keys",
        "16",
        "--map",
        s(&map),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("key size 16 is for Oni; Zelda 64 animations hold a value per frame (ignored)"), "{e}");
    assert!(e.contains("tolerance 0.1 is for the writers that drop keys"), "{e}");
    assert!(e.contains(r#"--map: "ghost" names no node of the glTF files"#), "{e}");
    // A bone the skeleton lacks would drop the node's channels: a usage error, nothing written.
    std::fs::write(&map, r#"{"limb_02": "limb_2"}"#).unwrap();
    let out2 = d.path().join("out2");
    let o = boneyard(&["import", s(&exported), "--into", s(&obj), "--out", s(&out2), "--map", s(&map)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains(r#"--map: "limb_2" (for "limb_02") names no bone of skeleton"#), "{e}");
    assert!(!out2.exists());
}

/// Of the Redead's object (two 25-limb skeletons), a glb whose scene extras are gone (an
/// editor's round trip) goes to the skeleton its nodes name, the Redead's, not the file's first
/// (the Gibdo's, which refused it), said in a note; the clip named twice (by index and by name)
/// is written once; the written clip plays on the Redead as on the Gibdo, so no warning says it
/// reads back paired with another; `--file` and `--tunic`, which import cannot use, are usage
/// errors.
#[test]
fn the_skeleton_the_nodes_name_is_taken_and_a_clip_named_twice_is_one() {
    let Some(rd) = shared_data("z64/oot-gc-eu-mq-dbg/object_rd", "the_skeleton_the_nodes_name_is_taken") else {
        return;
    };
    let tmp = tmpdir("rd-nodes");
    let d = tmp.path();
    let glb = export_one_glb(d, &[s(&rd), "--skeleton", "gRedeadSkel", "--anim", "gGibdoRedeadWalkAnim"]);
    let bare = d.join("bare.glb");
    std::fs::write(
        &bare,
        edit_json(&std::fs::read(&glb).unwrap(), |j| {
            j["scenes"][0].as_object_mut().unwrap().remove("extras");
        }),
    )
    .unwrap();
    let out = d.join("out");
    let o = boneyard(&[
        "import",
        s(&bare),
        "--into",
        s(&rd),
        "--anim",
        "#0",
        "--anim",
        "gGibdoRedeadWalkAnim",
        "--out",
        s(&out),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("(gRedeadSkel), whose bones the glTF's nodes name most (25 of 25"), "{e}");
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    let text = j.to_string();
    assert!(!text.contains("reads back paired"), "{text}");
    let object = &j["written"].as_array().unwrap()[0];
    assert_eq!(object["animations"].as_array().unwrap().len(), 1, "{object}");
    for (flag, value) in [("--file", "object_rd"), ("--tunic", "goron")] {
        let o = boneyard(&["import", s(&glb), "--into", s(&rd), "--out", s(&d.join("x")), flag, value]);
        assert_eq!(o.status.code(), Some(2), "{flag}: {}", stderr(&o));
        assert!(stderr(&o).contains(flag), "{}", stderr(&o));
        assert!(!d.join("x").exists());
    }
}

/// `import GLB --into INTO... --out OUT --json`, which must succeed: its JSON.
fn import_json(glb: &Path, into: &[&Path], out: &Path) -> Value {
    import_json_with(glb, into, out, &[])
}

/// The messages of an `--json` output's warnings.
fn messages(j: &Value) -> Vec<&str> {
    j["warnings"].as_array().unwrap().iter().filter_map(|w| w["message"].as_str()).collect()
}

/// Oni: a clip that takes the place of an animation given with --into (the walk, imported with
/// its TRAM beside the body) gets OniSplit's defaults for type, states and flags unless --like
/// names it: said, with the fields it had (type 2, states 6 -> 5, flags 0x210: the fixture's
/// OniSplit XML has Walk, WalkingRightDown -> WalkingLeftDown, Attack AttackForward) and the ones
/// written; with --like, kept and not said.
#[test]
fn an_oni_clip_that_replaces_an_animation_says_which_fields_it_loses() {
    let Some((walk, body, glb, tmp)) = setup("replaces") else { return };
    let d = tmp.path();
    let j = import_json(&glb, &[&body, &walk], &d.join("a"));
    let said = messages(&j);
    assert!(
        said.iter().any(|m| m.contains("(type 2, states 6 -> 5, flags 0x210)") && m.contains("--like fixture_walk19")),
        "{said:?}"
    );
    let o = boneyard(&[
        "import",
        s(&glb),
        "--into",
        s(&body),
        s(&walk),
        "--out",
        s(&d.join("b")),
        "--like",
        "fixture_walk19",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!String::from_utf8_lossy(&o.stdout).contains("OniSplit's defaults"));
}

/// A glTF whose bone hangs from another bone than in the game (the Deku Scrub's limb_06 moved
/// from limb_05 to limb_00 in an editor) is written as its local rotations say, which the game
/// composes down its own hierarchy: said, naming the bone and both parents (it was silent).
#[test]
fn a_bone_moved_in_the_hierarchy_is_said() {
    let Some(obj) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "a_bone_moved_in_the_hierarchy_is_said") else {
        return;
    };
    let tmp = tmpdir("reparent");
    let d = tmp.path();
    let glb = export_one_glb(&d.join("glb"), &[s(&obj), "--anim", "gDekuNutsRunAnim"]);
    let moved = edit_json(&std::fs::read(&glb).unwrap(), |j| {
        let (l0, l5, l6) = (node_named(j, "limb_00"), node_named(j, "limb_05"), node_named(j, "limb_06"));
        j["nodes"][l5]["children"].as_array_mut().unwrap().retain(|c| c.as_u64() != Some(l6 as u64));
        j["nodes"][l0]["children"].as_array_mut().unwrap().push(Value::from(l6));
    });
    let path = d.join("moved.glb");
    std::fs::write(&path, moved).unwrap();
    let j = import_json(&path, &[&obj], &d.join("out"));
    let said = messages(&j);
    assert!(
        said.iter().any(|m| m.contains("limb_06 (in the glTF under limb_00, in the game under limb_05)")),
        "{said:?}"
    );
    // The glb as exported says nothing of the kind.
    let o = boneyard(&["import", s(&glb), "--into", s(&obj), "--out", s(&d.join("out2")), "--json"]);
    assert!(!String::from_utf8_lossy(&o.stdout).contains("hang from other bones"));
}

/// A channel with no target node (glTF 2.0 allows it: an extension such as
/// KHR_animation_pointer targets something else) is ignored as the specification says, and
/// said; the file was refused as "not a valid glTF 2.0 file: missing field `node`".
#[test]
fn a_channel_without_a_node_is_ignored_and_said() {
    let Some(obj) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "a_channel_without_a_node_is_ignored") else {
        return;
    };
    let tmp = tmpdir("nonode");
    let d = tmp.path();
    let glb = export_one_glb(&d.join("glb"), &[s(&obj), "--anim", "gDekuNutsRunAnim"]);
    let bytes = std::fs::read(&glb).unwrap();
    let pointer = edit_json(&bytes, |j| {
        let target = j["animations"][0]["channels"][1]["target"].as_object_mut().unwrap();
        target.remove("node");
        target.insert("path".into(), Value::from("pointer"));
        target.insert(
            "extensions".into(),
            serde_json::json!({"KHR_animation_pointer": {"pointer": "/materials/0/alpha"}}),
        );
    });
    let path = d.join("pointer.glb");
    std::fs::write(&path, pointer).unwrap();
    let j = import_json(&path, &[&obj], &d.join("out"));
    let said = messages(&j);
    assert!(said.iter().any(|m| m.contains("animation 0 channel 1 has no target node")), "{said:?}");
    assert_eq!(j["written"][0]["animations"].as_array().unwrap().len(), 1);
}

/// glTF 2.0's nodes form disjoint trees. A node given to two parents, or a loop of nodes (the
/// Deku Scrub's root limb_00 hung under limb_06, below it), has no one hierarchy to compare
/// with the game's: exit 1 naming the nodes, nothing written (both were accepted).
#[test]
fn a_gltf_whose_nodes_are_not_trees_is_refused_naming_them() {
    let Some(obj) =
        shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "a_gltf_whose_nodes_are_not_trees_is_refused_naming_them")
    else {
        return;
    };
    let tmp = tmpdir("not-trees");
    let d = tmp.path();
    let glb = export_one_glb(&d.join("glb"), &[s(&obj), "--anim", "gDekuNutsRunAnim"]);
    let bytes = std::fs::read(&glb).unwrap();
    let mut l6 = 0;
    let two_parents = edit_json(&bytes, |j| {
        let l0 = node_named(j, "limb_00");
        l6 = node_named(j, "limb_06");
        j["nodes"][l0]["children"].as_array_mut().unwrap().push(Value::from(l6));
    });
    let looped = edit_json(&bytes, |j| {
        let (l0, l6) = (node_named(j, "limb_00"), node_named(j, "limb_06"));
        // limb_00 leaves its place (a scene's root or a node's child) for limb_06's children.
        for scene in j["scenes"].as_array_mut().unwrap() {
            if let Some(roots) = scene.get_mut("nodes").and_then(|r| r.as_array_mut()) {
                roots.retain(|r| r.as_u64() != Some(l0 as u64));
                if roots.is_empty() {
                    scene.as_object_mut().unwrap().remove("nodes");
                }
            }
        }
        for n in j["nodes"].as_array_mut().unwrap() {
            if let Some(c) = n.get_mut("children").and_then(|c| c.as_array_mut()) {
                c.retain(|c| c.as_u64() != Some(l0 as u64));
            }
        }
        match j["nodes"][l6].get_mut("children").and_then(|c| c.as_array_mut()) {
            Some(c) => c.push(Value::from(l0)),
            None => j["nodes"][l6]["children"] = Value::from(vec![l0]),
        }
    });
    for (name, edited, says) in [
        ("two-parents", two_parents, format!("node {l6} is a child of both node")),
        ("loop", looped, "is its own ancestor".to_string()),
    ] {
        let path = d.join(format!("{name}.glb"));
        std::fs::write(&path, edited).unwrap();
        let out = d.join(format!("out-{name}"));
        let o = boneyard(&["import", s(&path), "--into", s(&obj), "--out", s(&out)]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", stderr(&o));
        assert!(stderr(&o).contains(&says) && stderr(&o).contains(&format!("{name}.glb")), "{name}: {}", stderr(&o));
        assert!(!out.exists() || std::fs::read_dir(&out).unwrap().next().is_none(), "{name}: something was written");
    }
}

/// What the glTF does that the game cannot play is said, not taken silently (a QA found each
/// silent): a bone animated without its rotation channel holds its rest rotation, keys before
/// 0 s are shifted to frame 0, and an `Armature` node above the root that turns or scales it is
/// not played; a buffer URI is read percent-decoded (`my%20data.bin`), an encoded `..` refused.
#[test]
fn what_a_gltf_does_that_the_game_cannot_play_is_said() {
    let Some(obj) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "what_a_gltf_does_that_the_game_cannot_play")
    else {
        return;
    };
    let tmp = tmpdir("unplayed");
    let d = tmp.path();
    let glb = export_one_glb(&d.join("glb"), &[s(&obj), "--anim", "gDekuNutsRunAnim"]);
    let bytes = std::fs::read(&glb).unwrap();
    let edited = edit_json(&bytes, |j| {
        // limb_05 loses its rotation channel (it keeps its translation).
        let l5 = node_named(j, "limb_05") as u64;
        j["animations"][0]["channels"]
            .as_array_mut()
            .unwrap()
            .retain(|c| !(c["target"]["node"] == l5 && c["target"]["path"] == "rotation"));
        // Every key 0.25 s earlier: the input accessors' min goes below 0.
        let inputs: Vec<u64> = j["animations"][0]["samplers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["input"].as_u64().unwrap())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        for i in inputs {
            let acc = &j["accessors"][i as usize];
            let view = acc["bufferView"].as_u64().unwrap() as usize;
            // Shift by moving the view's times: done on the binary below (the JSON only
            // keeps min/max), so remember the view.
            j["asset"]["extras"][format!("shift{view}")] = Value::from(acc["count"].as_u64().unwrap());
        }
        // A node above the root, turned a quarter about X (an editor's Y-up armature).
        let root = node_named(j, "limb_00") as u64;
        let nodes = j["nodes"].as_array_mut().unwrap();
        nodes.push(
            serde_json::json!({"name": "Armature", "rotation": [0.70710677, 0.0, 0.0, 0.70710677], "children": [root]}),
        );
        let armature = nodes.len() as u64 - 1;
        for n in j["scenes"][0]["nodes"].as_array_mut().unwrap() {
            if *n == root {
                *n = Value::from(armature);
            }
        }
    });
    // The times, shifted in the binary chunk.
    let json_len = u32::from_le_bytes(edited[12..16].try_into().unwrap()) as usize;
    let j: Value = serde_json::from_slice(&edited[20..20 + json_len]).unwrap();
    let mut out = edited.clone();
    let bin = 20 + json_len + 8;
    for (k, v) in j["asset"]["extras"].as_object().unwrap() {
        let view = &j["bufferViews"][k.trim_start_matches("shift").parse::<usize>().unwrap()];
        let start = bin + view["byteOffset"].as_u64().unwrap_or(0) as usize;
        for t in 0..v.as_u64().unwrap() as usize {
            let at = start + 4 * t;
            let x = f32::from_le_bytes(out[at..at + 4].try_into().unwrap()) - 0.25;
            out[at..at + 4].copy_from_slice(&x.to_le_bytes());
        }
    }
    let path = d.join("edited.glb");
    std::fs::write(&path, &out).unwrap();
    let j = import_json(&path, &[&obj], &d.join("out"));
    let said = messages(&j);
    let has = |what: &str| said.iter().any(|m| m.contains(what));
    assert!(has("bones it animates with no rotation channel hold their rest rotation: limb_05"), "{said:?}");
    assert!(has("its keys start at -0.25 s, before 0"), "{said:?}");
    assert!(has("nodes above the skeleton's root move, turn or scale it (Armature): not played"), "{said:?}");
    // The glb as exported says none of it.
    let plain = messages(&import_json(&glb, &[&obj], &d.join("out2"))).join("\n");
    for what in ["no rotation channel", "before 0", "above the skeleton's root"] {
        assert!(!plain.contains(what), "{plain}");
    }

    // A .gltf whose buffer is `my data.bin`, its URI escaped as writers escape it.
    let glb_json: Value = serde_json::from_slice(&bytes[20..20 + json_len_of(&bytes)]).unwrap();
    let bin_start = 20 + json_len_of(&bytes) + 8;
    let mut gltf = glb_json.clone();
    gltf["buffers"][0]["uri"] = Value::from("my%20data.bin");
    std::fs::write(d.join("my data.bin"), &bytes[bin_start..]).unwrap();
    std::fs::write(d.join("escaped.gltf"), serde_json::to_vec(&gltf).unwrap()).unwrap();
    let j = import_json(&d.join("escaped.gltf"), &[&obj], &d.join("out3"));
    assert_eq!(j["written"][0]["animations"].as_array().unwrap().len(), 1);
    gltf["buffers"][0]["uri"] = Value::from("%2E%2E/my%20data.bin");
    std::fs::write(d.join("up.gltf"), serde_json::to_vec(&gltf).unwrap()).unwrap();
    let o = boneyard(&["import", s(&d.join("up.gltf")), "--into", s(&obj), "--out", s(&d.join("out4"))]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("is not a file beside the glTF"), "{}", stderr(&o));
}

fn json_len_of(glb: &[u8]) -> usize {
    u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize
}

/// Two channels of one animation on one node's path (glTF 2.0 allows one; a script that
/// appends a scale channel beside the exported one makes two): exit 1 naming the bone and the
/// channels (the second was passed over silently, its edit lost).
#[test]
fn two_channels_on_one_path_are_refused() {
    let Some(obj) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "two_channels_on_one_path_are_refused") else {
        return;
    };
    let tmp = tmpdir("twochannels");
    let d = tmp.path();
    let glb = export_one_glb(&d.join("glb"), &[s(&obj), "--anim", "gDekuNutsRunAnim"]);
    let doubled = edit_json(&std::fs::read(&glb).unwrap(), |j| {
        let channels = j["animations"][0]["channels"].as_array_mut().unwrap();
        let last = channels.len();
        let copy = channels[1].clone();
        channels.push(copy);
        j["asset"]["extras"]["last"] = Value::from(last);
    });
    let path = d.join("doubled.glb");
    std::fs::write(&path, doubled).unwrap();
    let o = boneyard(&["import", s(&path), "--into", s(&obj), "--out", s(&d.join("out"))]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("is the target of channels 1 and "), "{}", stderr(&o));
    assert!(!d.join("out").exists());
}

/// `import --json`'s warnings say where each comes from: reading the `--into` files (Link's
/// gameplay_keep's own, as `list` gives them) or writing the clips, so that a program can keep
/// the ones about its clips (a QA had to filter out four of gameplay_keep's).
#[test]
fn import_json_warnings_say_where_they_come_from() {
    let Some(obj) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "import_json_warnings_say_where") else {
        return;
    };
    let tmp = tmpdir("from");
    let d = tmp.path();
    let glb = export_one_glb(&d.join("glb"), &[s(&obj), "--anim", "gDekuNutsRunAnim"]);
    let j = import_json(&glb, &[&obj], &d.join("out"));
    let from: Vec<(&str, &str)> = j["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w["from"].as_str().unwrap(), w["message"].as_str().unwrap()))
        .collect();
    // object_dekunuts's own (its lists no limb draws) from reading it; the clip named like one
    // it holds from writing.
    assert!(from.iter().any(|(f, m)| *f == "into" && m.contains("that no limb draws")), "{from:?}");
    assert!(from.iter().any(|(f, m)| *f == "import" && m.contains("gDekuNutsRunAnim")), "{from:?}");
    assert!(from.iter().all(|(f, _)| matches!(*f, "into" | "import")), "{from:?}");
}

/// A glTF given twice is read once, with a warning, as every command reads its inputs (its
/// clips were refused as written twice); `--into` a folder of nothing readable is exit 1.
#[test]
fn a_gltf_given_twice_is_read_once() {
    let Some((_walk, body, glb, tmp)) = setup("twice") else { return };
    let d = tmp.path();
    let out = d.join("out");
    let o = boneyard(&["import", s(&glb), s(&glb), "--into", s(&body), "--out", s(&out), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("given twice, read once"), "{}", stderr(&o));
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["written"].as_array().unwrap().len(), 1, "{j}");
    let empty = d.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let o = boneyard(&["import", s(&glb), "--into", s(&empty), "--out", s(&d.join("out2"))]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("--into: no file boneyard reads"), "{}", stderr(&o));
}

/// Another character's animation whose bones are named alike (Zelda's `limb_NN`): Zelda's
/// (object_zl2, 14 limbs) into the Deku Scrub's object (24). The glb names its skeleton,
/// which the --into file lacks, and its bones hang otherwise: refused, nothing written (it
/// was written with exit 0 and warnings). `--skeleton` imports it regardless.
#[test]
fn another_skeletons_animation_is_refused_unless_asked_for() {
    let (Some(zl2), Some(deku)) = (
        shared_data("z64/oot-gc-eu-mq-dbg/object_zl2", "another_skeletons_animation_is_refused_unless_asked_for"),
        shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "another_skeletons_animation_is_refused_unless_asked_for"),
    ) else {
        return;
    };
    let tmp = tmpdir("foreign");
    let d = tmp.path();
    let glb = export_one_glb(&d.join("glb"), &[s(&zl2), "--anim", "gZelda2Anime1Anim_0003BC"]);
    let out = d.join("out");
    let o = boneyard(&["import", s(&glb), "--into", s(&deku), "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("exported from skeleton 0x10D70") && err.contains("gDekuNutsSkel"), "{err}");
    assert!(err.contains("limb_06 (in the glTF under limb_00, in the game under limb_05)"), "{err}");
    assert!(!out.exists(), "something was written");
    // With --json, the failure is JSON too: the error with its exit status, the warnings said
    // before it (it printed nothing).
    let o = boneyard(&["import", s(&glb), "--into", s(&deku), "--out", s(&out), "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((j["error"]["exit"].as_u64(), j["written"].as_array().map(Vec::len)), (Some(1), Some(0)), "{j}");
    assert!(j["error"]["message"].as_str().unwrap().contains("exported from skeleton 0x10D70"), "{j}");
    assert!(messages(&j).iter().any(|m| m.contains("which the --into files do not hold")), "{j}");
    // Asked for: written, with the hierarchy said.
    let j = import_json_with(&glb, &[&deku], &d.join("out2"), &["--skeleton", "gDekuNutsSkel"]);
    let said = messages(&j);
    assert!(said.iter().any(|m| m.contains("bones hang from other bones")), "{said:?}");
}
