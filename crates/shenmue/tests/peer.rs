//! The whole of MOTION.BIN against an independent reader: the peer runtime new-yokosuka
//! (`shared/peers/new-yokosuka`, emulator-validated by its author), run under node by
//! `tests/peer/ny_dump.mjs`. Skipped visibly without node, the peer or the data, unless
//! BONEYARD_REQUIRE_DATA=1 / BONEYARD_REQUIRE_PEERS=1 (then a skip is a failure).

use boneyard_core::testdata::shared_data;
use boneyard_core::Document;
use boneyard_shenmue::{Layout, MotnFile};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// motion.bin and the peer's folder (beside `shared/data`, in `shared/peers`), with node.
fn setup(test: &str) -> Option<(PathBuf, PathBuf)> {
    let motion = shared_data("shenmue/motion.bin", test)?;
    let peer = boneyard_core::testdata::shared_peer("new-yokosuka", test)?;
    Some((motion, peer))
}

/// The peer's JSON lines for `args`.
fn peer_lines(peer: &Path, motion: &Path, args: &[String]) -> Vec<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("peer").join("ny_dump.mjs");
    let out = Command::new("node").arg(script).arg(peer).arg(motion).args(args).output().expect("node runs");
    assert!(out.status.success(), "the peer failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn u64s(v: &Value) -> Vec<u64> {
    v.as_array().map(|a| a.iter().map(|x| x.as_u64().unwrap()).collect()).unwrap_or_default()
}

/// Every entry's action metadata that boneyard decodes (offset, hit-phase frames, attack
/// parameters, sound and surface cues) equals the peer's reading of the same bytes.
#[test]
fn action_metadata_equals_the_peers() {
    let test = "action_metadata_equals_the_peers";
    let Some((motion, peer)) = setup(test) else { return };
    let f = MotnFile::parse(&std::fs::read(&motion).unwrap()).unwrap();
    let theirs = peer_lines(&peer, &motion, &["meta".into()]);
    assert_eq!(theirs.len(), f.entries.len());
    let (mut compared, mut hits, mut sounds, mut surfaces) = (0, 0, 0, 0);
    let peer_read = theirs.iter().filter(|t| !t["meta"].is_null()).count();
    for (e, t) in f.entries.iter().zip(&theirs) {
        assert_eq!(t["name"], e.name.as_str());
        let Some(a) = e.action() else {
            assert!(
                t["meta"].is_null(),
                "#{} {}: the peer reads action metadata that boneyard does not",
                t["index"],
                e.name
            );
            continue;
        };
        let m = &t["meta"];
        let what = format!("#{} {}", t["index"], e.name);
        assert_eq!(m["offset"].as_u64(), Some(a.offset as u64), "{what}");
        let hit = a.hit_frames.map(|h| h.map(u64::from).to_vec());
        assert_eq!(hit, m["hit"].as_array().map(|_| u64s(&m["hit"])), "{what}: hit-phase frames");
        // The peer decodes the attack record only after the hit-phase record: boneyard too.
        let attack = a.attack.map(|x| x.map(u64::from).to_vec());
        assert_eq!(attack, m["attack"].as_array().map(|_| u64s(&m["attack"])), "{what}: attack");
        let sound: Vec<Vec<u64>> = a.sound_cues.iter().map(|&(f, g, t)| vec![f.into(), g.into(), t.into()]).collect();
        let peer_sound: Vec<Vec<u64>> = m["sound"].as_array().unwrap().iter().map(u64s).collect();
        assert_eq!(sound, peer_sound, "{what}: sound cues");
        let surface: Vec<Vec<u64>> = a.surface_cues.iter().map(|&(f, k)| vec![f.into(), k.into()]).collect();
        let peer_surface: Vec<Vec<u64>> = m["surface"].as_array().unwrap().iter().map(u64s).collect();
        assert_eq!(surface, peer_surface, "{what}: surface cues");
        compared += 1;
        hits += usize::from(a.hit_frames.is_some());
        sounds += a.sound_cues.len();
        surfaces += a.surface_cues.len();
    }
    println!(
        "action metadata: {compared} of {} entries equal the peer's, which reads {peer_read} ({hits} with hit-phase frames, {sounds} sound cues, {surfaces} surface cues)",
        f.entries.len()
    );
    assert_eq!(compared, peer_read);
    assert!(compared > 1000 && hits > 0 && sounds > 0 && surfaces > 0);
}

