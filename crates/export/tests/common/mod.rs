//! Shared by the tests: the demo character as a document, and the
//! world matrices `boneyard pose --all-frames --json` prints for it.
#![allow(dead_code)]

use boneyard_core::demo::{self, DemoClip};
use boneyard_core::memory::{BakedClip, BakedDocument};
use boneyard_core::{AnimInfo, Document, Interpolation, SkeletonInfo};
use boneyard_core::{Bone, Mesh, MeshBinding, Skeleton, Transform};
use glam::{Quat, Vec3};
use serde_json::{json, Value};
use std::f32::consts::FRAC_1_SQRT_2;

/// The demo character with both clips baked at `fps`, root motion included. The walk is
/// LINEAR, the wave STEP (to exercise both).
pub fn demo_doc(fps: f32) -> BakedDocument {
    let mut doc = demo::baked_document(fps);
    for (clip, info) in doc.clips.iter_mut().zip(doc.infos.iter_mut()) {
        if clip.info.name == DemoClip::Wave.name() {
            clip.info.interpolation = Interpolation::Step;
            info.interpolation = Interpolation::Step;
        }
    }
    doc
}

/// What `boneyard pose FILE --anim #anim --all-frames --json` prints (the CLI contract).
pub fn pose_json(doc: &dyn Document, skeleton: usize, anim: usize) -> Value {
    let a = &doc.animations()[anim];
    let skel = &doc.skeletons()[skeleton].skeleton;
    let frames: Vec<Value> = (0..a.frames)
        .map(|f| {
            let world = doc.pose(skeleton, Some(anim), f as f64).unwrap();
            let bones: Vec<Value> = skel
                .bones
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    json!({"index": i, "name": b.name, "parent": b.parent, "matrix": world[i].to_cols_array().to_vec()})
                })
                .collect();
            json!({"frame": f, "bones": bones})
        })
        .collect();
    json!({"animation": {"index": anim, "name": a.name, "frames": a.frames, "fps": a.fps}, "frames": frames})
}

/// One animation channel read back: (node, path, key times, values, interpolation).
pub type Channel = (usize, String, Vec<f32>, Vec<Vec<f32>>, String);

/// A GLB read back by hand from the glTF 2.0 specification (container layout, JSON as plain
/// `serde_json::Value`), independent of the crates the exporter writes with.
pub struct Glb {
    pub json: Value,
    pub bin: Vec<u8>,
}

fn u32_at(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes(b[o..o + 4].try_into().unwrap())
}

pub fn parse_glb(bytes: &[u8]) -> Glb {
    assert_eq!(&bytes[0..4], b"glTF", "magic");
    assert_eq!(u32_at(bytes, 4), 2, "version");
    assert_eq!(u32_at(bytes, 8) as usize, bytes.len(), "header length");
    let jlen = u32_at(bytes, 12) as usize;
    assert_eq!(&bytes[16..20], b"JSON");
    assert_eq!(jlen % 4, 0, "JSON chunk padded");
    let json: Value = serde_json::from_slice(&bytes[20..20 + jlen]).expect("JSON chunk");
    let mut bin = Vec::new();
    let o = 20 + jlen;
    if o < bytes.len() {
        let blen = u32_at(bytes, o) as usize;
        assert_eq!(&bytes[o + 4..o + 8], b"BIN\0");
        bin = bytes[o + 8..o + 8 + blen].to_vec();
        assert_eq!(o + 8 + blen, bytes.len());
    }
    Glb { json, bin }
}

