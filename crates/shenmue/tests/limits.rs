//! The caller's limits (`OpenOptions::limits`) on the real MOTION.BIN: a small one fails
//! naming exactly that limit and the byte offset of what crossed it; the defaults read the
//! file as before.

use boneyard_core::testdata::shared_data;
use boneyard_core::{Document, ErrorKind, Family, InputFile, Limits, OpenOptions};
use boneyard_shenmue::Shenmue;

fn open(test: &str, limits: Limits) -> Option<boneyard_core::Result<Box<dyn Document>>> {
    let p = shared_data("shenmue/motion.bin", test)?;
    let f = InputFile::read(&p).unwrap();
    Some(Shenmue.open(vec![f], &OpenOptions { limits, ..Default::default() }, &boneyard_core::NoCompanions))
}

#[test]
fn sequences_over_the_limit_name_max_sequences_at_the_attribute_word() {
    let t = "sequences_over_the_limit_name_max_sequences_at_the_attribute_word";
    let Some(r) = open(t, Limits { max_sequences: 1000, ..Limits::default() }) else { return };
    let Err(e) = r else { panic!("MOTION.BIN opened with max_sequences = 1000") };
    assert_eq!(e.limit_name(), Some("max_sequences"), "{e}");
    // The attribute word (header +0x0C) declares the table's 1559 named entries.
    assert_eq!(e.offset, Some(0x0C), "{e}");
    assert!(e.to_string().ends_with("limit `max_sequences` (1000) exceeded: 1559 sequences"), "{e}");
    assert!(e.file.as_deref().is_some_and(|f| f.ends_with("motion.bin")), "{e}");

    // At exactly the file's count it opens, as with the defaults.
    let doc = open(t, Limits { max_sequences: 1559, ..Limits::default() }).unwrap().unwrap();
    let plain = open(t, Limits::default()).unwrap().unwrap();
    assert_eq!(doc.animations().len(), 1559);
    assert_eq!(plain.animations().len(), 1559);
}

#[test]
fn frames_over_the_limit_name_max_total_frames_at_a_sequence() {
    let t = "frames_over_the_limit_name_max_total_frames_at_a_sequence";
    let Some(r) = open(t, Limits { max_total_frames: 100, ..Limits::default() }) else { return };
    let Err(e) = r else { panic!("MOTION.BIN opened with max_total_frames = 100") };
    assert_eq!(e.limit_name(), Some("max_total_frames"), "{e}");
    let ErrorKind::Limit(l) = &e.kind else { unreachable!() };
    assert!(l.found > 100, "{e}");
    // At the start of the sequence block that crossed it, inside the file's data.
    assert!(e.offset.is_some_and(|o| o > 0x14 && o < 0x100_0000), "{e}");
}

#[test]
fn the_check_budget_names_max_check_work() {
    let t = "the_check_budget_names_max_check_work";
    let Some(r) = open(t, Limits { max_check_work: 1000, ..Limits::default() }) else { return };
    let doc = r.expect("opening is not limited by the check budget");
    let e = doc.check().unwrap_err();
    assert_eq!(e.limit_name(), Some("max_check_work"), "{e}");
    assert!(e.offset.is_some(), "{e}");
    // With the default budget (MOTION.BIN needs about a quarter of it) check runs through.
    let plain = open(t, Limits::default()).unwrap().unwrap();
    assert_eq!(plain.check().unwrap().len(), 1559);
}

#[test]
fn action_metadata_past_max_action_bytes_is_cut_with_a_warning_at_the_first_byte_left() {
    let t = "action_metadata_past_max_action_bytes_is_cut_with_a_warning_at_the_first_byte_left";
    let Some(p) = shared_data("shenmue/motion.bin", t) else { return };
    let bytes = std::fs::read(&p).unwrap();
    // MOTION.BIN's action metadata blocks run to 200 bytes: with 16 decoded, the longer ones
    // are cut, each named at its block's offset (from the table slot's own meta field) + the
    // 12-byte header + 16.
    let Some(r) = open(t, Limits { max_action_bytes: 16, ..Limits::default() }) else { return };
    let doc = r.unwrap();
    let cut: Vec<_> = doc.warnings().iter().filter(|w| w.message.contains("limit `max_action_bytes`")).collect();
    assert!(!cut.is_empty(), "no warning names max_action_bytes");
    for w in &cut {
        // "entry #N NAME: action metadata of L bytes; ..."
        let i: usize = w.message.split("entry #").nth(1).and_then(|s| s.split(' ').next()).unwrap().parse().unwrap();
        let field = 0x20 + 8 * i + 4;
        let meta = u32::from_le_bytes(bytes[field..field + 4].try_into().unwrap()) as u64;
        assert_eq!(w.offset, Some(meta + 12 + 16), "{w:?}");
        let len: usize =
            w.message.split("metadata of ").nth(1).and_then(|s| s.split(' ').next()).unwrap().parse().unwrap();
        assert!(len > 12 + 16, "{w:?}");
    }
    // The default (4096) cuts none.
    let plain = open(t, Limits::default()).unwrap().unwrap();
    assert!(!plain.warnings().iter().any(|w| w.message.contains("max_action_bytes")));
}

#[test]
fn frames_are_charged_per_name_too() {
    // MOTION.BIN's 1,559 names list 58,432 frames (`list --json`: the sum of `frames`); its
    // distinct sequences hold fewer (names share sequences). Names sharing one sequence are
    // animations of their own, so a limit between the two refuses the file, at a table entry.
    let t = "frames_are_charged_per_name_too";
    let Some(r) = open(t, Limits { max_total_frames: 58_431, ..Limits::default() }) else { return };
    let Err(e) = r else { panic!("MOTION.BIN opened with max_total_frames = 58,431") };
    assert_eq!(e.limit_name(), Some("max_total_frames"), "{e}");
    assert!(e.to_string().ends_with("58432 frames the names list"), "{e}");
    let doc = open(t, Limits { max_total_frames: 58_432, ..Limits::default() }).unwrap().unwrap();
    let listed: u64 = doc.animations().iter().map(|a| u64::from(a.frames)).sum();
    eprintln!("{listed} frames listed by {} names", doc.animations().len());
    assert_eq!(listed, 58_432);
}
