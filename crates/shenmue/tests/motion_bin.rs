//! The real Shenmue I MOTION.BIN against the reference's test vectors.

use boneyard_core::testdata::shared_data;
use boneyard_core::Document;
use boneyard_shenmue::Axis;
use boneyard_shenmue::{Layout, MotnFile};

fn load(test: &str) -> Option<Vec<u8>> {
    let p = shared_data("shenmue/motion.bin", test)?;
    Some(std::fs::read(p).expect("read motion.bin"))
}

#[test]
fn header_table_and_layout_census() {
    let Some(d) = load("header_table_and_layout_census") else { return };
    let f = MotnFile::parse(&d).unwrap();
    assert_eq!(
        (f.table_offset, f.name_table_offset, f.data_base, f.attributes, f.file_size),
        (0x20, 0x12294, 0x1AAE8, 0x618, 1826800)
    );
    assert_eq!(f.entries.len(), 1559);
    assert_eq!(f.blocks.len(), 1319);
    assert_eq!(f.entries[0].name, "ERROR");
    assert_eq!(f.timestamp.as_deref(), Some("Fri Nov 12 16:10:23 1999"));
    let count = |k: &str| f.blocks.iter().filter(|b| b.layout.kind() == k).count();
    assert_eq!((count("curves"), count("legacy-frame32"), count("undecodable")), (1293, 6, 20));
    // The legacy ones are the six AKI_AKI_YS* sequences; the undecodable ones are 0x800D / 0xFFFF.
    for e in &f.entries {
        let b = &f.blocks[e.block];
        match &b.layout {
            Layout::LegacyFrame32 { .. } => assert!(e.name.starts_with("AKI_AKI_YS"), "{}", e.name),
            Layout::Undecodable(_) => assert!(b.flag_high == 0x800D || b.flag_high == 0xFFFF),
            Layout::Curves(_) => assert_eq!(b.flag_high & 0x8000, 0),
        }
    }
    // Block 5 ends where the next sequence starts except for 5 gaps and the 32-byte tail.
    let gaps: Vec<usize> = f.blocks.iter().filter_map(|b| b.motion()).map(|m| m.trailing).filter(|&t| t > 0).collect();
    assert_eq!(gaps, vec![500, 498, 446, 1676, 1934, 32]);
}

#[test]
fn walk_matches_reference_vectors() {
    let Some(d) = load("walk_matches_reference_vectors") else { return };
    let f = MotnFile::parse(&d).unwrap();
    let e = &f.entries[242];
    assert_eq!(e.name, "A_WALK_L_02");
    let b = &f.blocks[e.block];
    assert_eq!(b.offset, 956058);
    assert_eq!(b.header, [37, 0, 54, 117, 309, 416]);
    let m = b.motion().unwrap();
    assert_eq!(
        m.descriptors,
        vec![
            0x01F8, 0x0238, 0x0A38, 0x11C0, 0x1238, 0x1838, 0x1FC0, 0x2038, 0x2438, 0x29C0, 0x2A38, 0x2FC0, 0x3238,
            0x3438, 0x3BC0, 0x3C38, 0x3E38, 0x4038, 0x47C0, 0x4838
        ]
    );
    assert_eq!(m.curves.len(), 63);
    let curve = |id: u16, ax: Axis| m.curves.iter().find(|c| c.control == id && c.axis == ax).unwrap();
    // The reference prints 6 decimals (5 for tangents and the forum trace).
    let near = |got: f32, want: f64| assert!((f64::from(got) - want).abs() < 6e-7, "got {got}, want {want}");
    let near5 = |got: f32, want: f64| assert!((f64::from(got) - want).abs() < 6e-6, "got {got}, want {want}");
    let py = curve(0, Axis::PosY);
    for (fr, v) in [(0.0, 1.113281), (2.5, 1.133521), (5.0, 1.143555), (6.0, 1.141456), (36.0, 1.113281)] {
        near(py.sample(fr), v);
    }
    let pz = curve(0, Axis::PosZ);
    for (fr, v) in [(0.0, -0.039948), (18.0, -0.759232), (36.0, -1.478516)] {
        near(pz.sample(fr), v);
    }
    // Linear root Z: the stored tangent is the chord over 36 frames at 30 Hz.
    near5(pz.keys[0].tangent_out, -1.19824);
    let ry = curve(1, Axis::RotY);
    for (fr, v) in [(0.0, 0.238403), (9.0, 0.249516), (18.0, 0.259766)] {
        near(ry.sample(fr), v);
    }
    let foot = curve(8, Axis::PosY);
    near(foot.sample(1.0), 0.281982);
    near(foot.sample(2.0), 0.309135);
    let toe = curve(9, Axis::RotX);
    near(toe.sample(2.0), -0.171510);
    near(toe.sample(5.0), -0.147766);
    // The Shenmue Dojo trace: keys 9 and 10 of root py are (in, out, value).
    let k = &py.keys;
    assert_eq!((k[9].count, k[10].count), (3, 3));
    near5(k[9].tangent_in, -0.22144);
    near5(k[9].tangent_out, -0.22144);
    near5(k[9].value, 1.12891);
    near5(k[10].tangent_in, -0.14490);
    near5(k[10].tangent_out, -0.14490);
    near5(k[10].value, 1.11230);
}

