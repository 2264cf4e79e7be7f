//! Bad and hostile input: errors with the file and the byte offset, never a panic.

mod common;

use boneyard_core::document::Document;
use boneyard_core::family::InputFile;
use boneyard_core::testdata::shared_data;
use boneyard_z64::{demo_files, open_files};
use boneyard_z64::{Ctx, SegFile};
use proptest::prelude::*;

fn dekunuts(test: &str) -> Option<Vec<u8>> {
    shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", test).map(|p| std::fs::read(p).unwrap())
}

fn open_named(name: &str, data: Vec<u8>) -> boneyard_core::Result<boneyard_z64::Z64Document> {
    open_files(vec![InputFile::new(name, data)])
}

/// A named entry whose bytes are broken is left out with a warning naming the file and the
/// offset of the broken bytes (the asset table's entries are claims, checked): the warning
/// at `offset`.
fn warning_at(name: &str, data: Vec<u8>, offset: u64) -> boneyard_core::Warning {
    let doc = open_named(name, data).unwrap();
    let w = doc.warnings().iter().find(|w| w.offset == Some(offset));
    let w = w.unwrap_or_else(|| panic!("no warning at {offset:#x}: {:?}", doc.warnings())).clone();
    assert_eq!(w.file, name);
    w
}

/// Open, then walk everything the document offers; only errors, never panics.
fn exercise(name: &str, data: Vec<u8>) {
    let Ok(doc) = open_named(name, data) else { return };
    for a in doc.animations() {
        for f in [0.0, a.frames as f64 - 1.0, -1.5, 1e12] {
            let _ = doc.sample(a.index, f);
            for s in 0..doc.skeletons().len() {
                let _ = doc.pose(s, Some(a.index), f);
            }
        }
    }
    for s in 0..doc.skeletons().len() {
        let _ = doc.pose(s, None, 0.0);
    }
    let _ = doc.check();
}

#[test]
fn pointer_outside_the_segment() {
    let Some(mut d) = dekunuts("pointer_outside_the_segment") else { return };
    d[0x3268..0x326C].copy_from_slice(&0x06FF_FF00u32.to_be_bytes());
    let w = warning_at("object_dekunuts", d, 0x3268);
    assert!(w.message.contains("outside segment 6") && w.message.contains("gDekuNutsSkel"), "{w}");
}

#[test]
fn cyclic_limb_tree() {
    let Some(mut d) = dekunuts("cyclic_limb_tree") else { return };
    // Limb 1 (at 0x30F4, from the limb table at 0x3208) becomes its own child.
    d[0x30F4 + 6] = 1;
    let w = warning_at("object_dekunuts", d, 0x30F4);
    assert!(w.message.contains("cyclic"), "{w}");
}

#[test]
fn limb_index_out_of_range() {
    let Some(mut d) = dekunuts("limb_index_out_of_range") else { return };
    d[0x30F4 + 7] = 200; // sibling 200 of 24 limbs
    warning_at("object_dekunuts", d, 0x30F4 + 7);
}

#[test]
fn joint_index_past_the_frame_data() {
    let Some(mut d) = dekunuts("joint_index_past_the_frame_data") else { return };
    // gDekuNutsSpitAnim: jointIndices at 0x12C, 150 values, staticIndexMax 6.
    d[0x12C..0x12E].copy_from_slice(&0x0100u16.to_be_bytes());
    let w = warning_at("object_dekunuts", d, 0x12C);
    assert!(w.message.contains("past the 150 values") && w.message.contains("gDekuNutsSpitAnim"), "{w}");
}

#[test]
fn more_than_255_limbs() {
    // A NULL-terminated legacy limb table of 300 pointers to one limb.
    let mut data = vec![0u8; 0x20];
    for _ in 0..300 {
        data.extend_from_slice(&0x0600_0000u32.to_be_bytes());
    }
    data.extend_from_slice(&[0; 4]);
    let files = [SegFile { name: "t".into(), stem: "t".into(), shown: "t".into(), segment: 6, data, lenient: false }];
    let mut map = [None; 16];
    map[6] = Some(0);
    let ctx = Ctx::new(&files, map, 0);
    let e = boneyard_z64::read_legacy_skeleton(&ctx, 0x0600_0020, None, 0, "t".into()).unwrap_err();
    assert!(e.to_string().contains("1..=255"), "{e}");
}

