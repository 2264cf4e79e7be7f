//! The BVH writer against text worked by hand, and the demo re-parsed from the text with an
//! independent reader (BVH semantics: `translate · Rz · Rx · Ry` per joint, depth-first
//! channel order) whose world matrices must equal `Document::pose`.

mod common;

use boneyard_core::memory::{BakedClip, BakedDocument};
use boneyard_core::{Document, Interpolation, Transform};
use boneyard_export::{bvh, ExportOptions};
use glam::{DMat4, DVec3, Quat, Vec3};

#[test]
fn two_bones_by_hand() {
    let doc = common::two_bones(["a", "b"]);
    let text = bvh(&doc, 0, 0, &ExportOptions::default()).unwrap();
    // a: rest (0,1,0) turned 90° about Z, the root: 6 channels, Euler (z, x, y) = (90, 0, 0).
    // b: (2,0,0), Rx(90°), Rx(100°) (sampled in the other hemisphere), Rx(110°). Past 90° the
    // principal ZXY angles would be (180, 80, 180); the writer keeps them next to the previous
    // frame's: (0, 100, 0). End Site: half of b's offset.
    let want = "HIERARCHY
ROOT a
{
\tOFFSET 0 1 0
\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
\tJOINT b
\t{
\t\tOFFSET 2 0 0
\t\tCHANNELS 3 Zrotation Xrotation Yrotation
\t\tEnd Site
\t\t{
\t\t\tOFFSET 1 0 0
\t\t}
\t}
}
MOTION
Frames: 3
Frame Time: 0.1
";
    assert_eq!(&text[..want.len()], want);
    // Angles within 1e-5°: the f32 quaternion of Rx(100°) is 99.999997° exactly.
    let motion: Vec<Vec<f64>> =
        text[want.len()..].lines().map(|l| l.split(' ').map(|v| v.parse().unwrap()).collect()).collect();
    let hand = [
        [0., 1., 0., 90., 0., 0., 0., 90., 0.],
        [0., 1., 1., 90., 0., 0., 0., 100., 0.],
        [0., 1., 2., 90., 0., 0., 0., 110., 0.],
    ];
    assert_eq!(motion.len(), 3);
    for (m, h) in motion.iter().zip(hand) {
        assert!(m.len() == 9 && m.iter().zip(h).all(|(a, b)| (a - b).abs() < 1e-5), "{m:?}");
    }
    let text = bvh(&doc, 0, 0, &ExportOptions { in_place: true, ..Default::default() }).unwrap();
    let roots: Vec<&str> = text.lines().rev().take(3).map(|l| &l[..5]).collect();
    assert_eq!(roots, ["0 1 0", "0 1 0", "0 1 0"], "root motion removed: {text}");
}

/// A one-bone clip whose rotations are built as Rz·Rx·Ry products of known angles.
#[test]
fn euler_angles_by_hand() {
    let d = |x: f32| x.to_radians();
    let zxy = |z: f32, x: f32, y: f32| {
        Quat::from_rotation_z(d(z)) * Quat::from_rotation_x(d(x)) * Quat::from_rotation_y(d(y))
    };
    let mut doc = common::two_bones(["a", "b"]);
    let frames = [zxy(30.0, 45.0, 60.0), zxy(-20.0, -10.0, 170.0), zxy(0.0, 90.0, 40.0)];
    let clip = BakedClip {
        info: boneyard_core::AnimInfo {
            frames: 3,
            fps: 4.0,
            interpolation: Interpolation::Step,
            ..doc.clips[0].info.clone()
        },
        frames: frames
            .iter()
            .map(|&q| vec![Transform::new(Vec3::Y, q), doc.skeletons[0].skeleton.bones[1].rest])
            .collect(),
        root_motion: None,
    };
    doc = BakedDocument::new("test", vec![], doc.skeletons.clone(), vec![clip]);
    let text = bvh(&doc, 0, 0, &ExportOptions::default()).unwrap();
    let motion: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("Frame Time")).skip(1).collect();
    let root = |l: &str| l.split(' ').skip(3).take(3).map(|v| v.parse::<f64>().unwrap()).collect::<Vec<_>>();
    let close = |a: Vec<f64>, b: [f64; 3]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-4);
    assert!(close(root(motion[0]), [30.0, 45.0, 60.0]), "{}", motion[0]);
    assert!(close(root(motion[1]), [-20.0, -10.0, 170.0]), "{}", motion[1]);
    // Gimbal lock (x = 90°): only z + y is defined; the writer puts it in y... or keeps
    // it as close as possible to the previous frame: either way Rz·Rx·Ry must be the rotation.
    let r = root(motion[2]);
    assert!((r[1] - 90.0).abs() < 1e-3, "{}", motion[2]);
    let q = zxy(r[0] as f32, r[1] as f32, r[2] as f32);
    assert!(q.dot(frames[2]).abs() > 1.0 - 1e-6, "{}", motion[2]);
    assert!(text.contains("Frame Time: 0.25\n"));
}

