//! The caller's limits (`OpenOptions::limits`) on real object files of the OoT debug ROM: a
//! small one fails (or warns) naming exactly that limit and a byte offset; the defaults read
//! the files as before.

use boneyard_core::testdata::shared_data;
use boneyard_core::{Document, ErrorKind, Family, InputFile, Limits, OpenOptions};
use boneyard_z64::Z64;

mod common;

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
    // Link's limbs' lists call others (his skeletons in gameplay_keep, and his own object's
    // calls into segment 0xC, where his draw binds the cull mode): with no nesting allowed
    // each such list is cut, named at its own offset in its own file (segment 4 =
    // gameplay_keep, 6 = object_link_boy).
    let Some(r) = open("object_link_boy", t, Limits { max_dlist_depth: 0, ..Limits::default() }) else { return };
    let doc = r.unwrap();
    let cut: Vec<_> = doc.warnings().iter().filter(|w| w.message.contains("limit `max_dlist_depth` (0)")).collect();
    assert!(!cut.is_empty(), "no warning names max_dlist_depth");
    for w in &cut {
        let dl = w.message.split("display list 0x").nth(1).and_then(|s| u32::from_str_radix(&s[..8], 16).ok());
        let dl = dl.expect("the warning names its display list");
        let file = if dl >> 24 == 4 { "gameplay_keep" } else { "object_link_boy" };
        assert!(w.file.ends_with(file) && matches!(dl >> 24, 4 | 6), "{w:?}");
        assert_eq!(w.offset, Some(u64::from(dl & 0xFF_FFFF)), "{w:?}");
    }
    // The default depth (the RSP's 10) cuts none.
    let plain = open("object_link_boy", t, Limits::default()).unwrap().unwrap();
    assert!(!plain.warnings().iter().any(|w| w.message.contains("max_dlist_depth")));
}

/// The decomp XML's texture offsets of `object`.
fn xml_texture_offsets(object: &str, test: &str) -> Option<Vec<u64>> {
    let p = shared_data(&format!("z64/oot-decomp-xml/objects/{object}.xml"), test)?;
    let xml = std::fs::read_to_string(p).unwrap();
    Some(
        xml.lines()
            .filter(|l| l.trim_start().starts_with("<Texture "))
            .filter_map(|l| l.split("Offset=\"0x").nth(1))
            .map(|s| u64::from_str_radix(s.split('"').next().unwrap(), 16).unwrap())
            .collect(),
    )
}

#[test]
fn textures_over_max_texture_texels_are_left_out_with_warnings_at_the_texture() {
    let t = "textures_over_max_texture_texels_are_left_out_with_warnings_at_the_texture";
    let Some(textures) = xml_texture_offsets("object_dekunuts", t) else { return };
    // gDekuNutsEyeTex is 8x8 (64 texels), the leaf and body textures larger: with 64 allowed
    // the larger ones are not decoded, each named at its own offset in the XML.
    let Some(r) = open("object_dekunuts", t, Limits { max_texture_texels: 64, ..Limits::default() }) else { return };
    let doc = r.unwrap();
    let cut: Vec<_> = doc.warnings().iter().filter(|w| w.message.contains("limit `max_texture_texels` (64)")).collect();
    assert!(!cut.is_empty(), "no warning names max_texture_texels");
    for w in &cut {
        let at = w.offset.expect("an offset");
        assert!(textures.contains(&at), "{w:?} is at no texture of the decomp XML ({textures:x?})");
        assert!(w.file.ends_with("object_dekunuts"), "{w:?}");
    }
    assert!(cut.iter().any(|w| w.offset == Some(0x2368) && w.message.contains("1024 texels")), "{cut:?}");
    assert!(!cut.iter().any(|w| w.offset == Some(0x2D68)), "the 8x8 eye texture fits: {cut:?}");
    let plain = open("object_dekunuts", t, Limits::default()).unwrap().unwrap();
    assert!(!plain.warnings().iter().any(|w| w.message.contains("max_texture_texels")));
}

