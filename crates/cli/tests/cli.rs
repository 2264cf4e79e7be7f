//! The command-line contract of cli.md: exit codes, one-line errors, JSON shapes, the check
//! hash, atomic outputs. Runs the real binary.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use tempfile::TempDir;

fn boneyard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boneyard")).args(args).output().expect("run boneyard")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A new empty folder, removed when the returned value is dropped.
fn tmpdir(tag: &str) -> TempDir {
    tempfile::Builder::new().prefix(&format!("boneyard-cli-{tag}-")).tempdir().unwrap()
}

#[test]
fn help_and_version_exit_zero() {
    for args in [&["--help"][..], &["--version"], &["export", "--help"], &["demo", "--help"]] {
        let o = boneyard(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert!(!stdout(&o).is_empty());
    }
}

#[test]
fn usage_errors_exit_two() {
    for args in [&[][..], &["frobnicate"], &["sample", "x.bin"], &["export", "x", "--format", "tiff", "--out", "o"]] {
        let o = boneyard(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn unreadable_and_unknown_inputs_exit_one_with_one_line() {
    let tmp = tmpdir("bad");
    let d = tmp.path();
    let junk = d.join("junk.bin");
    std::fs::write(&junk, b"this is not a game file at all").unwrap();
    for f in [d.join("missing.dat"), junk] {
        let o = boneyard(&["info", f.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1));
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.starts_with("boneyard: error: ") && e.contains(f.file_name().unwrap().to_str().unwrap()), "{e}");
        assert!(!e.contains("panicked"));
    }
    // What was not recognised is said at offset 0 with the bytes seen there.
    let o = boneyard(&["info", d.join("junk.bin").to_str().unwrap()]);
    assert!(stderr(&o).contains("at byte offset 0 (0x0): not a file boneyard recognises (Oni, Zelda 64 or Shenmue): it starts 74 68 69 73 20 69 73 20"), "{}", stderr(&o));
}

/// The demo writes every family's files and exports; every file it names exists and is whole.
#[test]
fn demo_then_every_command_on_its_files() {
    let tmp = tmpdir("demo");
    let out = tmp.path().join("demo");
    let o = boneyard(&["demo", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let written: Vec<&str> =
        text.lines().filter_map(|l| l.strip_prefix("  ")).filter(|l| Path::new(l).is_file()).collect();
    assert!(written.iter().any(|p| p.ends_with(".glb")), "{text}");
    assert!(written.iter().any(|p| p.ends_with(".png")), "{text}");
    for p in &written {
        let bytes = std::fs::read(p).unwrap();
        if p.ends_with(".glb") {
            assert_eq!(&bytes[..4], b"glTF");
            let len = u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
            assert_eq!(len, bytes.len(), "{p}: GLB header length must be the file length");
        }
        if p.ends_with(".png") {
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        }
    }
    // No temporary files left behind.
    for entry in walk(&out) {
        assert!(!entry.file_name().unwrap().to_string_lossy().contains(".part"), "{}", entry.display());
    }
    for fam_dir in std::fs::read_dir(&out).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir()) {
        let inputs: Vec<String> = std::fs::read_dir(&fam_dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| !matches!(p.extension().and_then(|e| e.to_str()), Some("glb" | "png" | "gif" | "bvh" | "obj")))
            .map(|p| p.display().to_string())
            .collect();
        if inputs.is_empty() {
            continue;
        }
        let args = |extra: &[&str]| -> Vec<String> {
            let mut v: Vec<String> = vec![extra[0].to_string()];
            v.extend(inputs.iter().cloned());
            v.extend(extra[1..].iter().map(|s| s.to_string()));
            v
        };
        let run = |a: Vec<String>| {
            let refs: Vec<&str> = a.iter().map(|s| s.as_str()).collect();
            let o = boneyard(&refs);
            assert_eq!(o.status.code(), Some(0), "{a:?}: {}", stderr(&o));
            stdout(&o)
        };
        // list --json has the fields cli.md names.
        let list: Value = serde_json::from_str(&run(args(&["list", "--json"]))).unwrap();
        let anims = list["animations"].as_array().unwrap();
        assert!(anims.len() >= 2, "{}: the demo has a walk and a wave", fam_dir.display());
        for a in anims {
            for k in ["index", "name", "frames", "fps", "bones", "format", "source"] {
                assert!(a.get(k).is_some(), "list --json animation lacks {k}: {a}");
            }
        }
        let sk = &list["skeletons"][0];
        for k in ["id", "name", "bones", "source"] {
            assert!(sk.get(k).is_some(), "list --json skeleton lacks {k}");
        }
        // sample --json and pose --json shapes.
        let s: Value = serde_json::from_str(&run(args(&["sample", "--anim", "#0", "--frame", "3", "--json"]))).unwrap();
        for k in ["format", "animation", "frame", "channels", "bones"] {
            assert!(s.get(k).is_some(), "sample --json lacks {k}");
        }
        let p: Value = serde_json::from_str(&run(args(&["pose", "--anim", "#0", "--frame", "3", "--json"]))).unwrap();
        let bones = p["bones"].as_array().unwrap();
        assert!(!bones.is_empty());
        assert_eq!(bones[0]["matrix"].as_array().unwrap().len(), 16);
        // check: the last line is the CRC-32 of all lines before it.
        let c = run(args(&["check"]));
        let lines: Vec<&str> = c.lines().collect();
        let (last, body) = lines.split_last().unwrap();
        let mut h = crc32fast::Hasher::new();
        for l in body {
            h.update(l.as_bytes());
            h.update(b"\n");
        }
        assert_eq!(*last, format!("all: hash={:08x}", h.finalize()));
        // An animation that is not there is a usage error.
        let mut a = args(&["sample", "--anim", "no_such_animation", "--frame", "0"]);
        let refs: Vec<&str> = a.iter_mut().map(|s| s.as_str()).collect();
        assert_eq!(boneyard(&refs).status.code(), Some(2));
        // `-f`/`-o` are `--format`/`--out`: the same files, byte for byte.
        let fam = fam_dir.file_name().unwrap().to_string_lossy().into_owned();
        let (long, short) = (tmp.path().join(format!("{fam}-long")), tmp.path().join(format!("{fam}-short")));
        run(args(&["export", "--format", "bvh", "--out", long.to_str().unwrap()]));
        run(args(&["export", "-f", "bvh", "-o", short.to_str().unwrap()]));
        let files = |d: &Path| {
            let mut v: Vec<(String, Vec<u8>)> = walk(d)
                .iter()
                .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(p).unwrap()))
                .collect();
            v.sort();
            v
        };
        let (l, s) = (files(&long), files(&short));
        assert!(!l.is_empty(), "{fam}: no bvh written");
        assert_eq!(l, s, "{fam}");
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// What `list` says of one document: its `files` in `--json` are those named and those read
/// beside them (Link's gameplay_keep and link_animetion, as a batch lists them; they were left
/// out); a document named alone that holds nothing is said, and `link_animetion` alone says
/// where its animations' headers and skeletons are (both printed two empty lists without a
/// word); a glb is said to be one, with no hint to read it under another name (which had
/// invited reading an export as an empty Zelda object).
#[test]
fn list_names_companions_and_says_what_holds_nothing() {
    let dir = "z64/oot-gc-eu-mq-dbg";
    let test = "list_names_companions_and_says_what_holds_nothing";
    let (Some(link), Some(la), Some(door), Some(deku)) = (
        boneyard_core::testdata::shared_data(&format!("{dir}/object_link_boy"), test),
        boneyard_core::testdata::shared_data(&format!("{dir}/link_animetion"), test),
        boneyard_core::testdata::shared_data(&format!("{dir}/object_bdoor"), test),
        boneyard_core::testdata::shared_data(&format!("{dir}/object_dekunuts"), test),
    ) else {
        return;
    };
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let o = boneyard(&["list", &s(&link), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    let files: Vec<&str> = j["files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
    assert_eq!(files.len(), 3, "{files:?}");
    assert!(files[0].ends_with("object_link_boy") && files[1..].iter().any(|f| f.ends_with("gameplay_keep")));
    assert!(files[1..].iter().any(|f| f.ends_with("link_animetion")), "{files:?}");
    let o = boneyard(&["list", &s(&la)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("holds only the frames of Link's animations (18760 of 134 bytes)"), "{}", stderr(&o));
    let o = boneyard(&["list", &s(&door)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("object_bdoor: holds no skeleton or animation"), "{}", stderr(&o));
    let o = boneyard(&["list", &s(&deku)]);
    assert!(!stderr(&o).contains("holds no skeleton"), "{}", stderr(&o));
    let tmp = tmpdir("glb_hint");
    let out = tmp.path().join("glb");
    let o = boneyard(&["-q", "export", &s(&deku), "--format", "glb", "--out", &s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = boneyard(&["list", &s(&out.join("object_dekunuts.glb"))]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("it is a glTF, which `boneyard import` writes back") && !e.contains("without its extension"),
        "{e}"
    );
}
