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

/// A `.zobj` that addresses nothing in itself (text, random bytes, one byte) is no Zelda
/// object: exit 1 naming it (each was an empty object, exit 0, `check` hash 00000000); a file
/// the game names (`object_mag`, a 16-byte stub in the debug ROM) stays an empty object.
#[test]
fn a_zobj_that_is_no_object_is_an_error() {
    let tmp = tempfile::Builder::new().prefix("boneyard-junk-zobj-").tempdir().unwrap();
    let d = tmp.path();
    let mut noise = Vec::with_capacity(5000);
    let mut x: u32 = 0x2545_f491;
    for _ in 0..5000 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        noise.push((x >> 7) as u8 | 0x80); // never a 0x06 byte, so never an address
    }
    for (name, bytes) in [("junk.zobj", b"hello, not a model\n".to_vec()), ("rand.zobj", noise), ("one.zobj", vec![7])]
    {
        let p = d.join(name);
        std::fs::write(&p, bytes).unwrap();
        for cmd in ["list", "check", "info"] {
            let o = boneyard(&[cmd, p.to_str().unwrap()]);
            let e = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(1), "{cmd} {name}: {e}");
            assert!(e.contains(&format!("{name}: at byte offset 0 (0x0): no skeleton or animation found")), "{e}");
        }
    }
    let stub = d.join("object_mag");
    std::fs::write(&stub, [0u8; 16]).unwrap();
    let o = boneyard(&["info", stub.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("display lists and textures only"));
}

/// A copy of a Zelda object under another extension (`object_dekunuts.bak`) is not read (Zelda
/// objects are told by their names), and the error says what it would be without it.
#[test]
fn an_extension_that_hides_an_object_is_said() {
    let Some(z) =
        boneyard_core::testdata::shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "an_extension_that_hides")
    else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let bak = tmp.path().join("object_dekunuts.bak");
    std::fs::copy(&z, &bak).unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_boneyard"))
        .args(["info", bak.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("; without its extension .bak, as object_dekunuts, it would be read as a Zelda 64"), "{err}");
}