#[test]
fn notes_past_max_skeleton_notes_are_cut_with_one_naming_it() {
    let t = "notes_past_max_skeleton_notes_are_cut_with_one_naming_it";
    // With no texture allowed, each of the object's textures is a note of its own (one per
    // texture, merged over the meshes): more than one, so one note is listed and the last says
    // how many more.
    let few = Limits { max_texture_texels: 0, max_skeleton_notes: 1, ..Limits::default() };
    let Some(r) = open("object_dekunuts", t, few) else { return };
    let doc = r.unwrap();
    let textures = xml_texture_offsets("object_dekunuts", t).unwrap();
    let texture_notes = doc.warnings().iter().filter(|w| w.message.contains("max_texture_texels")).count();
    assert_eq!(texture_notes, 1, "{:?}", doc.warnings());
    let more: Vec<_> = doc.warnings().iter().filter(|w| w.message.contains("limit `max_skeleton_notes` (1)")).collect();
    assert_eq!(more.len(), 1, "{:?}", doc.warnings());
    let n: usize = more[0].message.split(": ").nth(1).and_then(|m| m.split(' ').next()).unwrap().parse().unwrap();
    // With the default cap every texture note is listed: one kept + n more.
    let all = open("object_dekunuts", t, Limits { max_texture_texels: 0, ..Limits::default() }).unwrap().unwrap();
    let listed = all.warnings().iter().filter(|w| w.message.contains("max_texture_texels")).count();
    assert_eq!(1 + n, listed, "{more:?}");
    assert!(listed <= textures.len(), "more notes than textures in the decomp XML");
    // Named where the first note is.
    let first = doc.warnings().iter().find(|w| w.message.contains("max_texture_texels")).unwrap();
    assert_eq!(more[0].offset, first.offset);
}

#[test]
fn limbs_over_max_limb_textures_leave_their_triangles_out_with_a_warning_naming_it() {
    let t = "limbs_over_max_limb_textures_leave_their_triangles_out_with_a_warning_naming_it";
    let Some(r) = open("object_dekunuts", t, Limits { max_limb_textures: 0, ..Limits::default() }) else { return };
    let doc = r.unwrap();
    let cut: Vec<_> = doc.warnings().iter().filter(|w| w.message.contains("(limit `max_limb_textures`)")).collect();
    assert!(!cut.is_empty(), "no warning names max_limb_textures");
    assert!(cut.iter().all(|w| w.message.contains("past the limb's 0 textures left out")), "{cut:?}");
    // Named at a limb's display list: a DList of the decomp XML.
    let xml =
        std::fs::read_to_string(shared_data("z64/oot-decomp-xml/objects/object_dekunuts.xml", t).unwrap()).unwrap();
    for w in &cut {
        let at = format!("Offset=\"0x{:X}\"", w.offset.expect("an offset"));
        assert!(xml.lines().any(|l| l.contains("<DList ") && l.contains(&at)), "{w:?}");
    }
    let plain = open("object_dekunuts", t, Limits::default()).unwrap().unwrap();
    assert!(!plain.warnings().iter().any(|w| w.message.contains("max_limb_textures")));
}

#[test]
fn skin_limbs_over_max_skin_entries_are_left_out_naming_it() {
    let t = "skin_limbs_over_max_skin_entries_are_left_out_naming_it";
    // Epona's Skin limbs (named by the decomp XML, so read strictly): with 100 entries the
    // first limbs fit and a later one does not; the open fails naming the limit, in her file.
    let Some(r) = open("object_horse", t, Limits { max_skin_entries: 100, ..Limits::default() }) else { return };
    let Err(e) = r else { panic!("object_horse opened with max_skin_entries = 100") };
    assert_eq!(e.limit_name(), Some("max_skin_entries"), "{e}");
    assert!(e.file.as_deref().is_some_and(|f| f.ends_with("object_horse")), "{e}");
    let ErrorKind::Limit(l) = &e.kind else { unreachable!() };
    assert!(l.found > 100 && l.what == "skin vertex and transformation entries", "{e}");
    // At a limb modification: inside the file, before her skeleton header (0x9D74 in the XML).
    assert!(e.offset.is_some_and(|o| o > 0 && o < 0x9D74), "{e}");
    assert!(open("object_horse", t, Limits::default()).unwrap().is_ok());
}

