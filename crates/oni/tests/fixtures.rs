//! Tests against the OniSplit-made fixtures in shared/data/oni, with OniSplit's own XML
//! readings (`*.oni.xml`) and its DAE bake as oracles.

#![allow(clippy::needless_range_loop)] // indices mirror the oracle files' layout

mod common;
use boneyard_core::{fk, Document};
use boneyard_oni::{open_paths, OniDocument};
use common::*;
use std::path::Path;

fn open(names: &[&str], test: &str) -> Option<(OniDocument, Vec<String>)> {
    let mut paths = Vec::new();
    for n in names {
        paths.push(fixture(n, test)?);
    }
    let refs: Vec<&Path> = paths.iter().map(|p| p.as_path()).collect();
    let doc = open_paths(&refs).unwrap_or_else(|e| panic!("{names:?}: {e}"));
    Some((doc, paths.iter().map(|p| p.display().to_string()).collect()))
}

fn xml(name: &str, test: &str) -> Option<String> {
    let p = fixture(name, test)?;
    Some(std::fs::read_to_string(p).unwrap().trim_start_matches('\u{feff}').to_string())
}

const TRAMS_6: [&str; 5] =
    ["TRAMfixture_tiny2", "TRAMfixture_walk19", "TRAMfixture_pose1", "TRAMfixture_gap255", "TRAMfixture_qrekey"];

/// Every EKey of OniSplit's XML against the engine decode at the key's frame. OniSplit's
/// angles are its signed reading of the u16s; adjusted to the engine's unsigned reading they
/// must agree to the XML's printed precision; unadjusted, every key with a negative angle is
/// off by up to 0.0055°: that is OniSplit's documented error, and why boneyard reads the u16
/// unsigned like the engine.
#[test]
fn six_byte_keys_match_onisplit_xml() {
    let mut report = Vec::new();
    for name in TRAMS_6 {
        let test = "six_byte_keys_match_onisplit_xml";
        let Some((doc, _)) = open(&[&format!("{name}.oni")], test) else { return };
        let Some(x) = xml(&format!("{name}.oni.xml"), test) else { return };
        let t = &doc.trams()[0];
        let bones = tags(tags(&x, "Rotations")[0], "Bone");
        assert_eq!(bones.len(), t.parts, "{name}");
        let (mut max_engine, mut min_signed_err, mut keys, mut negative) = (0f64, f64::MAX, 0, 0);
        for (p, bone) in bones.iter().enumerate() {
            let mut frame = 0usize;
            for k in tags(bone, "EKey") {
                let v = floats(k);
                let q = t.rotation(p, frame).unwrap();
                let e = engine_quat_from_degrees(
                    engine_degrees_from_onisplit(v[1]),
                    engine_degrees_from_onisplit(v[2]),
                    engine_degrees_from_onisplit(v[3]),
                );
                let d = (0..4).map(|i| (q[i] as f64 - e[i]).abs()).fold(0.0, f64::max);
                max_engine = max_engine.max(d);
                if v[1..4].iter().any(|&a| a < -0.004) {
                    negative += 1;
                    let s = engine_quat_from_degrees(v[1], v[2], v[3]);
                    let ds = (0..4).map(|i| (q[i] as f64 - s[i]).abs()).fold(0.0, f64::max);
                    min_signed_err = min_signed_err.min(ds);
                }
                keys += 1;
                frame += v[0] as usize;
            }
            assert_eq!(frame, t.frames, "{name} part {p}: XML durations sum to the frames");
        }
        report.push(format!("{name}: {keys} keys, max |engine - XML (unsigned)| = {max_engine:.2e}"));
        assert!(max_engine < 2e-6, "{name}: {max_engine}");
        if negative > 0 {
            assert!(min_signed_err > 5e-6, "{name}: OniSplit's signed view should be off ({min_signed_err})");
        }
    }
    println!("{}", report.join("\n"));
}

/// The one-pass walk used by `check` gives what the engine's per-frame walk gives.
#[test]
fn one_pass_walk_equals_frame_walk() {
    let names: Vec<String> = TRAMS_6.iter().map(|n| format!("{n}.oni")).collect();
    let refs: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    let Some((doc, _)) = open(&refs, "one_pass_walk_equals_frame_walk") else { return };
    for t in doc.trams() {
        for p in 0..t.parts {
            let all = t.part_rotations(p).unwrap();
            for (f, q) in all.iter().enumerate() {
                assert_eq!(*q, t.rotation(p, f).unwrap(), "{} part {p} frame {f}", t.name);
            }
        }
    }
}