/// Every human-family sequence of the file (each distinct block once), posed through the rig
/// (IK included) at its first, middle and last frame, and between frames (0.25 and half a frame
/// after the middle, where the engine evaluates its curves too): the 37 control world matrices equal the
/// peer's. The peer computes in doubles and boneyard in the SH-4's singles, so entries agree to
/// about 1e-6 but a solve near its degenerate cases amplifies that: every entry within 1e-3
/// (metres and rotation entries), and fewer than 1 in 1000 matrices beyond 1e-4 at whole frames
/// (1 in 100 between them, where the curve's parameter, a single-precision quotient, is rarely
/// exact and the solve amplifies its rounding: some 6 in 1000 there). The peer
/// applies its gameplay-walk routing to three sequences by name (A_WALK_L_02,
/// AKI_AKI_WALK_SP1_LP, AKI_AKI_WALK_SP2_LP): those are left out.
#[test]
fn every_human_sequence_poses_as_the_peer_does() {
    let test = "every_human_sequence_poses_as_the_peer_does";
    let Some((motion, peer)) = setup(test) else { return };
    let bytes = std::fs::read(&motion).unwrap();
    let f = MotnFile::parse(&bytes).unwrap();
    let doc = boneyard_shenmue::open_bytes(&[("motion.bin".to_string(), &bytes[..])]).unwrap();
    let doc: &dyn Document = &doc;
    let mut seen = std::collections::HashSet::new();
    let human: Vec<usize> = (0..f.entries.len())
        .filter(|&i| {
            let b = &f.blocks[f.entries[i].block];
            b.family() == 0
                && matches!(b.layout, Layout::Curves(_))
                && !["A_WALK_L_02", "AKI_AKI_WALK_SP1_LP", "AKI_AKI_WALK_SP2_LP"].contains(&f.entries[i].name.as_str())
                && seen.insert(f.entries[i].block)
        })
        .collect();
    let args: Vec<String> = std::iter::once("pose".to_string()).chain(human.iter().map(|i| i.to_string())).collect();
    let theirs = peer_lines(&peer, &motion, &args);
    assert_eq!(theirs.len(), human.len());
    let (mut worst, mut matrices, mut over_1e5, mut over_1e4, mut between) = (0f32, 0usize, 0usize, 0usize, 0usize);
    let mut between_over_1e4 = 0usize;
    for (&i, t) in human.iter().zip(&theirs) {
        assert_eq!(t["index"].as_u64(), Some(i as u64));
        let anim = doc.animations().iter().position(|a| a.name == f.entries[i].name && a.index == i).unwrap_or(i);
        let skeleton = doc.skeleton_for(anim).unwrap();
        for p in t["poses"].as_array().unwrap() {
            let frame = p[0].as_f64().unwrap();
            let ours = doc.pose(skeleton, Some(anim), frame).unwrap();
            let m: Vec<f32> = p[1].as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect();
            assert_eq!(m.len(), 16 * ours.len(), "#{i}: control count");
            for (c, w) in ours.iter().enumerate() {
                // Row-major row-vector is column-major column-vector: the same 16 numbers.
                let d = w
                    .to_cols_array()
                    .iter()
                    .zip(&m[16 * c..16 * c + 16])
                    .map(|(a, b)| (a - b).abs())
                    .fold(0.0, f32::max);
                assert!(d < 1e-3, "#{i} {} frame {frame} control {c}: {d} from the peer", f.entries[i].name);
                over_1e5 += usize::from(d > 1e-5);
                over_1e4 += usize::from(d > 1e-4);
                worst = worst.max(d);
                matrices += 1;
                between += usize::from(frame.fract() != 0.0);
                between_over_1e4 += usize::from(frame.fract() != 0.0 && d > 1e-4);
            }
        }
    }
    println!(
        "{} human sequences, {matrices} control matrices at first/middle/last frames and between frames ({between} \
         of them): largest difference from the peer \
         {worst:e}; {over_1e5} beyond 1e-5, {over_1e4} beyond 1e-4 ({between_over_1e4} between frames)",
        human.len()
    );
    assert!(human.len() > 1000 && between * 3 > matrices);
    assert!((over_1e4 - between_over_1e4) * 1000 < matrices - between, "at whole frames");
    assert!(between_over_1e4 * 100 < between, "between frames");
}

/// A sequence appended to MOTION.BIN (the table grows a slot, the metadata region moves 8 bytes
/// down): the peer reads every old entry's action metadata from the written file as from the
/// original, 8 bytes further on, including the two blocks that begin in the table's
/// terminating slot (AKI_AKI_SLOW_RUN_LP's footsteps read as the new entry's table slot before).
#[test]
fn an_appended_sequence_keeps_every_entrys_action_metadata_for_the_peer() {
    let test = "an_appended_sequence_keeps_every_entrys_action_metadata_for_the_peer";
    let Some((motion, peer)) = setup(test) else { return };
    let bytes = std::fs::read(&motion).unwrap();
    let f = MotnFile::parse(&bytes).unwrap();
    // Any sequence's bytes under a new name: appended.
    let e = f.entries.iter().position(|e| e.name == "AKI_AKI_RUN_LP").unwrap();
    let b = &f.blocks[f.entries[e].block];
    let seq = bytes[b.offset..b.offset + boneyard_shenmue::sequence_len(&f, f.entries[e].block)].to_vec();
    let new = boneyard_shenmue::NewSequence { name: "BONEYARD_NEW".into(), bytes: seq, meta: 0 };
    let written = boneyard_shenmue::rebuild(&bytes, &f, &[new]).unwrap();
    let tmp = tempfile::Builder::new().prefix("boneyard-shenmue-append-").tempdir().unwrap();
    let out = tmp.path().join("MOTION.BIN");
    std::fs::write(&out, &written.bytes).unwrap();
    let before = peer_lines(&peer, &motion, &["meta".into()]);
    let after = peer_lines(&peer, &out, &["meta".into()]);
    assert_eq!(after.len(), before.len() + 1);
    let mut same = 0;
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(a["name"], b["name"]);
        let (mb, ma) = (&b["meta"], &a["meta"]);
        if mb.is_null() {
            assert!(ma.is_null(), "{}", b["name"]);
            continue;
        }
        let what = b["name"].as_str().unwrap();
        assert_eq!(ma["offset"].as_u64(), mb["offset"].as_u64().map(|o| o + 8), "{what}");
        for k in ["hit", "attack", "sound", "surface"] {
            assert_eq!(ma[k], mb[k], "{what}: {k}");
        }
        same += 1;
    }
    let slow_run = before.iter().find(|t| t["name"] == "AKI_AKI_SLOW_RUN_LP").unwrap();
    assert_eq!(slow_run["meta"]["surface"], serde_json::json!([[8, 3], [20, 4]]));
    println!("appended one sequence: the peer reads {same} entries' action metadata as before, 8 bytes on");
}
