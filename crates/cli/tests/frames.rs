//! cli.md: `--frame F` takes a real number, and engines say how they take it. `sample` and
//! `pose` both report the frame the engine plays (Zelda wraps, Oni floors and clamps, Shenmue
//! clamps), `pose` beside the one asked for, and the matrices posed for a frame past the clip
//! are those of the frame it is played as.

use boneyard_core::testdata::shared_data;
use serde_json::Value;
use std::process::Command;

fn json(args: &[&str]) -> Value {
    let o = Command::new(env!("CARGO_BIN_EXE_boneyard")).args(args).output().expect("run boneyard");
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn text(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_boneyard")).args(args).output().expect("run boneyard");
    assert_eq!(o.status.code(), Some(0), "{args:?}");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// (file under ../shared/data, clip, frame asked, frame the engine plays, how it says it rounds)
const CASES: [(&str, &str, &str, f64, &str); 5] = [
    // 18 frames: 40.5 truncates to 40, which wraps to 4.
    ("z64/oot-gc-eu-mq-dbg/object_dekunuts", "gDekuNutsRunAnim", "40.5", 4.0, "truncated toward zero, wrapped"),
    // 256 frames: floor, then the last frame.
    ("oni/TRAMfixture_gap255.oni", "#0", "2.5", 2.0, "floor, clamped"),
    ("oni/TRAMfixture_gap255.oni", "#0", "1000.5", 255.0, "floor, clamped"),
    // ERROR_3 has 55 frames: held at 54; a frame inside is taken as it is.
    ("shenmue/motion.bin", "ERROR_3", "1000.5", 54.0, "none: curves are evaluated"),
    ("shenmue/motion.bin", "ERROR_3", "2.5", 2.5, "none: curves are evaluated"),
];

#[test]
fn sample_and_pose_say_the_frame_played() {
    let mut checked = 0;
    for (rel, anim, asked, played, rounding) in CASES {
        let Some(path) = shared_data(rel, "sample_and_pose_say_the_frame_played") else { continue };
        let file = path.to_str().unwrap();
        let s = json(&["sample", file, "--anim", anim, "--frame", asked, "--json"]);
        assert_eq!(s["frame"], played, "{rel} {anim} {asked}");
        assert!(s["frame_rounding"].as_str().unwrap().starts_with(rounding), "{rel}: {}", s["frame_rounding"]);
        let p = json(&["pose", file, "--anim", anim, "--frame", asked, "--json"]);
        assert_eq!(p["frame"], played, "{rel} {anim} {asked}");
        assert_eq!(p["requested_frame"], asked.parse::<f64>().unwrap());
        assert_eq!(p["frame_rounding"], s["frame_rounding"]);
        // The pose asked for is the pose of the frame played, matrix for matrix.
        let at_played = json(&["pose", file, "--anim", anim, "--frame", &played.to_string(), "--json"]);
        assert_eq!(p["bones"], at_played["bones"], "{rel} {anim} {asked}");
        // The text says both when they differ.
        let t = text(&["pose", file, "--anim", anim, "--frame", asked]);
        let first = t.lines().next().unwrap();
        if asked.parse::<f64>().unwrap() != played {
            assert!(first.ends_with(&format!("frame {played:?} (asked for {asked}):")), "{first}");
        } else {
            assert!(first.ends_with(&format!("frame {played:?}:")), "{first}");
        }
        checked += 1;
    }
    println!("{checked}/{} frames asked, played as the engine takes them", CASES.len());
}

/// `export --subframes N` on the command line: out of 1..=64 a usage error; a bvh of a Shenmue
/// motion (A_WALK_L_02, 37 frames at 30 fps) has (37 − 1)·4 + 1 = 145 frames of 1/120 s, the
/// engine's pose at every quarter frame (the poses are tested in boneyard-export's
/// `real.rs`); a clip the engine holds frame by frame (the Deku Scrub's run) keeps one key a frame, its bvh
/// the same bytes; a picture, which has no keys, says the flag is not used.
#[test]
fn subframes_from_the_command_line() {
    let test = "subframes_from_the_command_line";
    let (Some(motion), Some(deku)) =
        (shared_data("shenmue/motion.bin", test), shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", test))
    else {
        return;
    };
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_boneyard")).args(args).output().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let out = |n: &str| tmp.path().join(n).to_str().unwrap().to_string();
    let (m, d) = (motion.to_str().unwrap(), deku.to_str().unwrap());
    for bad in ["0", "65"] {
        let o = run(&["export", m, "--anim", "A_WALK_L_02", "-f", "bvh", "-o", &out("bad"), "--subframes", bad]);
        assert_eq!(o.status.code(), Some(2), "--subframes {bad}");
    }
    let o = run(&["-q", "export", m, "--anim", "A_WALK_L_02", "-f", "bvh", "-o", &out("walk"), "--subframes", "4"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let bvh = std::fs::read_to_string(tmp.path().join("walk/motion_human_rig_A_WALK_L_02.bvh")).unwrap();
    assert!(bvh.contains("Frames: 145\n"), "{}", &bvh[bvh.find("MOTION").unwrap()..][..60]);
    let time: f64 = bvh.split("Frame Time:").nth(1).unwrap().split_whitespace().next().unwrap().parse().unwrap();
    assert!((time - 1.0 / 120.0).abs() < 1e-6, "{time}");
    let plain = |sub: &str, dir: &str| {
        let o =
            run(&["-q", "export", d, "--anim", "gDekuNutsRunAnim", "-f", "bvh", "-o", &out(dir), "--subframes", sub]);
        assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read(std::fs::read_dir(tmp.path().join(dir)).unwrap().next().unwrap().unwrap().path()).unwrap()
    };
    assert_eq!(plain("1", "one"), plain("8", "eight"));
    let o = run(&["export", d, "--anim", "gDekuNutsRunAnim", "-f", "png", "-o", &out("png"), "--subframes", "4"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--subframes"), "{}", String::from_utf8_lossy(&o.stderr));
}