/// (0, 0, 0) is not the identity in the engine: ≈ (0, -1.75e-7, 0, -1) (M3c2Pi is the f32
/// above 2π), as tiny2's part 1 key 0 and pose1's zero keys decode.
#[test]
fn zero_key_is_the_engines_not_identity() {
    let Some((doc, _)) = open(&["TRAMfixture_tiny2.oni"], "zero_key_is_the_engines_not_identity") else { return };
    let q = doc.trams()[0].rotation(1, 0).unwrap();
    assert_eq!(q[0], 0.0);
    assert!((q[1] + 1.7484555e-7).abs() < 1e-12, "{q:?}");
    assert_eq!(q[2], 0.0);
    assert_eq!(q[3], -1.0);
}

/// Heights and velocities equal OniSplit's XML values (f32), for every TRAM fixture.
#[test]
fn heights_and_velocities_match_xml() {
    for name in TRAMS_6.iter().chain(["TRAMfixture_walk19_overlay"].iter()) {
        let test = "heights_and_velocities_match_xml";
        let Some((doc, _)) = open(&[&format!("{name}.oni")], test) else { return };
        let Some(x) = xml(&format!("{name}.oni.xml"), test) else { return };
        let t = &doc.trams()[0];
        let h: Vec<f32> = tags(&x, "Height").iter().take(t.frames).map(|s| s.trim().parse().unwrap()).collect();
        assert_eq!(h, t.heights, "{name}");
        let v: Vec<[f32; 2]> = tags(&x, "Velocity")
            .iter()
            .map(|s| {
                let f = floats32(s);
                [f[0], f[1]]
            })
            .collect();
        assert_eq!(v, t.velocities, "{name}");
    }
}

/// The overlay's 16-byte keys are stored verbatim in its XML; they were computed (in double,
/// rounded to f32) as the engine decode of walk19's 6-byte keys. So: the 16-byte decode must
/// equal the XML bit for bit, and the engine decode of walk19 must agree with the overlay at
/// every frame of every part (lerps included) to f32 rounding.
#[test]
fn overlay_quaternions_match_xml_and_walk19() {
    let test = "overlay_quaternions_match_xml_and_walk19";
    let Some((doc, _)) = open(&["TRAMfixture_walk19.oni", "TRAMfixture_walk19_overlay.oni"], test) else { return };
    let Some(x) = xml("TRAMfixture_walk19_overlay.oni.xml", test) else { return };
    let (walk, over) = (&doc.trams()[0], &doc.trams()[1]);
    assert_eq!((walk.key_size, over.key_size), (6, 16));
    for (p, bone) in tags(tags(&x, "Rotations")[0], "Bone").iter().enumerate() {
        let mut frame = 0usize;
        for k in tags(bone, "QKey") {
            let v = floats32(k);
            assert_eq!(over.rotation(p, frame).unwrap(), [v[1], v[2], v[3], v[4]], "part {p} frame {frame}");
            frame += v[0] as usize;
        }
    }
    let mut worst = 0f32;
    for f in 0..walk.frames {
        for p in 0..walk.parts {
            let a = walk.rotation(p, f).unwrap();
            let b = over.rotation(p, f).unwrap();
            worst = worst.max((0..4).map(|i| (a[i] - b[i]).abs()).fold(0.0, f32::max));
        }
    }
    println!("walk19 (6-byte, engine decode) vs overlay (16-byte): max diff {worst:.2e} over every frame and part");
    assert!(worst < 1e-6, "{worst}");
    // Played alone here, not over a base as the game plays it: said, at the flags field, with
    // the XML's masks (Flags Overlay, UsedBones Mid..RightFist, ReplacedBones Neck|Head).
    assert!(x.contains("<Flags>Overlay</Flags>"), "the XML's flags");
    let w: Vec<_> = doc.warnings().iter().filter(|w| w.message.contains("an overlay")).collect();
    assert_eq!(w.len(), 1, "{:?}", doc.warnings());
    assert!(w[0].file.ends_with("TRAMfixture_walk19_overlay.oni"));
    assert!(
        w[0].message.contains("flags 0x2000")
            && w[0].message.contains("parts 0x7ff80")
            && w[0].message.contains("replacing 0x600"),
        "{}",
        w[0].message
    );
    let data = std::fs::read(fixture("TRAMfixture_walk19_overlay.oni", test).unwrap()).unwrap();
    let at = w[0].offset.unwrap() as usize;
    assert_eq!(u32::from_le_bytes(data[at..at + 4].try_into().unwrap()), 0x2000);
}

