//! Hostile input: every parser on mutated real and encoded bytes must return (Ok or an error
//! naming an offset) and never panic; specific corruptions give errors at the right offset.

use boneyard_core::testdata::shared_data;
use boneyard_core::Document;
use boneyard_shenmue::encode_file_raw;
use boneyard_shenmue::MotnFile;
use boneyard_shenmue::{demo_files, open_bytes, Mt5};
use proptest::prelude::*;

/// Real sequences (by table index) cut from motion.bin and re-wrapped in a small MOTN file,
/// with the absolute offset of each sequence in the new file.
fn real_slices(indices: &[usize]) -> Option<(Vec<u8>, Vec<usize>)> {
    static REAL: std::sync::OnceLock<Option<(Vec<u8>, MotnFile)>> = std::sync::OnceLock::new();
    let (d, f) = REAL
        .get_or_init(|| {
            let p = shared_data("shenmue/motion.bin", "hostile real_slices")?;
            let d = std::fs::read(p).ok()?;
            let f = MotnFile::parse(&d).ok()?;
            Some((d, f))
        })
        .as_ref()?;
    let seqs: Vec<(String, Vec<u8>)> = indices
        .iter()
        .map(|&i| {
            let e = &f.entries[i];
            let b = &f.blocks[e.block];
            let len = b.region_end - b.offset - b.motion().map_or(0, |m| m.trailing);
            (e.name.to_string(), d[b.offset..b.offset + len].to_vec())
        })
        .collect();
    let file = encode_file_raw(&seqs);
    let g = MotnFile::parse(&file).ok()?;
    let offs = g.entries.iter().map(|e| g.blocks[e.block].offset).collect();
    Some((file, offs))
}