#[test]
fn document_samples_walk_and_ik_is_consistent() {
    let Some(d) = load("document_samples_walk_and_ik_is_consistent") else { return };
    let doc = boneyard_shenmue::open_bytes(&[("motion.bin".into(), &d)]).unwrap();
    let a = &doc.animations()[242];
    assert_eq!((a.name.as_str(), a.frames, a.fps, a.skeleton), ("A_WALK_L_02", 37, 30.0, Some(0)));
    let s = doc.sample(242, 2.5).unwrap();
    assert_eq!(s.frame, 2.5);
    let ch = s.channels.iter().find(|c| c.target == "0" && c.path == "position.y").unwrap();
    assert!((ch.value.as_f64().unwrap() - 1.133521).abs() < 1e-6);
    assert_eq!(s.channels.len(), 63);
    let skel = &doc.skeletons()[0].skeleton;
    assert_eq!(skel.len(), 37);
    for f in [0.0, 7.0, 13.5, 36.0] {
        let pose = doc.pose(0, Some(242), f).unwrap();
        let s = doc.sample(242, f).unwrap();
        let fk = boneyard_core::fk::world_matrices(skel, &s.locals);
        for (a, b) in pose.iter().zip(&fk) {
            assert!(a.abs_diff_eq(*b, 1e-4), "frame {f}: {a} vs {b}");
        }
        // The foot target control sits exactly on its sampled position (IK places it there),
        // and the shin end reaches it when in range.
        let tgt = pose[8].w_axis.truncate();
        let want = glam::Vec3::new(
            s.channels.iter().find(|c| c.target == "8" && c.path == "position.x").unwrap().value.as_f64().unwrap()
                as f32,
            s.channels.iter().find(|c| c.target == "8" && c.path == "position.y").unwrap().value.as_f64().unwrap()
                as f32,
            s.channels.iter().find(|c| c.target == "8" && c.path == "position.z").unwrap().value.as_f64().unwrap()
                as f32,
        );
        assert!((tgt - want).length() < 1e-6);
        let thigh = (pose[7].w_axis - pose[6].w_axis).truncate().length();
        assert!((thigh - 0.392729).abs() < 1e-5, "thigh length {thigh}");
    }
}

#[test]
fn check_walks_the_whole_file() {
    let Some(d) = load("check_walks_the_whole_file") else { return };
    let doc = boneyard_shenmue::open_bytes(&[("motion.bin".into(), &d)]).unwrap();
    let lines = doc.check().unwrap();
    assert_eq!(lines.len(), 1559);
    assert!(
        lines[242].starts_with("242 A_WALK_L_02 frames=37 family=0 data=0xe969a channels=63 crc="),
        "{}",
        lines[242]
    );
    println!("{}", lines[242]);
    let ik = lines.iter().filter(|l| l.contains(" ik=ok ")).count();
    let none = lines.iter().filter(|l| l.ends_with("ik=none")).count();
    let degenerate = lines.iter().filter(|l| l.contains(" ik=ok ") && !l.ends_with("degenerate=0")).count();
    let listed = lines.iter().filter(|l| l.contains(" layout=")).count();
    println!("human (IK) {ik}, other families {none}, listed layouts {listed}, with degenerate solves {degenerate}");
    assert_eq!(ik + none + listed, 1559);
    // A regression pin of this implementation's own output (not an independent value).
    assert_eq!(format!("{:08x}", boneyard_core::check::hash_lines(&lines)), "db37d665");
}