/// walk19's other fields against its XML.
#[test]
fn walk19_fields_match_xml() {
    let test = "walk19_fields_match_xml";
    let Some((doc, _)) = open(&["TRAMfixture_walk19.oni"], test) else { return };
    let Some(x) = xml("TRAMfixture_walk19.oni.xml", test) else { return };
    let t = &doc.trams()[0];
    assert_eq!((t.fps, t.frames, t.parts, t.duration), (60, 40, 19, 40));
    assert_eq!(t.atomic, [10, 20]);
    assert_eq!(t.invulnerable, [2, 4]); // XML Invulnerable/End is stored in the length byte
    assert_eq!((t.hard_pause, t.soft_pause), (3, 1));
    assert_eq!(t.interpolation, [8, 12]);
    assert_eq!(t.action_frame, 14);
    assert_eq!(t.attack_name, "fixture_hit");
    assert_eq!(t.flags, 0x210);
    let th = t.throw.as_ref().unwrap();
    assert_eq!((th.offset, th.facing, th.distance), ([1.0, 0.0, 2.5], 180.0, 5.0));
    assert_eq!(t.footsteps.iter().map(|f| f[0]).collect::<Vec<_>>(), [5, 15, 25, 35]);
    let sounds: Vec<(String, u16)> = tags(&x, "Sound")
        .iter()
        .map(|s| (tags(s, "Name")[0].to_string(), tags(s, "Start")[0].parse().unwrap()))
        .collect();
    assert_eq!(t.sounds, sounds);
    assert_eq!(t.particles.len(), 1);
    assert_eq!((t.particles[0].start, t.particles[0].stop, t.particles[0].name.as_str()), (10, 20, "fixture_glow"));
    assert_eq!(t.damages, vec![[5, 30]]);
    let a = &t.attacks[0];
    assert_eq!((a.first_frame, a.last_frame, a.damage, a.knockback), (12, 15, 15, 2.5));
    assert_eq!((a.hit_stun, a.block_stun, a.stagger), (30, 20, 0));
    let b = &t.blurs[0];
    assert_eq!((b.first_frame, b.last_frame, b.lifetime, b.alpha, b.interval), (12, 18, 10, 128, 2));
    assert_eq!(t.shortcuts[0][1], 6);
    // Extents: the XML's angles (degrees) and lengths; the ring.
    let ext = tags(tags(&x, "Extents")[0], "Angle");
    assert_eq!(ext.len(), t.attack_extents.len());
    for (e, a) in t.attack_extents.iter().zip(ext) {
        let deg = e.angle as f64 * 360.0 / 65535.0;
        let xml_deg: f64 = a.parse().unwrap();
        // OniSplit prints 355 for 64625 (355.0011°): within one step of 0.0055°.
        assert!((deg - xml_deg).abs() < 2e-3, "{deg} {xml_deg}");
    }
    let lens: Vec<f32> = tags(tags(&x, "Extents")[0], "Length").iter().map(|s| s.parse().unwrap()).collect();
    for (e, l) in t.attack_extents.iter().zip(lens) {
        assert!((e.distance as f32 * 0.01 - l).abs() < 1e-5);
    }
    let ring: Vec<f32> = tags(tags(&x, "AttackRing")[0], "Length").iter().map(|s| s.parse().unwrap()).collect();
    assert_eq!(ring, t.ring.to_vec());
    // Position points: X/Z = PositionOffset + summed motion, in 0.01; heights per frame.
    assert_eq!((t.positions[0].x, t.positions[0].z), (50, -125));
    let ph: Vec<f64> =
        tags(tags(&x, "Positions")[0], "Position").iter().map(|p| tags(p, "Height")[0].parse().unwrap()).collect();
    assert_eq!(ph.len(), 40);
    for (p, h) in t.positions.iter().zip(ph) {
        assert!((p.toe_to_head as f64 * 0.01 - h).abs() < 1e-4);
    }
    // list --json carries them.
    let info = &doc.animation_extra(0);
    assert_eq!(info["throw"]["distance"], 5.0);
    assert_eq!(info["footsteps"].as_array().unwrap().len(), 4);
    let s = doc.sample(0, 5.0).unwrap();
    assert_eq!(s.extra["sounds"][0], "fixture_step_a");
}

