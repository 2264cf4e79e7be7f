//! Renders of the built-in demo character, checked against facts computed independently of the
//! renderer: the demo's own joint positions (forward kinematics in core), the mesh colours,
//! the image sizes and frame counts read back by the `png` and `gif` decoders.

use boneyard_core::demo::{self, DemoClip};
use boneyard_core::memory::BakedDocument;
use boneyard_core::{fk, Bone, Skeleton, SkeletonInfo, Transform};
use boneyard_preview::{apng, camera, gif, png, render, Canvas, RenderOptions};
use glam::{Quat, Vec3};

const FPS: f32 = 30.0;
const HEAD: usize = 10;

fn doc() -> BakedDocument {
    demo::baked_document(FPS)
}

fn opts(width: u32, height: u32) -> RenderOptions {
    RenderOptions { width, height, ..Default::default() }
}

/// Dump images for a person to look at: BONEYARD_PREVIEW_OUT=/some/dir cargo test.
fn dump(name: &str, bytes: &[u8]) {
    if let Some(dir) = std::env::var_os("BONEYARD_PREVIEW_OUT") {
        std::fs::write(std::path::Path::new(&dir).join(name), bytes).unwrap();
    }
}

fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut r = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

fn at(rgb: &[u8], width: u32, x: f32, y: f32) -> [u8; 3] {
    let i = (y as usize * width as usize + x as usize) * 3;
    [rgb[i], rgb[i + 1], rgb[i + 2]]
}

/// The world position of a point given in bone `bone`'s local space, by core's FK over the
/// demo's own local pose (not through the renderer).
fn world_point(clip: Option<(DemoClip, f32)>, bone: usize, local: Vec3) -> Vec3 {
    let skel = demo::skeleton();
    let locals = match clip {
        Some((c, t)) => demo::pose(c, t),
        None => skel.rest_locals(),
    };
    fk::world_matrices(&skel, &locals)[bone].transform_point3(local)
}

/// A pixel is the mesh colour `base` shaded by one factor in [0.3, 1] (flat shading).
fn is_shade_of(px: [u8; 3], base: [f32; 4]) -> bool {
    let f: Vec<f32> = (0..3).map(|i| px[i] as f32 / (base[i] * 255.0)).collect();
    f.iter().all(|&s| (0.28..=1.01).contains(&s)) && (f[0] - f[2]).abs() < 0.02 && (f[1] - f[2]).abs() < 0.02
}

#[test]
fn rest_pose_png_shows_the_head_and_background_corners() {
    let d = doc();
    let o = opts(320, 240);
    let bytes = png(&d, 0, None, 0.0, &o).unwrap();
    dump("rest.png", &bytes);
    let (w, h, rgb) = decode_png(&bytes);
    assert_eq!((w, h), (320, 240));
    assert_eq!(rgb.len(), 320 * 240 * 3);
    for (x, y) in [(0, 0), (319, 0), (0, 239), (319, 239)] {
        assert_eq!(at(&rgb, w, x as f32, y as f32), o.background, "corner {x},{y}");
    }
    let head_colour = d.skeletons[0].meshes[HEAD].base_color;
    let cam = camera(&d, 0, None, 0.0, &o).unwrap();
    // The middle of the head box (0..2.4 up from the head joint) is head-coloured...
    let head = cam.project(world_point(None, HEAD, Vec3::new(0.0, 1.2, 0.0)));
    let px = at(&rgb, w, head.x, head.y);
    assert!(is_shade_of(px, head_colour), "head pixel {px:?} at {head}");
    // ...and nothing is drawn a unit above the top of it (the head is the highest part).
    let above = cam.project(world_point(None, HEAD, Vec3::new(0.0, 3.4, 0.0)));
    assert!(above.y >= 0.0);
    assert_eq!(at(&rgb, w, above.x, above.y), o.background);
    // Framed: the character spans most of the image height (head top to soles, 18.9 units).
    let top = cam.project(world_point(None, HEAD, Vec3::new(0.0, 2.4, 0.0)));
    let sole = cam.project(world_point(None, 3, Vec3::ZERO));
    assert!(sole.y - top.y > 0.75 * 240.0, "{top} {sole}");
    // Facing the viewer: the character's left hand (+X) is on the image's right.
    let left = cam.project(world_point(None, 14, Vec3::ZERO));
    let right = cam.project(world_point(None, 18, Vec3::ZERO));
    assert!(left.x > right.x + 40.0, "{left} {right}");
}