#[test]
fn empty_and_garbage_inputs_are_errors() {
    assert!(open_named("object_empty", vec![]).is_err());
    // Named as an object, 4 KiB of zeros is an object with nothing in it: an empty document.
    let zeros = open_named("object_zeros", vec![0; 4096]).unwrap();
    assert!(zeros.skeletons().is_empty() && zeros.animations().is_empty());
    assert!(open_named("zeros.dat", vec![0; 4096]).is_err());
    let mut fake_rom = vec![0x80, 0x37, 0x12, 0x40];
    fake_rom.resize(0x2000, 0);
    let e = open_named("fake.z64", fake_rom).err().unwrap();
    assert_eq!(e.file.as_deref(), Some("fake.z64"));
}

fn seeds() -> Vec<(String, Vec<u8>)> {
    let mut v = vec![
        ("object_boneyard_demo.zobj".to_string(), demo_files().unwrap().remove(0).1),
        ("object_kftest.zobj".to_string(), common::kf_standard_object()),
        ("object_kfflex.zobj".to_string(), common::kf_flex_object()),
        ("object_curvetest.zobj".to_string(), common::curve_object()),
        ("object_skintest.zobj".to_string(), common::skin_object()),
    ];
    if let Some(d) = dekunuts("hostile_mutations") {
        v.push(("object_dekunuts".into(), d));
    }
    // object_ganon: two readings of the asset table (NTSC, PAL) to choose between.
    for (rel, name) in [
        ("oot-gc-eu-mq-dbg/object_human", "object_human"),
        ("fan/Aria_Hiro_Child_OOTO.zobj", "fan.zobj"),
        ("oot-gc-eu-mq-dbg/object_ganon", "object_ganon"),
    ] {
        if let Some(p) = shared_data(&format!("z64/{rel}"), "hostile_mutations") {
            v.push((name.into(), std::fs::read(p).unwrap()));
        }
    }
    v
}

proptest! {
    // Z64_CASES=N runs more cases (the default keeps `cargo test` quick).
    #![proptest_config(ProptestConfig {
        cases: std::env::var("Z64_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(96),
        .. ProptestConfig::default()
    })]

    #[test]
    fn random_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..4096)) {
        exercise("object_random", data.clone());
        let _ = boneyard_z64::yaz0_decode(&data, None);
        let mut with_magic = b"Yaz0".to_vec();
        with_magic.extend_from_slice(&data);
        let _ = boneyard_z64::yaz0_decode(&with_magic, None);
        let mut r = vec![0x80, 0x37, 0x12, 0x40];
        r.extend_from_slice(&data);
        let _ = boneyard_z64::read_rom(&r, &boneyard_core::Limits::default());
    }

    #[test]
    fn mutated_objects_never_panic(muts in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..24), which in 0usize..10) {
        let seeds = seeds();
        let (name, mut data) = seeds[which % seeds.len()].clone();
        for (at, v) in muts {
            let n = data.len();
            data[at % n] = v;
        }
        exercise(&name, data);
    }

    #[test]
    fn mutated_roms_never_panic(muts in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..16)) {
        static ROM: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
        let mut data = ROM
            .get_or_init(|| {
                let obj = demo_files().unwrap().remove(0).1;
                boneyard_z64::build_test_rom_named(&[(&obj, true), (&obj, false)], Some(&["object_dekunuts", "object_x"]), 3)
            })
            .clone();
        for (at, v) in muts {
            let n = data.len();
            data[at % n] = v;
        }
        exercise("mut.z64", data);
    }
}