/// The malformed fixture: OniSplit's -extract:xml fails on it with EndOfStreamException;
/// boneyard refuses it at load with the part, the sum and the byte offset.
#[test]
fn badlast_is_rejected_clearly() {
    let test = "badlast_is_rejected_clearly";
    let Some(p) = fixture("TRAMfixture_badlast.oni", test) else { return };
    let Some(oracle) = fixture("TRAMfixture_badlast.oni.extract-error.txt", test) else { return };
    assert!(std::fs::read_to_string(oracle).unwrap().contains("EndOfStreamException"));
    let e = match open_paths(&[p.as_path()]) {
        Err(e) => e,
        Ok(_) => panic!("badlast must not open"),
    };
    let msg = e.to_string();
    println!("{msg}");
    assert!(msg.contains("TRAMfixture_badlast.oni"), "{msg}");
    assert!(msg.contains("part 1") && msg.contains("adding up to 2") && msg.contains("frames - 1 = 3"), "{msg}");
    assert_eq!(e.offset, Some(684)); // where the next gap would be read: the end of the file
}

/// The level holds the same TRAMs as the .oni files (OniSplit: byte-identical arrays).
#[test]
fn level_matches_oni_files() {
    let test = "level_matches_oni_files";
    let Some((level, _)) = open(&["level1_Final.dat"], test) else { return };
    let names: Vec<&str> = TRAMS_6.iter().copied().chain(["TRAMfixture_walk19_overlay"]).collect();
    let onis: Vec<String> = names.iter().map(|n| format!("{n}.oni")).collect();
    let refs: Vec<&str> = onis.iter().map(|s| s.as_str()).collect();
    let Some((single, _)) = open(&refs, test) else { return };
    assert_eq!(level.trams().len(), 6);
    for t in level.trams() {
        let o = single.trams().iter().find(|o| o.name == t.name).unwrap();
        assert_eq!(t.rotations, o.rotations, "{}", t.name);
        assert_eq!(t.heights, o.heights);
        assert_eq!(t.velocities, o.velocities);
        assert_eq!(t.sounds, o.sounds);
    }
    // Bodies: the lod5 set poses its slot 4, descriptor 16; body19's five slots are all 91.
    let sk = level.skeletons();
    let lod5 = sk.iter().find(|s| s.id == "TRBSfixture_lod5").unwrap();
    assert!(lod5.extra["posed_lod"].as_str().unwrap().ends_with("level1_Final.dat#16"));
    let lods: Vec<String> = lod5.extra["lods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().rsplit('#').next().unwrap().to_string())
        .collect();
    assert_eq!(lods, ["7", "51", "111", "44", "16"]);
    let b19 = sk.iter().find(|s| s.id == "TRBSfixture_body19").unwrap();
    assert!(b19.extra["lods"].as_array().unwrap().iter().all(|v| v.as_str().unwrap().ends_with("#91")));
    // Check lines of the level equal those of the .oni files (same animations).
    let ll = level.check().unwrap();
    let sl = single.check().unwrap();
    for l in ll.iter().filter(|l| !l.starts_with("file ")) {
        let rest = l.split_once(' ').unwrap().1;
        assert!(sl.iter().any(|s| s.split_once(' ').unwrap().1 == rest), "{l}");
    }
    let files = level.files();
    assert!(files[0].notes.iter().any(|n| n.contains("level1_Final.raw")));
    assert!(files[0].counts.contains(&("TRAM".to_string(), 6)));
}

/// Body fixtures: TRTA and TRIA as the manifest lists them, the meshes, the LOD choice.
#[test]
fn bodies_match_manifest() {
    let test = "bodies_match_manifest";
    let Some((doc, _)) = open(&["TRBSfixture_body19.oni", "TRBSfixture_lod5.oni"], test) else { return };
    let expect: [([f32; 3], Option<usize>); 19] = [
        ([0.0, 0.0, 0.0], None),
        ([0.9, -0.7, 0.0], Some(0)),
        ([0.0, -4.0, 0.0], Some(1)),
        ([0.0, -4.0, 0.0], Some(2)),
        ([-0.9, -0.7, 0.0], Some(0)),
        ([0.0, -4.0, 0.0], Some(4)),
        ([0.0, -4.0, 0.0], Some(5)),
        ([0.0, 0.8, 0.0], Some(0)),
        ([0.0, 1.8, 0.0], Some(7)),
        ([0.0, 2.6, 0.0], Some(8)),
        ([0.0, 0.7, 0.0], Some(9)),
        ([1.2, 2.3, 0.0], Some(8)),
        ([0.9, 0.0, 0.0], Some(11)),
        ([2.6, 0.0, 0.0], Some(12)),
        ([2.4, 0.0, 0.0], Some(13)),
        ([-1.2, 2.3, 0.0], Some(8)),
        ([-0.9, 0.0, 0.0], Some(15)),
        ([-2.6, 0.0, 0.0], Some(16)),
        ([-2.4, 0.0, 0.0], Some(17)),
    ];
    for (i, b) in doc.bodies().iter().enumerate() {
        for (p, (t, par)) in expect.iter().enumerate() {
            for k in 0..3 {
                assert!((b.translations[p][k] - t[k]).abs() < 1e-6, "body {i} part {p}");
            }
            assert_eq!(b.parents[p], *par, "body {i} part {p}");
        }
        assert_eq!(b.index_blocks[0][..3], [0, 1, 0]);
        assert_eq!(b.index_blocks[1][..3], [0, 2, 4]);
        assert_eq!(b.index_blocks[9][..3], [8, 10, 11]);
        assert_eq!(b.index_blocks[11][..3], [8, 12, 15]);
    }
    let sk = doc.skeletons();
    assert_eq!(sk[0].meshes.len(), 19);
    for m in &sk[0].meshes {
        assert_eq!((m.positions.len(), m.indices.len() / 3), (24, 12));
        m.validate(19).unwrap();
    }
    // lod5 poses its SuperHigh body: 54 vertices and 48 triangles a part.
    for m in &sk[1].meshes {
        assert_eq!((m.positions.len(), m.indices.len() / 3), (54, 48), "{}", m.name);
    }
    // texture coordinates of body19: offset by 0.05 per part (manifest).
    let u0 = sk[0].meshes[0].uvs.as_ref().unwrap()[0];
    let u3 = sk[0].meshes[3].uvs.as_ref().unwrap()[0];
    assert!(((u3.x - u0.x) - 0.15).abs() < 1e-5 || ((u3.y - u0.y) - 0.15).abs() < 1e-5, "{u0} {u3}");
}

/// The box: PNTA positions as in the XML; the strip walk gives 12 triangles, every one facing
/// out of the box (checked against the box's centre, not against the file's normals).
#[test]
fn m3gm_box_strips_walk_to_an_outward_box() {
    let test = "m3gm_box_strips_walk_to_an_outward_box";
    let Some(p) = fixture("M3GMfixture_box.oni", test) else { return };
    let Some(x) = xml("M3GMfixture_box.oni.xml", test) else { return };
    let data = std::fs::read(&p).unwrap();
    let f = boneyard_oni::InstanceFile::parse("box", data, None, None).unwrap();
    let files = boneyard_oni::Files::new(vec![f]);
    let m = boneyard_oni::read_geometry(&files, boneyard_oni::Ref { file: 0, index: 0 }, 0, "box".into()).unwrap();
    let xp: Vec<Vec<f32>> = tags(tags(&x, "Positions")[0], "Vector3").iter().map(|s| floats32(s)).collect();
    assert_eq!(xp.len(), m.positions.len());
    for (a, b) in m.positions.iter().zip(&xp) {
        assert_eq!(a.to_array().to_vec(), *b);
    }
    assert_eq!(m.indices.len(), 36);
    // Opened as a document, the named geometry is a one-part skeleton with its mesh.
    let doc = open_paths(&[p.as_path()]).unwrap();
    let sk = &doc.skeletons()[0];
    assert_eq!((sk.id.as_str(), sk.skeleton.len(), sk.meshes.len()), ("M3GMfixture_box", 1, 1));
    let centre = glam::Vec3::new(0.0, 1.5, 0.0);
    for t in m.indices.chunks(3) {
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| m.positions[i as usize]);
        let n = (b - a).cross(c - a);
        assert!(n.length() > 0.0);
        assert!(n.dot((a + b + c) / 3.0 - centre) > 0.0, "triangle {t:?} faces inward");
    }
}

