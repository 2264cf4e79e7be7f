//! The GLB writer checked against values worked by hand and against the document's own poses,
//! reading the file back with a decoder written from the glTF specification (tests/common).

mod common;

use boneyard_core::Document;
use boneyard_export::{glb, ExportOptions};
use common::{demo_doc, parse_glb, two_bones};
use glam::Quat;
use std::f32::consts::FRAC_1_SQRT_2;

fn close(a: &[f32], b: &[f32], tol: f32) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol)
}

#[test]
fn two_bones_by_hand() {
    let doc = two_bones(["a", "b"]);
    let g = parse_glb(&glb(&doc, 0, &[0, 1], &ExportOptions::default()).unwrap());
    let j = &g.json;
    let h = FRAC_1_SQRT_2;

    // Nodes: the bones first, rest TRS, no wrapper above the root.
    assert_eq!(j["nodes"][0]["name"], "a");
    assert_eq!(j["nodes"][0]["translation"], serde_json::json!([0.0, 1.0, 0.0]));
    let r0: Vec<f32> = serde_json::from_value(j["nodes"][0]["rotation"].clone()).unwrap();
    assert_eq!(r0, [0.0, 0.0, h, h]);
    assert_eq!(j["nodes"][0]["children"], serde_json::json!([1]));
    assert_eq!(j["nodes"][1]["name"], "b");
    assert_eq!(j["nodes"][1]["translation"], serde_json::json!([2.0, 0.0, 0.0]));
    assert!(j["nodes"][1].get("rotation").is_none());
    for n in j["nodes"].as_array().unwrap() {
        assert!(!n["children"].as_array().is_some_and(|c| c.contains(&serde_json::json!(0))), "nothing above the root");
    }
    let scene = &j["scenes"][j["scene"].as_u64().unwrap() as usize];
    assert_eq!(scene["nodes"][0], 0);

    // Skin: IBMs worked by hand. a: world = T(0,1,0)·Rz90, inverse = Rz(-90)·T(0,-1,0):
    // columns (0,-1,0,0) (1,0,0,0) (0,0,1,0) (-1,0,0,1). b: world = T(0,3,0)·Rz90, inverse
    // translation Rz(-90)·(0,-3,0) = (-3,0,0).
    let skin = &j["skins"][0];
    assert_eq!(skin["joints"], serde_json::json!([0, 1]));
    assert_eq!(skin["skeleton"], 0);
    let ibm = g.floats(skin["inverseBindMatrices"].as_u64().unwrap() as usize);
    let want_a = [0., -1., 0., 0., 1., 0., 0., 0., 0., 0., 1., 0., -1., 0., 0., 1.];
    let want_b = [0., -1., 0., 0., 1., 0., 0., 0., 0., 0., 1., 0., -3., 0., 0., 1.];
    assert!(close(&ibm[0], &want_a, 1e-6), "{:?}", ibm[0]);
    assert!(close(&ibm[1], &want_b, 1e-6), "{:?}", ibm[1]);
    assert_eq!([ibm[0][15], ibm[1][15], ibm[0][3], ibm[1][7]], [1.0, 1.0, 0.0, 0.0], "affine rows exact");

    // The rigid triangle on b moves to model space at rest: (0,3,0), (0,4,0), (0,3,1).
    let prim = &j["meshes"][0]["primitives"][0];
    let pos = g.floats(prim["attributes"]["POSITION"].as_u64().unwrap() as usize);
    for (p, w) in pos.iter().zip([[0.0, 3.0, 0.0], [0.0, 4.0, 0.0], [0.0, 3.0, 1.0]]) {
        assert!(close(p, &w, 1e-6), "{p:?} vs {w:?}");
    }
    let acc = &j["accessors"][prim["attributes"]["POSITION"].as_u64().unwrap() as usize];
    let (mn, mx): (Vec<f32>, Vec<f32>) =
        (serde_json::from_value(acc["min"].clone()).unwrap(), serde_json::from_value(acc["max"].clone()).unwrap());
    assert!(close(&mn, &[0.0, 3.0, 0.0], 1e-6) && close(&mx, &[0.0, 4.0, 1.0], 1e-6));
    assert_eq!(g.ints(prim["attributes"]["JOINTS_0"].as_u64().unwrap() as usize), vec![vec![1, 0, 0, 0]; 3]);
    assert_eq!(g.floats(prim["attributes"]["WEIGHTS_0"].as_u64().unwrap() as usize), vec![vec![1.0, 0.0, 0.0, 0.0]; 3]);
    assert_eq!(g.ints(prim["indices"].as_u64().unwrap() as usize), vec![vec![0], vec![1], vec![2]]);
    // The skinned one keeps its positions; duplicate joints merge, weights sum to 1.
    let prim = &j["meshes"][1]["primitives"][0];
    assert_eq!(
        g.ints(prim["attributes"]["JOINTS_0"].as_u64().unwrap() as usize),
        vec![vec![0, 1, 0, 0], vec![1, 0, 0, 0], vec![1, 0, 0, 0]]
    );
    assert_eq!(
        g.floats(prim["attributes"]["WEIGHTS_0"].as_u64().unwrap() as usize),
        vec![vec![0.5, 0.5, 0.0, 0.0], vec![1.0, 0.0, 0.0, 0.0], vec![1.0, 0.0, 0.0, 0.0]]
    );
    let mat = &j["materials"][j["meshes"][1]["primitives"][0]["material"].as_u64().unwrap() as usize];
    let c: Vec<f32> = serde_json::from_value(mat["pbrMetallicRoughness"]["baseColorFactor"].clone()).unwrap();
    assert_eq!(c, [0.2, 0.4, 0.6, 1.0]);
    // Two mesh nodes at the scene root, skinned.
    assert_eq!(g.count("nodes"), 4);
    assert_eq!(j["nodes"][2]["skin"], 0);

    // Clip "move": keys at f32(f/10), LINEAR, extras.
    let (a, ch) = g.animation("move");
    assert_eq!(a["extras"]["fps"], 10.0);
    assert_eq!(a["extras"]["frames"], 3);
    assert_eq!(a["extras"]["index"], 0);
    let find = |node: usize, path: &str| ch.iter().find(|c| c.0 == node && c.1 == path).unwrap().clone();
    let (_, _, times, tr, interp) = find(0, "translation");
    assert_eq!(times, [0.0, (1.0f64 / 10.0) as f32, (2.0f64 / 10.0) as f32]);
    assert_eq!(interp, "LINEAR");
    assert_eq!(tr, [vec![0.0, 1.0, 0.0], vec![0.0, 1.0, 1.0], vec![0.0, 1.0, 2.0]], "root motion kept");
    // b's rotation: frame 1 was sampled as -Rx(100°); the file holds +Rx(100°), continuous.
    let (_, _, _, rot, _) = find(1, "rotation");
    let (s, c) = (50f32.to_radians().sin(), 50f32.to_radians().cos());
    assert!(close(&rot[1], &[s, 0.0, 0.0, c], 1e-7), "{:?}", rot[1]);
    for w in rot.windows(2) {
        assert!(w[0].iter().zip(&w[1]).map(|(x, y)| x * y).sum::<f32>() > 0.0);
    }
    for (f, r) in rot.iter().enumerate() {
        let q = doc.sample(0, f as f64).unwrap().locals[1].rotation;
        assert!(Quat::from_slice(r).dot(q).abs() > 1.0 - 1e-7, "frame {f}");
    }
    // b never moves: a single key at 0 s.
    let (_, _, times, tr, _) = find(1, "translation");
    assert_eq!((times, tr), (vec![0.0], vec![vec![2.0, 0.0, 0.0]]));
    // a's rotation never changes but keeps every key (the clip's length).
    assert_eq!(find(0, "rotation").2.len(), 3);
    assert!(ch.iter().all(|c| c.1 != "scale"), "no scale channels when nothing scales");

    // Clip "hold": one key, STEP.
    let (a, ch) = g.animation("hold");
    assert_eq!(a["extras"]["fps"], 24.0);
    assert!(ch.iter().all(|c| c.2 == [0.0] && c.3.len() == 1 && c.4 == "STEP"));
}

