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

/// Animation banks (`object_zl2_anime1`, `_anime2`) are read beside the object whose skeleton
/// the game plays them on, and each clip plays there; a bank alone names its objects.
#[test]
fn animation_banks_are_read_beside_their_object() {
    let Some(zl2) = shared_data("z64/oot-gc-eu-mq-dbg/object_zl2", "animation banks") else { return };
    let read = |p: &PathBuf| InputFile::new(p.clone(), std::fs::read(p).unwrap());
    let doc = open(vec![read(&zl2)], &DiskCompanions::default()).unwrap();
    let files: Vec<String> = doc.files().iter().map(|f| f.path.rsplit('/').next().unwrap().to_string()).collect();
    assert_eq!(files, ["object_zl2", "object_zl2_anime1", "object_zl2_anime2"]);
    // The decomp's XML names 26 and 36 animations in the two banks, none in object_zl2.
    let from = |bank: &str| doc.animations().iter().filter(|a| a.source.starts_with(&format!("{bank}@"))).count();
    assert_eq!((from("object_zl2_anime1"), from("object_zl2_anime2")), (26, 36));
    assert_eq!(doc.animations().len(), 62);
    let skel = doc.find_skeleton("gZelda2Skel").unwrap();
    assert!((0..62).all(|a| doc.skeleton_for(a) == Some(skel)));
    // The pairing is the game's, not a guess: no warning about it.
    assert!(!doc.warnings().iter().any(|w| w.message.contains("do not name each other")), "{:?}", doc.warnings());
    // Sampled on the skeleton: the first frame of every clip reads.
    for a in 0..62 {
        doc.pose(skel, Some(a), 0.0).unwrap();
    }
    println!("animation banks: object_zl2 read with its 2 banks, 62/62 clips on gZelda2Skel");

    // A bank alone says which objects' skeletons play it.
    let bank = zl2.with_file_name("object_zl2_anime1");
    let doc = open(vec![read(&bank)], &NoCompanions).unwrap();
    let w: Vec<_> = doc.warnings().iter().filter(|w| w.message.contains("an animation bank")).collect();
    assert_eq!(w.len(), 1, "{:?}", doc.warnings());
    assert!(w[0].message.contains("object_zl2 (the game loads them together: En_Zl2"), "{}", w[0].message);

    // The beta townspeople: both beta banks play on object_oE1's 38-limb skeleton.
    let oe1 = zl2.with_file_name("object_oE1");
    let doc = open(vec![read(&oe1)], &DiskCompanions::default()).unwrap();
    assert_eq!(doc.animations().len(), 13);
    assert!((0..13).all(|a| doc.skeleton_for(a) == Some(0)));
    // Z64's walk hint names the banks found beside it, and an object without one names none.
    let names = Z64.owned_companions(&oe1, &std::fs::read(&oe1).unwrap());
    assert_eq!(names, ["object_o_anime", "object_oE_anime"]);
    let nuts = zl2.with_file_name("object_dekunuts");
    assert!(Z64.owned_companions(&nuts, &std::fs::read(&nuts).unwrap()).is_empty());
}

/// `--file object_zl2` in a ROM reads the animation banks beside it in the ROM, as on disk.
#[test]
fn rom_file_picked_reads_its_animation_banks() {
    let names = ["object_zl2", "object_zl2_anime1", "object_zl2_anime2", "object_dekunuts"];
    let mut data = Vec::new();
    for n in names {
        let Some(p) = shared_data(&format!("z64/oot-gc-eu-mq-dbg/{n}"), "ROM animation banks") else { return };
        data.push(std::fs::read(p).unwrap());
    }
    let files: Vec<(&[u8], bool)> = data.iter().map(|d| (d.as_slice(), false)).collect();
    let rom = boneyard_z64::build_test_rom_named(&files, Some(&names), 10);
    let options = OpenOptions { pick: Some("object_zl2".into()), ..Default::default() };
    let doc = Z64.open(vec![InputFile::new("oot.z64", rom)], &options, &NoCompanions).unwrap();
    assert_eq!(doc.skeletons().len(), 1);
    assert_eq!(doc.animations().len(), 62);
    let read: Vec<String> = doc.files().into_iter().skip(1).map(|f| f.path).collect();
    assert_eq!(read, ["oot.z64#object_zl2", "oot.z64#object_zl2_anime1", "oot.z64#object_zl2_anime2"]);
}
