//! The real Shenmue I MOTION.BIN against the reference's test vectors.

use boneyard_core::testdata::shared_data;
use boneyard_core::Document;
use boneyard_shenmue::curve::Axis;
use boneyard_shenmue::motn::{Layout, MotnFile};

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
    // The walk: footstep (surface) cues on frames 0 and 18, kinds 0 and 1.
    let walk = f.entries[242].action.as_ref().unwrap();
    assert_eq!((walk.offset, walk.len), (0x31D4, 52));
    assert_eq!(walk.surface_cues, vec![(0, 0), (18, 1)]);
    // A battle move: hit-phase frames right after the header.
    let hit = f.entries[614].action.as_ref().unwrap();
    assert_eq!(hit.hit_frames, Some([1, 19, 20]));
    let with_hits = f.entries.iter().filter(|e| e.action.as_ref().is_some_and(|a| a.hit_frames.is_some())).count();
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
        let rig = &boneyard_shenmue::rig::HUMAN_RIG;
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
    assert!(boneyard_shenmue::Shenmue.probe(path, &cut));
    assert!(!boneyard_shenmue::Shenmue.probe(std::path::Path::new("x.dat"), &cut));
    let err =
        boneyard_shenmue::Shenmue.open(vec![InputFile::new(path, cut)]).err().expect("a truncated file is refused");
    assert_eq!(err.offset, Some(0x10), "{err}");
    assert!(err.to_string().contains("1826800"), "{err}");
}
