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