/// `skeletons` skeletons of 255 limbs whose display lists all loop for ever: a chain of 66
/// branches (`G_DL` branch at 8i to 8(i+1)), the last two branching to each other, past the
/// branches the decoder remembers for cutting loops. Open must stay bounded by a
/// document-wide budget, not run 65536 commands a limb for every skeleton.
fn looping_display_lists(skeletons: usize) -> Vec<u8> {
    let mut o = common::Obj(Vec::new());
    for i in 0..67u32 {
        let to = if i == 66 { 8 * 65 } else { 8 * (i + 1) };
        o.u8(0xDE).u8(0x01).s16(0).ptr(to);
    }
    // One Standard limb after: pos (0,0,0), no child/sibling, display list at 0.
    let limb = o.0.len() as u32;
    o.s16(0).s16(0).s16(0).u8(0xFF).u8(0xFF).ptr(0);
    for _ in 0..skeletons {
        let table = o.0.len() as u32;
        for _ in 0..255 {
            o.ptr(limb);
        }
        o.ptr(table).u8(255).u8(0).s16(0);
    }
    o.0
}

#[test]
fn self_branching_display_lists_stay_bounded() {
    let start = std::time::Instant::now();
    let doc = open_named("object_loops", looping_display_lists(24)).unwrap();
    assert_eq!(doc.skeletons().len(), 24);
    let notes = doc.skeletons()[0].extra["mesh_notes"].to_string();
    assert!(notes.contains("commands"), "{notes}");
    let last = doc.skeletons()[23].extra["mesh_notes"].to_string();
    assert!(last.contains("budget"), "{last}");
    // Every note is a warning too, with the file and an offset.
    let w = doc.warnings();
    assert!(w.iter().any(|w| w.message.contains("budget")), "{w:?}");
    assert!(w.iter().all(|w| w.file == "object_loops" && w.offset.is_some()), "{w:?}");
    // Not an assertion (no timed tests): the figure, for whoever reads the log.
    eprintln!("took {:?}", start.elapsed());
}

/// `count` normal animations of 32767 frames, 2 joints each, all static (one shared frame
/// value): a few KB whose `check` would sample count x 32767 joint tables.
fn many_long_animations(count: usize) -> Vec<u8> {
    let mut o = common::Obj(vec![0; 8]); // frame data: 4 values of 0
    for _ in 0..count {
        let ji = o.0.len() as u32;
        o.0.extend_from_slice(&[0; 12]); // 2 joints, indices 0 (static)
        o.s16(0x7FFF).s16(0).ptr(0).ptr(ji).s16(4).s16(0);
    }
    o.0
}

#[test]
fn check_of_many_long_animations_is_bounded() {
    let start = std::time::Instant::now();
    let doc = open_named("object_longanims", many_long_animations(2000)).unwrap();
    assert_eq!(doc.animations().len(), 2000);
    assert_eq!(doc.animations()[0].frames, 0x7FFF);
    let e = doc.check().unwrap_err();
    assert!(e.to_string().contains("joint values"), "{e}");
    assert_eq!(e.file.as_deref(), Some("object_longanims"));
    // Not an assertion (no timed tests): the figure, for whoever reads the log.
    eprintln!("took {:?}", start.elapsed());
}

/// A ROM whose DMA entries all name the same 16 MiB Yaz0 stream: it is read once (the games'
/// files never overlap), the 200 others each said, not decompressed (200 x 16 MiB); and
/// distinct streams are bounded in total.
#[test]
fn dma_entries_sharing_one_big_stream_are_bounded() {
    let big = vec![0u8; 16 << 20];
    let small = [0u8; 16];
    let mut files: Vec<(&[u8], bool)> = vec![(&big, true)];
    files.extend(std::iter::repeat_n((&small[..], true), 200));
    let mut r = boneyard_z64::build_test_rom_with(&files, 3);
    let (info, ok) = boneyard_z64::read_rom(&r, &boneyard_core::Limits::default()).unwrap();
    assert_eq!(ok.len(), 204);
    let entry = |i: usize| info.dmadata + i * 16;
    let big_entry: Vec<u8> = r[entry(3)..entry(3) + 16].to_vec();
    for i in 4..204 {
        let at = entry(i);
        r[at..at + 16].copy_from_slice(&big_entry);
    }
    let (info, ok) = boneyard_z64::read_rom(&r, &boneyard_core::Limits::default()).unwrap();
    assert_eq!(ok.len(), 4, "header, boot, dmadata and the stream, once");
    assert_eq!(info.overlapping.len(), 200);
    assert_eq!(info.overlapping[0], (4, 3, entry(4) as u64));
    // Nine distinct 16 MiB streams: entries 0..3 (header, boot, dmadata) take a few KB; eight
    // 16 MiB files (3..=10) pass 128 MiB.
    let files: Vec<(&[u8], bool)> = std::iter::repeat_n((&big[..], true), 9).collect();
    let r = boneyard_z64::build_test_rom_with(&files, 3);
    let e = boneyard_z64::read_rom(&r, &boneyard_core::Limits::default()).unwrap_err();
    assert!(e.to_string().contains("decompress"), "{e}");
    assert_eq!(e.limit_name(), Some("max_rom_bytes"), "{e}");
    assert_eq!(boneyard_core::Limits::default().max_rom_bytes, 128 << 20);
    assert_eq!(e.offset, Some(entry(10) as u64), "{e}");
}