#[test]
fn channel_census_matches_the_reference() {
    let Some(d) = load("channel_census_matches_the_reference") else { return };
    let f = MotnFile::parse(&d).unwrap();
    let motions: Vec<_> = f.blocks.iter().filter_map(|b| b.motion()).collect();
    let channels: usize = motions.iter().map(|m| m.curves.len()).sum();
    let empty: usize = motions.iter().map(|m| m.curves.iter().filter(|c| !c.has_data()).count()).sum();
    // Reference §1.7: 78,669 channels in 1293 sequences, 12,176 with no data at all.
    assert_eq!((motions.len(), channels, empty), (1293, 78669, 12176));
    // #15 has a step (two keys on one frame); #614 is a battle move of family 13.
    let step = f.blocks[f.entries[15].block].motion().unwrap();
    assert!(step.curves.iter().any(|c| c.keys.windows(2).any(|w| w[0].frame == w[1].frame)));
    assert_eq!(f.blocks[f.entries[614].block].family(), 13);
}

#[test]
fn action_metadata_where_decodable() {
    let Some(d) = load("action_metadata_where_decodable") else { return };
    let f = MotnFile::parse(&d).unwrap();
    // The walk: footstep (surface) cues on frames 0 and 18, kinds 0 and 1. Read by hand from
    // the bytes: records `frame(u16) 04 05 kind 00 00 01` at 0x31F4 and 0x31FC.
    assert_eq!(
        d[0x31F4..0x3204],
        [0x00, 0x00, 0x04, 0x05, 0x00, 0x00, 0x00, 0x01, 0x12, 0x00, 0x04, 0x05, 0x01, 0x00, 0x00, 0x01]
    );
    let walk = f.entries[242].action().unwrap();
    assert_eq!((walk.offset, walk.len), (0x31D4, 52));
    assert_eq!(walk.surface_cues, vec![(0, 0), (18, 1)]);
    // A battle move: hit-phase frames right after the 12-byte header. By hand: its metadata
    // is at 0x115E8 (table slot 614's second word); at +12, `02 00` then the frames 1, 0x13,
    // 0x14; the next record is `08 ...`, not the 0x04 attack record. (tests/peer.rs checks
    // every entry against the peer runtime.)
    assert_eq!(f.entries[614].meta_offset, 0x115E8);
    assert_eq!(d[0x115F4..0x115FD], [0x02, 0x00, 0x01, 0x00, 0x13, 0x00, 0x14, 0x00, 0x08]);
    let hit = f.entries[614].action().unwrap();
    assert_eq!(hit.hit_frames, Some([1, 19, 20]));
    assert_eq!(hit.attack, None);
    let with_hits = f.entries.iter().filter(|e| e.action().is_some_and(|a| a.hit_frames.is_some())).count();
    println!("entries with hit-phase frames: {with_hits}");
}

#[test]
fn ik_invariants_hold_on_every_human_frame() {
    let Some(d) = load("ik_invariants_hold_on_every_human_frame") else { return };
    let doc = boneyard_shenmue::open_bytes(&[("motion.bin".into(), &d)]).unwrap();
    let f = MotnFile::parse(&d).unwrap();
    let mut seen = std::collections::HashSet::new();
    let (mut frames, mut out_of_reach) = (0usize, 0usize);
    // (two-bone root, upper, lower, target); lengths from the lower joint and the target.
    let limbs = [(5, 6, 7, 8), (12, 13, 14, 15), (26, 27, 28, 29), (32, 33, 34, 35)];
    for (i, e) in f.entries.iter().enumerate() {
        let b = &f.blocks[e.block];
        if b.family() != 0 || b.motion().is_none() || !seen.insert(e.block) {
            continue;
        }
        let rig = &boneyard_shenmue::HUMAN_RIG;
        for fr in 0..b.frames {
            let w = doc.pose(0, Some(i), f64::from(fr)).unwrap();
            frames += 1;
            let pos = |k: usize| w[k].w_axis.truncate();
            for &(root, upper, lower, target) in &limbs {
                let (ul, ll) = (rig[lower].position[0], rig[target].position[0]);
                // The upper bone always has its length and starts at the root.
                assert!((pos(upper) - pos(root)).length() < 1e-5);
                assert!(((pos(lower) - pos(upper)).length() - ul).abs() < 1e-4, "#{i} f{fr}");
                let reach = (pos(target) - pos(upper)).length();
                if reach <= ul + ll {
                    assert!(((pos(target) - pos(lower)).length() - ll).abs() < 2e-4, "#{i} f{fr} limb {root}");
                } else {
                    out_of_reach += 1;
                }
                // Every solved frame is orthonormal with Z = the bend plane's normal.
                for k in [upper, lower, target] {
                    let m = w[k];
                    assert!((m.x_axis.truncate().length() - 1.0).abs() < 1e-4);
                    assert!(m.x_axis.truncate().dot(m.z_axis.truncate()).abs() < 1e-4);
                }
                assert!(w[upper].z_axis.abs_diff_eq(w[lower].z_axis, 1e-5));
            }
        }
    }
    println!("{frames} human frames, {out_of_reach} limb solves out of reach (left straight, no clamping)");
    assert_eq!(frames, 37742);
}

