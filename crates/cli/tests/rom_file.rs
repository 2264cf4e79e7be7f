//! `--file NAME` picks one file of a ROM. The ROM is built around the real object files of
//! the OoT debug ROM (debug-ROM file name table, Yaz0-compressed as the game stores them), so
//! what the picked file gives can be compared with the same file read bare.

use boneyard_core::testdata::shared_data;
use std::path::PathBuf;
use std::process::{Command, Output};
use tempfile::TempDir;

fn boneyard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boneyard")).args(args).output().expect("run boneyard")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A debug ROM (build 10 = GC EU MQ debug, the build the object files come from) holding
/// `object_dekunuts` and `object_box`, in a folder removed when the returned `TempDir` is dropped.
fn rom() -> Option<(TempDir, PathBuf, PathBuf)> {
    let z = shared_data("z64/oot-gc-eu-mq-dbg", "--file")?;
    let nuts = std::fs::read(z.join("object_dekunuts")).unwrap();
    let chest = std::fs::read(z.join("object_box")).unwrap();
    let rom = boneyard_z64::build_test_rom_named(
        &[(&nuts, true), (&chest, true)],
        Some(&["object_dekunuts", "object_box"]),
        10,
    );
    let dir = tempfile::Builder::new().prefix("boneyard-romfile-").tempdir().unwrap();
    let path = dir.path().join("oot-debug.z64");
    std::fs::write(&path, rom).unwrap();
    Some((dir, path, z.join("object_dekunuts")))
}

#[test]
fn file_picks_one_file_of_a_rom() {
    let Some((_dir, rom, bare)) = rom() else { return };
    let rom = rom.to_str().unwrap();
    // The whole ROM: both objects.
    let all = boneyard(&["list", rom]);
    assert_eq!(all.status.code(), Some(0), "{}", text(&all.stderr));
    assert!(text(&all.stdout).contains("gDekuNutsSkel") && text(&all.stdout).contains("gTreasureChestSkel"));
    // --file: only the Deku Scrub, whose animations check exactly as the bare file's do.
    let picked = boneyard(&["check", rom, "--file", "OBJECT_DEKUNUTS"]);
    assert_eq!(picked.status.code(), Some(0), "{}", text(&picked.stderr));
    let alone = boneyard(&["check", bare.to_str().unwrap()]);
    assert_eq!(text(&picked.stdout), text(&alone.stdout));
    assert!(text(&picked.stdout).ends_with("all: hash=0efb6fb4\n"));
    let listed = boneyard(&["list", rom, "--file", "object_box"]);
    assert!(
        !text(&listed.stdout).contains("gDekuNutsSkel") && text(&listed.stdout).contains("gTreasureChestCurveSkel")
    );
    // A name the ROM does not have: usage error with the closest names.
    let o = boneyard(&["list", rom, "--file", "object_dekunut"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains(r#"did you mean "object_dekunuts""#), "{}", text(&o.stderr));
    // Not a ROM: --file has nothing to pick from.
    let o = boneyard(&["list", bare.to_str().unwrap(), "--file", "object_box"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
}

/// `--file NAME` in a Shenmue archive: an AFS holding the real MOTION.BIN and the demo's body
/// model. Picking MOTION.BIN checks as the bare file does (`all: hash=db37d665`, the golden
/// hash of MOTION.BIN); picking the model lists it alone; a name the archive does not hold is
/// a usage error naming what it does hold (the family refused every `--file` before).
#[test]
fn file_picks_a_motion_or_model_in_a_shenmue_archive() {
    let Some(m) = shared_data("shenmue/motion.bin", "--file in an AFS") else { return };
    let motion = std::fs::read(&m).unwrap();
    let demo = boneyard_shenmue::demo_files().unwrap();
    let (_, body) = demo.iter().find(|(n, _)| n == "demo_body.mt5").unwrap();
    let dir = tempfile::Builder::new().prefix("boneyard-afsfile-").tempdir().unwrap();
    let afs = dir.path().join("MOTIONS.AFS");
    std::fs::write(&afs, boneyard_shenmue::write_afs(&[("MOTION.BIN", &motion), ("BODY.MT5", body)])).unwrap();
    let afs = afs.to_str().unwrap();
    let o = boneyard(&["check", "--file", "MOTION.BIN", afs]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout).lines().last(), Some("all: hash=db37d665"));
    // The whole archive: the model's skeleton is there too.
    let all = text(&boneyard(&["list", afs]).stdout);
    assert!(all.contains("source=BODY.MT5"), "{all}");
    // The model alone: its skeleton, no motion.
    let o = boneyard(&["list", "--file", "body.mt5", afs]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let one = text(&o.stdout);
    assert!(one.contains("source=BODY.MT5") && one.contains("animations (0)"), "{one}");
    let o = boneyard(&["info", "--file", "NOPE.BIN", afs]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains(&format!(
            "--file \"NOPE.BIN\": no motion or model of that name here (there are: {afs}/MOTION.BIN, {afs}/BODY.MT5)"
        )),
        "{}",
        text(&o.stderr)
    );
}