#[test]
fn walking_frames_stay_in_view_and_track_the_head() {
    let d = doc();
    let o = opts(256, 256);
    let frames = DemoClip::Walk.frames(FPS);
    let cam = camera(&d, 0, Some(0), 0.0, &o).unwrap();
    let head_colour = d.skeletons[0].meshes[HEAD].base_color;
    for f in [0, frames / 3, frames - 1] {
        let c = render(&d, 0, Some(0), f as f64, &o).unwrap();
        // The camera is framed on the whole clip, so it is the same for every frame.
        assert_eq!(camera(&d, 0, Some(0), f as f64, &o).unwrap(), cam);
        let t = f as f32 / FPS;
        let head = cam.project(world_point(Some((DemoClip::Walk, t)), HEAD, Vec3::new(0.0, 1.2, 0.0)));
        let px = c.pixel(head.x as u32, head.y as u32).unwrap();
        assert!(is_shade_of(px, head_colour), "frame {f}: head pixel {px:?} at {head}");
        for p in [(0, 0), (255, 0), (0, 255), (255, 255)] {
            assert_eq!(c.pixel(p.0, p.1), Some(o.background));
        }
        // Both feet (joint + half a unit down inside the foot box) are inside the image.
        for foot in [3, 6] {
            let p = cam.project(world_point(Some((DemoClip::Walk, t)), foot, Vec3::ZERO));
            assert!(p.x > 0.0 && p.x < 256.0 && p.y > 0.0 && p.y < 256.0, "frame {f} foot {foot} at {p}");
        }
    }
    // Root motion moves the head across the image between the first and last frame.
    let first = cam.project(world_point(Some((DemoClip::Walk, 0.0)), HEAD, Vec3::ZERO));
    let last = cam.project(world_point(Some((DemoClip::Walk, 1.0)), HEAD, Vec3::ZERO));
    assert!((first.x - last.x).abs() > 20.0);
}

#[test]
fn same_input_same_bytes() {
    let d = doc();
    let o = opts(200, 160);
    assert_eq!(png(&d, 0, Some(1), 20.0, &o).unwrap(), png(&d, 0, Some(1), 20.0, &o).unwrap());
    assert_eq!(gif(&d, 0, 1, &o).unwrap(), gif(&d, 0, 1, &o).unwrap());
}

#[test]
fn gif_has_every_frame_of_the_clip() {
    let d = doc();
    let o = RenderOptions { draw_bones: true, ..opts(160, 160) };
    let bytes = gif(&d, 0, 0, &o).unwrap();
    dump("walk.gif", &bytes);
    let mut opt = gif::DecodeOptions::new();
    opt.set_color_output(gif::ColorOutput::RGBA);
    let mut dec = opt.read_info(std::io::Cursor::new(&bytes)).unwrap();
    assert_eq!((dec.width(), dec.height()), (160, 160));
    // Composite the frames (each later one is the changed rectangle, kept over the last) and
    // compare every one with what the renderer draws for that frame: the palette is exact
    // for flat shading, so the decoded pixels are the rendered ones.
    let mut screen = vec![0u8; 160 * 160 * 3];
    let mut n = 0;
    while let Some(f) = dec.read_next_frame().unwrap() {
        // 30 fps: frame n ends at the hundredth nearest 100 (n + 1) / 30 (3.33, 6.67, 10 cs).
        let end = |k: u32| (100.0 * f64::from(k) / 30.0).round() as u16;
        assert_eq!(f.delay, end(n + 1) - end(n), "frame {n}");
        assert_eq!(f.dispose, gif::DisposalMethod::Keep);
        if n == 0 {
            assert_eq!((f.left, f.top, f.width, f.height), (0, 0, 160, 160));
        }
        for y in 0..f.height as usize {
            for x in 0..f.width as usize {
                let src = (y * f.width as usize + x) * 4;
                let dst = ((f.top as usize + y) * 160 + f.left as usize + x) * 3;
                screen[dst..dst + 3].copy_from_slice(&f.buffer[src..src + 3]);
            }
        }
        let c = render(&d, 0, Some(0), n as f64, &o).unwrap();
        assert!(screen == c.rgb, "frame {n} differs from the render");
        n += 1;
    }
    assert_eq!(n, DemoClip::Walk.frames(FPS));
}

