//! Every skeleton of a document gets its own output, `<file>_<skeleton>.<ext>`, with the
//! clips that play on it: nothing is left behind because it is not on the first skeleton.

use boneyard_core::testdata::shared_data;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn boneyard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boneyard")).args(args).output().expect("run boneyard")
}

/// The glTF JSON chunk of a .glb.
fn gltf_json(path: &Path) -> Value {
    let b = std::fs::read(path).unwrap();
    let len = u32::from_le_bytes(b[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&b[20..20 + len]).unwrap()
}

fn glbs(dir: &Path) -> Vec<(String, Value)> {
    let mut v: Vec<(String, Value)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "glb"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), gltf_json(&p)))
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

fn count(v: &Value, key: &str) -> usize {
    v[key].as_array().map(|a| a.len()).unwrap_or(0)
}

/// MOTION.BIN: the human rig and each controller family that has clips, one .glb each; all
/// 1531 names the reader decodes (1559 less the 28 it lists but does not decode) arrive.
#[test]
fn motion_bin_writes_every_decoded_sequence() {
    let Some(m) = shared_data("shenmue/motion.bin", "every skeleton") else { return };
    let tmp = tempfile::Builder::new().prefix("boneyard-skeletons-motn-").tempdir().unwrap();
    let out = tmp.path().join("out");
    let o = boneyard(&["export", m.to_str().unwrap(), "--format", "glb", "--out", out.to_str().unwrap(), "-q"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let files = glbs(&out);
    let clips: usize = files.iter().map(|(_, j)| count(j, "animations")).sum();
    let list = boneyard(&["list", m.to_str().unwrap(), "--json"]);
    let list: Value = serde_json::from_slice(&list.stdout).unwrap();
    let skeletons = count(&list, "skeletons");
    assert_eq!(files.len(), skeletons, "one file per skeleton");
    assert!(files.iter().any(|(n, _)| n == "motion_human_rig.glb"));
    assert!(files.iter().any(|(n, _)| n == "motion_family_13.glb"));
    assert_eq!(clips, 1531);
    println!("every skeleton: MOTION.BIN -> {} .glb, {clips} clips (1559 names less 28 not decoded)", files.len());
}

/// The treasure chest: its standard skeleton with 3 clips and its curve skeleton with 2
/// clips and the 5 meshes of its limbs' second display-list slot.
#[test]
fn object_box_writes_both_skeletons() {
    let Some(b) = shared_data("z64/oot-gc-eu-mq-dbg/object_box", "every skeleton") else { return };
    let tmp = tempfile::Builder::new().prefix("boneyard-skeletons-box-").tempdir().unwrap();
    let out = tmp.path().join("out");
    let o = boneyard(&["export", b.to_str().unwrap(), "--format", "glb", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let files = glbs(&out);
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["object_box_gTreasureChestCurveSkel.glb", "object_box_gTreasureChestSkel.glb"]);
    assert_eq!(count(&files[0].1, "animations"), 2);
    assert_eq!(count(&files[0].1, "meshes"), 5);
    assert_eq!(count(&files[1].1, "animations"), 3);
}