/// One skeleton of 255 limbs sharing a display list that draws 64 triangles, each with its own
/// 256x256 I8 texture (addresses one byte apart): 255 x 64 x 65536 texels (4 GiB of RGBA)
/// unless the document's texel budget stops it.
fn texture_bomb() -> Vec<u8> {
    let mut dl: Vec<u32> = Vec::new();
    for g in 0..64u32 {
        dl.extend([0xFD88_0000, 0x0600_1100 + g]); // G_SETTIMG I8 at 0x1100 + g
        dl.extend([0xF300_0000, 0]); // G_LOADBLOCK
        dl.extend([0xF588_0000, 0]); // G_SETTILE 0: I8
        dl.extend([0xF200_0000, 0x003F_C3FC]); // G_SETTILESIZE 0: 256 x 256
        dl.extend([0xD700_0002, 0xFFFF_FFFF]); // G_TEXTURE on
        dl.extend([0x0100_3006, 0x0600_1000]); // G_VTX 3 at 0x1000 into 0..3
        dl.extend([0x0500_0204, 0]); // G_TRI1 0 1 2
    }
    dl.extend([0xDF00_0000, 0]);
    let mut o = common::Obj(dl.iter().flat_map(|w| w.to_be_bytes()).collect());
    o.at(0x1000);
    for v in [[0, 0, 0], [100, 0, 0], [0, 100, 0]] {
        o.s16(v[0]).s16(v[1]).s16(v[2]).s16(0).s16(0).s16(0).u8(255).u8(255).u8(255).u8(255);
    }
    o.at(0x1040).s16(0).s16(0).s16(0).u8(0xFF).u8(0xFF).ptr(0);
    o.at(0x1100);
    o.0.extend((0..65536 + 64).map(|i| i as u8));
    let table = o.0.len() as u32;
    for _ in 0..255 {
        o.ptr(0x1040);
    }
    o.ptr(table).u8(255).u8(0).s16(0);
    o.0
}

#[test]
fn texture_decoding_is_bounded_by_the_document_budget() {
    let doc = open_named("object_texbomb", texture_bomb()).unwrap();
    let s = &doc.skeletons()[0];
    assert_eq!(s.meshes.len(), 255 * 64);
    let texels: usize = s.meshes.iter().filter_map(|m| m.texture.as_ref()).map(|t| t.rgba.len() / 4).sum();
    assert_eq!(texels, boneyard_core::Limits::default().max_document_texels);
    // The first texture: I8 texel i is the byte at 0x1100 + i.
    let t = s.meshes[0].texture.as_ref().unwrap();
    assert_eq!((t.width, t.height, &t.rgba[4..8]), (256, 256, &[1u8, 1, 1, 1][..]));
}

/// 64 KiB of distinct limb pointers, then a legacy animation header for every limb count
/// 1..=255: the legacy limb table scan would read up to 255 pointers at every word for every
/// count (half a billion reads) unless its work is bounded.
fn legacy_table_bomb() -> Vec<u8> {
    let mut o = common::Obj(Vec::new());
    for i in 0..0x4000u32 {
        o.ptr(4 * i);
    }
    for c in 1..=255u32 {
        let h = 0x10000 + 16 * c as usize;
        let keys = h as u32 - (c + 1) * 12;
        o.at(h).s16(1).s16(c as i16).ptr(0).ptr(keys);
    }
    o.0
}