#[test]
fn apng_has_actl_and_exact_fctl_delays() {
    let d = doc();
    let o = opts(128, 96);
    let bytes = apng(&d, 0, 1, &o).unwrap();
    dump("wave.png", &bytes);
    let frames = DemoClip::Wave.frames(FPS);
    // Read the chunks by hand: acTL num_frames, and every fcTL's delay_num / delay_den.
    let mut pos = 8;
    let (mut actl, mut delays) = (None, Vec::new());
    while pos + 8 <= bytes.len() {
        let len = u32::from_be_bytes(bytes[pos..pos + 4].try_into().unwrap()) as usize;
        let kind = &bytes[pos + 4..pos + 8];
        let data = &bytes[pos + 8..pos + 8 + len];
        match kind {
            b"acTL" => {
                actl = Some((
                    u32::from_be_bytes(data[0..4].try_into().unwrap()),
                    u32::from_be_bytes(data[4..8].try_into().unwrap()),
                ))
            }
            b"fcTL" => {
                delays.push((u16::from_be_bytes([data[20], data[21]]), u16::from_be_bytes([data[22], data[23]])))
            }
            _ => {}
        }
        pos += 12 + len;
    }
    assert_eq!(actl, Some((frames, 0)), "acTL: num_frames, num_plays (0 = forever)");
    assert_eq!(delays.len(), frames as usize);
    assert!(delays.iter().all(|&d| d == (1, 30)), "{delays:?}");
    // And the png crate decodes every frame: the first whole, each later one the rectangle
    // that changed, put in place (blend source, dispose none). Composited, every frame is
    // what the renderer draws for it.
    let mut r = png::Decoder::new(std::io::Cursor::new(&bytes)).read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let mut screen = vec![0u8; 128 * 96 * 3];
    let mut n = 0;
    let mut partial = 0;
    while let Ok(info) = r.next_frame(&mut buf) {
        let fc = r.info().frame_control.unwrap();
        assert_eq!((fc.width, fc.height), (info.width, info.height));
        assert_eq!((fc.blend_op, fc.dispose_op), (png::BlendOp::Source, png::DisposeOp::None));
        if n == 0 {
            assert_eq!((fc.x_offset, fc.y_offset, info.width, info.height), (0, 0, 128, 96));
        }
        partial += usize::from(info.width * info.height < 128 * 96);
        let (w, x0, y0) = (info.width as usize, fc.x_offset as usize, fc.y_offset as usize);
        for y in 0..info.height as usize {
            let dst = ((y0 + y) * 128 + x0) * 3;
            screen[dst..dst + w * 3].copy_from_slice(&buf[y * info.line_size..y * info.line_size + w * 3]);
        }
        let c = render(&d, 0, Some(1), n as f64, &o).unwrap();
        assert!(screen == c.rgb, "frame {n} differs from the render");
        n += 1;
        if n == frames {
            break;
        }
    }
    assert_eq!(n, frames);
    assert!(partial > 0, "later frames carry only what changed");
}

