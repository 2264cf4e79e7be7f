//! Hostile input: random and mutated real (fixture), demo and encoded files through every
//! parser and the sampling, posing and check paths. Nothing may panic or hang.

mod common;
use boneyard_core::{Document, InputFile};
use boneyard_oni::open_files;
use boneyard_oni::{new_tram, rotation_block, tram_instance, write_level, write_oni};
use proptest::prelude::*;
use std::sync::OnceLock;

type Set = Vec<(String, Vec<u8>)>;

/// Sets of files given together (fake paths, so nothing is looked up on disk).
fn corpus() -> &'static Vec<Set> {
    static C: OnceLock<Vec<Set>> = OnceLock::new();
    C.get_or_init(|| {
        let mut out: Vec<Set> = Vec::new();
        for n in [
            "TRAMfixture_tiny2.oni",
            "TRAMfixture_walk19.oni",
            "TRAMfixture_walk19_overlay.oni",
            "TRAMfixture_pose1.oni",
            "TRAMfixture_gap255.oni",
            "TRAMfixture_badlast.oni",
            "TRBSfixture_body19.oni",
            "M3GMfixture_box.oni",
        ] {
            if let Some(p) = boneyard_core::testdata::data_dir().map(|d| d.join("oni").join(n)) {
                if let Ok(b) = std::fs::read(p) {
                    out.push(vec![(format!("/nonexistent/{n}"), b)]);
                }
            }
        }
        if let Some(d) = boneyard_core::testdata::data_dir() {
            if let (Ok(dat), Ok(raw)) =
                (std::fs::read(d.join("oni/level1_Final.dat")), std::fs::read(d.join("oni/level1_Final.raw")))
            {
                out.push(vec![
                    ("/nonexistent/level1_Final.dat".into(), dat),
                    ("/nonexistent/level1_Final.raw".into(), raw),
                ]);
            }
        }
        out.push(
            boneyard_oni::demo_files().unwrap().into_iter().map(|(n, b)| (format!("/nonexistent/{n}"), b)).collect(),
        );
        // Encoded TRAMs with the key sizes OniSplit never writes.
        for size in [3u16, 4, 8] {
            let mut t = new_tram(&format!("k{size}"), size, 3, 7);
            let q = |a: f32| [0.0, (a / 2.0).sin(), 0.0, (a / 2.0).cos()];
            let keys: Vec<Vec<(usize, [f32; 4])>> =
                (0..3).map(|p| vec![(0, q(0.1 * p as f32)), (3, q(1.0)), (6, q(-0.5))]).collect();
            let (r, s) = rotation_block(size, 7, &keys).unwrap();
            t.rotations = r.into();
            t.streams = s;
            let inst = tram_instance(&t).unwrap();
            out.push(vec![(format!("/nonexistent/k{size}.oni"), write_oni(std::slice::from_ref(&inst)).unwrap())]);
            let (dat, raw) = write_level(&[inst], 2).unwrap();
            out.push(vec![(format!("/nonexistent/k{size}.dat"), dat), (format!("/nonexistent/k{size}.raw"), raw)]);
        }
        out
    })
}

/// Open and use everything; errors are fine, panics are not. Returns whether the set opened
/// (so the sampling, posing and check paths ran).
fn exercise(set: &Set) -> bool {
    let inputs = set.iter().map(|(n, b)| InputFile::new(n.clone(), b.clone())).collect();
    let Ok(doc) = open_files(inputs) else { return false };
    let doc: &dyn Document = &doc;
    let _ = doc.files();
    let skeletons = doc.skeletons().len();
    for a in doc.animations().iter().take(16) {
        let last = a.frames as f64;
        for f in [0.0, 0.5, last / 2.0, last - 1.0, last, 1e12, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -1.0] {
            let _ = doc.sample(a.index, f);
            // Every skeleton, not only the animation's own (the viewer may ask for any).
            for sk in 0..skeletons.min(8) {
                let _ = doc.pose(sk, Some(a.index), f);
            }
        }
    }
    for s in 0..doc.skeletons().len() {
        let _ = doc.pose(s, None, 0.0);
    }
    let _ = doc.check();
    true
}

/// The mutation tests must reach sampling, posing and check, not stop at open: most single
/// byte changes of the corpus still open (a value changes, not the layout).
#[test]
fn mutations_mostly_reach_sampling() {
    let mut rng = boneyard_core::testdata::XorShift64(0x2545_F491_4F6C_DD1D);
    let mut next = || rng.next_u64();
    let (mut opened, mut tried) = (0, 0);
    for set in corpus() {
        for _ in 0..40 {
            let mut s = set.clone();
            let k = (next() % s.len() as u64) as usize;
            let i = (next() % s[k].1.len() as u64) as usize;
            s[k].1[i] = next() as u8;
            opened += usize::from(exercise(&s));
            tried += 1;
        }
    }
    assert!(opened * 4 >= tried, "{opened} of {tried} mutated sets opened");
}

