//! Renders of real files read by a family's own reader (skipped, with a note, when the shared
//! data is not there).

use boneyard_core::testdata::shared_data;
use boneyard_core::Document;
use boneyard_core::{InputFile, MeshBinding};
use boneyard_preview::{apng, camera, gif, png, render, RenderOptions};
use glam::Vec3;

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
    // 1/60 s is 1.67 cs, under the 2 a GIF frame may last: every other frame, 20 of them,
    // each ending at the hundredth nearest 2/60 s times its number (3.33, 6.67, 10 cs ...), so
    // the loop lasts the clip's 40/60 s = 66.67 cs (it was 40 frames of 2 cs, 80 cs).
    let mut want = Vec::new();
    for i in 0..20u32 {
        let end = |k: u32| (100.0 * f64::from(2 * k) / 60.0).round() as u16;
        want.push(end(i + 1) - end(i));
    }
    assert_eq!(want[..3], [3, 4, 3]);
    assert_eq!(delays, want);
    assert_eq!(delays.iter().map(|&d| u32::from(d)).sum::<u32>(), 67);
    let bytes = apng(&d, sk, 0, &o).unwrap();
    let r = png::Decoder::new(std::io::Cursor::new(&bytes)).read_info().unwrap();
    let actl = r.info().animation_control.unwrap();
    assert_eq!(actl.num_frames, 40);
    let fctl = r.info().frame_control.unwrap();
    assert_eq!((fctl.delay_num, fctl.delay_den), (1, 60));
}

/// For every rigid triangle of a decent size on screen, posed by the document's own world
/// matrices and projected by the preview's camera, the pixel under its centroid is drawn (not
/// background); returns (checked, drawn).
fn triangles_land_on_drawn_pixels(
    d: &dyn Document,
    sk: usize,
    anim: usize,
    frame: f64,
    o: &RenderOptions,
) -> (usize, usize) {
    let c = render(d, sk, Some(anim), frame, o).unwrap();
    let cam = camera(d, sk, Some(anim), frame, o).unwrap();
    let world = d.pose(sk, Some(anim), frame).unwrap();
    let (mut checked, mut drawn) = (0, 0);
    for m in &d.skeletons()[sk].meshes {
        let MeshBinding::Rigid { bone } = m.binding else { continue };
        for t in m.indices.chunks_exact(3) {
            let p: Vec<Vec3> =
                t.iter().map(|&i| cam.project(world[bone].transform_point3(m.positions[i as usize]))).collect();
            let area = ((p[1] - p[0]).truncate().perp_dot((p[2] - p[0]).truncate()) / 2.0).abs();
            if area < 20.0 {
                continue;
            }
            let g = (p[0] + p[1] + p[2]) / 3.0;
            checked += 1;
            if c.pixel(g.x as u32, g.y as u32).is_some_and(|px| px != o.background) {
                drawn += 1;
            }
        }
    }
    (checked, drawn)
}

fn z64(files: &[&str], test: &str) -> Option<boneyard_z64::Z64Document> {
    let mut inputs = Vec::new();
    for f in files {
        let p = shared_data(&format!("z64/oot-gc-eu-mq-dbg/{f}"), test)?;
        inputs.push(InputFile::read(&p).unwrap());
    }
    Some(boneyard_z64::open_files(inputs).expect("the OoT files open"))
}

#[test]
fn oot_adult_link_is_drawn_where_the_engine_poses_him() {
    let test = "oot_adult_link_is_drawn_where_the_engine_poses_him";
    let Some(d) = z64(&["object_link_boy", "gameplay_keep", "link_animetion"], test) else { return };
    let d: &dyn Document = &d;
    let anim = d.find_animation("gPlayerAnim_clink_demo_get1").unwrap();
    let sk = d.skeleton_for(anim).unwrap();
    assert_eq!(d.skeletons()[sk].skeleton.len(), 21);
    let o = RenderOptions { width: 160, height: 160, ..Default::default() };
    for frame in [0.0, 10.0, 39.0] {
        let (checked, drawn) = triangles_land_on_drawn_pixels(d, sk, anim, frame, &o);
        assert!(checked > 40, "{checked}");
        assert_eq!(drawn, checked, "frame {frame}");
    }
    let c = render(d, sk, Some(anim), 10.0, &o).unwrap();
    for (x, y) in [(0, 0), (159, 0), (0, 159), (159, 159)] {
        assert_eq!(c.pixel(x, y), Some(o.background));
    }
}

#[test]
fn oot_deku_scrub_clips_render_every_frame() {
    let Some(d) = z64(&["object_dekunuts"], "oot_deku_scrub_clips_render_every_frame") else { return };
    let d: &dyn Document = &d;
    let o = RenderOptions { width: 96, height: 96, ..Default::default() };
    for anim in 0..d.animations().len() {
        let sk = d.skeleton_for(anim).unwrap();
        let frames = d.animations()[anim].frames;
        let (checked, drawn) = triangles_land_on_drawn_pixels(d, sk, anim, f64::from(frames / 2), &o);
        assert_eq!(drawn, checked, "{}", d.animations()[anim].name);
        let bytes = gif(d, sk, anim, &o).unwrap();
        let mut dec = gif::DecodeOptions::new().read_info(std::io::Cursor::new(&bytes)).unwrap();
        let mut n = 0;
        while let Some(f) = dec.read_next_frame().unwrap() {
            assert_eq!(f.delay, 5, "20 fps = 5 cs");
            n += 1;
        }
        assert_eq!(n, frames);
    }
}
