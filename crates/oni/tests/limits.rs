//! The caller's limits (`OpenOptions::limits`): a small one makes a real file fail with an
//! error naming exactly that limit and the byte offset of what crossed it; the defaults read
//! the file as before.

use boneyard_core::testdata::shared_data;
use boneyard_core::{Document, Family, InputFile, Limits, OpenOptions};
use boneyard_oni::Oni;

fn open(rel: &str, test: &str, limits: Limits) -> Option<boneyard_core::Result<Box<dyn Document>>> {
    let p = shared_data(&format!("oni/{rel}"), test)?;
    let f = InputFile::read(&p).unwrap();
    Some(Oni.open(vec![f], &OpenOptions { limits, ..Default::default() }, &boneyard_core::DiskCompanions::default()))
}

#[test]
fn instances_over_the_limit_name_max_instances_at_the_count() {
    let t = "instances_over_the_limit_name_max_instances_at_the_count";
    // OniSplit's `-list` of level1_Final.dat names 9 instances (more are unnamed): 8 is too few.
    let Some(r) = open("level1_Final.dat", t, Limits { max_instances: 8, ..Limits::default() }) else { return };
    let Err(e) = r else { panic!("level1_Final.dat opened with max_instances = 8") };
    assert_eq!(e.limit_name(), Some("max_instances"), "{e}");
    // The header's instance count (at 0x14) declares what crossed it, as MOTN's attribute word
    // does (it was the descriptor table's start, 0x40, which holds nothing wrong).
    assert_eq!(e.offset, Some(0x14), "{e}");
    assert!(e.file.as_deref().is_some_and(|f| f.ends_with("level1_Final.dat")), "{e}");
    let boneyard_core::ErrorKind::Limit(l) = &e.kind else { unreachable!() };
    assert!(l.found >= 9, "{e}");
    assert!(e.to_string().contains("limit `max_instances` (8) exceeded"), "{e}");

    // The defaults read it as before (the golden snapshots hold the whole listing).
    let doc = open("level1_Final.dat", t, Limits::default()).unwrap().unwrap();
    let dat = InputFile::read(&shared_data("oni/level1_Final.dat", t).unwrap()).unwrap();
    let plain = Oni.open(vec![dat], &OpenOptions::default(), &boneyard_core::DiskCompanions::default()).unwrap();
    assert_eq!(doc.animations().len(), plain.animations().len());
    assert_eq!(doc.skeletons().len(), plain.skeletons().len());
    assert_eq!(doc.check().unwrap(), plain.check().unwrap());
}

#[test]
fn the_check_budget_names_max_check_rotations_at_the_frame_count() {
    let t = "the_check_budget_names_max_check_rotations_at_the_frame_count";
    let Some(p) = shared_data("oni/TRAMfixture_walk19.oni", t) else { return };
    let bytes = std::fs::read(&p).unwrap();
    let Some(r) = open("TRAMfixture_walk19.oni", t, Limits { max_check_rotations: 10, ..Limits::default() }) else {
        return;
    };
    let doc = r.expect("opening is not limited by the check budget");
    let e = doc.check().unwrap_err();
    assert_eq!(e.limit_name(), Some("max_check_rotations"), "{e}");
    // Named at the TRAM's frame count field: frames there x 19 parts is the work refused.
    let at = e.offset.expect("an offset") as usize;
    let frames = u16::from_le_bytes([bytes[at], bytes[at + 1]]) as u64;
    let boneyard_core::ErrorKind::Limit(l) = &e.kind else { unreachable!() };
    assert_eq!(l.found, frames * 19, "{e}");
    assert!(frames > 1, "{e}");
}

#[test]
fn a_body_over_max_body_elements_names_it() {
    let t = "a_body_over_max_body_elements_names_it";
    let Some(r) = open("TRBSfixture_body19.oni", t, Limits { max_body_elements: 3, ..Limits::default() }) else {
        return;
    };
    let Err(e) = r else { panic!("a body of more than 3 points opened with max_body_elements = 3") };
    assert_eq!(e.limit_name(), Some("max_body_elements"), "{e}");
    assert!(e.offset.is_some_and(|o| o > 0), "{e}");
}

#[test]
fn tram_arrays_over_max_tram_array_name_it_at_their_count_field() {
    let t = "tram_arrays_over_max_tram_array_name_it_at_their_count_field";
    let Some(p) = shared_data("oni/TRAMfixture_walk19.oni", t) else { return };
    let bytes = std::fs::read(&p).unwrap();
    let xml = std::fs::read_to_string(p.with_extension("oni.xml")).unwrap();
    // OniSplit's XML of the file: its <Sound>s and its attacks' <Extent>s.
    let (sounds, extents) = (xml.matches("<Sound>").count() as u64, xml.matches("<Extent>").count() as u64);
    assert_eq!((sounds, extents), (2, 4));
    let u32_at = |at: u64| u32::from_le_bytes(bytes[at as usize..at as usize + 4].try_into().unwrap()) as u64;
    for (max, found, what) in [(1, sounds, "sounds"), (3, extents, "attack extents")] {
        let r = open("TRAMfixture_walk19.oni", t, Limits { max_tram_array: max, ..Limits::default() }).unwrap();
        let Err(e) = r else { panic!("walk19 opened with max_tram_array = {max}") };
        assert_eq!(e.limit_name(), Some("max_tram_array"), "{e}");
        let boneyard_core::ErrorKind::Limit(l) = &e.kind else { unreachable!() };
        assert_eq!((l.found, l.what.as_str()), (found, what), "{e}");
        // The offset is the count field's: the file holds that count there.
        assert_eq!(u32_at(e.offset.expect("an offset")), found, "{e}");
        assert!(e.file.as_deref().is_some_and(|f| f.ends_with("TRAMfixture_walk19.oni")), "{e}");
    }
    // With exactly the extents' count it opens.
    assert!(open("TRAMfixture_walk19.oni", t, Limits { max_tram_array: 4, ..Limits::default() }).unwrap().is_ok());
}