/// The consistency rule: FK over sample.locals equals the engine pose, every frame of every
/// fixture animation (on its skeleton).
#[test]
fn fk_of_locals_equals_engine_pose() {
    let test = "fk_of_locals_equals_engine_pose";
    let mut names: Vec<String> = TRAMS_6.iter().map(|n| format!("{n}.oni")).collect();
    names.push("TRAMfixture_walk19_overlay.oni".into());
    names.push("TRBSfixture_body19.oni".into());
    let refs: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    let Some((doc, _)) = open(&refs, test) else { return };
    let mut worst = 0f32;
    for a in doc.animations() {
        let sk = (&doc as &dyn Document).skeleton_for(a.index).unwrap();
        let skel = &doc.skeletons()[sk].skeleton;
        for f in 0..a.frames {
            let s = doc.sample(a.index, f as f64).unwrap();
            assert_eq!(s.frame, f as f64);
            let w = fk::world_matrices(skel, &s.locals);
            let p = doc.pose(sk, Some(a.index), f as f64).unwrap();
            for (x, y) in w.iter().zip(&p) {
                for (u, v) in x.to_cols_array().iter().zip(y.to_cols_array()) {
                    let d = (u - v).abs() / v.abs().max(1.0);
                    worst = worst.max(d);
                }
            }
        }
    }
    println!("max |fk(locals) - engine pose| = {worst:.2e}");
    assert!(worst < 1e-4, "{worst}");
}