#[test]
fn corpus_itself_is_fine() {
    for set in corpus() {
        let bad = set[0].0.contains("badlast");
        let inputs = set.iter().map(|(n, b)| InputFile::new(n.clone(), b.clone())).collect();
        match open_files(inputs) {
            Ok(doc) => {
                assert!(!bad);
                doc.check().unwrap_or_else(|e| panic!("{}: {e}", set[0].0));
            }
            Err(e) => assert!(bad, "{}: {e}", set[0].0),
        }
        exercise(set);
    }
}

/// Every file truncated at many lengths.
#[test]
fn truncations() {
    for set in corpus() {
        for k in 0..set.len() {
            let len = set[k].1.len();
            let step = (len / 64).max(1);
            for cut in (0..len).step_by(step) {
                let mut s = set.clone();
                s[k].1.truncate(cut);
                exercise(&s);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Bytes and aligned words of real files overwritten with random or pointed values.
    #[test]
    fn mutated_files(
        which in any::<prop::sample::Index>(),
        file in any::<prop::sample::Index>(),
        bytes in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..12),
        words in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(vec![0u32, 1, 0xff, 0x101, 0xffff, 0x7fff_ffff, 0xffff_ffff, 0x8000_0001, 3, 16, 255])), 0..6),
    ) {
        let c = corpus();
        let mut set = c[which.index(c.len())].clone();
        let k = file.index(set.len());
        let data = &mut set[k].1;
        if !data.is_empty() {
            for (i, v) in bytes {
                let at = i.index(data.len());
                data[at] = v;
            }
            for (i, v) in words {
                let at = i.index(data.len()) & !3;
                if at + 4 <= data.len() {
                    data[at..at + 4].copy_from_slice(&v.to_le_bytes());
                }
            }
        }
        exercise(&set);
    }

    /// Random bodies behind a valid header.
    #[test]
    fn random_after_header(body in prop::collection::vec(any::<u8>(), 0..4096), v in 0u8..2) {
        let mut d = Vec::new();
        d.extend_from_slice(&0x0003_BCDF_33DC_271Fu64.to_le_bytes());
        d.extend_from_slice(if v == 0 { b"13RV" } else { b"23RV" });
        for s in [64u16, 20, 16, 8] {
            d.extend_from_slice(&s.to_le_bytes());
        }
        d.extend_from_slice(&body);
        exercise(&vec![("/nonexistent/r.dat".into(), d.clone()), ("/nonexistent/r.raw".into(), body.clone())]);
        exercise(&vec![("/nonexistent/r.oni".into(), d)]);
    }
}

/// `check` names a key that is not a unit quaternion at its byte offset in the file (it said
/// offset 0): a key of the real overlay fixture zeroed, the error's offset is that key's.
#[test]
fn a_key_that_is_not_unit_is_named_at_its_offset() {
    let Some(path) =
        boneyard_core::testdata::shared_data("oni/TRAMfixture_walk19_overlay.oni", "a_key_that_is_not_unit")
    else {
        return;
    };
    let bytes = std::fs::read(&path).unwrap();
    let name = "/nonexistent/TRAMfixture_walk19_overlay.oni";
    let doc = open_files(vec![InputFile::new(name, bytes.clone())]).unwrap();
    let t = &doc.trams()[0];
    assert_eq!(t.rotations_at.0, name);
    // Part 5's second key: after the first key and its gap byte.
    let ks = t.key_size as usize;
    let at = t.rotations_at.1 as usize + t.streams[5].start + ks + 1;
    assert_eq!(&bytes[at..at + ks], &t.rotations[t.streams[5].start + ks + 1..][..ks]);
    let mut bad = bytes;
    bad[at..at + ks].fill(0);
    let doc = open_files(vec![InputFile::new(name, bad)]).unwrap();
    let e = Document::check(&doc).expect_err("a zero key fails the check");
    assert_eq!(e.offset, Some(at as u64), "{e}");
    assert_eq!(e.file.as_deref(), Some(name));
    assert!(e.to_string().contains("part 5: rotation") && e.to_string().contains("is not a unit quaternion"), "{e}");
    // Sampling or posing the frames that read it is the same error (the bone had been given a
    // rotation made up in its place, without a word).
    let frame = (0..t.frames).find(|&f| doc.sample(0, f as f64).is_err()).expect("a frame reads the zero key");
    let e = doc.sample(0, frame as f64).unwrap_err();
    assert_eq!((e.offset, e.file.as_deref()), (Some(at as u64), Some(name)), "{e}");
    assert!(doc.pose(0, Some(0), frame as f64).is_err());
}