/// What bounds the work is the scan's budget, not the clock: the document says the budget
/// ran out (a warning) instead of trying every candidate.
fn budget_used_up(doc: &boneyard_z64::Z64Document) -> bool {
    use boneyard_core::Document;
    doc.warnings().iter().any(|w| w.message.contains("work budget is used up"))
}

#[test]
fn legacy_limb_table_scan_is_bounded() {
    match open_named("object_legacybomb", legacy_table_bomb()) {
        Ok(doc) => assert!(budget_used_up(&doc) || doc.skeletons().len() <= 64, "{:?}", doc.skeletons().len()),
        Err(e) => assert!(e.offset.is_some(), "{e}"),
    }
}

/// 1 MiB of keyframe skeleton headers (255 limbs, 1 display list) all naming one table of
/// zeroed limbs: each candidate reads 255 limbs twice (standard, flex) before failing, unless
/// the scan's work is bounded.
fn keyframe_header_bomb() -> Vec<u8> {
    let mut o = common::Obj(Vec::new());
    for _ in 0..(1 << 17) {
        o.u8(255).u8(1).s16(0).ptr(1 << 20);
    }
    o.0.resize((1 << 20) + 255 * 12, 0);
    o.0
}

#[test]
fn keyframe_skeleton_scan_is_bounded() {
    // Every candidate names zeroed limbs: none is a skeleton. (A scan without its budget
    // would take minutes here; CI's time limit is the clock, the assertion is the result.)
    let doc = open_named("object_kfbomb", keyframe_header_bomb()).unwrap();
    assert!(doc.skeletons().is_empty() || budget_used_up(&doc), "{}", doc.skeletons().len());
}

/// `skels` one-limb skeletons then `anims` two-joint animations: pairing each animation with
/// the skeletons must not cost animations x skeletons.
fn many_skeletons_and_animations(skels: usize, anims: usize) -> Vec<u8> {
    let mut o = common::Obj(vec![0; 8]); // frame data: 4 values of 0
    o.s16(0).s16(0).s16(0).u8(0xFF).u8(0xFF).u32(0); // the limb at 8, no display list (a null pointer, not the file's start)
    for _ in 0..skels {
        let table = o.0.len() as u32;
        o.ptr(8).ptr(table).u8(1).u8(0).s16(0);
    }
    for _ in 0..anims {
        let ji = o.0.len() as u32;
        o.0.extend_from_slice(&[0; 12]);
        o.s16(1).s16(0).ptr(0).ptr(ji).s16(4).s16(0);
    }
    o.0
}

#[test]
fn pairing_many_animations_with_many_skeletons_is_linear() {
    let start = std::time::Instant::now();
    let doc = open_named("object_many", many_skeletons_and_animations(8000, 40000)).unwrap();
    assert_eq!((doc.skeletons().len(), doc.animations().len()), (8000, 40000));
    assert_eq!(doc.animations()[39999].skeleton, Some(0));
    // The limbs draw nothing: the time is the pairing's, not display lists' (a limb pointing
    // at the file's start once ran the document's whole command budget, minutes in the test build).
    assert!(doc.skeletons().iter().all(|s| s.meshes.is_empty()));
    // Not an assertion (no timed tests): the figure, for whoever reads the log.
    eprintln!("took {:?}", start.elapsed());
}

/// Link's animation headers in gameplay_keep (0x2310, 573 of 8 bytes) mutated: frame counts
/// past link_animetion, pointers into other segments; every call answers, none panics.
#[test]
fn mutated_link_headers_never_panic() {
    let (Some(gk), Some(la), Some(boy)) = (
        shared_data("z64/oot-gc-eu-mq-dbg/gameplay_keep", "mutated_link_headers_never_panic"),
        shared_data("z64/oot-gc-eu-mq-dbg/link_animetion", "mutated_link_headers_never_panic"),
        shared_data("z64/oot-gc-eu-mq-dbg/object_link_boy", "mutated_link_headers_never_panic"),
    ) else {
        return;
    };
    let read = |p: &std::path::Path| std::fs::read(p).unwrap();
    let (gk, la, boy) = (read(&gk), read(&la), read(&boy));
    let mut x: u32 = 0x9E37_79B9;
    let mut rand = move || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    for round in 0..6 {
        let mut g = gk.clone();
        for _ in 0..1 + round {
            let at = 0x2310 + rand() as usize % (573 * 8);
            g[at] = rand() as u8;
        }
        let files = vec![
            InputFile::new("object_link_boy", boy.clone()),
            InputFile::new("gameplay_keep", g),
            InputFile::new("link_animetion", la.clone()),
        ];
        let doc = match open_files(files) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("round {round}: {e}");
                continue;
            }
        };
        for a in doc.animations().iter().step_by(37) {
            for f in [0.0, a.frames as f64 - 1.0, -1.0, 0.5, 1e300] {
                let _ = doc.sample(a.index, f);
                if let Some(s) = a.skeleton {
                    let _ = doc.pose(s, Some(a.index), f);
                }
            }
        }
    }
}