/// Posing against OniSplit's independent bake: walk19 on body19 as `-extract:xml
/// -anim-body` wrote it into TRAMfixture_walk19.dae (per frame: translate, rotX, rotY, rotZ in
/// degrees per node; its lerp is f32 and its Euler angles are printed to 6 digits). Every
/// part's world position must agree.
#[test]
fn pose_matches_onisplit_dae() {
    let test = "pose_matches_onisplit_dae";
    let Some((doc, _)) = open(&["TRAMfixture_walk19.oni", "TRBSfixture_body19.oni"], test) else { return };
    let Some(p) = fixture("TRAMfixture_walk19.dae", test) else { return };
    let dae = std::fs::read_to_string(p).unwrap();
    let arr = |id: &str| -> Vec<f64> {
        let key = format!("<float_array id=\"{id}\"");
        let i = dae.find(&key).unwrap_or_else(|| panic!("{id}"));
        let rest = &dae[i..];
        let start = rest.find('>').unwrap() + 1;
        let end = rest.find("</float_array>").unwrap();
        floats(&rest[start..end])
    };
    let sk = doc.skeletons().iter().position(|s| s.id == "TRBSfixture_body19").unwrap();
    let skel = &doc.skeletons()[sk].skeleton;
    // Lerp segments whose two keys are nearly orthogonal (|dot| < 1e-3): there the side of the
    // sign flip depends on OniSplit's signed vs the engine's unsigned reading (see
    // `lerp_hemisphere_follows_the_engines_reading`), so the paths legitimately differ.
    let Some(x) = xml("TRAMfixture_walk19.oni.xml", test) else { return };
    let t = &doc.trams()[0];
    let mut ill = vec![vec![false; 40]; 19];
    for (p, bone) in tags(tags(&x, "Rotations")[0], "Bone").iter().enumerate() {
        let mut k0 = 0usize;
        for k in tags(bone, "EKey") {
            let k1 = k0 + floats(k)[0] as usize;
            if k1 < 40 {
                let (a, b) = (t.rotation(p, k0).unwrap(), t.rotation(p, k1).unwrap());
                let dot: f32 = (0..4).map(|i| a[i] * b[i]).sum();
                for row in ill[p].iter_mut().take(k1).skip(k0 + 1) {
                    *row = dot.abs() < 1e-3;
                }
            }
            k0 = k1;
        }
    }
    let (mut worst, mut compared) = (0f64, 0);
    for f in 0..40usize {
        let mut world: Vec<([[f64; 3]; 3], [f64; 3])> = Vec::new();
        // OniSplit's Euler extraction loses the x/z split near gimbal lock (y = ±90°, printed
        // 90.0 for 90.00137): parts below such a node are not compared.
        let mut tainted: Vec<bool> = Vec::new();
        for (i, b) in skel.bones.iter().enumerate() {
            let n = &b.name;
            let mut t = b.rest.translation.to_array().map(|v| v as f64);
            if i == 0 {
                t = [
                    arr("pelvis_pos_X_output_array")[f],
                    arr("pelvis_pos_Y_output_array")[f],
                    arr("pelvis_pos_Z_output_array")[f],
                ];
            }
            let r = mm(
                mm(
                    rx(arr(&format!("{n}_rotX_ANGLE_output_array"))[f]),
                    ry(arr(&format!("{n}_rotY_ANGLE_output_array"))[f]),
                ),
                rz(arr(&format!("{n}_rotZ_ANGLE_output_array"))[f]),
            );
            let (pr, pt) = match b.parent {
                Some(p) => world[p],
                None => ([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], [0.0; 3]),
            };
            let mut wt = pt;
            for r_ in 0..3 {
                wt[r_] += (0..3).map(|k| pr[r_][k] * t[k]).sum::<f64>();
            }
            let y = arr(&format!("{n}_rotY_ANGLE_output_array"))[f];
            let near_gimbal = ((y.rem_euclid(180.0)) - 90.0).abs() < 1.0;
            tainted.push(near_gimbal || ill[i][f] || b.parent.is_some_and(|p| tainted[p]));
            world.push((mm(pr, r), wt));
        }
        let mine = doc.pose(sk, Some(0), f as f64).unwrap();
        for (k_part, (m, (_, t))) in mine.iter().zip(&world).enumerate() {
            let p = m.w_axis;
            let d = (0..3).map(|k| (p[k] as f64 - t[k]).abs()).fold(0.0, f64::max);
            if !tainted[k_part] {
                worst = worst.max(d);
                compared += 1;
            }
        }
    }
    println!("walk19 on body19: {compared} part positions compared, max |boneyard - OniSplit DAE| = {worst:.2e} units");
    assert!(compared > 600);
    // OniSplit's signed reading puts negative angles 0.0055° off; over a chain of ~15
    // units that is up to ~3e-3 units.
    assert!(worst < 5e-3, "{worst}");
}

