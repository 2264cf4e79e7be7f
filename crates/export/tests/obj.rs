//! The OBJ writer against positions worked by hand for the two-bone skeleton.

mod common;

use boneyard_export::obj;
use glam::Vec3;

fn vertices(text: &str, prefix: &str) -> Vec<Vec3> {
    text.lines()
        .filter_map(|l| l.strip_prefix(prefix))
        .map(|l| {
            let v: Vec<f32> = l.split(' ').map(|x| x.parse().unwrap()).collect();
            Vec3::new(v[0], v[1], v[2])
        })
        .collect()
}

fn assert_near(got: &[Vec3], want: &[Vec3]) {
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!((*g - *w).length() < 1e-5, "{g} vs {w}");
    }
}

#[test]
fn rest_pose_by_hand() {
    let mut doc = common::two_bones(["a", "b"]);
    doc.skeletons[0].meshes[0].normals = Some(vec![Vec3::X; 3]);
    let text = obj(&doc, 0, None, 0.0).unwrap();
    // Rigid triangle on b (world T(0,3,0)·Rz90): (0,0,0), (1,0,0), (0,0,1) in b's space.
    // The skinned one is in model space at rest already.
    let want = [(0., 3., 0.), (0., 4., 0.), (0., 3., 1.), (0., 1., 0.), (0., 3., 0.), (1., 3., 0.)];
    assert_near(&vertices(&text, "v "), &want.map(|(x, y, z)| Vec3::new(x, y, z)));
    // b's +X is world +Y.
    assert_near(&vertices(&text, "vn "), &[Vec3::Y; 3]);
    assert!(text.contains("o tri\ng tri\n") && text.contains("o skin\ng skin\n"));
    assert!(text.contains("\nf 1//1 2//2 3//3\n"), "{text}");
    assert!(text.contains("\nf 4 5 6\n"), "{text}");
}

#[test]
fn posed_frame_by_hand() {
    let doc = common::two_bones(["a", "b"]);
    // Frame 1 of "move": a at (0,1,1), Rz90; b bent Rx(100°), its origin at (0,3,1).
    let text = obj(&doc, 0, Some(0), 1.0).unwrap();
    let (s, c) = (100f32.to_radians().sin(), 100f32.to_radians().cos());
    let want = [
        Vec3::new(0.0, 3.0, 1.0),
        // b's X is untouched by Rx, then Rz90 maps it to +Y.
        Vec3::new(0.0, 4.0, 1.0),
        // Rx(100°)·Z = (0, -sin, cos); Rz90 maps (x, y, z) to (-y, x, z).
        Vec3::new(s, 3.0, 1.0 + c),
        // (0,1,0) half on a (moved by (0,0,1)) and half on b: b-local (-2,0,0), which Rx
        // leaves alone and Rz90 sends to (0,-2,0) from b's origin: (0,1,1). Both give (0,1,1).
        Vec3::new(0.0, 1.0, 1.0),
        // (0,3,0) on b twice (0.25 + 0.75, merged): b-local (0,0,0), i.e. b's origin (0,3,1).
        Vec3::new(0.0, 3.0, 1.0),
        // (1,3,0) fully on b: b-local (0,-1,0); Rx(100°) gives (0,-cos,-sin); Rz90 gives (cos,0,-sin).
        Vec3::new(c, 3.0, 1.0 - s),
    ];
    assert_near(&vertices(&text, "v "), &want);
}

#[test]
fn stick_figure_without_meshes() {
    let mut doc = common::two_bones(["a", "b"]);
    doc.skeletons[0].meshes.clear();
    let text = obj(&doc, 0, Some(0), 0.0).unwrap();
    assert!(text.contains("o skeleton\n"));
    // A cube per joint and a box per segment: 3 boxes of 8 corners and 12 triangles.
    assert_eq!(vertices(&text, "v ").len(), 24);
    assert_eq!(text.lines().filter(|l| l.starts_with("f ")).count(), 36);
    let seg = &vertices(&text, "v ")[16..24];
    // The segment runs from a's joint (0,1,0) to b's (0,3,0) at frame 0.
    assert!(seg.iter().all(|p| (p.y - 1.0).abs() < 1e-5 || (p.y - 3.0).abs() < 1e-5), "{seg:?}");
}