#[test]
fn a_pointer_leading_nowhere_is_reported_where_it_is_stored() {
    let Some(mut d) = dekunuts("a_pointer_leading_nowhere_is_reported_where_it_is_stored") else { return };
    // gDekuNutsSpitAnim's AnimationHeader at 0x1C4 (bytes 0012 0000 06000000 0600012C 0006):
    // its jointIndices pointer, at 0x1C4 + 8, now points past the end of segment 6. The
    // warning names the pointer's bytes (0x1CC), not the header (0x1C4) nor the pointer's
    // value (0xFFFF00, past the end of the file).
    assert_eq!(d[0x1CC..0x1D0], 0x0600_012Cu32.to_be_bytes());
    d[0x1CC..0x1D0].copy_from_slice(&0x06FF_FF00u32.to_be_bytes());
    let w = warning_at("object_dekunuts", d, 0x1CC);
    assert!(w.message.contains("outside segment 6") && w.message.contains("gDekuNutsSpitAnim"), "{w}");
}

/// fuzz/artifacts/z64_mesh/crash-7288a795: an IA4 texture (3 bits of intensity, 1 of alpha)
/// overflowed u8 in `7 * 255 / 7` (a panic with debug assertions, wrong greys without: 251 / 7
/// for intensity 5). By hand: intensity i is i * 255 / 7 in integers.
#[test]
fn ia4_intensities_do_not_overflow() {
    use boneyard_z64::{decode_texture as decode, FMT_IA};
    // Nibbles F (i 7, a 1), 1 (i 0, a 1), A (i 5, a 0), 6 (i 3, a 0).
    let t = decode(FMT_IA, 0, 4, 1, &[0xF1, 0xA6], None).unwrap();
    assert_eq!(t.rgba[..], [255, 255, 255, 255, 0, 0, 0, 255, 182, 182, 182, 0, 109, 109, 109, 0]);
    // The crasher: 16x4 IA4 texels of 0x62 ("b").
    let t = decode(FMT_IA, 0, 16, 4, &[0x62; 47], None).unwrap();
    assert_eq!(&t.rgba[..8], &[109, 109, 109, 0, 36, 36, 36, 0]);
}

/// A ModLoader64 header cut short before its skeleton pointer (at 0x500C) is a warning naming
/// that offset, not a pointer read as 0.
#[test]
fn modloader_header_cut_short_is_a_warning_at_its_pointer() {
    let mut data = vec![0u8; 0x500E];
    data[0x5000..0x500B].copy_from_slice(b"MODLOADER64");
    let w = warning_at("object_cut.zobj", data, 0x500C);
    assert!(w.message.contains("MODLOADER64") && w.message.contains("cut short"), "{w}");
}

/// Headers that share one key table (`at..at + size` of `object` copied `copies` times at its
/// end): every copy is an animation of its own, and each samples as the first does. Each load
/// reads the whole table: at open, every header read it again (a crafted file of 1,000
/// headers over one 3 MB table took 1.7 s), and sampling read it again at every frame.
fn shared_key_table(name: &str, object: Vec<u8>, at: usize, size: usize, copies: usize, frames: &[f64]) {
    let mut data = object;
    let header = data[at..at + size].to_vec();
    for _ in 0..copies {
        data.extend_from_slice(&header);
    }
    data.extend_from_slice(&[0; 16]);
    let doc = open_named(name, data).unwrap();
    let anims = doc.animations();
    assert_eq!(anims.len(), 1 + copies, "{name}");
    for a in anims {
        for &f in frames {
            assert_eq!(doc.table_at(a.index, f).unwrap(), doc.table_at(0, f).unwrap(), "{name}: {} at {f}", a.name);
        }
    }
}

