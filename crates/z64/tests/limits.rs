//! The caller's limits (`OpenOptions::limits`) on real object files of the OoT debug ROM: a
//! small one fails (or warns) naming exactly that limit and a byte offset; the defaults read
//! the files as before.

use boneyard_core::testdata::shared_data;
use boneyard_core::{Document, ErrorKind, Family, InputFile, Limits, OpenOptions};
use boneyard_z64::Z64;

fn open(name: &str, test: &str, limits: Limits) -> Option<boneyard_core::Result<Box<dyn Document>>> {
    let p = shared_data(&format!("z64/oot-gc-eu-mq-dbg/{name}"), test)?;
    let f = InputFile::read(&p).unwrap();
    Some(Z64.open(vec![f], &OpenOptions { limits, ..Default::default() }, &boneyard_core::DiskCompanions::default()))
}

#[test]
fn animations_over_the_limit_name_max_animations() {
    let t = "animations_over_the_limit_name_max_animations";
    // The decomp XML lists 10 animations for object_dekunuts.
    let Some(r) = open("object_dekunuts", t, Limits { max_animations: 5, ..Limits::default() }) else { return };
    let Err(e) = r else { panic!("object_dekunuts opened with max_animations = 5") };
    assert_eq!(e.limit_name(), Some("max_animations"), "{e}");
    let ErrorKind::Limit(l) = &e.kind else { unreachable!() };
    assert_eq!(l.found, 10, "{e}");
    assert_eq!(e.offset, Some(0), "{e}");
    assert!(e.file.as_deref().is_some_and(|f| f.ends_with("object_dekunuts")), "{e}");
    // With exactly its count it opens as with the defaults.
    let doc = open("object_dekunuts", t, Limits { max_animations: 10, ..Limits::default() }).unwrap().unwrap();
    let plain = Z64.open(
        vec![InputFile::read(&shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", t).unwrap()).unwrap()],
        &OpenOptions::default(),
        &boneyard_core::NoCompanions,
    );
    assert_eq!(doc.check().unwrap(), plain.unwrap().check().unwrap());
}

#[test]
fn skeletons_over_the_limit_name_max_skeletons() {
    let t = "skeletons_over_the_limit_name_max_skeletons";
    let Some(r) = open("object_dekunuts", t, Limits { max_skeletons: 0, ..Limits::default() }) else { return };
    let Err(e) = r else { panic!("object_dekunuts opened with max_skeletons = 0") };
    assert_eq!(e.limit_name(), Some("max_skeletons"), "{e}");
    assert!(e.to_string().contains("limit `max_skeletons` (0) exceeded: 1 skeletons found so far"), "{e}");
}

#[test]
fn the_check_budget_names_max_check_joints_at_the_animation_that_crosses_it() {
    let t = "the_check_budget_names_max_check_joints_at_the_animation_that_crosses_it";
    // The decomp's first two animations: gDekuNutsSpitAnim (18 frames) at 0x1C4 and
    // gDekuNutsDamageAnim (14 frames) at 0x368, 25 joints each: 450 joint values fit, 800 do not.
    let Some(r) = open("object_dekunuts", t, Limits { max_check_joints: 451, ..Limits::default() }) else { return };
    let e = r.unwrap().check().unwrap_err();
    assert_eq!(e.limit_name(), Some("max_check_joints"), "{e}");
    assert_eq!(e.offset, Some(0x368), "{e}");
    let ErrorKind::Limit(l) = &e.kind else { unreachable!() };
    assert_eq!(l.found, 18 * 25 + 14 * 25, "{e}");
}

#[test]
fn display_lists_nested_past_the_limit_are_cut_with_a_warning_naming_max_dlist_depth() {
    let t = "display_lists_nested_past_the_limit_are_cut_with_a_warning_naming_max_dlist_depth";
    // Link's skeletons in gameplay_keep call display lists from their limbs' lists: with no
    // nesting allowed each such list is cut, named at its own offset (segment 4 = the file).
    let Some(r) = open("object_link_boy", t, Limits { max_dlist_depth: 0, ..Limits::default() }) else { return };
    let doc = r.unwrap();
    let cut: Vec<_> = doc.warnings().iter().filter(|w| w.message.contains("limit `max_dlist_depth` (0)")).collect();
    assert!(!cut.is_empty(), "no warning names max_dlist_depth");
    for w in &cut {
        assert!(w.file.ends_with("gameplay_keep"), "{w:?}");
        let dl = w.message.split("display list 0x").nth(1).and_then(|s| u32::from_str_radix(&s[..8], 16).ok());
        let dl = dl.expect("the warning names its display list");
        assert_eq!(dl >> 24, 4, "{w:?}");
        assert_eq!(w.offset, Some(u64::from(dl & 0xFF_FFFF)), "{w:?}");
    }
    // The default depth (the RSP's 10) cuts none.
    let plain = open("object_link_boy", t, Limits::default()).unwrap().unwrap();
    assert!(!plain.warnings().iter().any(|w| w.message.contains("max_dlist_depth")));
}