#[test]
fn bones_only_skeleton_draws_lines() {
    // A two-bone skeleton with no mesh: a vertical bone from (0,0,0) to (0,10,0).
    let skel = Skeleton::new(
        "stick",
        vec![
            Bone { name: "a".into(), parent: None, rest: Transform::IDENTITY },
            Bone { name: "b".into(), parent: Some(0), rest: Transform::new(Vec3::new(0.0, 10.0, 0.0), Quat::IDENTITY) },
        ],
    )
    .unwrap();
    let info = SkeletonInfo {
        id: "s".into(),
        name: "stick".into(),
        source: String::new(),
        skeleton: skel,
        meshes: vec![],
        extra: Default::default(),
    };
    let d = BakedDocument::new("test", vec![], vec![info], vec![]);
    let o = RenderOptions { yaw_degrees: 0.0, pitch_degrees: 0.0, ..opts(100, 100) };
    let c: Canvas = render(&d, 0, None, 0.0, &o).unwrap();
    // Framed with 6 % margins: the bone runs from y = 94 (bottom) to y = 6 (top) at x = 50.
    // The 1 px line spans x = 49.5..50.5: the pixel whose centre is on its left edge (49) is in,
    // the one on its right edge (50) is out (top-left rule).
    assert_eq!(c.pixel(49, 50), Some([255, 150, 40]));
    assert_eq!(c.pixel(50, 50), Some(o.background));
    assert_eq!(c.pixel(50, 93), Some([255, 236, 200]), "joint dot");
    assert_eq!(c.pixel(50, 1), Some(o.background));
    assert_eq!(c.pixel(60, 50), Some(o.background));
}

#[test]
fn bad_requests_are_errors_not_panics() {
    let d = doc();
    assert!(png(&d, 5, None, 0.0, &opts(10, 10)).is_err());
    assert!(png(&d, 0, Some(9), 0.0, &opts(10, 10)).is_err());
    assert!(png(&d, 0, None, 0.0, &opts(0, 10)).is_err());
    assert!(png(&d, 0, None, 0.0, &opts(10, 100_000)).is_err());
    assert!(gif(&d, 0, 7, &opts(10, 10)).is_err());
    let nan = RenderOptions { yaw_degrees: f32::NAN, ..opts(10, 10) };
    assert!(apng(&d, 0, 0, &nan).is_err());
    // Odd frame numbers are the document's business (the baked demo clamps them).
    assert!(png(&d, 0, Some(0), f64::NAN, &opts(10, 10)).is_ok());
    assert!(png(&d, 0, Some(0), -1e300, &opts(10, 10)).is_ok());
}

#[test]
fn long_clips_are_capped() {
    assert_eq!(boneyard_preview::clip_frames(31), ((0..31).collect(), 1));
    let (f, step) = boneyard_preview::clip_frames(1500);
    assert_eq!((f.len(), step, f[1], f[499]), (500, 3, 3, 1497));
    let (f, step) = boneyard_preview::clip_frames(601);
    assert_eq!((f.len(), step), (301, 2));
}