#[test]
fn headers_sharing_one_key_table_are_read_once() {
    shared_key_table("object_kftest.zobj", common::kf_standard_object(), 0x7C, 0x14, 500, &[0.0, 2.5, 5.0, 10.0]);
    shared_key_table("object_kfflex.zobj", common::kf_flex_object(), 0x74, 0x14, 500, &[0.0, 1.5, 4.0]);
    shared_key_table("object_curvetest.zobj", common::curve_object(), 0xB4, 0x10, 500, &[0.0, 2.5, 5.0, 9.0]);
}

#[test]
fn keyframe_tables_are_charged_once_against_max_animation_bytes() {
    // 500 headers over one fixture table: charged once, so a budget of a kilobyte (the table
    // is a few dozen bytes decoded, 500 of it well over) opens them all; a budget of 8 bytes
    // refuses the first, naming the limit.
    let mut data = common::kf_standard_object();
    let header = data[0x7C..0x90].to_vec();
    for _ in 0..500 {
        data.extend_from_slice(&header);
    }
    data.extend_from_slice(&[0; 16]);
    let open = |max: usize| {
        let limits = boneyard_core::Limits { max_animation_bytes: max, ..Default::default() };
        let inputs = vec![InputFile::new("object_kftest.zobj", data.clone())];
        boneyard_z64::open_files_limited(inputs, &[], None, Default::default(), &boneyard_core::NoCompanions, &limits)
    };
    assert_eq!(open(1000).unwrap().animations().len(), 501);
    let Err(e) = open(8) else { panic!("a keyframe table over an 8-byte budget opened") };
    assert_eq!(e.limit_name(), Some("max_animation_bytes"), "{e}");
    assert_eq!(e.file.as_deref(), Some("object_kftest.zobj"), "{e}");
}

/// The files of a ROM are decompressed on rayon's threads after its table is walked: the error
/// is still the first in the table's order. A file that does not decompress (entry 4) comes
/// before a broken entry after it (entry 6, vromEnd before vromStart); mended, the table's
/// error is the one said.
#[test]
fn a_rom_error_is_the_first_in_table_order() {
    let files: Vec<Vec<u8>> = (0..5u8).map(|k| (0..600u32).map(|i| (i % (7 + u32::from(k))) as u8).collect()).collect();
    let good = boneyard_z64::build_test_rom(&files, true, 3);
    let limits = boneyard_core::Limits::default();
    let (info, read) = boneyard_z64::read_rom(&good, &limits).expect("the ROM reads");
    assert_eq!(read.iter().skip(3).map(|f| &f.data).collect::<Vec<_>>(), files.iter().collect::<Vec<_>>());
    let entry = |k: usize| info.dmadata + k * 16;
    let word = |rom: &[u8], at: usize| u32::from_be_bytes(rom[at..at + 4].try_into().unwrap()) as usize;
    let mut bad = good.clone();
    // Entry 6: vromEnd before vromStart.
    let vs = word(&bad, entry(6));
    bad[entry(6) + 4..entry(6) + 8].copy_from_slice(&(vs as u32 - 1).to_be_bytes());
    let table_only = boneyard_z64::read_rom(&bad, &limits).unwrap_err();
    assert!(table_only.to_string().contains("DMA entry 6: vromEnd"), "{table_only}");
    assert_eq!(table_only.offset, Some(entry(6) as u64));
    // Entry 4's stream: its first group a back-reference before anything is made.
    let rs = word(&bad, entry(4) + 8);
    bad[rs + 16..rs + 19].copy_from_slice(&[0x00, 0x20, 0x05]);
    let both = boneyard_z64::read_rom(&bad, &limits).unwrap_err();
    assert!(both.to_string().contains("Yaz0 back-reference"), "{both}");
    assert_eq!(both.offset, Some(rs as u64 + 17));
}