impl Glb {
    pub fn get(&self, kind: &str, i: usize) -> &Value {
        &self.json[kind][i]
    }
    /// (bytes of every element, element count, components per element, component type).
    fn accessor_bytes(&self, i: usize) -> (Vec<u8>, usize, usize, u64) {
        let a = self.get("accessors", i);
        let v = self.get("bufferViews", a["bufferView"].as_u64().unwrap() as usize);
        let n = match a["type"].as_str().unwrap() {
            "SCALAR" => 1,
            "VEC2" => 2,
            "VEC3" => 3,
            "VEC4" => 4,
            "MAT4" => 16,
            t => panic!("type {t}"),
        };
        let ct = a["componentType"].as_u64().unwrap();
        let size = match ct {
            5121 => 1,
            5123 => 2,
            5125 | 5126 => 4,
            c => panic!("component type {c}"),
        };
        let count = a["count"].as_u64().unwrap() as usize;
        let start = v["byteOffset"].as_u64().unwrap_or(0) as usize + a["byteOffset"].as_u64().unwrap_or(0) as usize;
        let len = count * n * size;
        assert!(
            a["byteOffset"].as_u64().unwrap_or(0) as usize + len <= v["byteLength"].as_u64().unwrap() as usize,
            "accessor {i} fits its view"
        );
        (self.bin[start..start + len].to_vec(), count, n, ct)
    }
    /// Float accessor as elements of `n` components.
    pub fn floats(&self, i: usize) -> Vec<Vec<f32>> {
        let (b, _, n, ct) = self.accessor_bytes(i);
        assert_eq!(ct, 5126);
        let f: Vec<f32> = b.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
        f.chunks_exact(n).map(|c| c.to_vec()).collect()
    }
    /// Integer accessor (u8/u16/u32) as elements of `n` components.
    pub fn ints(&self, i: usize) -> Vec<Vec<u32>> {
        let (b, _, n, ct) = self.accessor_bytes(i);
        let v: Vec<u32> = match ct {
            5121 => b.iter().map(|&x| x as u32).collect(),
            5123 => b.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]]) as u32).collect(),
            5125 => b.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect(),
            c => panic!("component type {c}"),
        };
        v.chunks_exact(n).map(|c| c.to_vec()).collect()
    }
    pub fn count(&self, kind: &str) -> usize {
        self.json[kind].as_array().map_or(0, |a| a.len())
    }
    /// The animation named `name`: per (node, path) its (times, values).
    pub fn animation(&self, name: &str) -> (Value, Vec<Channel>) {
        let a = self.json["animations"].as_array().unwrap().iter().find(|a| a["name"] == name).unwrap().clone();
        let mut out = Vec::new();
        for c in a["channels"].as_array().unwrap() {
            let s = &a["samplers"][c["sampler"].as_u64().unwrap() as usize];
            let times: Vec<f32> = self.floats(s["input"].as_u64().unwrap() as usize).into_iter().flatten().collect();
            let values = self.floats(s["output"].as_u64().unwrap() as usize);
            out.push((
                c["target"]["node"].as_u64().unwrap() as usize,
                c["target"]["path"].as_str().unwrap().to_string(),
                times,
                values,
                s["interpolation"].as_str().unwrap_or("LINEAR").to_string(),
            ));
        }
        (a, out)
    }
}

fn info(index: usize, name: &str, frames: u32, fps: f64, interpolation: Interpolation) -> AnimInfo {
    AnimInfo {
        index,
        name: name.into(),
        frames,
        fps,
        bones: 2,
        format: "test".into(),
        source: "hand".into(),
        skeleton: Some(0),
        interpolation,
        extra: Default::default(),
    }
}

fn t(x: f32, y: f32, z: f32, r: Quat) -> Transform {
    Transform::new(Vec3::new(x, y, z), r)
}