/// Every fixture (and the level) passes `check`; the lines have the documented shape.
#[test]
fn check_lines_have_the_documented_shape() {
    let test = "check_lines_have_the_documented_shape";
    let Some((doc, _)) = open(&["TRAMfixture_tiny2.oni"], test) else { return };
    let l = doc.check().unwrap();
    assert_eq!(l.len(), 2);
    // tiny2's streams: part 0 = 1C 07 39 0E 55 15 02 00 40 00 E0 00 80 (manifest bytes).
    let part0: [u8; 13] = [0x1C, 0x07, 0x39, 0x0E, 0x55, 0x15, 0x02, 0x00, 0x40, 0x00, 0xE0, 0x00, 0x80];
    let part1: [u8; 13] = [0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0x40];
    let expect = format!(
        "0 fixture_tiny2 frames=3 bones=2 key=6 type=6 from=7 to=7 streams={:08x},{:08x} ",
        crc32fast::hash(&part0),
        crc32fast::hash(&part1)
    );
    assert!(l[0].starts_with(&expect), "{}\n{expect}", l[0]);
    assert_eq!(l[1], "file TRAMfixture_tiny2.oni VR32 instances=1 TRAM=1");
}

/// Where the engine and OniSplit part ways: walk19's left calf lerps from (-24.5°, 0, 0) at
/// frame 30 to (1.07°, 0, z) at frame 39 with z stored as 0x8000: the engine reads +180.0027°,
/// OniSplit -180.0027°. The two keys are nearly orthogonal, so the sign of their dot product —
/// which decides MUrQuat_Lerp's flip — differs between the readings: the engine does not flip
/// and turns the calf one way about Z; OniSplit flips and turns it the other way (its DAE has
/// rotZ = +13.9° at frame 31). boneyard follows the engine.
#[test]
fn lerp_hemisphere_follows_the_engines_reading() {
    let test = "lerp_hemisphere_follows_the_engines_reading";
    let Some((doc, _)) = open(&["TRAMfixture_walk19.oni"], test) else { return };
    let t = &doc.trams()[0];
    let (a, b) = (t.rotation(2, 30).unwrap(), t.rotation(2, 39).unwrap());
    let engine_dot: f64 = (0..4).map(|i| a[i] as f64 * b[i] as f64).sum();
    assert!(engine_dot > 0.0 && engine_dot < 1e-4, "{engine_dot}");
    // OniSplit's reading of the same keys (signed angles), engine convention.
    let oa = engine_quat_from_degrees(-24.4998856, 0.0, 0.0);
    let ob = engine_quat_from_degrees(1.07118332, 0.0, -180.002747);
    let onisplit_dot: f64 = (0..4).map(|i| oa[i] * ob[i]).sum();
    assert!(onisplit_dot < 0.0, "{onisplit_dot}");
    // The engine's frame 31: a -14° turn about Z (glam convention), where OniSplit's is +13.9°.
    let g = boneyard_oni::to_glam(t.rotation(2, 31).unwrap());
    let (_, _, z) = g.to_euler(glam::EulerRot::XYZ);
    assert!((z.to_degrees() + 14.0).abs() < 0.5, "{}", z.to_degrees());
}