#[test]
fn walk_feet_are_half_a_cycle_apart_and_mirrored() {
    // Reference §1.8: the walk's paired limb curves are half a cycle apart. Foot target B
    // (15) 18 frames later repeats foot target A (8) with X mirrored, to within the authored
    // asymmetry (2 cm in height and width, under 10 cm along a 0.72 m stride) at every frame
    // of the first half.
    let Some(d) = load("walk_feet_are_half_a_cycle_apart_and_mirrored") else { return };
    let f = MotnFile::parse(&d).unwrap();
    let m = f.blocks[f.entries[242].block].motion().unwrap();
    let c = |id: u16, ax: Axis| m.curves.iter().find(|c| c.control == id && c.axis == ax).unwrap();
    for fr in 0..=18 {
        let (a, b) = (fr as f32, fr as f32 + 18.0);
        assert!((c(8, Axis::PosY).sample(a) - c(15, Axis::PosY).sample(b)).abs() < 0.02, "y at {fr}");
        assert!((c(8, Axis::PosX).sample(a) + c(15, Axis::PosX).sample(b)).abs() < 0.01, "x at {fr}");
        let rel = |id, t| c(id, Axis::PosZ).sample(t) - c(0, Axis::PosZ).sample(t);
        assert!((rel(8, a) - rel(15, b)).abs() < 0.1, "z at {fr}");
    }
}

/// A truncated MOTION.BIN is still recognised as Shenmue's (by its header's shape and its
/// `.bin` name) and refused with the lying size's offset, 0x10, rather than "not a file
/// boneyard recognises".
#[test]
fn truncated_motion_bin_names_the_size_field() {
    use boneyard_core::{Family, InputFile};
    let Some(data) = load("truncated_motion_bin_names_the_size_field") else { return };
    let cut = data[..100_000].to_vec();
    let path = std::path::Path::new("MOTION.BIN");
    assert!(boneyard_shenmue::Shenmue.probe(path, &cut).claims());
    assert!(!boneyard_shenmue::Shenmue.probe(std::path::Path::new("x.dat"), &cut).claims());
    let err = boneyard_shenmue::Shenmue
        .open(vec![InputFile::new(path, cut)], &Default::default(), &boneyard_core::NoCompanions)
        .err()
        .expect("a truncated file is refused");
    assert_eq!(err.offset, Some(0x10), "{err}");
    assert!(err.to_string().contains("1826800"), "{err}");
}

