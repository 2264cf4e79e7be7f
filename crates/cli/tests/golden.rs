//! Golden outputs: `check` and `list --json` of the real files, committed under
//! `tests/golden/`, so that any change in what boneyard reads shows up as a diff in review.
//! `BONEYARD_UPDATE_GOLDEN=1 cargo test -p boneyard --test golden` rewrites them (then read
//! the diff: every changed line is a change in behaviour). The data folder's path is written
//! as `<data>` so the files do not depend on the machine.

use boneyard_core::testdata::shared_data;
use std::path::Path;
use std::process::Command;

/// (golden file, command, files under the data folder).
const CASES: &[(&str, &[&str], &[&str])] = &[
    ("check_oni_level1.txt", &["check"], &["oni/level1_Final.dat"]),
    ("check_oni_walk19_body19.txt", &["check"], &["oni/TRBSfixture_body19.oni", "oni/TRAMfixture_walk19.oni"]),
    ("check_z64_dekunuts.txt", &["check"], &["z64/oot-gc-eu-mq-dbg/object_dekunuts"]),
    ("check_z64_box.txt", &["check"], &["z64/oot-gc-eu-mq-dbg/object_box"]),
    ("check_z64_horse.txt", &["check"], &["z64/oot-gc-eu-mq-dbg/object_horse"]),
    (
        "check_z64_link_boy.txt",
        &["check"],
        &[
            "z64/oot-gc-eu-mq-dbg/object_link_boy",
            "z64/oot-gc-eu-mq-dbg/gameplay_keep",
            "z64/oot-gc-eu-mq-dbg/link_animetion",
        ],
    ),
    ("check_shenmue_motion.txt", &["check"], &["shenmue/motion.bin"]),
    ("list_z64_dekunuts.json", &["list", "--json"], &["z64/oot-gc-eu-mq-dbg/object_dekunuts"]),
    ("list_z64_box.json", &["list", "--json"], &["z64/oot-gc-eu-mq-dbg/object_box"]),
    ("list_oni_level1.json", &["list", "--json"], &["oni/level1_Final.dat"]),
    ("info_z64_ganon.json", &["info", "--json"], &["z64/oot-gc-eu-mq-dbg/object_ganon"]),
];

#[test]
fn outputs_match_the_committed_golden_files() {
    let Some(data) = shared_data("", "golden outputs") else { return };
    let data = data.canonicalize().unwrap();
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let update = std::env::var_os("BONEYARD_UPDATE_GOLDEN").is_some_and(|v| v == "1");
    let mut differ = Vec::new();
    for (name, args, files) in CASES {
        let paths: Vec<String> = files.iter().map(|f| data.join(f).display().to_string()).collect();
        let o = Command::new(env!("CARGO_BIN_EXE_boneyard")).args(*args).args(&paths).arg("-q").output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        let got = String::from_utf8(o.stdout).unwrap().replace(&data.display().to_string(), "<data>");
        let path = golden.join(name);
        if update {
            std::fs::write(&path, &got).unwrap();
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(want) if want == got => {}
            Ok(want) => {
                let first = want.lines().zip(got.lines()).position(|(a, b)| a != b).unwrap_or(0);
                differ.push(format!(
                    "{name}: differs from line {} ({:?} became {:?})",
                    first + 1,
                    want.lines().nth(first),
                    got.lines().nth(first)
                ));
            }
            Err(_) => differ.push(format!("{name}: no golden file")),
        }
    }
    println!("golden: {} outputs compared", CASES.len());
    assert!(
        differ.is_empty(),
        "{}\n(if the change is intended: BONEYARD_UPDATE_GOLDEN=1 cargo test -p boneyard --test golden, then review the diff)",
        differ.join("\n")
    );
}