#[test]
fn vertex_colours_and_texture_tint_the_face() {
    // One square facing the camera (yaw 0, pitch 0: normal +Z, towards the viewer), lit at
    // shade 0.3 + 0.7 * (0.76 / |(-0.35, 0.55, 0.76)|) = 0.3 + 0.7 * 0.7815 = 0.8470.
    let skel =
        Skeleton::new("one", vec![Bone { name: "root".into(), parent: None, rest: Transform::IDENTITY }]).unwrap();
    let (p, idx) = (
        vec![Vec3::new(-1., -1., 0.), Vec3::new(1., -1., 0.), Vec3::new(1., 1., 0.), Vec3::new(-1., 1., 0.)],
        vec![0, 1, 2, 0, 2, 3],
    );
    let mut m = boneyard_core::Mesh::rigid("square", 0, p, idx);
    m.base_color = [1.0, 0.5, 1.0, 1.0];
    m.colors = Some(vec![[1.0, 1.0, 0.0, 1.0]; 4]);
    // A 2-texel texture: mean (0.5, 1, 1) from (0, 255, 255) and (255, 255, 255).
    m.texture = Some(boneyard_core::model::Texture {
        width: 2,
        height: 1,
        rgba: vec![0, 255, 255, 255, 255, 255, 255, 255].into(),
        filter: Default::default(),
        wrap: Default::default(),
    });
    let info = SkeletonInfo {
        id: "s".into(),
        name: "one".into(),
        source: String::new(),
        skeleton: skel,
        meshes: vec![m],
        extra: Default::default(),
    };
    let d = BakedDocument::new("test", vec![], vec![info], vec![]);
    let o = RenderOptions { yaw_degrees: 0.0, pitch_degrees: 0.0, ..opts(50, 50) };
    let c = render(&d, 0, None, 0.0, &o).unwrap();
    let shade = 0.3 + 0.7 * (0.76 / (0.35f32 * 0.35 + 0.55 * 0.55 + 0.76 * 0.76).sqrt());
    // red: base 1 * texture 0.5 * vertex 1; green: 0.5 * 1 * 1; blue: 1 * 1 * vertex 0.
    let expect = [(0.5 * shade * 255.0).round() as u8, (0.5 * shade * 255.0).round() as u8, 0];
    assert_eq!(c.pixel(25, 25), Some(expect));
}

/// The square of `vertex_colours_and_texture_tint_the_face`, white, with uvs spanning a 2x1
/// texture (red | blue) across it.
fn textured_square(filter: boneyard_core::model::TextureFilter) -> BakedDocument {
    let skel =
        Skeleton::new("one", vec![Bone { name: "root".into(), parent: None, rest: Transform::IDENTITY }]).unwrap();
    let p = vec![Vec3::new(-1., -1., 0.), Vec3::new(1., -1., 0.), Vec3::new(1., 1., 0.), Vec3::new(-1., 1., 0.)];
    let mut m = boneyard_core::Mesh::rigid("square", 0, p, vec![0, 1, 2, 0, 2, 3]);
    m.base_color = [1.0; 4];
    m.uvs = Some([(0., 1.), (1., 1.), (1., 0.), (0., 0.)].map(|(u, v)| glam::Vec2::new(u, v)).to_vec());
    m.texture = Some(boneyard_core::model::Texture {
        width: 2,
        height: 1,
        rgba: vec![255, 0, 0, 255, 0, 0, 255, 255].into(),
        filter,
        wrap: Default::default(),
    });
    let info = SkeletonInfo {
        id: "s".into(),
        name: "one".into(),
        source: String::new(),
        skeleton: skel,
        meshes: vec![m],
        extra: Default::default(),
    };
    BakedDocument::new("test", vec![], vec![info], vec![])
}

#[test]
fn textures_are_sampled_at_the_uvs() {
    use boneyard_core::model::TextureFilter;
    let shade = 0.3 + 0.7 * (0.76 / (0.35f32 * 0.35 + 0.55 * 0.55 + 0.76 * 0.76).sqrt());
    let lit = (shade * 255.0).round() as u8;
    let o = RenderOptions { yaw_degrees: 0.0, pitch_degrees: 0.0, ..opts(50, 50) };
    // Point sampling: +X (screen right) is u = 1, the blue texel; the left half red.
    let c = render(&textured_square(TextureFilter::Point), 0, None, 0.0, &o).unwrap();
    assert_eq!(c.pixel(15, 25), Some([lit, 0, 0]));
    assert_eq!(c.pixel(34, 25), Some([0, 0, lit]));
    // 3-point: at the middle the two texels blend (wrapping makes the edges blend too);
    // one texel's width from the middle toward a texel's centre is nearer that texel.
    let c = render(&textured_square(TextureFilter::ThreePoint), 0, None, 0.0, &o).unwrap();
    let mid = c.pixel(25, 25).unwrap();
    assert!(mid[0] > 40 && mid[2] > 40 && mid[1] == 0, "{mid:?}");
    let left = c.pixel(18, 25).unwrap();
    assert!(left[0] > left[2], "{left:?}");
}