#[test]
fn a_yaz0_file_over_max_yaz0_bytes_names_it_at_the_size_field() {
    let t = "a_yaz0_file_over_max_yaz0_bytes_names_it_at_the_size_field";
    let Some(p) = shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", t) else { return };
    let raw = std::fs::read(&p).unwrap();
    let packed = boneyard_z64::yaz0_encode(&raw);
    let f = || InputFile::new("object_dekunuts.yaz0", packed.clone());
    let low = Limits { max_yaz0_bytes: raw.len() - 1, ..Limits::default() };
    let opts = OpenOptions { limits: low, ..Default::default() };
    let Err(e) = Z64.open(vec![f()], &opts, &boneyard_core::NoCompanions) else { panic!("opened") };
    assert_eq!(e.limit_name(), Some("max_yaz0_bytes"), "{e}");
    // The header's u32 decompressed size, at 4.
    assert_eq!(e.offset, Some(4), "{e}");
    let ErrorKind::Limit(l) = &e.kind else { unreachable!() };
    assert_eq!(l.found, raw.len() as u64);
    let exact = OpenOptions { limits: Limits { max_yaz0_bytes: raw.len(), ..Limits::default() }, ..Default::default() };
    assert!(Z64.open(vec![f()], &exact, &boneyard_core::NoCompanions).is_ok());
}

/// A ROM of `files` (built as `build_test_rom` does: header, boot, dmadata, then the files),
/// opened within `limits`.
fn open_rom(files: &[Vec<u8>], limits: Limits) -> (Vec<u8>, boneyard_core::Result<Box<dyn Document>>) {
    let rom = boneyard_z64::build_test_rom(files, false, 0);
    let opts = OpenOptions { limits, ..Default::default() };
    let r = Z64.open(vec![InputFile::new("test.z64", rom.clone())], &opts, &boneyard_core::NoCompanions);
    (rom, r)
}

/// The byte offset of DMA entry `i` of a ROM: dmadata is the 16-byte entry table whose
/// entry 2 describes itself (vromStart = its own offset).
fn dma_entry(rom: &[u8], i: usize) -> u64 {
    let be = |a: usize| u32::from_be_bytes(rom[a..a + 4].try_into().unwrap()) as usize;
    let dma = (0x1000..rom.len()).step_by(16).find(|&a| be(a + 32) == a && be(a + 36) > a).unwrap();
    (dma + 16 * i) as u64
}

#[test]
fn rom_limits_name_max_rom_entries_and_max_rom_file_bytes_at_the_dma_entry() {
    let files = vec![vec![0u8; 0x100], vec![1u8; 0x2000], vec![2u8; 0x100], vec![3u8; 0x100], vec![4u8; 0x100]];
    // Header, boot and dmadata, then the five files: 8 entries.
    let (rom, r) = open_rom(&files, Limits { max_rom_entries: 6, ..Limits::default() });
    let Err(e) = r else { panic!("a ROM of 8 DMA entries opened with max_rom_entries = 6") };
    assert_eq!(e.limit_name(), Some("max_rom_entries"), "{e}");
    assert_eq!(e.offset, Some(dma_entry(&rom, 6)), "{e}");
    let ErrorKind::Limit(l) = &e.kind else { unreachable!() };
    assert_eq!(l.found, 7, "{e}");
    assert!(e.file.as_deref() == Some("test.z64"), "{e}");
    let (_, r) = open_rom(&files, Limits { max_rom_file_bytes: 0x1FFF, ..Limits::default() });
    let Err(e) = r else { panic!("a ROM file of 0x2000 bytes opened with max_rom_file_bytes = 0x1FFF") };
    assert_eq!(e.limit_name(), Some("max_rom_file_bytes"), "{e}");
    // The second file (entry 4) is the 0x2000-byte one.
    assert_eq!(e.offset, Some(dma_entry(&rom, 4)), "{e}");
    let ErrorKind::Limit(l) = &e.kind else { unreachable!() };
    assert_eq!(l.found, 0x2000, "{e}");
}