/// The engine's strip walk against OniSplit's own decode of the same strips (its DAE exports
/// of the bodies: triangles indexed by M3GM vertex through their texture coordinates): the
/// same triangles for every part, with the same facing.
#[test]
fn strip_walk_matches_onisplit_dae_triangles() {
    let test = "strip_walk_matches_onisplit_dae_triangles";
    for (oni, dae) in [
        ("TRBSfixture_body19.oni", "TRBSfixture_body19_TRCM1.dae"),
        ("TRBSfixture_lod5.oni", "TRBSfixture_lod5_TRCM549.dae"),
    ] {
        let Some((doc, _)) = open(&[oni], test) else { return };
        let Some(p) = fixture(dae, test) else { return };
        let d = std::fs::read_to_string(p).unwrap();
        let sk = &doc.skeletons()[0];
        let (mut tris, mut same_winding) = (0, 0);
        for m in &sk.meshes {
            let start = d.find(&format!("<geometry id=\"{}_geometry\">", m.name)).unwrap();
            let g = &d[start..];
            let g = &g[..g.find("</geometry>").unwrap()];
            let ps = &g[g.find("<p>").unwrap() + 3..g.find("</p>").unwrap()];
            let idx: Vec<u32> = ps.split_whitespace().map(|v| v.parse().unwrap()).collect();
            // (position, normal, texcoord) per corner; the texcoord index is the M3GM vertex.
            let theirs: Vec<[u32; 3]> = idx.chunks(9).map(|c| [c[2], c[5], c[8]]).collect();
            let mine: Vec<[u32; 3]> = m.indices.chunks(3).map(|c| [c[0], c[1], c[2]]).collect();
            assert_eq!(mine.len(), theirs.len(), "{oni} {}", m.name);
            let key = |t: &[u32; 3]| {
                let mut s = *t;
                s.sort();
                s
            };
            let mut a: Vec<_> = mine.iter().map(key).collect();
            let mut b: Vec<_> = theirs.iter().map(key).collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "{oni} {}: triangle sets", m.name);
            for t in &mine {
                let rot = |t: [u32; 3], k: usize| [t[k % 3], t[(k + 1) % 3], t[(k + 2) % 3]];
                if theirs.iter().any(|u| (0..3).any(|k| rot(*u, k) == *t)) {
                    same_winding += 1;
                }
                tris += 1;
            }
        }
        println!("{oni}: {tris} triangles, the same set as OniSplit's DAE; {same_winding} with the same winding");
        assert_eq!(same_winding, tris, "{oni}");
    }
}