/// Bone "a" at (0,1,0) turned 90° about Z, bone "b" 2 along a's X (so at (0,3,0) in the
/// world). A rigid triangle on b, a skinned triangle across both. Clip "move" (LINEAR, 3
/// frames at 10 fps) walks a along +Z with root motion and bends b about X, giving frame 1 in
/// the opposite quaternion hemisphere; clip "hold" (STEP) has a single frame.
pub fn two_bones(names: [&str; 2]) -> BakedDocument {
    let rz90 = Quat::from_xyzw(0.0, 0.0, FRAC_1_SQRT_2, FRAC_1_SQRT_2);
    let skel = Skeleton::new(
        "two",
        vec![
            Bone { name: names[0].into(), parent: None, rest: t(0.0, 1.0, 0.0, rz90) },
            Bone { name: names[1].into(), parent: Some(0), rest: t(2.0, 0.0, 0.0, Quat::IDENTITY) },
        ],
    )
    .unwrap();
    let rigid = Mesh::rigid("tri", 1, vec![Vec3::ZERO, Vec3::X, Vec3::Z], vec![0, 1, 2]);
    let mut skinned = Mesh::rigid(
        "skin",
        0,
        vec![Vec3::new(0.0, 1.0, 0.0), Vec3::new(0.0, 3.0, 0.0), Vec3::new(1.0, 3.0, 0.0)],
        vec![0, 1, 2],
    );
    skinned.binding = MeshBinding::Skinned {
        joints: vec![[0, 1, 0, 0], [1, 1, 0, 0], [1, 0, 0, 0]],
        weights: vec![[0.5, 0.5, 0.0, 0.0], [0.25, 0.75, 0.0, 0.0], [2.0, 0.0, 0.0, 0.0]],
    };
    skinned.base_color = [0.2, 0.4, 0.6, 1.0];
    let rx = |deg: f32| {
        let h = deg.to_radians() / 2.0;
        Quat::from_xyzw(h.sin(), 0.0, 0.0, h.cos())
    };
    let mv = BakedClip {
        info: info(0, "move", 3, 10.0, Interpolation::Linear),
        frames: vec![
            vec![t(0.0, 1.0, 0.0, rz90), t(2.0, 0.0, 0.0, rx(90.0))],
            vec![t(0.0, 1.0, 1.0, rz90), t(2.0, 0.0, 0.0, -rx(100.0))],
            vec![t(0.0, 1.0, 2.0, rz90), t(2.0, 0.0, 0.0, rx(110.0))],
        ],
        root_motion: Some(vec![Vec3::ZERO, Vec3::Z, Vec3::Z * 2.0]),
    };
    let hold = BakedClip {
        info: info(1, "hold", 1, 24.0, Interpolation::Step),
        frames: vec![vec![t(0.0, 1.0, 0.0, rz90), t(2.0, 0.0, 0.0, rx(30.0))]],
        root_motion: None,
    };
    let sk = SkeletonInfo {
        id: "two".into(),
        name: "two".into(),
        source: "hand".into(),
        skeleton: skel,
        meshes: vec![rigid, skinned],
        extra: Default::default(),
    };
    BakedDocument::new("test", vec![], vec![sk], vec![mv, hold])
}

/// Give `doc`'s first mesh a 2x2 texture (red, green / blue, white) and uvs.
pub fn with_texture(mut doc: BakedDocument) -> BakedDocument {
    let m = &mut doc.skeletons[0].meshes[0];
    m.uvs = Some(vec![glam::Vec2::new(0.0, 0.0), glam::Vec2::new(1.0, 0.0), glam::Vec2::new(0.0, 1.0)]);
    m.texture = Some(boneyard_core::model::Texture {
        width: 2,
        height: 2,
        rgba: vec![255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255].into(),
        filter: Default::default(),
        wrap: Default::default(),
    });
    doc
}

/// World matrices of bones `0..parents.len()` (nodes 0..n) at key `frame` of animation
/// `anim` of the file: node rest TRS, overridden by the channels' values at that key
/// (a single-key channel holds its value), composed parent-first.
pub fn file_world(g: &Glb, parents: &[Option<usize>], anim: &[Channel], frame: usize) -> Vec<glam::Mat4> {
    let mut locals: Vec<Transform> = (0..parents.len())
        .map(|b| {
            let n = &g.json["nodes"][b];
            let v = |k: &str, d: Vec<f32>| serde_json::from_value::<Vec<f32>>(n[k].clone()).unwrap_or(d);
            Transform {
                translation: Vec3::from_slice(&v("translation", vec![0.0; 3])),
                rotation: Quat::from_slice(&v("rotation", vec![0.0, 0.0, 0.0, 1.0])),
                scale: Vec3::from_slice(&v("scale", vec![1.0; 3])),
            }
        })
        .collect();
    for (node, path, times, values, _) in anim {
        let v = &values[if times.len() == 1 { 0 } else { frame }];
        match path.as_str() {
            "translation" => locals[*node].translation = Vec3::from_slice(v),
            "rotation" => locals[*node].rotation = Quat::from_slice(v),
            "scale" => locals[*node].scale = Vec3::from_slice(v),
            p => panic!("{p}"),
        }
    }
    let mut world: Vec<glam::Mat4> = Vec::new();
    for (b, p) in parents.iter().enumerate() {
        let m = locals[b].matrix();
        world.push(p.map_or(m, |p| world[p] * m));
    }
    world
}

/// Largest |a - b| / max(1, |b|) over the elements of two matrix lists.
pub fn max_rel(a: &[glam::Mat4], b: &[glam::Mat4]) -> f32 {
    a.iter()
        .zip(b)
        .flat_map(|(x, y)| x.to_cols_array().into_iter().zip(y.to_cols_array()))
        .map(|(x, y)| (x - y).abs() / y.abs().max(1.0))
        .fold(0.0, f32::max)
}