/// The skeletons and the warnings of `name` opened with `limits`.
fn skeletons_and_warnings(name: &str, test: &str, limits: Limits) -> Option<(Vec<String>, Vec<String>)> {
    let doc = open(name, test, limits)?.unwrap();
    let skels = doc.skeletons().iter().map(|s| s.name.clone()).collect();
    Some((skels, doc.warnings().iter().map(|w| w.to_string()).collect()))
}

#[test]
fn the_legacy_limb_table_scan_stops_at_max_legacy_table_reads_with_a_warning() {
    let t = "the_legacy_limb_table_scan_stops_at_max_legacy_table_reads_with_a_warning";
    // object_human holds the decomp's LegacyAnimations; their limb tables are found by the scan.
    let Some((all, quiet)) = skeletons_and_warnings("object_human", t, Limits::default()) else { return };
    assert!(!quiet.iter().any(|w| w.contains("max_legacy_table_reads")), "{quiet:?}");
    let (cut, warned) =
        skeletons_and_warnings("object_human", t, Limits { max_legacy_table_reads: 1, ..Limits::default() }).unwrap();
    eprintln!("object_human: {} skeletons, {} with max_legacy_table_reads = 1: {warned:?}", all.len(), cut.len());
    assert!(warned.iter().any(|w| w.contains("work budget is used up (limit `max_legacy_table_reads`)")), "{warned:?}");
    // The limb table the decomp names (gHumanLimbTable) is read from the asset reading, not
    // found by the scan, so it stays; what the budget cut is the scan's own candidates.
    assert_eq!(cut, all);
}

#[test]
fn the_curve_skeleton_scan_stops_at_max_scan_work_with_a_warning() {
    let t = "the_curve_skeleton_scan_stops_at_max_scan_work_with_a_warning";
    // object_box: the chest's curve skeleton and its curve animations.
    let Some((all, quiet)) = skeletons_and_warnings("object_box", t, Limits::default()) else { return };
    assert!(!quiet.iter().any(|w| w.contains("max_scan_work")), "{quiet:?}");
    let (cut, warned) =
        skeletons_and_warnings("object_box", t, Limits { max_scan_work: 1, ..Limits::default() }).unwrap();
    eprintln!("object_box: {all:?}; with max_scan_work = 1: {cut:?} {warned:?}");
    assert!(warned.iter().any(|w| w.contains("work budget is used up (limit `max_scan_work`)")), "{warned:?}");
    // Both skeletons are the decomp's named ones, read whatever the scan's budget.
    assert_eq!(cut, all);
}

/// A document of many skeletons (a ROM's) opened on `threads` of rayon's threads within
/// `limits`: each skeleton's name, meshes (every field, texels included) and which earlier
/// mesh's pixels each texture shares; and the warnings.
fn made_on(threads: usize, rom: &[u8], limits: Limits) -> (Vec<String>, Vec<String>) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    let opts = OpenOptions { limits, ..Default::default() };
    let doc = pool
        .install(|| Z64.open(vec![InputFile::new("test.z64", rom.to_vec())], &opts, &boneyard_core::NoCompanions))
        .unwrap();
    let mut pixels: Vec<std::sync::Arc<[u8]>> = Vec::new();
    let mut skels = Vec::new();
    for s in doc.skeletons() {
        let mut text = format!("{} {:?}", s.name, s.meshes);
        for t in s.meshes.iter().filter_map(|m| m.texture.as_ref()) {
            let first = pixels.iter().position(|p| std::sync::Arc::ptr_eq(p, &t.rgba)).unwrap_or_else(|| {
                pixels.push(t.rgba.clone());
                pixels.len() - 1
            });
            text.push_str(&format!(" shares {first}"));
        }
        skels.push(text);
    }
    (skels, doc.warnings().iter().map(|w| w.to_string()).collect())
}

