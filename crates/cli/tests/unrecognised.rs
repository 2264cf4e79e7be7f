//! "Not a file boneyard recognises" is said at offset 0 with the first bytes seen there, for a
//! file named on the command line and for one met in a folder walk (no real data needed).

use std::process::{Command, Output};

fn boneyard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boneyard")).args(args).output().expect("run boneyard")
}

#[test]
fn unrecognised_files_are_named_with_offset_0_and_their_first_bytes() {
    let tmp = tempfile::Builder::new().prefix("boneyard-unrecognised-").tempdir().unwrap();
    let d = tmp.path();
    let notes = d.join("notes.txt");
    std::fs::write(&notes, b"PK\x03\x04 not game data").unwrap();
    std::fs::write(d.join("object_nothing.zobj"), [0u8; 256]).unwrap();
    // Named: an error at byte offset 0 naming the file and its first 8 bytes.
    let o = boneyard(&["info", notes.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("notes.txt: at byte offset 0 (0x0): not a file boneyard recognises"), "{e}");
    assert!(e.contains("it starts 50 4b 03 04 20 6e 6f 74"), "{e}");
    // Walked: skipped, and the reason says the same.
    let o = boneyard(&["list", d.to_str().unwrap(), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let skipped = v["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1, "{v}");
    assert!(skipped[0]["file"].as_str().unwrap().ends_with("notes.txt"));
    let reason = skipped[0]["reason"].as_str().unwrap();
    assert_eq!(
        reason,
        "at byte offset 0: not a file boneyard recognises (Oni, Zelda 64 or Shenmue): it starts 50 4b 03 04 20 6e 6f 74"
    );
}