#[test]
fn scale_is_refused() {
    let mut doc = common::two_bones(["a", "b"]);
    doc.clips[0].frames[1][1].scale = Vec3::splat(2.0);
    let e = bvh(&doc, 0, 0, &ExportOptions::default()).unwrap_err();
    assert!(e.to_string().contains("scale"), "{e}");
    // Near-unit scales (engine arithmetic, e.g. Zelda 64's 0.99998) are dropped.
    doc.clips[0].frames[1][1].scale = Vec3::new(0.99998, 0.99998, 1.0);
    assert!(bvh(&doc, 0, 0, &ExportOptions::default()).is_ok());
}

/// A minimal BVH reader: (joint names, parents, offsets, channel names per joint, frames).
struct Parsed {
    names: Vec<String>,
    parents: Vec<Option<usize>>,
    offsets: Vec<DVec3>,
    channels: Vec<Vec<String>>,
    frame_time: f64,
    motion: Vec<Vec<f64>>,
}

fn parse(text: &str) -> Parsed {
    let mut p =
        Parsed { names: vec![], parents: vec![], offsets: vec![], channels: vec![], frame_time: 0.0, motion: vec![] };
    let mut stack: Vec<Option<usize>> = Vec::new(); // None for End Site blocks
    let mut pending: Option<Option<usize>> = None;
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("HIERARCHY"));
    for line in lines.by_ref() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.first().copied() {
            Some("ROOT") | Some("JOINT") => {
                p.names.push(w[1].to_string());
                p.parents.push(stack.iter().rev().flatten().next().copied());
                p.offsets.push(DVec3::ZERO);
                p.channels.push(vec![]);
                pending = Some(Some(p.names.len() - 1));
            }
            Some("End") => pending = Some(None),
            Some("{") => stack.push(pending.take().unwrap()),
            Some("}") => {
                stack.pop();
            }
            Some("OFFSET") => {
                let v: Vec<f64> = w[1..4].iter().map(|x| x.parse().unwrap()).collect();
                if let Some(Some(j)) = stack.last() {
                    p.offsets[*j] = DVec3::new(v[0], v[1], v[2]);
                }
            }
            Some("CHANNELS") => {
                let j = stack.last().unwrap().unwrap();
                let n: usize = w[1].parse().unwrap();
                p.channels[j] = w[2..2 + n].iter().map(|s| s.to_string()).collect();
            }
            Some("MOTION") => break,
            _ => panic!("unexpected line {line:?}"),
        }
    }
    let frames: usize = lines.next().unwrap().strip_prefix("Frames: ").unwrap().parse().unwrap();
    p.frame_time = lines.next().unwrap().strip_prefix("Frame Time: ").unwrap().parse().unwrap();
    p.motion = lines.map(|l| l.split(' ').map(|v| v.parse().unwrap()).collect()).collect();
    assert_eq!(p.motion.len(), frames);
    p
}