#[test]
fn many_skeletons_made_on_two_threads_are_those_made_in_order_whatever_their_budgets_cut() {
    let t = "many_skeletons_made_on_two_threads_are_those_made_in_order_whatever_their_budgets_cut";
    // Objects with skeletons, display lists and textures (shared within the object), the
    // horse's skin limbs: a ROM of them is one document of more skeletons (11) than the
    // document makes apart on rayon's threads (8).
    let names = [
        "object_bba",
        "object_bg",
        "object_bji",
        "object_box",
        "object_cow",
        "object_dekunuts",
        "object_dog",
        "object_fa",
        "object_fr",
        "object_horse",
        "object_gi_bean",
        "object_gi_key",
        "object_gi_coin",
    ];
    let mut files = Vec::new();
    for n in names {
        let Some(p) = shared_data(&format!("z64/oot-gc-eu-mq-dbg/{n}"), t) else { return };
        files.push(std::fs::read(p).unwrap());
    }
    // MM keyframe objects (our own encoder's: no MM file is in the shared data), which only
    // the ROM file filter's budgeted tries keep.
    for _ in 0..3 {
        files.push(common::kf_standard_object());
        files.push(common::kf_flex_object());
    }
    let rom = boneyard_z64::build_test_rom(&files, false, 0);
    let (plain, _) = made_on(1, &rom, Limits::default());
    assert!(plain.len() >= 10, "{} skeletons", plain.len());
    // The budgets cut after a few skeletons, in the middle of the document and at its end:
    // skeletons made apart past the cut are made again in order.
    let cuts = [
        ("defaults", Limits::default()),
        ("max_document_commands", Limits { max_document_commands: 300, ..Limits::default() }),
        ("max_document_commands", Limits { max_document_commands: 2_000, ..Limits::default() }),
        ("max_document_commands", Limits { max_document_commands: 5_000, ..Limits::default() }),
        ("max_document_texels", Limits { max_document_texels: 20_000, ..Limits::default() }),
        ("max_document_texels", Limits { max_document_texels: 60_000, ..Limits::default() }),
        ("max_skin_entries", Limits { max_skin_entries: 100, ..Limits::default() }),
        ("max_scan_work", Limits { max_scan_work: 5, ..Limits::default() }),
        ("max_scan_work", Limits { max_scan_work: 11, ..Limits::default() }),
        ("max_scan_work", Limits { max_scan_work: 2000, ..Limits::default() }),
    ];
    for &(limit, limits) in &cuts {
        let one = made_on(1, &rom, limits);
        let meshes: Vec<usize> = one.0.iter().map(|s| s.matches("Mesh {").count()).collect();
        let naming = one.1.iter().filter(|w| w.contains(limit)).count();
        println!("{limit}: meshes by skeleton {meshes:?}, {naming} warnings naming it");
        let two = made_on(2, &rom, limits);
        assert_eq!(one.0.len(), two.0.len(), "{limit}");
        for (a, b) in one.0.iter().zip(&two.0) {
            assert!(a == b, "{limit}: {} differs on two threads", a.split(' ').next().unwrap_or_default());
        }
        assert_eq!(one.1, two.1, "{limit}");
        if limit != "defaults" {
            // It did cut something, naming the limit.
            assert!(one.1.iter().any(|w| w.contains(limit)), "{limit}: nothing cut");
        }
    }
    println!(
        "{} skeletons of {} objects: the same on two threads as on one, under {} budgets",
        plain.len(),
        names.len(),
        cuts.len()
    );
}
