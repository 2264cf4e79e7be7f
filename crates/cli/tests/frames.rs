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