#[test]
fn in_place_removes_root_motion() {
    let doc = two_bones(["a", "b"]);
    let g = parse_glb(&glb(&doc, 0, &[0], &ExportOptions { in_place: true, ..Default::default() }).unwrap());
    let (a, ch) = g.animation("move");
    assert_eq!(a["extras"]["in_place"], true);
    let tr = ch.iter().find(|c| c.0 == 0 && c.1 == "translation").unwrap();
    assert_eq!(tr.3, vec![vec![0.0, 1.0, 0.0]], "root stays at its frame-0 place");
}

#[test]
fn duplicate_bone_names_become_unique() {
    let doc = two_bones(["x", "x"]);
    let g = parse_glb(&glb(&doc, 0, &[], &ExportOptions::default()).unwrap());
    assert_eq!((g.json["nodes"][0]["name"].as_str(), g.json["nodes"][1]["name"].as_str()), (Some("x"), Some("x.2")));
    assert_eq!(g.count("animations"), 0);
}

#[test]
fn bad_requests_are_errors() {
    let doc = two_bones(["a", "b"]);
    assert!(glb(&doc, 1, &[0], &ExportOptions::default()).unwrap_err().is_not_found());
    assert!(glb(&doc, 0, &[7], &ExportOptions::default()).unwrap_err().is_not_found());
}