#[test]
fn unknown_skeleton_is_not_found() {
    let doc = common::two_bones(["a", "b"]);
    assert!(obj(&doc, 3, None, 0.0).unwrap_err().is_not_found());
}

/// Adult Link as OBJ with materials: every `usemtl` names a material of the `.mtl`, every
/// `map_Kd` a PNG of the set whose pixels are the texture the Zelda reader decoded for that
/// mesh, and the `vt` lines are the reader's uvs with v flipped (OBJ's v runs up the image).
#[test]
fn link_with_materials_and_textures() {
    let Some(z) = boneyard_core::testdata::shared_data("z64/oot-gc-eu-mq-dbg", "obj materials") else { return };
    let files: Vec<_> = ["object_link_boy", "gameplay_keep", "link_animetion"]
        .iter()
        .map(|f| boneyard_core::InputFile::read(&z.join(f)).unwrap())
        .collect();
    let doc = boneyard_z64::open_files(files).unwrap();
    let doc: &dyn boneyard_core::Document = &doc;
    let sk = doc.find_skeleton("gLinkAdultSkel").unwrap();
    let out = boneyard_export::obj_with_materials(doc, sk, None, 0.0, "link").unwrap();
    assert!(out.obj.contains("mtllib link.mtl\n"));
    let materials: Vec<&str> = out.mtl.lines().filter_map(|l| l.strip_prefix("newmtl ")).collect();
    let used: Vec<&str> = out.obj.lines().filter_map(|l| l.strip_prefix("usemtl ")).collect();
    let meshes: Vec<_> = doc.skeletons()[sk].meshes.iter().filter(|m| !m.indices.is_empty()).collect();
    assert_eq!(used.len(), meshes.len());
    assert!(used.iter().all(|u| materials.contains(u)));
    // (`-clamp on` before the file where both axes clamp.)
    let maps: Vec<&str> =
        out.mtl.lines().filter_map(|l| l.strip_prefix("map_Kd ")).map(|m| m.trim_start_matches("-clamp on ")).collect();
    assert!(out.mtl.contains("map_Kd -clamp on "), "Link's clamped textures");
    let textured: Vec<_> = meshes.iter().filter(|m| m.texture.is_some() && m.uvs.is_some()).collect();
    assert_eq!(maps.len(), textured.len());
    assert!(!textured.is_empty(), "Link's meshes are textured");
    for (map, mesh) in maps.iter().zip(&textured) {
        let (_, png) = out.textures.iter().find(|(f, _)| f == map).expect("the map's PNG is in the set");
        let mut dec = png::Decoder::new(std::io::Cursor::new(png.as_slice())).read_info().unwrap();
        let mut buf = vec![0; dec.output_buffer_size().unwrap()];
        let info = dec.next_frame(&mut buf).unwrap();
        let tex = mesh.texture.as_ref().unwrap();
        assert_eq!((info.width, info.height), (tex.width, tex.height));
        assert_eq!(&buf[..info.buffer_size()], &tex.rgba[..], "{map}");
    }
    let vts: Vec<(f32, f32)> = out
        .obj
        .lines()
        .filter_map(|l| l.strip_prefix("vt "))
        .map(|l| {
            let v: Vec<f32> = l.split(' ').map(|x| x.parse().unwrap()).collect();
            (v[0], v[1])
        })
        .collect();
    let want: Vec<(f32, f32)> =
        meshes.iter().filter_map(|m| m.uvs.as_ref()).flatten().map(|t| (t.x, 1.0 - t.y)).collect();
    assert_eq!(vts, want);
    println!(
        "obj: adult Link {} meshes, {} materials, {} textures equal to the decoded ones, {} uvs",
        meshes.len(),
        materials.len(),
        maps.len(),
        vts.len()
    );
}

