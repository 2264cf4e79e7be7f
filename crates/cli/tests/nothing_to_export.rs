//! "Nothing to export" is one thing for every family: a file named on the command line that
//! holds no skeleton or animation of its own makes `export` exit 1 with "holds no skeleton or
//! animation", and writes nothing. The files are made here (no real data needed); one more
//! test has real objects with nothing a format can write.

use std::path::Path;
use std::process::{Command, Output};
use tempfile::TempDir;

fn boneyard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boneyard")).args(args).output().expect("run boneyard")
}

/// A new empty folder, removed when the returned value is dropped.
fn tmpdir(tag: &str) -> TempDir {
    tempfile::Builder::new().prefix(&format!("boneyard-nothing-{tag}-")).tempdir().unwrap()
}

/// `export FILE --format glb --out OUT`: exit 1, the message naming the file, no file written.
fn exports_nothing(tag: &str, name: &str, bytes: &[u8]) {
    let tmp = tmpdir(tag);
    let d = tmp.path();
    let file = d.join(name);
    std::fs::write(&file, bytes).unwrap();
    let out = d.join("out");
    let o = boneyard(&["export", s(&file), "--format", "glb", "--out", s(&out)]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{name}: {err}");
    assert!(err.contains("holds no skeleton or animation") && err.contains(name), "{name}: {err}");
    let written: Vec<_> = std::fs::read_dir(&out).map(|r| r.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    assert!(written.is_empty(), "{name}: wrote {written:?}");
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A Shenmue MOTN file whose one sequence is of a layout no source documents (flagHigh
/// 0x8001): listed, not decoded, so no animation; the built-in human rig is not the file's.
#[test]
fn shenmue_motn_without_a_decodable_sequence() {
    // Sequence header: 1 frame, flagHigh 0x8001, block offsets 0x0C.
    let seq: Vec<u8> = [1u16, 0x8001, 0x0C, 0x0C, 0x0C, 0x0C].iter().flat_map(|v| v.to_le_bytes()).collect();
    let bytes = boneyard_shenmue::encode_file_raw(&[("ODD".to_string(), seq)]);
    exports_nothing("shenmue", "ODD_MOTION.BIN", &bytes);
}

/// A Zelda 64 object file that holds no skeleton or animation (display lists and textures
/// only, as most of a ROM's objects): here 256 zero bytes under an object's name.
#[test]
fn z64_object_without_skeletons() {
    exports_nothing("z64", "object_nothing.zobj", &[0u8; 256]);
}

/// An Oni instance file without TRAM or body: one unrelated (subtitle) instance.
#[test]
fn oni_file_without_tram_or_body() {
    use boneyard_oni::{write_oni, Instance};
    let inst = Instance {
        tag: boneyard_oni::layout::tag(b"SUBT"),
        name: Some("SUBTnothing".into()),
        data: vec![0; 16],
        ..Default::default()
    };
    exports_nothing("oni", "SUBTnothing.oni", &write_oni(&[inst]).unwrap());
}

/// Named on the command line, a file with nothing the format can write is exit 1 naming it
/// (it was a usage error, exit 2, saying "name one with --anim" of a file with no animation).
#[test]
fn nothing_the_format_can_write_is_exit_one_naming_the_file() {
    let dir = "z64/oot-gc-eu-mq-dbg";
    let test = "nothing_the_format_can_write_is_exit_one_naming_the_file";
    let (Some(anims_only), Some(no_anims)) = (
        boneyard_core::testdata::shared_data(&format!("{dir}/object_os_anime"), test),
        boneyard_core::testdata::shared_data(&format!("{dir}/object_oF1s"), test),
    ) else {
        return;
    };
    let tmp = tmpdir("format");
    let out = tmp.path().join("out");
    for (file, format, says) in [
        (&anims_only, "glb", "nothing to write: 65 animations and no skeleton to play them on"),
        (&no_anims, "bvh", "nothing to write: no animation to write as bvh"),
    ] {
        let o = boneyard(&["export", s(file), "--format", format, "--out", s(&out)]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.contains(says) && err.contains(s(file)), "{err}");
    }
}

/// Named beside others (a batch of named files), a file with nothing the format can write
/// is still exit 1 naming it, and the others are written (cli.md: "A document that holds
/// nothing to export is exit 1"); it was a warning and exit 0. A folder walk's such files
/// are counted, not failed (a baserom/ is mostly files without skeletons).
#[test]
fn named_beside_others_nothing_to_write_is_still_exit_one() {
    let test = "named_beside_others_nothing_to_write_is_still_exit_one";
    // Two games' files: two documents (one game's files named together would be one).
    let (Some(box_mesh), Some(scrub)) = (
        boneyard_core::testdata::shared_data("oni/M3GMfixture_box.oni", test),
        boneyard_core::testdata::shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", test),
    ) else {
        return;
    };
    let tmp = tmpdir("named");
    let out = tmp.path().join("out");
    let o = boneyard(&["export", s(&box_mesh), s(&scrub), "--format", "bvh", "--out", s(&out)]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains(&format!("{}: nothing to write: no animation to write as bvh", s(&box_mesh))), "{err}");
    let written: Vec<_> = std::fs::read_dir(&out).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(written.len(), 10, "the scrub's 10 clips: {written:?}");
    // The same two files found by walking their folder: counted, exit 0.
    let dir = tmp.path().join("walked");
    std::fs::create_dir(&dir).unwrap();
    for f in [&box_mesh, &scrub] {
        std::fs::copy(f, dir.join(f.file_name().unwrap())).unwrap();
    }
    let o = boneyard(&["export", s(&dir), "--format", "bvh", "--out", s(&tmp.path().join("out2"))]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("1 holds no animation to write as bvh"), "{err}");
}