/// Skeletons without meshes get a stick figure: a joint cube per bone (8 vertices each,
/// following it) and a box per parent-child segment (following the parent). Several roots get
/// one identity node above them (a skin needs a common root), which leaves every world matrix
/// unchanged.
#[test]
fn stick_figure_and_several_roots() {
    let mut doc = two_bones(["a", "b"]);
    doc.skeletons[0].meshes.clear();
    let g = parse_glb(&glb(&doc, 0, &[0], &ExportOptions::default()).unwrap());
    assert_eq!((g.count("skins"), g.count("meshes"), g.count("nodes")), (1, 1, 3));
    assert_eq!(g.json["meshes"][0]["name"], "two_bones");
    let prim = &g.json["meshes"][0]["primitives"][0];
    let joints: Vec<u32> =
        g.ints(prim["attributes"]["JOINTS_0"].as_u64().unwrap() as usize).iter().map(|j| j[0]).collect();
    assert_eq!(joints, [[0; 8], [1; 8], [0; 8]].concat());
    // The segment box runs from a's joint (0,1,0) to b's (0,3,0): y spans 1..3 (plus r).
    let pos = g.floats(prim["attributes"]["POSITION"].as_u64().unwrap() as usize);
    let seg_y: Vec<f32> = pos[16..24].iter().map(|p| p[1]).collect();
    assert!(seg_y.iter().all(|&y| (y - 1.0).abs() < 1e-6 || (y - 3.0).abs() < 1e-6), "{seg_y:?}");

    let mut doc = two_bones(["a", "b"]);
    doc.skeletons[0].skeleton.bones[1].parent = None;
    let g = parse_glb(&glb(&doc, 0, &[0], &ExportOptions::default()).unwrap());
    let group = g.json["skins"][0]["skeleton"].as_u64().unwrap() as usize;
    let n = &g.json["nodes"][group];
    assert_eq!(n["children"], serde_json::json!([0, 1]));
    assert!(n.get("translation").is_none() && n.get("rotation").is_none() && n.get("matrix").is_none());
}

/// Every joint's world matrix, rebuilt from the file's channels at each key, equals
/// `Document::pose` for the demo character (both clips).
#[test]
fn demo_channels_reproduce_the_pose() {
    let doc = demo_doc(30.0);
    let g = parse_glb(&glb(&doc, 0, &[0, 1], &ExportOptions::default()).unwrap());
    let skel = &doc.skeletons[0].skeleton;
    for (ai, clip) in doc.clips.iter().enumerate() {
        let (a, ch) = g.animation(&clip.info.name);
        assert_eq!(a["extras"]["index"], ai);
        let parents: Vec<Option<usize>> = skel.bones.iter().map(|b| b.parent).collect();
        for f in 0..clip.info.frames as usize {
            for (_, _, times, _, _) in &ch {
                if times.len() > 1 {
                    assert_eq!(times[f], (f as f64 / 30.0) as f32);
                }
            }
            let world = common::file_world(&g, &parents, &ch, f);
            let pose = doc.pose(0, Some(ai), f as f64).unwrap();
            for (b, (w, p)) in world.iter().zip(&pose).enumerate() {
                let (w, p) = (w.to_cols_array(), p.to_cols_array());
                assert!(
                    w.iter().zip(&p).all(|(x, y)| (x - y).abs() <= 1e-4 * y.abs().max(1.0)),
                    "clip {ai} frame {f} bone {b}"
                );
            }
        }
    }
}

#[test]
fn texture_is_embedded_as_png() {
    let doc = common::with_texture(two_bones(["a", "b"]));
    let g = parse_glb(&glb(&doc, 0, &[0], &ExportOptions::default()).unwrap());
    let j = &g.json;
    let prim = &j["meshes"][0]["primitives"][0];
    let mat = &j["materials"][prim["material"].as_u64().unwrap() as usize];
    let tex = &j["textures"][mat["pbrMetallicRoughness"]["baseColorTexture"]["index"].as_u64().unwrap() as usize];
    let img = &j["images"][tex["source"].as_u64().unwrap() as usize];
    assert_eq!(img["mimeType"], "image/png");
    let v = &j["bufferViews"][img["bufferView"].as_u64().unwrap() as usize];
    let (o, n) = (v["byteOffset"].as_u64().unwrap() as usize, v["byteLength"].as_u64().unwrap() as usize);
    let mut dec = png::Decoder::new(std::io::Cursor::new(&g.bin[o..o + n])).read_info().unwrap();
    let mut px = vec![0; dec.output_buffer_size().unwrap()];
    dec.next_frame(&mut px).unwrap();
    assert_eq!(px[..], doc.skeletons[0].meshes[0].texture.as_ref().unwrap().rgba[..]);
    let uv = g.floats(prim["attributes"]["TEXCOORD_0"].as_u64().unwrap() as usize);
    assert_eq!(uv, [vec![0.0, 0.0], vec![1.0, 0.0], vec![0.0, 1.0]]);
    // The untextured mesh has no TEXCOORD_0.
    assert!(j["meshes"][1]["primitives"][0]["attributes"].get("TEXCOORD_0").is_none());
}

