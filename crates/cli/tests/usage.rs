//! Usage errors a user makes with real files: a misspelt name gets the closest names offered,
//! choices that conflict are refused (exit 2), nothing is written.

use boneyard_core::testdata::shared_data;
use std::process::{Command, Output};

fn boneyard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boneyard")).args(args).output().expect("run boneyard")
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn misspelt_names_get_did_you_mean() {
    let Some(m) = shared_data("shenmue/motion.bin", "did you mean") else { return };
    let o = boneyard(&["sample", m.to_str().unwrap(), "--anim", "a_walk_l_2", "--frame", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains(r#"no animation named "a_walk_l_2"; did you mean "A_WALK_L_02""#), "{}", err(&o));
    let Some(z) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "did you mean") else { return };
    let o = boneyard(&["pose", z.to_str().unwrap(), "--skeleton", "gDekuNutSkel"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains(r#"did you mean "gDekuNutsSkel"?"#), "{}", err(&o));
    // Nothing close: no suggestion.
    let o = boneyard(&["pose", z.to_str().unwrap(), "--anim", "zzzz"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!err(&o).contains("did you mean"), "{}", err(&o));
}

#[test]
fn conflicting_anim_choices_are_usage_errors() {
    let Some(z) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "conflicts") else { return };
    let tmp = tempfile::Builder::new().prefix("boneyard-usage-").tempdir().unwrap();
    let out = tmp.path().join("out");
    let z = z.to_str().unwrap();
    // #1 is gDekuNutsDamageAnim: named twice.
    let o = boneyard(&[
        "export",
        z,
        "--anim",
        "#1",
        "--anim",
        "gDekuNutsDamageAnim",
        "--format",
        "bvh",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("both name animation #1 gDekuNutsDamageAnim"), "{}", err(&o));
    assert!(!out.exists(), "nothing written");
    // A curve animation of the chest (14 limbs) asked to play on its 4-limb standard skeleton.
    let Some(b) = shared_data("z64/oot-gc-eu-mq-dbg/object_box", "conflicts") else { return };
    let o = boneyard(&["pose", b.to_str().unwrap(), "--anim", "#3", "--skeleton", "0x47D8", "--frame", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("plays on skeleton 0x5EB8 (14 bones), not on 0x47D8 (4 bones)"), "{}", err(&o));
}

#[test]
fn a_folder_with_file_and_a_file_as_out_are_said_once() {
    // `--file` picks inside a ROM or archive; on a folder every file would have said it could
    // not find it. `--out` naming a file: every document would have said it could not make
    // the folder.
    let tmp = tempfile::Builder::new().prefix("boneyard-usage-once-").tempdir().unwrap();
    let dir = tmp.path().join("folder");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("a.bin"), b"not game data").unwrap();
    std::fs::write(dir.join("b.bin"), b"not game data either").unwrap();
    let o = boneyard(&["list", dir.to_str().unwrap(), "--file", "object_dekunuts"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert_eq!(err(&o).lines().count(), 1, "{}", err(&o));
    assert!(err(&o).contains("picks a file inside a ROM or archive"), "{}", err(&o));
    let file = tmp.path().join("a_file");
    std::fs::write(&file, b"x").unwrap();
    let o = boneyard(&["export", dir.to_str().unwrap(), "--format", "glb", "--out", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert_eq!(err(&o).lines().count(), 1, "{}", err(&o));
    assert!(err(&o).contains("is a file, not a folder"), "{}", err(&o));
}

#[test]
fn a_clip_exported_on_another_skeleton_of_as_many_bones_is_a_usage_error() {
    // MOTION.BIN's human clip on family 13 (both 37 controls): the exporter refused it with
    // exit 1 naming skeletons by index; it is a usage error naming both.
    let Some(m) = shared_data("shenmue/motion.bin", "a_clip_exported_on_another_skeleton") else { return };
    let tmp = tempfile::Builder::new().prefix("boneyard-usage-other-").tempdir().unwrap();
    let args =
        ["export", m.to_str().unwrap(), "--skeleton", "family_13", "--anim", "A_WALK_L_02", "--format", "bvh", "--out"];
    let mut args: Vec<&str> = args.to_vec();
    let out = tmp.path().join("out");
    args.push(out.to_str().unwrap());
    let o = boneyard(&args);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(
        err(&o).contains("A_WALK_L_02 plays on skeleton human_rig (37 bones), not on family_13 (37 bones)"),
        "{}",
        err(&o)
    );
    assert!(!out.exists() || std::fs::read_dir(&out).unwrap().next().is_none());
}

/// A Zelda clip plays on any skeleton of its kind and limb count, as the game draws one set
/// on the Gibdo and the Redead: exported with `--skeleton gRedeadSkel`, the Gibdo's walk is
/// written on the Redead (glb and bvh), exit 0.
#[test]
fn a_zelda_clip_is_exported_on_a_skeleton_of_its_size() {
    let Some(rd) = shared_data("z64/oot-gc-eu-mq-dbg/object_rd", "a_zelda_clip_is_exported_on_a_skeleton_of_its_size")
    else {
        return;
    };
    let tmp = tempfile::Builder::new().prefix("boneyard-usage-shared-").tempdir().unwrap();
    for format in ["glb", "bvh"] {
        let out = tmp.path().join(format);
        let args = [
            "-q",
            "export",
            rd.to_str().unwrap(),
            "--skeleton",
            "gRedeadSkel",
            "--anim",
            "gGibdoRedeadWalkAnim",
            "--format",
            format,
            "--out",
            out.to_str().unwrap(),
        ];
        let o = boneyard(&args);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        let written = out.join(format!("object_rd_gRedeadSkel_gGibdoRedeadWalkAnim.{format}"));
        assert!(written.is_file(), "{:?}", std::fs::read_dir(&out).unwrap().collect::<Vec<_>>());
    }
}

/// Every clip of a skeleton exported: a clip no name assigns to one of two skeletons of its size
/// is written with each (object_rd's 11 clips, `gGibdoRedead...`, with the Gibdo and the
/// Redead), one the names assign with its own only (gameplay_keep's door clips, not the arrow).
#[test]
fn clips_shared_by_skeletons_of_one_size_are_written_with_each() {
    let Some(dir) = shared_data("z64/oot-gc-eu-mq-dbg", "clips_shared_by_skeletons_of_one_size") else { return };
    let tmp = tempfile::Builder::new().prefix("boneyard-usage-each-").tempdir().unwrap();
    let animations = |glb: &std::path::Path| -> Vec<String> {
        let b = std::fs::read(glb).unwrap();
        let n = u32::from_le_bytes(b[12..16].try_into().unwrap()) as usize;
        let v: serde_json::Value = serde_json::from_slice(&b[20..20 + n]).unwrap();
        v["animations"]
            .as_array()
            .map_or(Vec::new(), |a| a.iter().map(|x| x["name"].as_str().unwrap().into()).collect())
    };
    let out = tmp.path().join("rd");
    let o =
        boneyard(&["-q", "export", dir.join("object_rd").to_str().unwrap(), "-f", "glb", "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let gibdo = animations(&out.join("object_rd_gGibdoSkel.glb"));
    assert_eq!(gibdo.len(), 11);
    assert_eq!(animations(&out.join("object_rd_gRedeadSkel.glb")), gibdo);
    let out = tmp.path().join("keep");
    let keep = dir.join("gameplay_keep");
    let o = boneyard(&[
        "-q",
        "export",
        keep.to_str().unwrap(),
        "-f",
        "glb",
        "--skeleton",
        "gArrowSkel",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(animations(&out.join("gameplay_keep_gArrowSkel.glb")), ["gArrow1_Anim", "gArrow2_Anim"]);
}

#[test]
fn flags_a_format_does_not_use_are_said() {
    // `--frame` of nothing (the rest pose has no frames) is refused; a flag the format does
    // not use is a warning naming it, and the export goes on.
    let Some(z) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "unused flags") else { return };
    let z = z.to_str().unwrap();
    let tmp = tempfile::Builder::new().prefix("boneyard-usage-flags-").tempdir().unwrap();
    let out = tmp.path().join("out");
    let o = boneyard(&["pose", z, "--frame", "5"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("--anim"), "{}", err(&o));
    let o = boneyard(&["export", z, "-f", "obj", "-o", out.to_str().unwrap(), "--frame", "5"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("--frame needs --anim: without a clip, obj draws the rest pose"), "{}", err(&o));
    assert!(!out.exists(), "nothing written");
    // A png without --anim draws the clip the figure is best seen in, at --frame.
    let pics = tmp.path().join("pics");
    let o = boneyard(&["export", z, "-f", "png", "--size", "64x64", "-o", pics.to_str().unwrap(), "--frame", "5"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(err(&o).contains("drawn at frame 5 of gDekuNutsSpitAnim (no --anim"), "{}", err(&o));
    // The frame drawn is said as the engine takes the one asked for (truncated, wrapped into
    // the clip's 18 frames).
    let o = boneyard(&["export", z, "-f", "png", "--size", "64x64", "-o", pics.to_str().unwrap(), "--frame", "1e9"]);
    assert!(
        err(&o).contains("drawn at frame 10 (--frame 1000000000 as the engine takes it) of gDekuNutsSpitAnim"),
        "{}",
        err(&o)
    );
    std::fs::remove_dir_all(&pics).unwrap();
    let o = boneyard(&[
        "export",
        z,
        "-f",
        "glb",
        "-o",
        out.to_str().unwrap(),
        "--frame",
        "5",
        "--size",
        "64x64",
        "--scale",
        "0.01",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let e = err(&o);
    assert!(e.contains("warning: --frame is for png and obj; glb does not use it"), "{e}");
    assert!(e.contains("warning: --size is for png, gif and apng; glb does not use it"), "{e}");
    assert!(!e.contains("--scale"), "{e}");
    assert!(out.join("object_dekunuts.glb").is_file());
    let o = boneyard(&[
        "export",
        z,
        "-f",
        "gif",
        "-o",
        out.to_str().unwrap(),
        "--anim",
        "#0",
        "--in-place",
        "--scale",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let e = err(&o);
    assert!(e.contains("warning: --in-place is for glb and bvh; gif does not use it"), "{e}");
    assert!(e.contains("warning: --scale is for glb, bvh and obj"), "{e}");
    // Used flags: no word.
    let o = boneyard(&[
        "export",
        z,
        "-f",
        "png",
        "-o",
        out.to_str().unwrap(),
        "--anim",
        "#0",
        "--frame",
        "5",
        "--size",
        "64x64",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    // (The object's own warning, of the lists no limb draws, is not about the flags.)
    assert!(!err(&o).contains("does not use it"), "{}", err(&o));
    assert!(out.join("object_dekunuts_gDekuNutsSpitAnim_f5.png").is_file());
}

#[test]
fn run_time_state_a_family_does_not_have_is_said() {
    // `--tunic` is Link's (Zelda 64): Oni files took it without a word.
    let Some(o) = shared_data("oni/TRAMfixture_pose1.oni", "run_time_state") else { return };
    let out = boneyard(&["--tunic", "goron", "list", o.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", err(&out));
    assert!(err(&out).contains("warning: --tunic is not run-time state of oni files"), "{}", err(&out));
    let Some(z) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "run_time_state") else { return };
    let out = boneyard(&["--tunic", "goron", "list", z.to_str().unwrap()]);
    // A Zelda object without Link: the tunic changed nothing, said once at the end of the run
    // (it was silent); with Link's object it is not.
    assert!(err(&out).contains("--tunic changed none of the documents read"), "{}", err(&out));
    assert!(!err(&out).contains("is not run-time state"), "{}", err(&out));
    let Some(link) = shared_data("z64/oot-gc-eu-mq-dbg/object_link_boy", "run_time_state") else { return };
    let out = boneyard(&["--tunic", "goron", "list", link.to_str().unwrap()]);
    assert!(!err(&out).contains("--tunic"), "{}", err(&out));
}

#[test]
fn a_decomp_name_of_an_offset_finds_the_animation() {
    // The decomp's placeholder names an animation by its file and offset with eight digits and
    // the file's capitals (`object_oE_anime_Anim_00001034`), and boneyard lists it so; the
    // six-digit spelling boneyard gives what no table names (`object_oE_anime_Anim_001034`)
    // finds it too, and so does another case; another offset does not.
    let Some(z) = shared_data("z64/oot-gc-eu-mq-dbg/object_oE_anime", "decomp_name") else { return };
    let z = z.to_str().unwrap();
    for name in ["object_oE_anime_Anim_00001034", "object_oE_anime_Anim_001034", "object_oe_anime_anim_001034"] {
        let o = boneyard(&["sample", z, "--anim", name, "--frame", "0"]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", err(&o));
        assert!(String::from_utf8_lossy(&o.stdout).starts_with("#0 object_oE_anime_Anim_00001034 "), "{name}");
    }
    let o = boneyard(&["sample", z, "--anim", "object_oE_anime_Anim_00001035", "--frame", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
}

/// Flags pose and export take only in some combinations are refused in the command's own
/// words, once, before a file is read: `--frame`/`--all-frames` without a clip (the rest pose
/// has no frames; clap said "--anim required", though `pose` without it is the rest pose),
/// and a `--scale` out of range, negative ones included (clap took `-1` for a flag).
#[test]
fn pose_frames_and_scales_out_of_range_are_said_as_such() {
    let Some(t) = shared_data("oni/TRAMfixture_tiny2.oni", "pose and scale usage") else { return };
    let t = t.to_str().unwrap();
    for (flag, args) in [("--frame", &["pose", t, "--frame", "1"][..]), ("--all-frames", &["pose", t, "--all-frames"])]
    {
        let o = boneyard(args);
        assert_eq!(o.status.code(), Some(2), "{}", err(&o));
        assert!(
            err(&o).contains(&format!("{flag} needs --anim: without a clip, pose gives the rest pose")),
            "{}",
            err(&o)
        );
    }
    // Without --anim and --frame: the rest pose, exit 0.
    assert_eq!(boneyard(&["pose", t]).status.code(), Some(0));
    let tmp = tempfile::Builder::new().prefix("boneyard-usage-").tempdir().unwrap();
    let out = tmp.path().join("out");
    // Named as given: `1e40` is past f32 (an f32 parse said `--scale inf`), `1e-50` below it
    // (said `--scale 0`).
    for (given, shown) in [
        ("-1", "-1"),
        ("0", "0"),
        ("nan", "nan"),
        ("1e10", "1e10"),
        ("1e40", "1e40"),
        ("1e-50", "1e-50"),
        ("inf", "inf"),
    ] {
        let o = boneyard(&["export", t, "-f", "glb", "--out", out.to_str().unwrap(), "--scale", given]);
        assert_eq!(o.status.code(), Some(2), "{given}: {}", err(&o));
        // The flag's error, not the file's.
        assert!(
            err(&o).starts_with(&format!("boneyard: error: --scale {shown}: the factor must be from 1e-9 to 1e9")),
            "{}",
            err(&o)
        );
        assert!(!out.exists(), "nothing written");
    }
    let o = boneyard(&["export", t, "-f", "glb", "--out", out.to_str().unwrap(), "--scale", "big"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).starts_with("boneyard: error: --scale \"big\": not a number"), "{}", err(&o));
    // The ends of the range are taken, written as a user would write them.
    for given in ["1e-9", "1e9", "0.001"] {
        let o = boneyard(&["export", t, "-f", "glb", "--out", out.to_str().unwrap(), "--scale", given]);
        assert_eq!(o.status.code(), Some(0), "{given}: {}", err(&o));
    }
}

/// One object given twice (or two files of one name): a clip or skeleton name held by both is
/// not guessed (the first was taken, without a word); the error names the indices to give.
#[test]
fn a_name_two_files_hold_is_not_guessed() {
    let Some(z) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "a name held twice") else { return };
    let tmp = tempfile::Builder::new().prefix("boneyard-usage-").tempdir().unwrap();
    let copy = tmp.path().join("object_dekunuts");
    std::fs::copy(&z, &copy).unwrap();
    let (z, copy) = (z.to_str().unwrap(), copy.to_str().unwrap());
    let o = boneyard(&["sample", z, copy, "--anim", "gDekuNutsRunAnim", "--frame", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("\"gDekuNutsRunAnim\" names 2 animations of these files (#9 from object_dekunuts@0x3650, #19 from object_dekunuts@0x3650; the same place in two files of one name): give one by its index"), "{}", err(&o));
    let o = boneyard(&["pose", z, copy, "--skeleton", "gDekuNutsSkel"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("names 2 skeletons of these files (#0 from object_dekunuts@0x3268, #1 from object_dekunuts@0x3268; the same place in two files of one name): give one by its index"), "{}", err(&o));
    // Case aside, as the clips: still two, still not guessed.
    let o = boneyard(&["pose", z, copy, "--skeleton", "gdekunutsskel"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("\"gdekunutsskel\" names 2 skeletons of these files (#0 from"), "{}", err(&o));
    let o = boneyard(&["sample", z, copy, "--anim", "gdekunutsrunanim", "--frame", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("\"gdekunutsrunanim\" names 2 animations of these files (#9 from"), "{}", err(&o));
    // By index, each is there.
    assert_eq!(boneyard(&["sample", z, copy, "--anim", "#19", "--frame", "0"]).status.code(), Some(0));
    assert_eq!(boneyard(&["pose", z, copy, "--skeleton", "#1"]).status.code(), Some(0));
}

/// `--skeleton` matches as `--anim` does (case aside: a QA run found `gdekunutsskel` refused
/// where `--anim gdekunutsrunanim` was taken), and takes the ids `list` prints in both their
/// forms: `object_oA10:0x260` (several files given) and `0x260` (one), whichever files are given.
#[test]
fn skeleton_names_and_ids_match_as_clip_names_do() {
    let Some(a) = shared_data("z64/oot-gc-eu-mq-dbg/object_oA10", "skeleton ids") else { return };
    let Some(d) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "skeleton ids") else { return };
    let (a, d) = (a.to_str().unwrap(), d.to_str().unwrap());
    let first_line = |o: &Output| String::from_utf8_lossy(&o.stdout).lines().next().unwrap_or("").to_string();
    // The ids `list --json` gives, with two files and with one.
    let list = |files: &[&str]| -> serde_json::Value {
        let o = boneyard(&[&["list", "--json"][..], files].concat());
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let two = list(&[a, d]);
    let ids: Vec<&str> = two["skeletons"].as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["object_oA10:0x260", "object_dekunuts:0x3268"]);
    assert_eq!(list(&[a])["skeletons"][0]["id"], "0x260");
    for (files, spec, want) in [
        (&[a, d][..], "object_oA10:0x260", "object_oA10_Skel_00000260 rest pose:"),
        (&[a, d], "OBJECT_OA10:0x260", "object_oA10_Skel_00000260 rest pose:"),
        (&[a, d], "0x260", "object_oA10_Skel_00000260 rest pose:"),
        (&[a, d], "object_dekunuts:0x3268", "gDekuNutsSkel rest pose:"),
        (&[a, d], "gdekunutsskel", "gDekuNutsSkel rest pose:"),
        (&[a, d], "object_oa10_skel_000260", "object_oA10_Skel_00000260 rest pose:"),
        // The reader's own 6-digit spelling of the decomp's placeholder name.
        (&[a, d], "object_oA10_Skel_000260", "object_oA10_Skel_00000260 rest pose:"),
        (&[a], "object_oA10:0x260", "object_oA10_Skel_00000260 rest pose:"),
        (&[d], "GDEKUNUTSSKEL", "gDekuNutsSkel rest pose:"),
    ] {
        let o = boneyard(&[&["pose"][..], files, &["--skeleton", spec]].concat());
        assert_eq!(o.status.code(), Some(0), "{spec}: {}", err(&o));
        assert_eq!(first_line(&o), want, "{spec}");
    }
    // A clip by the source `list` prints for it, with its skeleton by the other form of its id.
    let o = boneyard(&["pose", d, a, "--anim", "object_dekunuts@0x1C4", "--skeleton", "0x3268"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(first_line(&o), "gDekuNutsSpitAnim frame 0.0:");
    // Still refused: an id of another file, and an index past the end.
    let o = boneyard(&["pose", d, "--skeleton", "object_oA10:0x3268"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("no skeleton \"object_oA10:0x3268\""), "{}", err(&o));
    let o = boneyard(&["pose", d, "--skeleton", "#1"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("no skeleton #1 (there are 1)"), "{}", err(&o));
}

/// Outputs are named after the file that holds the model, whatever order the files come in:
/// Link's three files in either order give `object_link_boy_gLinkAdultSkel.glb` and
/// gameplay_keep's skeletons `gameplay_keep_*` (given first, gameplay_keep named Link's glb);
/// a clip file before its model names nothing (`object_os_anime object_dekunuts` wrote the Deku
/// Scrub as `object_os_anime.glb`).
#[test]
fn outputs_are_named_after_the_model_file_in_any_order() {
    let Some(dir) = shared_data("z64/oot-gc-eu-mq-dbg", "outputs_are_named_after_the_model_file_in_any_order") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let f = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let names = |files: &[String], out: &str| -> Vec<String> {
        let out = tmp.path().join(out);
        let args: Vec<&str> = ["-q", "export"]
            .into_iter()
            .chain(files.iter().map(String::as_str))
            .chain(["-f", "glb", "-o", out.to_str().unwrap()])
            .collect();
        let o = boneyard(&args);
        assert_eq!(o.status.code(), Some(0), "{files:?}: {}", err(&o));
        let mut v: Vec<String> =
            std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    };
    let link = names(&[f("object_link_boy"), f("gameplay_keep"), f("link_animetion")], "a");
    assert_eq!(link, names(&[f("gameplay_keep"), f("link_animetion"), f("object_link_boy")], "b"));
    assert!(link.contains(&"object_link_boy_gLinkAdultSkel.glb".to_string()), "{link:?}");
    assert!(link.contains(&"gameplay_keep_gArrowSkel.glb".to_string()), "{link:?}");
    assert_eq!(link.len(), 6, "{link:?}");
    assert_eq!(names(&[f("object_os_anime"), f("object_dekunuts")], "c"), ["object_dekunuts.glb"]);
    assert_eq!(names(&[f("object_zl2_anime1"), f("object_zl2")], "d"), ["object_zl2.glb"]);
    // Oni: a body's glb is named after its TRBS (source `TRBSfixture_body19.oni#1`), not after
    // the TRAM or the mesh file given first (`M3GMfixture_box_TRBSfixture_body19.glb`).
    let Some(oni) = shared_data("oni", "outputs_are_named_after_the_model_file_in_any_order") else { return };
    let o = |n: &str| oni.join(n).to_str().unwrap().to_string();
    let (walk, body, lod5, bx) =
        (o("TRAMfixture_walk19.oni"), o("TRBSfixture_body19.oni"), o("TRBSfixture_lod5.oni"), o("M3GMfixture_box.oni"));
    assert_eq!(names(&[walk.clone(), body.clone()], "e"), ["TRBSfixture_body19.glb"]);
    assert_eq!(names(&[body.clone(), walk.clone()], "f"), ["TRBSfixture_body19.glb"]);
    assert_eq!(
        names(&[bx, walk, body, lod5], "g"),
        [
            "M3GMfixture_box_fixture_box.glb",
            "TRBSfixture_body19_fixture_body19.glb",
            "TRBSfixture_lod5_fixture_lod5.glb"
        ]
    );
}

/// A clip the reader lists but does not decode, asked for by name, is refused in the reader's
/// words at its offset (MOTION.BIN's legacy-frame32 AKI_AKI_YS00_R_ST at 0xF11A0), not with
/// advice to give its skeleton's file.
#[test]
fn an_undecoded_clip_asked_for_says_why_at_its_offset() {
    let Some(m) = shared_data("shenmue/motion.bin", "an_undecoded_clip_asked_for_says_why_at_its_offset") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    for cmd in [&["export", "-f", "glb", "-o", tmp.path().to_str().unwrap()][..], &["pose"][..]] {
        let args: Vec<&str> =
            [&["-q"][..], &cmd[..1], &[m.to_str().unwrap(), "--anim", "AKI_AKI_YS00_R_ST"][..], &cmd[1..]].concat();
        let o = boneyard(&args);
        assert_eq!(o.status.code(), Some(1), "{cmd:?}: {}", err(&o));
        let e = err(&o);
        assert!(e.contains("at byte offset 987552 (0xf11a0)") && e.contains("legacy-frame32"), "{cmd:?}: {e}");
        assert!(!e.contains("give it with them"), "{cmd:?}: {e}");
    }
}

/// A still of a frame past the clip is named after the frame asked for and drawn as the
/// engine takes it: said, with the frame drawn (the Deku Scrub's 18-frame run wraps 500 to 14,
/// as `sample` gives it).
#[test]
fn a_still_past_the_clip_says_which_frame_is_drawn() {
    let Some(z) =
        shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "a_still_past_the_clip_says_which_frame_is_drawn")
    else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let z = z.to_str().unwrap();
    let o = boneyard(&[
        "export",
        z,
        "--anim",
        "gDekuNutsRunAnim",
        "--frame",
        "500",
        "-f",
        "png",
        "-o",
        tmp.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        err(&o).contains("--frame 500 is outside gDekuNutsRunAnim's 18 frames: drawn as the engine takes it, frame 14"),
        "{}",
        err(&o)
    );
    let s = boneyard(&["sample", z, "--anim", "gDekuNutsRunAnim", "--frame", "500"]);
    assert!(String::from_utf8_lossy(&s.stdout).contains("frame 14"), "{}", String::from_utf8_lossy(&s.stdout));
    let o = boneyard(&[
        "export",
        z,
        "--anim",
        "gDekuNutsRunAnim",
        "--frame",
        "5",
        "-f",
        "png",
        "-o",
        tmp.path().to_str().unwrap(),
    ]);
    assert!(!err(&o).contains("is outside"), "{}", err(&o));
}

/// A glTF given where game files are read (`info edited.glb`) is not recognised, and the error
/// says it is a glTF and what takes one (it gave only its first bytes).
#[test]
fn a_gltf_given_as_game_files_says_what_takes_it() {
    let Some(z) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "a_gltf_given_as_game_files_says_what_takes_it")
    else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("g");
    let o = boneyard(&["-q", "export", z.to_str().unwrap(), "--anim", "#0", "-f", "glb", "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let glb = std::fs::read_dir(&out).unwrap().next().unwrap().unwrap().path();
    let o = boneyard(&["info", glb.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(
        err(&o).contains("it starts 67 6c 54 46")
            && err(&o).contains("it is a glTF, which `boneyard import` writes back"),
        "{}",
        err(&o)
    );
    let other = tmp.path().join("notes.bin");
    std::fs::write(&other, b"not a model").unwrap();
    let o = boneyard(&["info", other.to_str().unwrap()]);
    assert!(!err(&o).contains("glTF"), "{}", err(&o));
}

/// A mistyped run-time value is offered the close one (`--tunic gorn`: "goron"), as mistyped
/// names are; `--format` takes any case, and `gltf` (the format's name) writes the .glb.
#[test]
fn mistyped_values_are_offered_the_close_one() {
    let Some(link) = shared_data("z64/oot-gc-eu-mq-dbg/object_link_boy", "mistyped_values_are_offered_the_close_one")
    else {
        return;
    };
    let l = link.to_str().unwrap();
    let o = boneyard(&["info", l, "--tunic", "gorn"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(
        err(&o).contains("--tunic \"gorn\": Link's tunics are kokiri, goron and zora; did you mean \"goron\"?"),
        "{}",
        err(&o)
    );
    let o = boneyard(&["info", l, "--shield", "mirrror"]);
    assert!(err(&o).contains("; did you mean \"mirror\"?"), "{}", err(&o));
    let o = boneyard(&["info", l, "--tunic", "red"]);
    assert!(!err(&o).contains("did you mean"), "{}", err(&o));
    let tmp = tempfile::tempdir().unwrap();
    for f in ["GLB", "gltf"] {
        let o = boneyard(&[
            "-q",
            "export",
            l,
            "--format",
            f,
            "--skeleton",
            "gLinkAdultSkel",
            "--anim",
            "gPlayerAnim_link_normal_walk",
            "--out",
            tmp.path().to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{f}: {}", err(&o));
    }
    let names: Vec<String> =
        std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(names.len() == 1 && names[0].ends_with(".glb"), "{names:?}");
}

/// A png without `--anim` is the figure as the game shows it, not its rest pose (Link lay
/// crumpled, every limb unturned): the first frame of its plainest walk, the same picture as
/// `--anim` that clip gives, and a note names it.
#[test]
fn a_picture_without_a_clip_shows_the_figure_in_its_walk() {
    let Some(link) = shared_data("z64/oot-gc-eu-mq-dbg/object_link_boy", "a_picture_without_a_clip") else { return };
    let l = link.to_str().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let o = boneyard(&["export", l, "-f", "png", "--size", "96x96", "-o", a.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        err(&o).contains("skeleton gLinkAdultSkel drawn at frame 0 of gPlayerAnim_link_normal_walk (no --anim"),
        "{}",
        err(&o)
    );
    let walk = ["export", l, "-f", "png", "--size", "96x96", "--anim", "gPlayerAnim_link_normal_walk"];
    let o = boneyard(&[&walk[..], &["--skeleton", "gLinkAdultSkel", "-o", b.to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let png = |d: &std::path::Path| {
        let f = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.to_string_lossy().contains("gLinkAdultSkel"))
            .unwrap();
        std::fs::read(f).unwrap()
    };
    assert_eq!(png(&a), png(&b));
}

/// `info` gives a figure's standing height beside its rest height (for `--scale`): Link stands
/// in his walk, at rest every limb is unturned (2671 units). The box holds every joint `pose`
/// gives at that frame.
#[test]
fn info_says_how_tall_a_figure_stands() {
    let Some(link) = shared_data("z64/oot-gc-eu-mq-dbg/object_link_boy", "info_says_how_tall_a_figure_stands") else {
        return;
    };
    let l = link.to_str().unwrap();
    let o = boneyard(&["info", l, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let sk = v["skeletons"].as_array().unwrap().iter().find(|s| s["name"] == "gLinkAdultSkel").unwrap();
    assert_eq!(sk["height"], 2671.0);
    let standing = &sk["standing"];
    assert_eq!(standing["anim"], "gPlayerAnim_link_normal_walk");
    let h = standing["height"].as_f64().unwrap();
    let o = boneyard(&["pose", l, "--skeleton", "gLinkAdultSkel", "--anim", "gPlayerAnim_link_normal_walk", "--json"]);
    let p: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let ys: Vec<f64> = p["bones"].as_array().unwrap().iter().map(|b| b["matrix"][13].as_f64().unwrap()).collect();
    let joints = ys.iter().cloned().fold(f64::MIN, f64::max) - ys.iter().cloned().fold(f64::MAX, f64::min);
    assert!(h > joints && joints > 2671.0, "standing {h}, joints {joints}");
    let o = boneyard(&["info", l]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("engine units tall at frame 0 of gPlayerAnim_link_normal_walk (box "), "{text}");
    assert!(text.contains("), 2671 at rest; export --scale F to resize"), "{text}");
}

/// `demo` reads only its built-in files: `--file`, `--tunic` and `--shield` given to it are
/// usage errors, not passed over without a word.
#[test]
fn demo_refuses_options_for_your_files() {
    for (flag, v) in [("--file", "foo"), ("--tunic", "goron"), ("--shield", "none")] {
        let tmp = tempfile::tempdir().unwrap();
        let o = boneyard(&["demo", flag, v, "--out", tmp.path().join("d").to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{flag}: {}", err(&o));
        assert!(err(&o).contains(&format!("{flag} \"{v}\": demo reads only its own built-in files")), "{}", err(&o));
    }
    // -q: warnings and errors only (the demo printed its whole story).
    let tmp = tempfile::tempdir().unwrap();
    let o = boneyard(&["-q", "demo", "--out", tmp.path().join("d").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(o.stdout.is_empty() && o.stderr.is_empty(), "{}{}", String::from_utf8_lossy(&o.stdout), err(&o));
}

#[test]
fn the_option_parsers_errors_are_boneyards() {
    // Every message boneyard prints begins `boneyard: `, the option parser's too; help and
    // version still go to stdout with exit 0.
    let o = boneyard(&["export", "x.bin", "--format", "fbx"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).starts_with("boneyard: error: invalid value 'fbx' for '--format <FORMAT>'"), "{}", err(&o));
    assert!(err(&o).contains("[possible values: glb, bvh, obj, png, apng, gif]"), "{}", err(&o));
    let o = boneyard(&["sample", "x.bin", "--frame", "abc"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).starts_with("boneyard: error: invalid value 'abc' for '--frame"), "{}", err(&o));
    let o = boneyard(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("boneyard "), "{:?}", o);
    assert!(o.stderr.is_empty(), "{}", err(&o));
}