/// The demo with every rigid box turned into a skinned mesh (model-space positions at rest,
/// one joint at weight 1): it must render like the rigid original.
fn skinned_demo() -> BakedDocument {
    let mut d = doc();
    let rest = d.skeletons[0].skeleton.rest_world();
    for m in &mut d.skeletons[0].meshes {
        let boneyard_core::MeshBinding::Rigid { bone } = m.binding else { unreachable!() };
        m.positions = m.positions.iter().map(|&p| rest[bone].transform_point3(p)).collect();
        let n = m.positions.len();
        m.binding = boneyard_core::MeshBinding::Skinned {
            joints: vec![[bone as u16, 0, 0, 0]; n],
            weights: vec![[1.0, 0.0, 0.0, 0.0]; n],
        };
    }
    d
}

#[test]
fn skinned_meshes_render_like_rigid_ones() {
    let (rigid, skinned) = (doc(), skinned_demo());
    let o = opts(160, 160);
    for (anim, frame) in [(0, 7.0), (1, 30.0)] {
        let a = render(&rigid, 0, Some(anim), frame, &o).unwrap();
        let b = render(&skinned, 0, Some(anim), frame, &o).unwrap();
        // world * inverse(rest) * (rest * p) equals world * p up to float rounding, which may
        // move a pixel on an edge.
        let differ = a.rgb.chunks_exact(3).zip(b.rgb.chunks_exact(3)).filter(|(x, y)| x != y).count();
        assert!(differ <= 20, "clip {anim} frame {frame}: {differ} pixels differ");
    }
}

#[test]
fn oversized_animations_are_refused_before_rendering() {
    // The wave stretched to 600 frames: at 2048 x 2048 that is 2.5 G pixels, over the budget
    // of 1024 x 1024 x 1000; refused at once, nothing rendered.
    let mut d = doc();
    let clip = &mut d.clips[1];
    let one = clip.frames[0].clone();
    clip.frames = vec![one; 600];
    clip.root_motion = None;
    clip.info.frames = 600;
    d.infos[1].frames = 600;
    let o = opts(2048, 2048);
    let t = std::time::Instant::now();
    let e = gif(&d, 0, 1, &o).unwrap_err();
    assert!(e.to_string().contains("choose a smaller size"), "{e}");
    assert!(apng(&d, 0, 1, &o).is_err());
    // Not an assertion (no timed tests): the figure, for whoever reads the log.
    eprintln!("took {:?}", t.elapsed());
    // At 64 x 64 it is fine.
    assert!(gif(&d, 0, 1, &opts(64, 64)).is_ok());
}

#[test]
fn cut_outs_skip_clear_texels_and_opaque_meshes_draw_them() {
    use boneyard_core::model::{AlphaMode, TextureFilter};
    let o = RenderOptions { yaw_degrees: 0.0, pitch_degrees: 0.0, ..opts(50, 50) };
    // The red | blue square with the red texel clear (alpha 0).
    let square = |mode: AlphaMode| {
        let mut d = textured_square(TextureFilter::Point);
        let m = &mut d.skeletons[0].meshes[0];
        std::sync::Arc::make_mut(&mut m.texture.as_mut().unwrap().rgba)[3] = 0;
        m.alpha_mode = mode;
        d
    };
    let background = render(&square(AlphaMode::Mask), 0, None, 0.0, &o).unwrap();
    let bg = background.pixel(1, 1).unwrap();
    // A cut-out: the clear half shows the background, the blue half is drawn.
    assert_eq!(background.pixel(15, 25), Some(bg));
    assert_ne!(background.pixel(34, 25), Some(bg));
    // Opaque (the RDP's opaque render modes ignore the texel's alpha): both halves drawn.
    let opaque = render(&square(AlphaMode::Opaque), 0, None, 0.0, &o).unwrap();
    let red = opaque.pixel(15, 25).unwrap();
    assert!(red[0] > 0 && red[1] == 0 && red[2] == 0, "{red:?}");
}