#[test]
fn failing_clips_can_be_skipped() {
    let mut doc = two_bones(["a", "b"]);
    doc.clips[1].frames[0][1].rotation = Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0);
    let e = glb(&doc, 0, &[0, 1], &ExportOptions::default()).unwrap_err();
    assert!(e.to_string().contains("hold frame 0 bone 1 (b): rotation"), "{e}");
    let out = boneyard_export::glb_skipping(&doc, 0, &[0, 1], &ExportOptions::default()).unwrap();
    assert_eq!(out.skipped.len(), 1);
    assert_eq!(out.skipped[0].0, 1);
    let g = parse_glb(&out.bytes);
    assert_eq!(g.count("animations"), 1);
    assert_eq!(g.json["animations"][0]["name"], "move");
    // Asking for an animation that does not exist is still an error.
    assert!(boneyard_export::glb_skipping(&doc, 0, &[9], &ExportOptions::default()).unwrap_err().is_not_found());
}

/// The gltf crate's own loader (JSON schema and index validation) accepts every variant.
#[test]
fn gltf_crate_validates() {
    let mut bare = two_bones(["a", "b"]);
    bare.skeletons[0].meshes.clear();
    let mut roots = two_bones(["a", "b"]);
    roots.skeletons[0].skeleton.bones[1].parent = None;
    let docs = [demo_doc(30.0), two_bones(["a", "a"]), bare, roots, common::with_texture(two_bones(["a", "b"]))];
    for (i, doc) in docs.iter().enumerate() {
        let anims: Vec<usize> = (0..doc.clips.len()).collect();
        let bytes = glb(doc, 0, &anims, &ExportOptions::default()).unwrap();
        let g = gltf::Gltf::from_slice(&bytes).unwrap_or_else(|e| panic!("doc {i}: {e}"));
        assert_eq!(g.animations().count(), anims.len());
        assert_eq!(g.skins().count(), 1);
        let joints = g.skins().next().unwrap().joints().count();
        assert_eq!(joints, doc.skeletons[0].skeleton.len());
        for a in g.animations() {
            let want = match doc.clips[a.index()].info.interpolation {
                boneyard_core::Interpolation::Linear => gltf::animation::Interpolation::Linear,
                boneyard_core::Interpolation::Step => gltf::animation::Interpolation::Step,
            };
            assert!(a.samplers().all(|s| s.interpolation() == want));
        }
    }
}

#[test]
fn mesh_nodes_do_not_take_bone_names() {
    let mut doc = two_bones(["a", "b"]);
    doc.skeletons[0].meshes[0].name = "b".into();
    let g = parse_glb(&glb(&doc, 0, &[0], &ExportOptions::default()).unwrap());
    let names: Vec<&str> = g.json["nodes"].as_array().unwrap().iter().map(|n| n["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["a", "b", "b.2", "skin"]);
    assert_eq!(g.json["meshes"][0]["name"], "b");
}

#[test]
fn alpha_modes_become_the_materials() {
    use boneyard_core::model::AlphaMode;
    let mut doc = common::with_texture(two_bones(["a", "b"]));
    let modes = [AlphaMode::Mask, AlphaMode::Blend];
    for (m, mode) in doc.skeletons[0].meshes.iter_mut().zip(modes) {
        m.alpha_mode = mode;
    }
    let g = parse_glb(&glb(&doc, 0, &[0], &ExportOptions::default()).unwrap());
    let mat = |mesh: usize| {
        let k = g.json["meshes"][mesh]["primitives"][0]["material"].as_u64().unwrap() as usize;
        g.json["materials"][k].clone()
    };
    // glTF 2.0 §3.9.5: MASK with alphaCutoff (0.5, the previews' cut), BLEND without one.
    assert_eq!((mat(0)["alphaMode"].as_str(), mat(0)["alphaCutoff"].as_f64()), (Some("MASK"), Some(0.5)));
    assert_eq!((mat(1)["alphaMode"].as_str(), mat(1).get("alphaCutoff")), (Some("BLEND"), None));
    // The mesh's extras name its place in the skeleton's meshes (the viewer's face swap).
    assert_eq!(
        (g.json["meshes"][0]["extras"]["mesh"].as_u64(), g.json["meshes"][1]["extras"]["mesh"].as_u64()),
        (Some(0), Some(1))
    );
}