fn world(p: &Parsed, frame: usize) -> Vec<DMat4> {
    let mut values = p.motion[frame].iter().copied();
    let mut out: Vec<DMat4> = Vec::new();
    for j in 0..p.names.len() {
        let mut t = p.offsets[j];
        let mut r = DMat4::IDENTITY;
        for c in &p.channels[j] {
            let v = values.next().unwrap();
            match c.as_str() {
                "Xposition" => t.x = v,
                "Yposition" => t.y = v,
                "Zposition" => t.z = v,
                "Xrotation" => r *= DMat4::from_rotation_x(v.to_radians()),
                "Yrotation" => r *= DMat4::from_rotation_y(v.to_radians()),
                "Zrotation" => r *= DMat4::from_rotation_z(v.to_radians()),
                c => panic!("{c}"),
            }
        }
        let local = DMat4::from_translation(t) * r;
        out.push(p.parents[j].map_or(local, |q| out[q] * local));
    }
    out
}

#[test]
fn demo_reparsed_matches_the_pose() {
    let doc = common::demo_doc(30.0);
    let skel = &doc.skeletons[0].skeleton;
    for anim in 0..2 {
        let text = bvh(&doc, 0, anim, &ExportOptions::default()).unwrap();
        let p = parse(&text);
        assert_eq!(p.frame_time, 1.0 / 30.0);
        assert_eq!(p.motion.len(), doc.animations()[anim].frames as usize);
        // Joints come depth-first; map them back to bones by name.
        let bone_of: Vec<usize> = p.names.iter().map(|n| skel.find(n).unwrap()).collect();
        assert_eq!(bone_of.len(), skel.len());
        for f in 0..p.motion.len() {
            let w = world(&p, f);
            let pose = doc.pose(0, Some(anim), f as f64).unwrap();
            for (j, &b) in bone_of.iter().enumerate() {
                let (a, e) = (w[j].to_cols_array(), pose[b].to_cols_array());
                for k in 0..16 {
                    assert!(
                        (a[k] - e[k] as f64).abs() <= 1e-4 * (e[k] as f64).abs().max(1.0),
                        "anim {anim} frame {f} bone {b}"
                    );
                }
            }
        }
    }
}

/// Several roots become several ROOT blocks; a non-root joint whose translation changes gets
/// position channels. Both read back to the document's poses.
#[test]
fn several_roots_and_moving_joints_reparse() {
    let mut doc = common::two_bones(["a", "b"]);
    doc.skeletons[0].skeleton.bones[1].parent = None;
    doc.clips[0].frames[2][1].translation = Vec3::new(2.0, 0.5, 0.0);
    let text = bvh(&doc, 0, 0, &ExportOptions::default()).unwrap();
    assert_eq!(text.matches("ROOT ").count(), 2);
    let p = parse(&text);
    assert_eq!(p.parents, [None, None]);
    for f in 0..3 {
        let w = world(&p, f);
        let pose = doc.pose(0, Some(0), f as f64).unwrap();
        for (a, e) in w.iter().zip(&pose) {
            let (a, e) = (a.to_cols_array(), e.to_cols_array());
            assert!(a.iter().zip(e).all(|(x, y)| (x - y as f64).abs() < 1e-5), "frame {f}");
        }
    }
    let mut doc = common::two_bones(["a", "b"]);
    doc.clips[0].frames[2][1].translation = Vec3::new(2.0, 0.5, 0.0);
    let text = bvh(&doc, 0, 0, &ExportOptions::default()).unwrap();
    assert_eq!(text.matches("CHANNELS 6").count(), 2, "{text}");
    let p = parse(&text);
    let w = world(&p, 2);
    let pose = doc.pose(0, Some(0), 2.0).unwrap();
    assert!((w[1].w_axis.truncate().as_vec3() - pose[1].w_axis.truncate()).length() < 1e-5);
}