/// Open and use everything; returns whether the bytes opened (so the sampling, posing and
/// check paths ran).
fn exercise(bytes: &[u8]) -> bool {
    let opened = open_bytes(&[("x.bin".into(), bytes)]);
    let ok = opened.is_ok();
    if let Ok(doc) = opened {
        let _ = doc.files();
        for w in doc.warnings() {
            let _ = w.to_string();
        }
        for a in doc.animations().iter().take(8) {
            let last = f64::from(a.frames);
            for f in [0.0, 0.5, 3.0, last - 1.0, last, 1e12, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -1.0] {
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
    let _ = Mt5::parse(bytes);
    let _ = boneyard_shenmue::read_pkf(bytes);
    let _ = boneyard_shenmue::read_pks(bytes);
    let _ = boneyard_shenmue::read_afs(bytes);
    let _ = boneyard_shenmue::read_ipac(bytes, 0);
    ok
}

/// The mutation tests must reach sampling, posing and check, not stop at open: most single
/// byte changes of a real or encoded file still open (a value changes, not the layout).
#[test]
fn mutations_mostly_reach_sampling() {
    let files = demo_files().unwrap();
    let mut rng = boneyard_core::testdata::XorShift64(0x2545_F491_4F6C_DD1D);
    let mut next = || rng.next_u64();
    for (name, d) in &files {
        let mut opened = 0;
        for _ in 0..100 {
            let mut m = d.clone();
            let i = (next() % m.len() as u64) as usize;
            m[i] = next() as u8;
            opened += usize::from(exercise(&m));
        }
        assert!(opened >= 25, "{name}: {opened} of 100 mutated files opened");
    }
}

#[test]
fn walk_corruptions_name_their_offsets() {
    let Some((file, offs)) = real_slices(&[242]) else { return };
    let s = offs[0];
    let u16_at = |d: &[u8], o: usize| u16::from_le_bytes([d[o], d[o + 1]]) as usize;
    // Block 5 offset past the sequence: an overrun at the header field (+0x0A).
    let mut d = file.clone();
    d[s + 0x0A..s + 0x0C].copy_from_slice(&0x7FF0u16.to_le_bytes());
    let e = MotnFile::parse(&d).unwrap_err();
    assert_eq!(e.offset, Some((s + 0x0A) as u64), "{e}");
    // Ids that do not ascend: swap the 2nd and 3rd descriptors.
    let mut d = file.clone();
    d.copy_within(s + 0x0E..s + 0x10, s + 0x40);
    d.copy_within(s + 0x10..s + 0x12, s + 0x0E);
    d.copy_within(s + 0x40..s + 0x42, s + 0x10);
    let e = MotnFile::parse(&d).unwrap_err();
    assert_eq!(e.offset, Some((s + 0x10) as u64), "{e}");
    assert!(e.to_string().contains("ascend"), "{e}");
    // Counts that disagree: one more interior key than block 3 holds.
    let mut d = file.clone();
    let b2 = s + u16_at(&d, s + 4);
    d[b2] += 1;
    let e = MotnFile::parse(&d).unwrap_err();
    assert!(e.to_string().contains("block 3"), "{e}");
    // A NaN half in block 5 (the first half of the first key with data).
    let mut d = file.clone();
    let b5 = s + u16_at(&d, s + 0x0A);
    d[b5..b5 + 2].copy_from_slice(&0x7E00u16.to_le_bytes());
    let e = MotnFile::parse(&d).unwrap_err();
    assert_eq!(e.offset, Some(b5 as u64), "{e}");
    assert!(e.to_string().contains("not finite"));
    // Infinity too.
    d[b5..b5 + 2].copy_from_slice(&0xFC00u16.to_le_bytes());
    assert_eq!(MotnFile::parse(&d).unwrap_err().offset, Some(b5 as u64));
    // A truncated file: the header's size no longer matches.
    assert!(MotnFile::parse(&file[..file.len() - 7]).is_err());
}

#[test]
fn subnormal_halves_decode_exactly() {
    // 0x0001 is the smallest subnormal, 2^-24; 0x03FF the largest, 1023·2^-24.
    assert_eq!(half::f16::from_bits(0x0001).to_f32(), 2f32.powi(-24));
    assert_eq!(half::f16::from_bits(0x03FF).to_f32(), 1023.0 * 2f32.powi(-24));
    assert_eq!(half::f16::from_bits(0x8000).to_f32(), -0.0);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn mutated_real_sequences_never_panic(muts in prop::collection::vec((any::<u16>(), any::<u8>()), 1..12), cut in any::<u16>()) {
        // The walk, a battle move (family 13), a legacy frame32, a sequence with step keys,
        // the undocumented 0xFFFF (node arrays) and 0x800D (frame records) layouts.
        if let Some((mut file, _)) = real_slices(&[242, 614, 729, 15, 759, 1051]) {
            let n = file.len();
            for (o, v) in &muts {
                let i = usize::from(*o) % n;
                file[i] = *v;
            }
            exercise(&file);
            let keep = usize::from(cut) % n;
            exercise(&file[..keep]);
        }
    }

    #[test]
    fn mutated_demo_files_never_panic(muts in prop::collection::vec((any::<u32>(), any::<u8>()), 1..12), which in 0usize..3) {
        let files = demo_files().unwrap();
        let mut d = files[which].1.clone();
        let n = d.len();
        for (o, v) in &muts {
            let i = *o as usize % n;
            d[i] = *v;
        }
        exercise(&d);
        let wrapped = [
            boneyard_shenmue::write_pks(&[("BODY", "MT5", &d)]),
            boneyard_shenmue::write_pkf(&[(*b"MOTN", &d)]),
            boneyard_shenmue::write_afs(&[("x", &d)]),
            boneyard_shenmue::gzip(&d),
        ];
        for w in &wrapped {
            let mut w = w.clone();
            let m = w.len();
            if let Some((o, v)) = muts.first() {
                w[*o as usize % m] = *v;
            }
            exercise(&w);
        }
    }

    #[test]
    fn random_bytes_never_panic(d in prop::collection::vec(any::<u8>(), 0..600)) {
        exercise(&d);
        let mut m = b"HRCM".to_vec();
        m.extend_from_slice(&d);
        exercise(&m);
    }
}

#[test]
fn containers_holding_the_demo_open() {
    let files = demo_files().unwrap();
    let pks = boneyard_shenmue::write_pks(&[("MOTION", "BIN", &files[0].1), ("BODY", "MT5", &files[1].1)]);
    let gz = boneyard_shenmue::gzip(&pks);
    let doc = open_bytes(&[("DEMO.PKS.gz".into(), &gz)]).unwrap();
    assert_eq!(doc.animations().len(), 4);
    // The rig, a flat skeleton for the FK family (its model is not in this archive), the body.
    assert_eq!(doc.skeletons().len(), 3);
    assert!(!doc.skeletons()[0].meshes.is_empty());
    let afs = boneyard_shenmue::write_afs(&[("motion.bin", &files[0].1), ("body.mt5", &files[1].1)]);
    let doc = open_bytes(&[("DEMO.AFS".into(), &afs)]).unwrap();
    assert_eq!(doc.animations().len(), 4);
    assert!(doc.warnings().is_empty(), "{:?}", doc.warnings());
    // An entry that is none of ours is named, with its offset, in one warning.
    let afs = boneyard_shenmue::write_afs(&[("motion.bin", &files[0].1), ("readme.txt", b"not a model")]);
    let at = boneyard_shenmue::read_afs(&afs).unwrap()[1].offset as u64;
    let doc = open_bytes(&[("DEMO.AFS".into(), &afs)]).unwrap();
    let w = doc.warnings();
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!((w[0].file.as_str(), w[0].offset), ("DEMO.AFS", Some(at)));
    assert!(w[0].message.contains("1 of 2 entries") && w[0].message.contains("DEMO.AFS/readme.txt"), "{w:?}");
    // A lying size inside: the error names the container and the offset.
    let mut bad = pks.clone();
    let dict = 0x10 + u32::from_le_bytes(bad[0x14..0x18].try_into().unwrap()) as usize;
    bad[dict + 16 + 3] = 0x40;
    let Err(e) = open_bytes(&[("BAD.PKS".into(), &bad)]) else { panic!("a lying size was accepted") };
    assert_eq!(e.file.as_deref(), Some("BAD.PKS"));
    assert_eq!(e.offset, Some((dict + 12) as u64));
}

/// A small valid MOTN file to corrupt: one sequence of 3 frames, one channel of two keys (a
/// few hundred bytes, so a count of 4094 sequences cannot fit in it).
fn small_motn() -> Vec<u8> {
    use boneyard_shenmue::Axis;
    use boneyard_shenmue::{encode_file, CurveSpec, KeySpec, SequenceSpec};
    let key = |frame: u16| KeySpec { frame, count: 1, tangent_in: 0.0, tangent_out: 0.0, value: 0.25 };
    let curves = vec![CurveSpec { control: 1, axis: Axis::RotX, keys: vec![key(0), key(2)] }];
    encode_file(&[SequenceSpec { name: "SMALL".into(), frames: 3, flag_high: 0, curves }])
}

#[test]
fn header_errors_name_the_bytes_at_fault() {
    let good = small_motn();
    assert!(good.len() < 4094 * 8, "{} bytes", good.len());
    MotnFile::parse(&good).unwrap();
    let u32_at = |d: &[u8], o: usize| u32::from_le_bytes(d[o..o + 4].try_into().unwrap());
    let put = |d: &mut Vec<u8>, o: usize, v: u32| d[o..o + 4].copy_from_slice(&v.to_le_bytes());
    // A sequence count (attributes at 0x0C) far larger than the table can hold: the error is
    // at the attribute word, not at the table (0x20) it would overrun.
    let mut d = good.clone();
    let attributes = (u32_at(&d, 0x0C) & !0xFFF) | 0xFFF;
    put(&mut d, 0x0C, attributes);
    let e = MotnFile::parse(&d).unwrap_err();
    assert_eq!(e.offset, Some(0x0C), "{e}");
    // The name-table pointer (0x04) past the end: the error is at the pointer (0x04), not at
    // its value (0x7FFF_0000, past the end of the file).
    let mut d = good.clone();
    put(&mut d, 0x04, 0x7FFF_0000);
    let e = MotnFile::parse(&d).unwrap_err();
    assert_eq!(e.offset, Some(0x04), "{e}");
    // The sequence-table pointer (0x00) likewise.
    let mut d = good.clone();
    put(&mut d, 0x00, 0x7FFF_0000);
    let e = MotnFile::parse(&d).unwrap_err();
    assert_eq!(e.offset, Some(0x00), "{e}");
    // The first name pointer past the end: the error is at its entry in the name table.
    let mut d = good.clone();
    let names = u32_at(&d, 0x04) as usize;
    put(&mut d, names, 0x7FFF_0000);
    let e = MotnFile::parse(&d).unwrap_err();
    assert_eq!(e.offset, Some(names as u64), "{e}");
    assert!(e.to_string().contains("name pointer"), "{e}");
}
