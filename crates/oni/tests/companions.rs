//! Companions through the resolver: a level `.dat`'s `.raw` (either case of the extension) and
//! the `.dat` of a `.raw` given alone come through `Companions`, never from the disk by the
//! family; in-memory opening; the unreadable/absent companion rule.

use boneyard_core::testdata::shared_data;
use boneyard_core::{
    Companions, DiskCompanions, Document, Family, InputFile, MemoryCompanions, NoCompanions, OpenOptions, Result,
};
use boneyard_oni::Oni;
use std::path::PathBuf;

use boneyard_core::testdata::RecordingCompanions as Recording;

fn open(files: Vec<InputFile>, c: &dyn Companions) -> Result<Box<dyn Document>> {
    Oni.open(files, &OpenOptions::default(), c)
}

fn demo() -> (InputFile, InputFile) {
    let mut f = boneyard_oni::demo_files().unwrap().into_iter().map(|(n, b)| InputFile::new(n, b));
    (f.next().unwrap(), f.next().unwrap())
}

/// The real level: `.dat` given, `.raw` found in memory beside it, and `.raw` given with its
/// `.dat` found in memory, both read as the disk resolver reads them (same `check` lines).
#[test]
fn real_level_opens_in_memory_with_the_memory_resolver() {
    let t = "real_level_opens_in_memory_with_the_memory_resolver";
    let (Some(dat), Some(raw)) = (shared_data("oni/level1_Final.dat", t), shared_data("oni/level1_Final.raw", t))
    else {
        return;
    };
    let on_disk = open(vec![InputFile::read(&dat).unwrap()], &DiskCompanions::default()).unwrap();
    let want = on_disk.check().unwrap();
    assert!(on_disk.warnings().iter().all(|w| !w.message.contains(".raw")));
    // In memory under a folder that does not exist: nothing can come from the disk.
    let dir = PathBuf::from("/nonexistent/oni");
    let mem = |p: &PathBuf| InputFile::new(dir.join(p.file_name().unwrap()), std::fs::read(p).unwrap());
    let raw_beside = MemoryCompanions::new(vec![mem(&raw)]);
    let doc = open(vec![mem(&dat)], &raw_beside).unwrap();
    assert_eq!(doc.check().unwrap(), want);
    let dat_beside = MemoryCompanions::new(vec![mem(&dat)]);
    let doc = open(vec![mem(&raw)], &dat_beside).unwrap();
    assert_eq!(doc.check().unwrap(), want);
    println!("level1_Final in memory: {} animations, {} check lines as on disk", doc.animations().len(), want.len());
    // Without its .raw: every TRAM said and left out, every body and mesh as with it.
    let alone = open(vec![mem(&dat)], &NoCompanions).unwrap();
    assert_eq!(alone.animations().len(), 0);
    let left: Vec<&str> = alone
        .warnings()
        .iter()
        .filter(|w| w.message.ends_with("left out: its data is in the .raw, which was not found beside the .dat"))
        .map(|w| w.message.split(':').next().unwrap())
        .collect();
    let had: Vec<String> = on_disk.animations().iter().map(|a| format!("TRAM {}", a.name)).collect();
    assert_eq!(left, had);
    let meshes = |d: &dyn Document| d.skeletons().iter().map(|s| (s.id.clone(), s.meshes.len())).collect::<Vec<_>>();
    let with_bodies: Vec<_> = meshes(&*on_disk).into_iter().filter(|(id, _)| !id.starts_with("generic")).collect();
    assert_eq!(meshes(&*alone), with_bodies);
    println!(
        "level1_Final.dat alone: {}/{} TRAMs said and left out, {} bodies read",
        left.len(),
        had.len(),
        with_bodies.len()
    );
}

/// The `.raw` found beside the `.dat` in either case of its extension (the `.dat`'s stem kept).
#[test]
fn raw_is_found_in_either_case() {
    let (dat, raw) = demo();
    let upper = MemoryCompanions::new(vec![InputFile::new("boneyard_demo.RAW", raw.data.clone())]);
    let doc = open(vec![dat.clone()], &upper).unwrap();
    assert_eq!(doc.animations().len(), 2);
    assert!(doc.warnings().is_empty(), "{:?}", doc.warnings());
    let dat_upper = MemoryCompanions::new(vec![InputFile::new("boneyard_demo.DAT", dat.data.clone())]);
    assert_eq!(open(vec![raw], &dat_upper).unwrap().animations().len(), 2);
}

/// No I/O: with every file given, the family opens with `NoCompanions` and never asks for the
/// `.raw` (paths under a folder that does not exist).
#[test]
fn all_files_given_need_no_resolver() {
    let (dat, raw) = demo();
    let dat = InputFile::new("/nonexistent/boneyard_demo.dat", dat.data);
    let raw = InputFile::new("/nonexistent/boneyard_demo.raw", raw.data);
    let doc = open(vec![dat.clone(), raw.clone()], &NoCompanions).unwrap();
    assert_eq!(doc.animations().len(), 2);
    let rec = Recording::default();
    open(vec![raw, dat], &rec).unwrap();
    // Only the optional .sep is looked for.
    assert_eq!(*rec.asked.borrow(), ["/nonexistent/boneyard_demo.dat boneyard_demo.sep|boneyard_demo.SEP"]);
}

/// The rule: a companion there but unreadable is an error naming it; an absent `.raw` is a
/// warning for each TRAM (their keys are in it) while the level's bodies and meshes, which are
/// in the `.dat`, are still read; a `.raw` is nothing without its `.dat`.
#[test]
fn unreadable_companion_is_an_error_absent_one_a_warning() {
    let (dat, raw) = demo();
    let bad = Recording { unreadable: Some("boneyard_demo.raw"), ..Default::default() };
    let e = open(vec![dat.clone()], &bad).err().expect("an unreadable .raw is an error").to_string();
    assert!(e.contains("boneyard_demo.raw") && e.contains("cannot be read"), "{e}");
    let bad_dat = Recording { unreadable: Some("boneyard_demo.dat"), ..Default::default() };
    let e = open(vec![raw.clone()], &bad_dat).err().expect("an unreadable .dat is an error").to_string();
    assert!(e.contains("boneyard_demo.dat") && e.contains("cannot be read"), "{e}");

    let with_raw = open(vec![dat.clone(), raw.clone()], &NoCompanions).unwrap();
    let doc = open(vec![dat], &NoCompanions).expect("a level without its .raw still has its bodies");
    assert_eq!(doc.animations().len(), 0);
    assert_eq!(doc.skeletons().len(), 1);
    assert_eq!(doc.skeletons()[0].meshes.len(), with_raw.skeletons()[0].meshes.len());
    let told: Vec<&boneyard_core::Warning> =
        doc.warnings().iter().filter(|w| w.message.contains("left out: its data is in the .raw")).collect();
    assert_eq!(told.len(), with_raw.animations().len(), "{:?}", doc.warnings());
    for (w, a) in told.iter().zip(with_raw.animations()) {
        assert!(w.message.starts_with(&format!("TRAM {}:", a.name)), "{w:?}");
        assert_eq!(w.file, "boneyard_demo.dat");
        assert!(w.offset.is_some());
    }
    let e = open(vec![raw], &NoCompanions).err().expect("a .raw without its .dat").to_string();
    assert!(e.contains("boneyard_demo.raw") && e.contains("level .dat"), "{e}");
}
