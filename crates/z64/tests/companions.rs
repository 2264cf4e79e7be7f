//! Link's companions (`gameplay_keep`, `link_animetion`) through the resolver: no file-system
//! I/O by the family, in-memory opening, the unreadable/absent companion rule (the same as
//! Oni's: there but unreadable is an error naming it; absent is a warning when the object
//! still reads).

use boneyard_core::testdata::shared_data;
use boneyard_core::{
    Companions, DiskCompanions, Document, Family, InputFile, MemoryCompanions, NoCompanions, OpenOptions, Result,
};
use boneyard_z64::Z64;
use std::path::{Path, PathBuf};

use boneyard_core::testdata::RecordingCompanions as Recording;

fn open(files: Vec<InputFile>, c: &dyn Companions) -> Result<Box<dyn Document>> {
    Z64.open(files, &OpenOptions::default(), c)
}

/// The demo object's bytes under Link's object's name: read as Link's object, so its
/// companions are asked for.
fn as_link_object(dir: &str) -> InputFile {
    let (_, bytes) = boneyard_z64::demo_files().unwrap().remove(0);
    InputFile::new(Path::new(dir).join("object_link_boy"), bytes)
}

#[test]
fn unreadable_companion_is_an_error_absent_one_a_warning() {
    let bad = Recording { unreadable: Some("gameplay_keep"), ..Default::default() };
    let e = open(vec![as_link_object("/nonexistent")], &bad).err().expect("an unreadable gameplay_keep").to_string();
    assert!(e.contains("gameplay_keep") && e.contains("cannot be read"), "{e}");
    let doc = open(vec![as_link_object("/nonexistent")], &NoCompanions).unwrap();
    assert!(!doc.skeletons().is_empty(), "the object's own skeleton still reads");
    let w: Vec<_> = doc.warnings().iter().filter(|w| w.message.contains("gameplay_keep not given")).collect();
    assert_eq!(w.len(), 1, "{:?}", doc.warnings());
    assert_eq!(w[0].file, "/nonexistent/object_link_boy");
    // An object that is not Link's asks for nothing.
    let rec = Recording::default();
    let (name, bytes) = boneyard_z64::demo_files().unwrap().remove(0);
    open(vec![InputFile::new(name, bytes)], &rec).unwrap();
    assert!(rec.asked.borrow().is_empty(), "{:?}", rec.asked.borrow());
}

fn link_files(test: &str) -> Option<Vec<PathBuf>> {
    ["object_link_boy", "gameplay_keep", "link_animetion"]
        .iter()
        .map(|n| shared_data(&format!("z64/oot-gc-eu-mq-dbg/{n}"), test))
        .collect()
}

/// Adult Link given alone: gameplay_keep and link_animetion found beside him, on disk or in
/// memory, give the same document as all three given (573 + animations), and with all three
/// given the resolver is never asked (no I/O).
#[test]
fn link_companions_through_disk_memory_or_given() {
    let t = "link_companions_through_disk_memory_or_given";
    let Some(paths) = link_files(t) else { return };
    let on_disk = open(vec![InputFile::read(&paths[0]).unwrap()], &DiskCompanions::default()).unwrap();
    let want = on_disk.check().unwrap();
    assert!(on_disk.animations().len() > 500, "{}", on_disk.animations().len());
    let dir = PathBuf::from("/nonexistent/oot");
    let mem: Vec<InputFile> =
        paths.iter().map(|p| InputFile::new(dir.join(p.file_name().unwrap()), std::fs::read(p).unwrap())).collect();
    let beside = MemoryCompanions::new(mem[1..].to_vec());
    let doc = open(vec![mem[0].clone()], &beside).unwrap();
    assert_eq!(doc.animations().len(), on_disk.animations().len());
    let rec = Recording::default();
    let given = open(mem.clone(), &rec).unwrap();
    assert!(rec.asked.borrow().is_empty(), "{:?}", rec.asked.borrow());
    assert_eq!(given.animations().len(), on_disk.animations().len());
    let given_check = given.check().unwrap();
    assert_eq!(given_check.len(), want.len());
    println!("object_link_boy: {} animations alike from disk, memory and given", doc.animations().len());
}