/// Every decoded sequence plays on the skeleton of its controller family (the human rig for
/// family 0, a flat control skeleton for each other family with clips), so an export per
/// skeleton carries all of them; `sample` and `pose` work on every one, and the listed ones
/// are refused by name.
#[test]
fn every_decoded_sequence_reaches_a_skeleton() {
    let Some(d) = load("every_decoded_sequence_reaches_a_skeleton") else { return };
    let doc = boneyard_shenmue::open_bytes(&[("motion.bin".into(), &d)]).unwrap();
    let skeletons = doc.skeletons();
    let mut by_skeleton: std::collections::BTreeMap<usize, usize> = Default::default();
    let (mut decoded, mut assigned) = (0usize, 0usize);
    for a in doc.animations() {
        let extra = doc.animation_extra(a.index);
        let family = extra["controller_family"].as_u64().unwrap();
        if !extra["decoded"].as_bool().unwrap() {
            assert_eq!(a.skeleton, None, "{}", a.name);
            assert!(doc.sample(a.index, 0.0).is_err());
            continue;
        }
        decoded += 1;
        let Some(s) = a.skeleton else { continue };
        assigned += 1;
        *by_skeleton.entry(s).or_default() += 1;
        // Family 0 plays on the human rig (skeleton 0); each other family on its own skeleton.
        match family {
            0 => assert_eq!(s, 0, "{}", a.name),
            f => assert_eq!(skeletons[s].extra["controller_family"].as_u64(), Some(f), "{}", a.name),
        }
        assert_eq!(a.bones, skeletons[s].skeleton.len());
        for frame in [0.0, f64::from(a.frames - 1)] {
            let smp = doc.sample(a.index, frame).unwrap();
            assert_eq!(smp.locals.len(), skeletons[s].skeleton.len(), "{}", a.name);
            let pose = doc.pose(s, Some(a.index), frame).unwrap();
            assert_eq!(pose.len(), skeletons[s].skeleton.len());
            assert!(pose.iter().all(|m| m.is_finite()), "{} frame {frame}", a.name);
        }
    }
    let parts: Vec<String> = by_skeleton
        .iter()
        .map(|(&s, n)| match s {
            0 => format!("human: {n}"),
            s => format!("family {}: {n}", skeletons[s].extra["controller_family"]),
        })
        .collect();
    println!("{assigned}/{decoded} decoded sequences assigned to a skeleton ({})", parts.join(", "));
    assert_eq!((assigned, decoded), (1531, 1531));
    assert_eq!(by_skeleton[&0], 1292);
    // One skeleton per family with clips: the human rig and 16 other families.
    assert_eq!(by_skeleton.len(), 17);
    assert_eq!(skeletons.len(), 17);
}

