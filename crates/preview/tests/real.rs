//! Renders of real files read by a family's own reader (skipped, with a note, when the shared
//! data is not there).

use boneyard_core::testdata::shared_data;
use boneyard_core::Document;
use boneyard_preview::{apng, camera, gif, png, render, RenderOptions};

/// OniSplit's TRBS body (19 parts, 228 triangles) with its 40-frame, 60 fps walk.
fn oni_walk(test: &str) -> Option<boneyard_oni::OniDocument> {
    let body = shared_data("oni/TRBSfixture_body19.oni", test)?;
    let walk = shared_data("oni/TRAMfixture_walk19.oni", test)?;
    Some(boneyard_oni::open_paths(&[&body, &walk]).expect("the fixtures open"))
}

#[test]
fn oni_body_every_part_is_drawn_where_its_pose_puts_it() {
    let Some(d) = oni_walk("oni_body_every_part_is_drawn_where_its_pose_puts_it") else { return };
    let sk = d.animations()[0].skeleton.unwrap();
    let info = &d.skeletons()[sk];
    assert_eq!((info.skeleton.len(), info.meshes.len()), (19, 19));
    let o = RenderOptions { width: 200, height: 240, ..Default::default() };
    for frame in [0.0, 17.0, 39.0] {
        let c = render(&d, sk, Some(0), frame, &o).unwrap();
        let cam = camera(&d, sk, Some(0), frame, &o).unwrap();
        // The engine's own pose places each part; the middle of each rigid part's vertices,
        // moved by its bone, must land on a drawn (non-background) pixel.
        let world = d.pose(sk, Some(0), frame).unwrap();
        for m in &info.meshes {
            let boneyard_core::MeshBinding::Rigid { bone } = m.binding else { panic!("Oni parts are rigid") };
            let mid = m.positions.iter().fold(glam::Vec3::ZERO, |a, &p| a + p) / m.positions.len() as f32;
            let p = cam.project(world[bone].transform_point3(mid));
            let px = c.pixel(p.x as u32, p.y as u32);
            assert!(px.is_some_and(|px| px != o.background), "frame {frame}: part {} at {p} is {px:?}", m.name);
        }
        for (x, y) in [(0, 0), (199, 0), (0, 239), (199, 239)] {
            assert_eq!(c.pixel(x, y), Some(o.background));
        }
    }
    let (w, h) = {
        let r = png::Decoder::new(std::io::Cursor::new(png(&d, sk, Some(0), 5.0, &o).unwrap())).read_info().unwrap();
        (r.info().width, r.info().height)
    };
    assert_eq!((w, h), (200, 240));
}

#[test]
fn oni_walk_animations_have_40_frames_at_60_fps() {
    let Some(d) = oni_walk("oni_walk_animations_have_40_frames_at_60_fps") else { return };
    assert_eq!((d.animations()[0].frames, d.animations()[0].fps), (40, 60.0));
    let sk = d.animations()[0].skeleton.unwrap();
    let o = RenderOptions { width: 64, height: 64, ..Default::default() };
    let bytes = gif(&d, sk, 0, &o).unwrap();
    let mut dec = gif::DecodeOptions::new().read_info(std::io::Cursor::new(&bytes)).unwrap();
    let mut delays = Vec::new();
    while let Some(f) = dec.read_next_frame().unwrap() {
        delays.push(f.delay);
    }
    // 1/60 s = 1.67 cs, written as 2 (see the crate docs).
    assert_eq!(delays, vec![2; 40]);
    let bytes = apng(&d, sk, 0, &o).unwrap();
    let r = png::Decoder::new(std::io::Cursor::new(&bytes)).read_info().unwrap();
    let actl = r.info().animation_control.unwrap();
    assert_eq!(actl.num_frames, 40);
    let fctl = r.info().frame_control.unwrap();
    assert_eq!((fctl.delay_num, fctl.delay_den), (1, 60));
}
