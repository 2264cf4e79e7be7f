//! Batches as cli.md has them: a folder is walked, every document is independent, one that
//! fails is reported with its file and offset while the others complete, the exit status is
//! 1, and a summary line closes the run. Runs the real binary on real files.

use boneyard_core::testdata::shared_data;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};
use tempfile::TempDir;

fn boneyard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boneyard")).args(args).output().expect("run boneyard")
}

/// A new empty folder, removed when the returned value is dropped.
fn tmpdir(tag: &str) -> TempDir {
    tempfile::Builder::new().prefix(&format!("boneyard-batch-{tag}-")).tempdir().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A folder as a user brings it: a good Zelda object, an Oni file OniSplit refuses too (its
/// last key is not on the last frame, at byte 684), a Shenmue MOTION.BIN, and a text file.
fn mixed_folder(tag: &str) -> Option<TempDir> {
    let z = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "batch")?;
    let bad = shared_data("oni/TRAMfixture_badlast.oni", "batch")?;
    let tmp = tmpdir(tag);
    let d = tmp.path();
    std::fs::copy(&z, d.join("object_dekunuts")).unwrap();
    std::fs::copy(&bad, d.join("TRAMfixture_badlast.oni")).unwrap();
    std::fs::create_dir(d.join("sub")).unwrap();
    std::fs::write(d.join("sub").join("notes.txt"), b"not game data").unwrap();
    Some(tmp)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A `baserom/` folder (in a new temporary folder) holding copies of the real OoT files
/// `names`; None (the test skips, said) when the data is not there.
fn baserom(tag: &str, test: &str, names: &[&str]) -> Option<(TempDir, std::path::PathBuf)> {
    let mut files = Vec::new();
    for n in names {
        files.push(shared_data(&format!("z64/oot-gc-eu-mq-dbg/{n}"), test)?);
    }
    let tmp = tmpdir(tag);
    let d = tmp.path().join("baserom");
    std::fs::create_dir(&d).unwrap();
    for (p, n) in files.iter().zip(names) {
        std::fs::copy(p, d.join(n)).unwrap();
    }
    Some((tmp, d))
}

#[test]
fn a_folder_keeps_going_past_a_bad_file() {
    let Some(tmp) = mixed_folder("list") else { return };
    let d = tmp.path();
    let o = boneyard(&["list", s(d)]);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(1), "{err}");
    // The good document is listed whole (the decomp names its 10 animations)...
    assert!(out.contains("gDekuNutsSkel") && out.contains("animations (10):"), "{out}");
    // ...the bad one is reported with its file and byte offset...
    assert!(err.contains("TRAMfixture_badlast.oni: at byte offset 684 (0x2ac)"), "{err}");
    // ...and one summary line closes the run, naming what was skipped.
    let summary: Vec<&str> = err.lines().filter(|l| l.starts_with("boneyard: listed ")).collect();
    assert_eq!(
        summary,
        ["boneyard: listed 1 of 2 documents (1 skeleton, 10 animations); 1 failed; 1 file not read (no family reads it: -v names it)"],
        "{err}"
    );
    // -v names it, with why; hidden files and folders are counted and named the same way.
    std::fs::create_dir(d.join(".git")).unwrap();
    std::fs::write(d.join(".git/HEAD"), b"ref: refs/heads/main").unwrap();
    let o = boneyard(&["list", "-v", s(d)]);
    let err = text(&o.stderr);
    assert!(err.contains("notes.txt: not read: at byte offset 0: not a file boneyard recognises"), "{err}");
    assert!(err.contains(".git: not read: hidden (its name starts with a dot): not walked"), "{err}");
    assert!(err.contains("; 2 files not read (1 no family reads, 1 hidden: each named above)"), "{err}");
    std::fs::remove_dir_all(d.join(".git")).unwrap();
    println!("batch: list of a folder: 1 of 2 documents, the bad one at offset 684, 1 file not read");

    let o = boneyard(&["list", s(d), "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    // cli.md's keys over the whole batch, each entry naming its document.
    assert_eq!(v["documents"].as_array().unwrap().len(), 1);
    assert_eq!(v["documents"][0]["name"], "object_dekunuts");
    let anims = v["animations"].as_array().unwrap();
    assert_eq!(anims.len(), 10);
    assert!(anims.iter().all(|a| a["document"] == "object_dekunuts"), "{v}");
    assert_eq!(v["skeletons"][0]["document"], "object_dekunuts");
    assert!(v["files"][0].as_str().unwrap().ends_with("object_dekunuts"));
    assert_eq!(v["errors"][0]["offset"], 684);
    assert!(v["errors"][0]["file"].as_str().unwrap().ends_with("TRAMfixture_badlast.oni"));
    assert!(v["skipped"][0]["file"].as_str().unwrap().ends_with("notes.txt"));
}

#[test]
fn export_of_a_folder_writes_the_good_documents() {
    let Some(d) = mixed_folder("export") else { return };
    let out = tmpdir("export-out");
    let o = boneyard(&["export", s(d.path()), "--format", "glb", "--out", s(out.path())]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let mut names: Vec<String> =
        std::fs::read_dir(out.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    // Whole files only: no partial file is left by the document that failed.
    assert_eq!(names, ["object_dekunuts.glb"]);
    assert!(err.contains("TRAMfixture_badlast.oni: at byte offset 684"), "{err}");
    assert!(err.contains("boneyard: exported 1 of 2 documents (1 file written); 1 failed"), "{err}");
}

#[test]
fn two_documents_with_one_stem_never_share_an_output_name() {
    let Some(z) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "stems") else { return };
    let tmp = tmpdir("stems");
    let d = tmp.path();
    for sub in ["a", "b"] {
        std::fs::create_dir(d.join(sub)).unwrap();
        std::fs::copy(&z, d.join(sub).join("object_dekunuts")).unwrap();
    }
    let out = d.join("out");
    let o = boneyard(&["export", s(&d.join("a")), s(&d.join("b")), "--format", "glb", "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let mut names: Vec<String> =
        std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["a_object_dekunuts.glb", "b_object_dekunuts.glb"]);
}

#[test]
fn check_json_has_the_text_lines_and_hash() {
    let Some(z) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "check --json") else { return };
    let t = boneyard(&["check", s(&z)]);
    assert_eq!(t.status.code(), Some(0));
    let lines: Vec<String> = text(&t.stdout).lines().map(String::from).collect();
    let o = boneyard(&["check", s(&z), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let json_lines: Vec<String> =
        v["lines"].as_array().unwrap().iter().map(|l| l.as_str().unwrap().to_string()).collect();
    assert_eq!(json_lines, lines[..lines.len() - 1]);
    // The decomp's 10 animations of the Deku Scrub, and the hash recorded when they were
    // first checked against the decomp XML.
    assert_eq!(json_lines.len(), 10);
    assert_eq!(v["hash"], "0efb6fb4");
    assert_eq!(lines.last().unwrap(), "all: hash=0efb6fb4");
    assert!(v["warnings"].is_array());
}

#[test]
fn an_object_without_skeletons_lists_empty_and_exports_nothing() {
    let Some(z) = shared_data("z64/oot-gc-eu-mq-dbg/object_bdoor", "empty object") else { return };
    let o = boneyard(&["list", s(&z)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("skeletons (0):"));
    let out = tmpdir("empty");
    let o = boneyard(&["export", s(&z), "--format", "glb", "--out", s(out.path())]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("holds no skeleton or animation"), "{}", text(&o.stderr));
}

fn link_files() -> Option<Vec<String>> {
    let z = shared_data("z64/oot-gc-eu-mq-dbg", "Link's clips")?;
    Some(["object_link_boy", "gameplay_keep", "link_animetion"].iter().map(|f| s(&z.join(f)).to_string()).collect())
}

fn part_files(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".part"))
        .collect()
}

/// Under a pseudo-terminal (util-linux `script`) the export of Link's 573 clips draws a bar
/// with the count and an ETA on stderr; with stderr not a terminal, or with --quiet, none.
#[test]
fn progress_bar_only_on_a_terminal() {
    let Some(files) = link_files() else { return };
    if Command::new("script").arg("--version").output().is_err() {
        println!("SKIPPED (progress bar): util-linux `script` is not installed");
        return;
    }
    let tmp = tmpdir("progress");
    let out = tmp.path();
    let cmd = format!(
        "{} export {} --anim '#0' --anim '#1' --anim '#2' --format gif --size 32x32 --out {}",
        env!("CARGO_BIN_EXE_boneyard"),
        files.join(" "),
        s(out)
    );
    let o = Command::new("script").args(["-qfec", &cmd, "/dev/null"]).output().unwrap();
    let tty = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{tty}");
    assert!(tty.contains("/3 files") && tty.contains("ETA"), "no bar on the terminal: {tty}");
    // Not a terminal: no bar.
    let plain = boneyard(&[
        "export",
        &files[0],
        &files[1],
        &files[2],
        "--anim",
        "#0",
        "--format",
        "gif",
        "--size",
        "32x32",
        "--out",
        s(out),
    ]);
    assert_eq!(plain.status.code(), Some(0));
    assert!(!text(&plain.stderr).contains("ETA"), "{}", text(&plain.stderr));
    // --quiet on a terminal: no bar either.
    let o = Command::new("script").args(["-qfec", &format!("{cmd} --quiet"), "/dev/null"]).output().unwrap();
    assert!(!text(&o.stdout).contains("ETA"), "{}", text(&o.stdout));
}

/// Ctrl-C in the middle of an export: the temporary file being written is removed, whole
/// outputs stay, exit status 130. A temporary file of a run that no longer exists is removed
/// by the next run into the same folder; one of a live process is left alone.
#[test]
fn an_interrupted_export_leaves_no_partial_files() {
    let Some(files) = link_files() else { return };
    let tmp = tmpdir("interrupt");
    let out = tmp.path();
    let stale = out.join(".old.glb.part4294967294");
    let live = out.join(format!(".other.glb.part{}", std::process::id()));
    std::fs::write(&stale, b"half").unwrap();
    std::fs::write(&live, b"being written").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_boneyard"))
        .args(["export", &files[0], &files[1], &files[2], "--format", "gif", "--size", "64x64", "--out", s(out)])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the export is writing its own temporary file, however long a loaded machine
    // takes to get there (no time limit: the export ending first is the failure).
    let own = format!(".part{}-", child.id());
    while !part_files(out).iter().any(|n| n.contains(&own)) {
        assert!(child.try_wait().unwrap().is_none(), "the export ended before it was seen writing");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SAFETY: sending SIGINT to our own child process.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("interrupted"), "{}", text(&o.stderr));
    let left = part_files(out);
    assert_eq!(left, vec![live.file_name().unwrap().to_string_lossy().into_owned()], "stale removed, live kept");
    assert!(!stale.exists());
    // The whole outputs that stay are named on stdout, as a finished run names them (an
    // interrupted one named none).
    let mut named: Vec<String> = text(&o.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("wrote "))
        .map(|p| std::path::Path::new(p).file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let mut whole: Vec<String> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".gif"))
        .collect();
    named.sort();
    whole.sort();
    assert_eq!(named, whole, "{}", text(&o.stdout));
}

#[test]
fn every_clip_of_motion_bin_as_bvh_leaves_out_only_what_it_cannot_decode() {
    // MOTION.BIN lists 28 names whose sequences boneyard does not decode (legacy-frame32 and
    // undecodable layouts: they play on no skeleton). Exported clip by clip, each of the
    // others is a file, those 28 are named in one warning, and the run succeeds; it stopped at
    // the first of them before, with whatever clips other threads had finished.
    let Some(m) = shared_data("shenmue/motion.bin", "every_clip_of_motion_bin_as_bvh") else { return };
    let tmp = tmpdir("motion-bvh");
    let out = tmp.path().join("out");
    let o = boneyard(&["export", "-q", "--format", "bvh", "--out", s(&out), s(&m)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains("motion.bin: 28 of 1559 animations have no skeleton to play on (not decoded, or their skeleton is in another file: give it with them), nothing written for them (#729 AKI_AKI_YS00_R_ST"),
        "{err}"
    );
    let written = std::fs::read_dir(&out).unwrap().count();
    // The 1,559 names less the 28: 1,292 on the human rig and 239 on the other families.
    assert_eq!(written, 1559 - 28, "{err}");
    eprintln!("{written} BVH files of 1559 names");
    // A clip it cannot decode, asked for by name, is still an error.
    let o = boneyard(&["export", "-q", "--format", "bvh", "--anim", "AKI_AKI_YS00_R_ST", "--out", s(&out), s(&m)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
}

#[test]
fn a_folder_walk_names_what_it_could_not_write() {
    // A baserom/ as the decomp has it: objects of animations whose skeleton is in another
    // object (object_os_anime, without any of its objects), skeletons without animations
    // (object_oF1s, a beta Goron), a clip BVH cannot
    // hold (object_box's chest lid scales; its other skeleton's clips can be written) and an
    // ordinary object. None of them fails the run: each is a warning naming its document, and
    // counted in the summary.
    let Some((tmp, d)) = baserom(
        "walk-names",
        "a_folder_walk_names_what_it_could_not_write",
        &["object_dekunuts", "object_os_anime", "object_oF1s", "object_box"],
    ) else {
        return;
    };
    let out = tmp.path().join("out");
    let o = boneyard(&["export", "--format", "bvh", "--out", s(&out), s(&d)]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let said = |what: &str| err.lines().any(|l| l.contains(what));
    assert!(said("object_os_anime: nothing written: 65 animations and no skeleton to play them on"), "{err}");
    assert!(said("object_oF1s: nothing written: no animation to write as bvh"), "{err}");
    assert!(
        said(
            "object_os_anime: an animation bank: its clips play on the skeletons of object_km1, object_kw1, object_aob"
        ),
        "{err}"
    );
    assert!(
        said("baserom/object_box: nothing written for skeleton gTreasureChestCurveSkel: unsupported: none of its 2 clips can be written as .bvh (#3 gTreasureChestCurveAnim_4B60, #4 gTreasureChestCurveAnim_4F70); the first: unsupported: BVH has no scale channels"),
        "{err}"
    );
    assert!(
        said("exported 2 of 4 documents (13 files written; 1 holds animations but no skeleton; 1 holds no animation to write as bvh)"),
        "{err}"
    );
    // With that skeleton asked for, the clip it cannot hold is an error.
    let box_file = d.join("object_box");
    let o = boneyard(&[
        "export",
        "--format",
        "bvh",
        "--skeleton",
        "gTreasureChestCurveSkel",
        "--out",
        s(&out),
        s(&box_file),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("BVH has no scale channels"), "{}", text(&o.stderr));
    // As glb, every one of them is fine: exit 0.
    let o = boneyard(&["export", "--format", "glb", "--out", s(&out), s(&d)]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("exported 3 of 4 documents (4 files written; 1 holds animations but no skeleton)"), "{err}");
}

#[test]
fn a_named_file_that_cannot_be_read_fails_alone() {
    // Files of two games and a path that is not there: a batch, which keeps going past the
    // file it cannot read (it stopped there before, listing nothing).
    let (Some(z), Some(m)) = (
        shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "a_named_file_that_cannot_be_read"),
        shared_data("shenmue/motion.bin", "a_named_file_that_cannot_be_read"),
    ) else {
        return;
    };
    let tmp = tmpdir("unreadable");
    let missing = tmp.path().join("not_there");
    let o = boneyard(&["list", "--json", s(&z), s(&m), s(&missing)]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("not_there: cannot read"), "{err}");
    assert!(err.contains("listed 2 of 3 documents"), "{err}");
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["documents"].as_array().unwrap().len(), 2);
    assert_eq!(v["errors"].as_array().unwrap().len(), 1);
    assert!(v["errors"][0]["file"].as_str().unwrap().ends_with("not_there"), "{v}");
    // Named alone, it is the run's error.
    let o = boneyard(&["list", s(&missing)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("not_there: cannot read"), "{}", text(&o.stderr));
}

#[test]
fn outputs_of_two_documents_never_meet_without_a_word() {
    // `object_box` writes `object_box_gTreasureChestSkel.glb` (one of its two skeletons); a
    // file named that writes the same name: the second wrote over the first, exit 0, and
    // counted 3 files where 2 were on disk; then the second failed, but which one was second
    // was the threads' choice. Now the first in the inputs' order keeps the name and the
    // later one is written as `_2`, said in a warning naming both inputs and both files.
    let (Some(chest), Some(scrub)) = (
        shared_data("z64/oot-gc-eu-mq-dbg/object_box", "outputs_meet"),
        shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "outputs_meet"),
    ) else {
        return;
    };
    let tmp = tmpdir("meet");
    let d = tmp.path().join("in");
    let (da, db) = (tmp.path().join("a"), tmp.path().join("b"));
    for dir in [&d, &da, &db] {
        std::fs::create_dir(dir).unwrap();
    }
    for dir in [&d, &da] {
        std::fs::copy(&chest, dir.join("object_box")).unwrap();
    }
    for dir in [&d, &db] {
        std::fs::copy(&scrub, dir.join("object_box_gTreasureChestSkel")).unwrap();
    }
    let name = "object_box_gTreasureChestSkel.glb";
    // What each writes alone under that name.
    let alone = |dir: &Path, tag: &str| -> Vec<u8> {
        let out = tmp.path().join(tag);
        let o = boneyard(&["-q", "export", s(dir), "-f", "glb", "-o", s(&out)]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        std::fs::read(out.join(name)).unwrap()
    };
    let (chest_glb, scrub_glb) = (alone(&da, "alone_a"), alone(&db, "alone_b"));
    assert!(chest_glb != scrub_glb);
    let run = |inputs: &[&Path], tag: &str| -> (std::path::PathBuf, String) {
        let out = tmp.path().join(tag);
        let mut args = vec!["export"];
        args.extend(inputs.iter().map(|p| s(p)));
        args.extend(["-f", "glb", "-o", s(&out)]);
        let o = boneyard(&args);
        let e = text(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{e}");
        assert!(e.contains("exported 2 of 2 documents (3 files written)"), "{e}");
        let written = text(&o.stdout).lines().filter(|l| l.starts_with("wrote ")).count();
        assert_eq!(written, std::fs::read_dir(&out).unwrap().count(), "every file said written is there");
        assert_eq!(written, 3);
        (out, e)
    };
    // A folder holding both (walked in name order: object_box first), run again and again:
    // always the chest under the name, the scrub as `_2`.
    for k in 0..4 {
        let (out, e) = run(&[&d], &format!("walk{k}"));
        let (first, second) = (d.join("object_box"), d.join("object_box_gTreasureChestSkel"));
        let warning = format!(
            "{} is also an output of {} in this run, written first: {}'s is written as {}",
            out.join(name).display(),
            first.display(),
            second.display(),
            out.join("object_box_gTreasureChestSkel_2.glb").display()
        );
        assert!(e.contains(&warning), "{e}");
        assert!(std::fs::read(out.join(name)).unwrap() == chest_glb, "run {k}: the first input's file");
        assert!(std::fs::read(out.join("object_box_gTreasureChestSkel_2.glb")).unwrap() == scrub_glb, "run {k}");
    }
    // The inputs' order decides: the scrub's folder given first, the scrub has the name.
    let (out, e) = run(&[&db, &da], "out_ba");
    assert!(e.contains(&format!("also an output of {}", db.join("object_box_gTreasureChestSkel").display())), "{e}");
    assert!(std::fs::read(out.join(name)).unwrap() == scrub_glb);
    assert!(std::fs::read(out.join("object_box_gTreasureChestSkel_2.glb")).unwrap() == chest_glb);
    let (out, _) = run(&[&da, &db], "out_ab");
    assert!(std::fs::read(out.join(name)).unwrap() == chest_glb);
    // Two files of one name in two folders, given together (one document of two skeletons
    // of one id): each skeleton its own file.
    std::fs::create_dir(d.join("sub")).unwrap();
    std::fs::copy(&scrub, d.join("sub").join("object_dekunuts")).unwrap();
    std::fs::copy(&scrub, d.join("object_dekunuts")).unwrap();
    let out2 = tmp.path().join("out2");
    let o = boneyard(&[
        "export",
        s(&d.join("object_dekunuts")),
        s(&d.join("sub").join("object_dekunuts")),
        "-f",
        "glb",
        "-o",
        s(&out2),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(std::fs::read_dir(&out2).unwrap().count(), 2, "{}", text(&o.stdout));
    // Names that differ only in case meet too (on Windows or macOS they would be one file):
    // `OBJECT_DEKUNUTS` and `object_dekunuts` in one folder, walked in name order.
    let cased = tmp.path().join("cased");
    std::fs::create_dir(&cased).unwrap();
    std::fs::copy(&scrub, cased.join("OBJECT_DEKUNUTS")).unwrap();
    std::fs::copy(&scrub, cased.join("object_dekunuts")).unwrap();
    let out3 = tmp.path().join("out3");
    let o = boneyard(&["export", s(&cased), "-f", "glb", "-o", s(&out3)]);
    let e = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{e}");
    let mut names: Vec<String> =
        std::fs::read_dir(&out3).unwrap().map(|f| f.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["OBJECT_DEKUNUTS.glb", "object_dekunuts_2.glb"], "{e}");
    assert!(e.contains(&format!("also an output of {}", cased.join("OBJECT_DEKUNUTS").display())), "{e}");
}

#[cfg(unix)]
#[test]
fn a_folder_walk_names_links_and_pipes_it_passes_over_and_names_cannot_forge_lines() {
    let Some(scrub) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "walk_names") else { return };
    let tmp = tmpdir("walk-names");
    let d = tmp.path();
    std::fs::create_dir(d.join("real")).unwrap();
    // A file whose name holds a newline and a forged hash line.
    std::fs::copy(&scrub, d.join("evil\nall: hash=deadbeef")).unwrap();
    std::os::unix::fs::symlink("/nonexistent/boneyard", d.join("broken")).unwrap();
    std::os::unix::fs::symlink(d.join("real"), d.join("linkdir")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", d.join("zeros")).unwrap();
    let fifo = std::process::Command::new("mkfifo").arg(d.join("pipe")).status();
    let o = boneyard(&["check", s(d)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let e = text(&o.stderr);
    assert!(e.contains("broken: not read: a symbolic link to nothing (broken)"), "{e}");
    assert!(e.contains("zeros: not read: a symbolic link to what is not a file (a pipe, a socket or a device)"), "{e}");
    assert!(e.contains("linkdir: not read: a symbolic link to a folder"), "{e}");
    if fifo.is_ok_and(|s| s.success()) {
        assert!(e.contains("pipe: not read: not a file"), "{e}");
    }
    let out = text(&o.stdout);
    assert_eq!(out.lines().filter(|l| l.starts_with("all: hash=")).count(), 1, "{out}");
    assert!(out.contains("document evil\\nall: hash=deadbeef"), "{out}");
    // On stderr too, a warning naming the file is one line (it was two, the second forged): an
    // Oni overlay, which is always said, under such a name.
    let Some(overlay) = shared_data("oni/TRAMfixture_walk19_overlay.oni", "walk_names") else { return };
    let e = tmpdir("walk-names-stderr");
    std::fs::copy(&overlay, e.path().join("evil\nall: hash=deadbeef.oni")).unwrap();
    let o = boneyard(&["list", s(e.path())]);
    let e = text(&o.stderr);
    assert!(
        e.lines().any(|l| l.starts_with("boneyard: warning: ") && l.contains("evil\\nall: hash=deadbeef.oni")),
        "{e}"
    );
    assert!(!e.lines().any(|l| l.starts_with("all: hash=")), "{e}");
    let j: Value = serde_json::from_slice(&boneyard(&["check", "--json", s(d)]).stdout).unwrap();
    let skipped: Vec<&str> = j["skipped"].as_array().unwrap().iter().map(|x| x["file"].as_str().unwrap()).collect();
    assert!(
        skipped.iter().any(|f| f.ends_with("broken")) && skipped.iter().any(|f| f.ends_with("linkdir")),
        "{skipped:?}"
    );
}

#[test]
fn a_clip_named_for_a_folder_is_looked_for_in_each_document() {
    // `--anim` on a baserom/: the documents that do not hold it are counted, not failed (81
    // of 207 failed, exit 1); a name no document holds is a usage error. `sample` on a folder
    // says it needs one document before opening any (it opened all 207 first, their warnings
    // on the screen).
    let Some((tmp, d)) = baserom(
        "named-in-folder",
        "a_clip_named_for_a_folder",
        &["object_dekunuts", "object_ahg", "object_box", "object_gnd"],
    ) else {
        return;
    };
    let out = tmp.path().join("out");
    let o = boneyard(&["export", "-f", "glb", "-o", s(&out), "--anim", "gDekuNutsSpitAnim", s(&d)]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("exported 1 of 4 documents (1 file written; 3 hold none of the --anim/--skeleton names)"),
        "{err}"
    );
    let written: Vec<_> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(written, ["object_dekunuts_gDekuNutsSpitAnim.glb"]);
    let o = boneyard(&["export", "-f", "glb", "-o", s(&out), "--anim", "gDekuNutsSpitAnimm", s(&d)]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains(r#"no document of these inputs holds an animation named "gDekuNutsSpitAnimm""#));
    // The closest names of every document are offered, as for one file.
    assert!(
        text(&o.stderr).contains(r#""gDekuNutsSpitAnimm" (did you mean "gDekuNutsSpitAnim""#),
        "{}",
        text(&o.stderr)
    );
    // Several names: each document writes those it holds; one no document holds is said.
    let out3 = tmp.path().join("out3");
    let o = boneyard(&[
        "export",
        "-f",
        "glb",
        "-o",
        s(&out3),
        "--anim",
        "gDekuNutsSpitAnim",
        "--anim",
        "gTreasureChestAnim_000128",
        "--anim",
        "NoSuchAnim",
        s(&d),
    ]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains(r#"no document of these inputs holds an animation named "NoSuchAnim""#), "{err}");
    let mut written: Vec<String> =
        std::fs::read_dir(&out3).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    written.sort();
    assert_eq!(
        written,
        ["object_box_gTreasureChestSkel_gTreasureChestAnim_000128.glb", "object_dekunuts_gDekuNutsSpitAnim.glb"]
    );
    let o = boneyard(&["sample", s(&d), "--anim", "gDekuNutsSpitAnim", "--frame", "3"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert_eq!(text(&o.stderr).lines().count(), 1, "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("these inputs make 4 documents"), "{}", text(&o.stderr));
}

#[test]
fn skeletons_of_files_read_beside_are_theirs_to_write() {
    // A baserom/ with Link's object and gameplay_keep: gameplay_keep's five skeletons were
    // written for it, and again for Link (read beside him). Now once, by gameplay_keep, and
    // Link's export says it left them.
    let Some((tmp, d)) =
        baserom("beside", "skeletons_of_files_read_beside", &["object_link_boy", "gameplay_keep", "link_animetion"])
    else {
        return;
    };
    let out = tmp.path().join("out");
    let o = boneyard(&["export", "-f", "glb", "-o", s(&out), s(&d)]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("object_link_boy: 5 skeletons of files read beside it left to those files (gArrowSkel,"),
        "{err}"
    );
    let mut written: Vec<String> =
        std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    written.sort();
    let from_link: Vec<&String> = written.iter().filter(|n| n.starts_with("object_link_boy")).collect();
    assert_eq!(from_link, ["object_link_boy_gLinkAdultSkel.glb"], "{written:?}");
    assert_eq!(written.iter().filter(|n| n.starts_with("gameplay_keep")).count(), 5, "{written:?}");
    // Named, one of them is written with Link's document.
    let out2 = tmp.path().join("out2");
    let o =
        boneyard(&["export", "-f", "glb", "-o", s(&out2), "--skeleton", "gArrowSkel", s(&d.join("object_link_boy"))]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(std::fs::read_dir(&out2).unwrap().count(), 1);
    // `list --json` says which they are.
    let j: Value =
        serde_json::from_slice(&boneyard(&["list", "--json", s(&d.join("object_link_boy"))]).stdout).unwrap();
    let marked: Vec<bool> =
        j["skeletons"].as_array().unwrap().iter().map(|k| k["companion"].as_bool().unwrap_or(false)).collect();
    assert_eq!(marked, [false, true, true, true, true, true]);
}

/// A folder holding an object and the animation banks the game plays on its skeleton: one
/// document, every clip in its glb; the banks are not documents of their own (they had been,
/// each failing with "no skeleton to play them on").
#[test]
fn a_folder_walk_reads_animation_banks_with_their_object() {
    let names = ["object_dekunuts", "object_zl2", "object_zl2_anime1", "object_zl2_anime2"];
    let Some((_tmp, d)) = baserom("banks", "animation banks", &names) else { return };
    let o = boneyard(&["list", s(&d), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let docs = v["documents"].as_array().unwrap();
    assert_eq!(docs.len(), 2, "{v}");
    let zl2 = &docs[1];
    let files: Vec<&str> = zl2["files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
    assert!(files[0].ends_with("object_zl2") && files.len() == 3, "{files:?}");
    let of_zl2 = v["animations"].as_array().unwrap().iter().filter(|a| a["document"] == zl2["name"]).count();
    assert_eq!(of_zl2, 62);

    let out = d.parent().unwrap().join("out");
    let o = boneyard(&["export", s(&d), "--format", "glb", "--out", s(&out), "-q"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let mut written: Vec<String> =
        std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    written.sort();
    assert_eq!(written, ["object_dekunuts.glb", "object_zl2.glb"]);
    let glb = std::fs::read(out.join("object_zl2.glb")).unwrap();
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let gltf: Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    assert_eq!(gltf["animations"].as_array().unwrap().len(), 62);
    println!(
        "batch: a folder with object_zl2 and its 2 animation banks: 2 documents, object_zl2.glb holds 62/62 clips"
    );
}

/// A folder of the walk that cannot be read is one failed document: the others are listed and
/// checked, the summary says it, exit 1 (it stopped the run, nothing listed). Root reads any
/// folder, so as root the binary runs as `nobody` (setpriv); the test says when it cannot.
#[test]
fn an_unreadable_folder_is_one_failure_and_the_walk_goes_on() {
    use std::os::unix::fs::PermissionsExt;
    let Some(z) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "an_unreadable_folder") else { return };
    let tmp = tmpdir("locked");
    let d = tmp.path();
    std::fs::create_dir_all(d.join("a")).unwrap();
    std::fs::copy(&z, d.join("a/object_dekunuts")).unwrap();
    std::fs::create_dir(d.join("locked")).unwrap();
    for (p, mode) in
        [(d.to_path_buf(), 0o755), (d.join("a"), 0o755), (d.join("a/object_dekunuts"), 0o644), (d.join("locked"), 0)]
    {
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    let bin = env!("CARGO_BIN_EXE_boneyard");
    let run = |args: &[&str]| -> Option<Output> {
        if std::fs::read_dir(d.join("locked")).is_err() {
            return Some(Command::new(bin).args(args).output().unwrap());
        }
        let nobody = ["--reuid=65534", "--regid=65534", "--clear-groups", bin];
        let o = Command::new("setpriv").args(nobody).args(args).output().ok()?;
        // (nobody may not reach the binary or the folder on this machine.)
        (!text(&o.stderr).contains("Permission denied") || text(&o.stderr).contains("locked")).then_some(o)
    };
    let Some(o) = run(&["list", s(d)]) else {
        println!("SKIPPED (an unreadable folder): running as root without setpriv to another user");
        return;
    };
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(out.contains("a/object_dekunuts:") && out.contains("animations (10)"), "{out}");
    assert!(err.contains("locked: cannot read the folder: Permission denied"), "{err}");
    assert!(err.contains("listed 1 of 2 documents") && err.contains("1 failed"), "{err}");
    let o = run(&["check", "--json", s(d)]).unwrap();
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["errors"][0]["message"], "cannot read the folder: Permission denied (os error 13)");
    assert!(v["errors"][0]["file"].as_str().unwrap().ends_with("locked"));
    assert_eq!(v["lines"].as_array().unwrap().len(), 11, "{v}");
    std::fs::set_permissions(d.join("locked"), std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A large file no family claims by its first bytes is passed over without being read whole:
/// a 3 GB "video" in a game's folder is a file not read (it was a failed document, past the
/// 2 GiB boneyard reads; a 2 GB one took 8 s and 2 GB of memory to be skipped), and named
/// alone it is not recognised, with its first bytes.
#[test]
fn a_large_file_no_family_claims_is_not_read_whole() {
    let Some(z) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "a_large_file_no_family_claims") else { return };
    let tmp = tmpdir("large");
    let d = tmp.path();
    std::fs::copy(&z, d.join("object_dekunuts")).unwrap();
    let movie = d.join("opening.sfd");
    let f = std::fs::File::create(&movie).unwrap();
    std::io::Write::write_all(&mut &f, &[0xAB; 4096]).unwrap();
    f.set_len(3 << 30).unwrap(); // sparse: no disk space taken
                                 // Named like a Zelda object, but far larger than one (it was read whole to list nothing).
    std::fs::File::create(d.join("object_bar")).unwrap().set_len(100 << 20).unwrap();
    let o = boneyard(&["check", "--json", s(d)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["errors"], serde_json::json!([]));
    let skipped = v["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 2, "{v}");
    assert!(skipped[0]["file"].as_str().unwrap().ends_with("object_bar"));
    assert!(skipped[0]["reason"].as_str().unwrap().contains("only its name says it is a Zelda 64"), "{v}");
    assert!(skipped[1]["file"].as_str().unwrap().ends_with("opening.sfd"));
    assert!(skipped[1]["reason"].as_str().unwrap().contains("it starts ab ab ab ab"), "{v}");
    let o = boneyard(&["info", s(&movie)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("not a file boneyard recognises"), "{}", text(&o.stderr));
}

/// A file or folder given twice is read once, with a warning (`list oot oot` was 404 documents,
/// `list a a` one document with each skeleton twice, its exports named `_0`, `_1`).
#[test]
fn inputs_given_twice_are_read_once() {
    let Some((tmp, d)) = baserom("twice", "inputs_given_twice_are_read_once", &["object_dekunuts", "object_zl2"])
    else {
        return;
    };
    let _keep = tmp;
    let f = d.join("object_dekunuts");
    let o = boneyard(&["list", "--json", s(&f), s(&f)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("object_dekunuts: given twice, read once"), "{}", text(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["skeletons"].as_array().unwrap().len(), 1, "{v}");
    let once = boneyard(&["check", s(&d)]);
    let twice = boneyard(&["check", s(&d), s(&d), s(&f)]);
    assert_eq!(twice.status.code(), Some(0), "{}", text(&twice.stderr));
    assert_eq!(text(&once.stdout), text(&twice.stdout));
    assert!(text(&twice.stderr).contains("checked 2 of 2 documents"), "{}", text(&twice.stderr));
}

/// A fan-made player model (ModLoader64) in a folder with gameplay_keep and link_animetion
/// reads them as Link's objects do: Link's 583 clips play on it, beside its own 5 (opened alone
/// by the walk, it had only its own).
#[test]
fn a_player_model_in_a_folder_reads_links_files_beside_it() {
    let Some((tmp, d)) = baserom("fan", "a_player_model_in_a_folder", &["gameplay_keep", "link_animetion"]) else {
        return;
    };
    let Some(aria) = shared_data("z64/fan/Aria_Hiro_Girl_OOTO.zobj", "a_player_model_in_a_folder") else { return };
    std::fs::copy(&aria, d.join("Aria_Hiro_Girl_OOTO.zobj")).unwrap();
    let o = boneyard(&["list", "--json", s(&d)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let anims: Vec<&Value> =
        v["animations"].as_array().unwrap().iter().filter(|a| a["document"] == "Aria_Hiro_Girl_OOTO.zobj").collect();
    assert_eq!(anims.len(), 588, "{}", text(&o.stderr));
    let walk = anims.iter().find(|a| a["name"] == "gPlayerAnim_link_normal_walk").unwrap();
    assert_eq!(walk["skeleton"], "Aria_Hiro_Girl_OOTO:0x17614", "{walk}");
    drop(tmp);
}

/// An empty file in a walk holds nothing, whatever its name: a file not read, not a failed
/// document (a dump's zeroed `object_zero` made the batch exit 1).
#[test]
fn an_empty_file_in_a_walk_is_not_read() {
    let Some((tmp, d)) = baserom("empty", "an_empty_file_in_a_walk_is_not_read", &["object_dekunuts"]) else { return };
    std::fs::write(d.join("object_zero"), b"").unwrap();
    let o = boneyard(&["check", "--json", s(&d)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["errors"], serde_json::json!([]));
    assert!(v["skipped"][0]["reason"].as_str().unwrap().ends_with("an empty file"), "{v}");
    drop(tmp);
}

/// A folder with nothing any game's reader reads (empty, or junk only) is exit 1 for every
/// command, so that a script sees nothing was done (`exported 0 of 0 documents` was exit 0).
#[test]
fn a_folder_with_nothing_to_read_is_exit_1() {
    let tmp = tmpdir("nothing");
    let d = tmp.path();
    for cmd in [&["list"][..], &["check", "--json"], &["info"], &["export", "--format", "glb", "--out"]] {
        let mut args: Vec<&str> = cmd.to_vec();
        let out = d.join("out");
        if cmd[0] == "export" {
            args.push(s(&out));
        }
        args.push(s(d));
        let o = boneyard(&args);
        assert_eq!(o.status.code(), Some(1), "{cmd:?}: {}", text(&o.stderr));
        assert!(text(&o.stderr)
            .contains("no file boneyard reads (Oni, Zelda 64 or Shenmue) in the files and folders given"));
        std::fs::write(d.join("notes.txt"), b"junk").unwrap();
    }
    // The commands of one document too (they said "these inputs make 0 documents", exit 2).
    for cmd in ["pose", "sample"] {
        let o = boneyard(&[cmd, s(d), "--anim", "#0"]);
        assert_eq!(o.status.code(), Some(1), "{cmd}: {}", text(&o.stderr));
        assert!(text(&o.stderr).contains("no file boneyard reads (Oni, Zelda 64 or Shenmue)"), "{}", text(&o.stderr));
    }
}

/// An Oni level's `.raw` is a file of its document, as Zelda's gameplay_keep is of Link's: a
/// folder's `list --json` names it under the level (it named none of them), and `info` lists it.
#[test]
fn a_levels_raw_is_a_file_of_its_document() {
    let Some(oni) = shared_data("oni", "a_levels_raw_is_a_file_of_its_document") else { return };
    let o = boneyard(&["list", "--json", s(&oni)]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let level = v["documents"].as_array().unwrap().iter().find(|d| d["name"] == "level1_Final.dat").unwrap();
    let files: Vec<&str> = level["files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
    assert_eq!(files.len(), 2, "{files:?}");
    assert!(files[0].ends_with("level1_Final.dat") && files[1].ends_with("level1_Final.raw"), "{files:?}");
    let o = boneyard(&["info", s(&oni.join("level1_Final.dat"))]);
    let out = text(&o.stdout);
    assert!(out.contains("level1_Final.raw: Oni level raw data (.raw)\n  bytes 11870\n  read with "), "{out}");
}