/// What the 26 listed sequences (28 names) are, from their bytes: the shapes the reader
/// reports, checked against values worked out by hand from a hex dump of `MOTION.BIN`, and
/// against the decoded `AKI_AKI_YS*_R_NEW_ST` curves, which end on the legacy records'
/// frame 0 for controls 31 and 36.
#[test]
fn listed_sequences_are_what_their_bytes_show() {
    use boneyard_shenmue::{frame_record, Shape};
    let Some(d) = load("listed_sequences_are_what_their_bytes_show") else { return };
    let f = MotnFile::parse(&d).unwrap();
    let listed: Vec<_> = f.blocks.iter().filter(|b| b.motion().is_none()).collect();
    let names = f.entries.iter().filter(|e| f.blocks[e.block].motion().is_none()).count();
    assert_eq!((listed.len(), names), (26, 28));
    let arm = Shape::FrameRecords { stride: 32, controls: vec![31, 32, 34, 36], hinges: vec![34] };
    let body = Shape::FrameRecords {
        stride: 98,
        controls: vec![1, 5, 7, 9, 12, 14, 16, 18, 21, 25, 26, 28, 30, 31, 32, 34, 36],
        hinges: vec![7, 14, 28, 34],
    };
    let count = |want: &Shape| listed.iter().filter(|b| b.shape.as_ref() == Some(want)).count();
    assert_eq!(count(&arm), 6);
    assert_eq!(count(&body), 3);
    let node_arrays = listed.iter().filter(|b| matches!(b.shape, Some(Shape::NodeArrays { .. }))).count();
    assert_eq!(node_arrays, 16);
    // The one 0xFFFF sequence whose sizes do not add up: TMN_MJAS_OTOSU_2 at 0x1620b0.
    let odd: Vec<usize> = listed.iter().filter(|b| b.shape.is_none()).map(|b| b.offset).collect();
    assert_eq!(odd, vec![0x1620b0]);
    // TMN_A_MEMO at 0x15d6ec: 8 nodes, 29 frames: 12 + 8·32 + 8·3·30·2 = 1708 bytes.
    let memo = listed.iter().find(|b| b.offset == 0x15d6ec).unwrap();
    assert_eq!((memo.shape.clone(), memo.region_end - memo.offset), (Some(Shape::NodeArrays { nodes: 8 }), 1708));

    // AKI_AKI_YS00_R_ST at 0xf11a0, by hand from the bytes at 0xf11ae:
    // 0000 9a3c 0000 | 0000 0000 0000 | 8600 f601 2101 | f8f4 68fd 50b8 3514 | fcd3 3d00 7af5
    let entry = |name: &str| f.entries.iter().find(|e| e.name == name).unwrap();
    let legacy = &f.blocks[entry("AKI_AKI_YS00_R_ST").block];
    assert_eq!((legacy.offset, legacy.header), (0xf11a0, [60, 0x8000, 32, 0, 0x8000, 0x15]));
    let r0 = frame_record(&d, legacy, 0).unwrap();
    assert_eq!(r0, vec![0, 0x3c9a, 0, 0, 0, 0, 134, 502, 289, -2824, -664, -18352, 5173, -11268, 61, -2694]);
    // The root height is a half: 0x3C9A = 1 + 154/1024 = 1.150390625 (the rig's root is 1.1504).
    assert_eq!(half::f16::from_bits(r0[1] as u16).to_f32(), 1.150_390_6);
    assert!(frame_record(&d, legacy, 60).is_none());
    // The decoded NEW_ST clips end (frame 29, truncated to int16 as the engine stores it) on
    // the legacy records' frame 0: control 31 exactly, control 36 within a few units.
    for (new, old) in [
        ("AKI_AKI_YS00_R_NEW_ST", "AKI_AKI_YS00_R_ST"),
        ("AKI_AKI_YS45_R_NEW_ST", "AKI_AKI_YS45_R_ST"),
        ("AKI_AKI_YS90_R_NEW_ST", "AKI_AKI_YS90_R_ST"),
    ] {
        let m = f.blocks[entry(new).block].motion().unwrap();
        let raw = |id: u16, ax: Axis| {
            let c = m.curves.iter().find(|c| c.control == id && c.axis == ax).unwrap();
            boneyard_shenmue::turns_to_raw(c.sample(29.0))
        };
        let rec = frame_record(&d, &f.blocks[entry(old).block], 0).unwrap();
        // The peer's runtime agrees: `node ny_pose.mjs MOTION.BIN <new> <index>` at frame 29,
        // control 31's matrix in control 20's frame and 36's in 35's, as X·Y·Z Euler raw turns.
        let peer = |n: &str| -> ([i16; 3], [i16; 3]) {
            match n {
                "AKI_AKI_YS00_R_NEW_ST" => ([134, 502, 289], [-11264, 0, -2694]),
                "AKI_AKI_YS45_R_NEW_ST" => ([1437, 1462, 625], [-9136, -1258, -969]),
                _ => ([236, 1810, 912], [-10696, 1001, -2294]),
            }
        };
        let (p31, p36) = peer(new);
        assert_eq!(p31, [rec[6], rec[7], rec[8]], "{new} (peer)");
        for (a, b) in p36.iter().zip(&rec[13..16]) {
            assert!((i32::from(*a) - i32::from(*b)).abs() <= 61, "{new} (peer): {p36:?} vs {:?}", &rec[13..16]);
        }
        assert_eq!([raw(31, Axis::RotX), raw(31, Axis::RotY), raw(31, Axis::RotZ)], [rec[6], rec[7], rec[8]], "{new}");
        let hand = [raw(36, Axis::RotX), raw(36, Axis::RotY), raw(36, Axis::RotZ)];
        for (a, b) in hand.iter().zip(&rec[13..16]) {
            assert!((i32::from(*a) - i32::from(*b)).abs() <= 61, "{new}: {hand:?} vs {:?}", &rec[13..16]);
        }
    }
}