/// An OBJ read back as OBJ readers read it (each of `v`, `vt`, `vn` numbered on its own from
/// the file's start): every corner of every face, per `o`, as (v, vt, vn) lines' values.
type Corner = (Vec3, Option<(f32, f32)>, Option<Vec3>);
fn read_back(text: &str) -> Vec<(String, Vec<Corner>)> {
    let (mut v, mut vt, mut vn) = (Vec::new(), Vec::new(), Vec::new());
    let mut objects: Vec<(String, Vec<Corner>)> = Vec::new();
    let nums = |l: &str| l.split(' ').map(|x| x.parse::<f32>().unwrap()).collect::<Vec<f32>>();
    for l in text.lines() {
        if let Some(n) = l.strip_prefix("o ") {
            objects.push((n.to_string(), Vec::new()));
        } else if let Some(x) = l.strip_prefix("v ") {
            let x = nums(x);
            v.push(Vec3::new(x[0], x[1], x[2]));
        } else if let Some(x) = l.strip_prefix("vt ") {
            let x = nums(x);
            vt.push((x[0], x[1]));
        } else if let Some(x) = l.strip_prefix("vn ") {
            let x = nums(x);
            vn.push(Vec3::new(x[0], x[1], x[2]));
        } else if let Some(f) = l.strip_prefix("f ") {
            for c in f.split(' ') {
                let k: Vec<&str> = c.split('/').collect();
                let at = |i: usize| k.get(i).filter(|s| !s.is_empty()).map(|s| s.parse::<usize>().unwrap() - 1);
                let corner = (
                    v[at(0).unwrap()],
                    at(1).map(|i| *vt.get(i).unwrap_or_else(|| panic!("vt {} of {}", i + 1, vt.len()))),
                    at(2).map(|i| *vn.get(i).unwrap_or_else(|| panic!("vn {} of {}", i + 1, vn.len()))),
                );
                objects.last_mut().unwrap().1.push(corner);
            }
        }
    }
    objects
}

/// Meshes with and without uvs in one file (Epona, the fan models, child Link, Zelda): every
/// face corner, read back, is the uv (v flipped) of that corner's vertex in the reader's mesh;
/// a mesh without uvs before it does not shift them (it wrote no `vt`).
#[test]
fn corners_name_their_own_uvs_after_meshes_without() {
    let Some(dir) = boneyard_core::testdata::shared_data("z64", "obj corners") else { return };
    let sets: [&[&str]; 7] = [
        &["oot-gc-eu-mq-dbg/object_horse"],
        &["oot-gc-eu-mq-dbg/object_zl1"],
        &["oot-gc-eu-mq-dbg/object_link_child", "oot-gc-eu-mq-dbg/gameplay_keep", "oot-gc-eu-mq-dbg/link_animetion"],
        &["fan/Aria_Hiro_Girl_OOTO.zobj"],
        &["fan/Adult_saria.zobj"],
        &["fan/Aria_Hiro_Child_OOTO.zobj"],
        &["fan/Child_FrogSong_OoT.zobj"],
    ];
    let (mut corners, mut mixed) = (0, 0);
    for set in sets {
        let files: Vec<_> = set.iter().map(|f| boneyard_core::InputFile::read(&dir.join(f)).unwrap()).collect();
        let doc = boneyard_z64::open_files(files).unwrap();
        let doc: &dyn boneyard_core::Document = &doc;
        for sk in 0..doc.skeletons().len() {
            if doc.skeletons()[sk].extra.get("companion").is_some() {
                continue;
            }
            let text = obj(doc, sk, None, 0.0).unwrap();
            let meshes: Vec<_> = doc.skeletons()[sk].meshes.iter().filter(|m| !m.indices.is_empty()).collect();
            let objects = read_back(&text);
            assert_eq!(objects.len(), meshes.len(), "{set:?}");
            mixed += usize::from(meshes.iter().any(|m| m.uvs.is_none()) && meshes.iter().any(|m| m.uvs.is_some()));
            for (mesh, (name, got)) in meshes.iter().zip(&objects) {
                assert_eq!(got.len(), mesh.indices.len(), "{name}");
                for (&i, c) in mesh.indices.iter().zip(got) {
                    let want = mesh.uvs.as_ref().map(|u| u[i as usize]).map(|t| (t.x, 1.0 - t.y));
                    assert_eq!(c.1, want, "{set:?} {name}: vertex {i}");
                    assert_eq!(c.2.is_some(), mesh.normals.is_some(), "{name}");
                    corners += 1;
                }
            }
        }
    }
    assert!(mixed >= 4, "{mixed}");
    println!("obj: {corners} face corners in {mixed} files of meshes with and without uvs, each its own uv");
}
