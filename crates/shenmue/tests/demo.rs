//! The demo through Shenmue's own formats (a round trip: it checks the encoders and the
//! retarget, not the format reading, which tests/motion_bin.rs checks on the real file).

use boneyard_core::demo::DemoClip;
use boneyard_core::Family;
use boneyard_core::{Document, InputFile, MeshBinding, NoCompanions};
use boneyard_shenmue::{demo_files, Shenmue};

fn open() -> Box<dyn Document> {
    let files = Shenmue.demo_files().unwrap();
    assert_eq!(files, demo_files().unwrap());
    for (name, data) in &files {
        assert!(Shenmue.probe(std::path::Path::new(name), data).claims(), "{name} not probed");
    }
    Shenmue
        .open(files.into_iter().map(|(n, d)| InputFile::new(n, d)).collect(), &Default::default(), &NoCompanions)
        .unwrap()
}

#[test]
fn demo_opens_with_rig_body_and_both_clips() {
    let doc = open();
    let anims = doc.animations();
    assert_eq!(anims.len(), 4);
    assert_eq!((anims[0].name.as_str(), anims[0].frames, anims[0].skeleton), ("demo_walk", 31, Some(0)));
    assert_eq!((anims[1].name.as_str(), anims[1].frames, anims[1].skeleton), ("demo_wave", 46, Some(0)));
    assert_eq!((anims[2].name.as_str(), anims[2].frames, anims[2].skeleton), ("demo_walk_fk", 31, Some(2)));
    assert_eq!((anims[3].name.as_str(), anims[3].frames, anims[3].skeleton), ("demo_wave_fk", 46, Some(2)));
    let sk = doc.skeletons();
    assert_eq!(sk[0].skeleton.len(), 37);
    // The body's 37 nodes are its own skeleton, and its boxes ride the rig by render key.
    assert_eq!(sk[1].skeleton.len(), 37);
    // The demo character's own 19 nodes, with its names' order and hierarchy.
    let demo_skel = boneyard_core::demo::skeleton();
    assert_eq!(sk[2].skeleton.len(), 19);
    for (a, b) in sk[2].skeleton.bones.iter().zip(&demo_skel.bones) {
        assert_eq!(a.parent, b.parent);
        assert!((a.rest.translation - b.rest.translation).length() < 1e-6);
    }
    assert_eq!(sk[2].meshes.len(), 19);
    assert!(!sk[0].meshes.is_empty());
    for m in &sk[0].meshes {
        m.validate(37).unwrap();
        assert!(matches!(m.binding, MeshBinding::Skinned { .. }));
    }
    let lines = doc.check().unwrap();
    assert_eq!(lines.len(), 4);
    assert!(lines[2].ends_with("ik=none"), "{}", lines[2]);
    assert!(lines[0].contains("ik=ok degenerate=0"), "{}", lines[0]);
}

#[test]
fn demo_targets_survive_half_float_quantization() {
    let doc = open();
    for (a, clip) in DemoClip::ALL.into_iter().enumerate() {
        for f in 0..doc.animations()[a].frames {
            // The FK copy on the demo's own body: rotations within the format's quantization
            // (halves of turns, then int16 truncation: well under 0.2 degree).
            let fk = doc.sample(a + 2, f64::from(f)).unwrap();
            let want = boneyard_core::demo::pose(clip, f as f32 / 30.0);
            for (b, (g, w)) in fk.locals.iter().zip(&want).enumerate() {
                let angle = g.rotation.angle_between(w.rotation).to_degrees();
                assert!(angle < 0.2, "{clip:?} f{f} bone {b}: {angle} degrees off");
                assert!((g.translation - w.translation).length() < 0.01, "{clip:?} f{f} bone {b}");
            }
            let pose = doc.pose(0, Some(a), f64::from(f)).unwrap();
            for (ctl, want) in boneyard_shenmue::demo_targets(clip, f) {
                let got = pose[ctl].w_axis.truncate();
                // Halves keep 11 significant bits: 2^-11 relative, under 1 mm at these sizes.
                let tol = 1e-3 * want.abs().max_element().max(1.0);
                if ctl == 0 || ctl == 8 || ctl == 15 || ctl == 29 || ctl == 35 {
                    assert!((got - want).abs().max_element() < tol, "{clip:?} f{f} control {ctl}: {got} vs {want}");
                }
            }
            // Consistency: FK of the exported locals reproduces the engine's matrices.
            let s = doc.sample(a, f64::from(f)).unwrap();
            let fk = boneyard_core::fk::world_matrices(&doc.skeletons()[0].skeleton, &s.locals);
            for (b, (x, y)) in pose.iter().zip(&fk).enumerate() {
                assert!(x.abs_diff_eq(*y, 1e-4), "{clip:?} f{f} bone {b}: {x} vs {y}");
            }
        }
    }
}

#[test]
fn body_nodes_take_the_rig_matrices_by_render_key() {
    let doc = open();
    for f in [0.0, 10.0, 22.5] {
        let rig = doc.pose(0, Some(0), f).unwrap();
        let body = doc.pose(1, Some(0), f).unwrap();
        assert_eq!(rig, body);
    }
}