/// Never silent: one summary warning, then one per listed sequence (at its data offset) and per
/// gap of unreferenced bytes (each holding an orphaned standard sequence). Every entry's action
/// metadata lies in the metadata region (two blocks begin in the table's terminating slot,
/// which the region includes: they were two more warnings, and their footsteps unread).
#[test]
fn warnings_name_everything_left_out() {
    let Some(d) = load("warnings_name_everything_left_out") else { return };
    let doc = boneyard_shenmue::open_bytes(&[("motion.bin".into(), &d)]).unwrap();
    let w = doc.warnings();
    assert_eq!(w[0].offset, None);
    println!("{}", w[0]);
    assert!(w[0].message.contains("26 of 1319 sequences (28 of 1559 names) listed, not decoded"), "{}", w[0]);
    assert!(w[0].message.contains("AKI_AKI_YS00_RH_ST") && w[0].message.contains("TMN_BENM4"));
    let listed: Vec<u64> =
        w.iter().filter(|w| w.message.contains("listed, not decoded:")).filter_map(|w| w.offset).collect();
    assert_eq!(listed.len(), 26);
    assert!(listed.contains(&0xf11a0) && listed.contains(&0x12150c) && listed.contains(&0x16b384));
    let gaps: Vec<(u64, &str)> = w
        .iter()
        .filter(|w| w.message.contains("no table entry references"))
        .map(|w| (w.offset.unwrap(), w.message.as_str()))
        .collect();
    assert_eq!(gaps.iter().map(|g| g.0).collect::<Vec<_>>(), vec![0x32af0, 0x33fb2, 0xb0426, 0xc2a7c, 0xe46d4]);
    assert!(gaps.iter().all(|g| g.1.contains("that no name points at")), "{gaps:?}");
    let meta: Vec<u64> =
        w.iter().filter(|w| w.message.contains("action metadata offset")).filter_map(|w| w.offset).collect();
    assert_eq!(meta.len(), 0);
    assert_eq!(w.len(), 1 + 26 + 5);
    // info's notes carry the same summary as one line.
    let notes = &doc.files()[0].notes;
    assert_eq!(notes.iter().filter(|n| n.starts_with("left out:")).count(), 1);
    assert_eq!(notes.len(), 2, "{notes:?}");
}

/// `check` of MOTION.BIN is pinned: the CLI's `all: hash=` of these lines is db37d665, and the
/// lines do not depend on how many threads walk the sequences, or open the file (on one thread
/// the open reads its blocks on the caller's thread rather than on rayon's).
#[test]
fn check_lines_are_pinned_and_thread_independent() {
    let Some(d) = load("check_lines_are_pinned_and_thread_independent") else { return };
    let doc = boneyard_shenmue::open_bytes(&[("motion.bin".into(), &d)]).unwrap();
    let lines = doc.check().unwrap();
    assert_eq!(lines.len(), 1559);
    assert_eq!(format!("{:08x}", boneyard_core::check::hash_lines(&lines)), "db37d665");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    assert_eq!(pool.install(|| doc.check().unwrap()), lines);
    let one = pool.install(|| boneyard_shenmue::open_bytes(&[("motion.bin".into(), &d)]).unwrap());
    assert_eq!(one.check().unwrap(), lines);
    let listing = |doc: &dyn boneyard_core::Document| -> Vec<String> {
        doc.animations().iter().map(|a| format!("{} {} {:?}", a.name, a.frames, a.source)).collect()
    };
    assert_eq!(listing(&one), listing(&doc));
    assert_eq!(one.warnings(), doc.warnings());
}

/// The 28 names MOTION.BIN lists but boneyard does not decode: sampling one is an error at
/// its sequence's header, the offset the open's warning about it and `list`'s source give.
#[test]
fn sampling_a_listed_only_sequence_names_its_offset() {
    let Some(d) = load("sampling_a_listed_only_sequence_names_its_offset") else { return };
    let f = MotnFile::parse(&d).unwrap();
    let doc = boneyard_shenmue::open_bytes(&[("motion.bin".into(), &d)]).unwrap();
    let mut said = 0;
    for (i, e) in f.entries.iter().enumerate() {
        let b = &f.blocks[e.block];
        if b.motion().is_some() {
            continue;
        }
        let err = doc.sample(i, 0.0).unwrap_err();
        assert_eq!(err.offset, Some(b.offset as u64), "{}", e.name);
        assert_eq!(err.file.as_deref(), Some("motion.bin"));
        assert!(err.to_string().contains(&format!("({})", e.name)), "{err}");
        assert_eq!(doc.animations()[i].source, format!("motion.bin@{:#x}", b.offset));
        assert!(doc.warnings().iter().any(|w| w.offset == Some(b.offset as u64)), "{}", e.name);
        said += 1;
    }
    println!("{said}/28 listed-only names: sampling each is an error at its sequence");
    assert_eq!(said, 28);
}
