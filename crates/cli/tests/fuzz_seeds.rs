//! The seed corpora of the fuzz targets (`fuzz/corpus/<target>/`), made from boneyard's own
//! encoders and test fixtures (no game bytes): `BONEYARD_WRITE_FUZZ_SEEDS=1 cargo test -p
//! boneyard --test fuzz_seeds` writes them; without it, the test checks that each seed gets
//! where its target needs it to (a ROM past its header and dmadata, objects with skeletons and
//! meshes, Link's clips on his skeleton, a glb with clips ...), so a seed never silently turns
//! into bytes the fuzzer must rediscover from nothing.

use boneyard_core::demo::{self, DemoClip};
use boneyard_core::{Document, InputFile};
use std::path::{Path, PathBuf};

// (The fixtures allow their own dead code.)
#[path = "../../z64/tests/common/mod.rs"]
mod z64_fixtures;

/// (target, seed name, bytes).
type Seed = (&'static str, String, Vec<u8>);

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus")
}

fn be32(v: u32) -> [u8; 4] {
    v.to_be_bytes()
}

/// `n` u32 words as big-endian bytes.
fn words(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_be_bytes()).collect()
}

// ---- Oni ----

fn oni_demo_level() -> (Vec<u8>, Vec<u8>) {
    let files = boneyard_oni::demo_files().unwrap();
    (files[0].1.clone(), files[1].1.clone())
}

fn oni_seeds(out: &mut Vec<Seed>) {
    use boneyard_oni as oni;
    let (dat, raw) = oni_demo_level();
    // oni_body: the demo body as a .oni (TRBS, TRCM, TRGA, TRTA, TRIA, M3GMs), whole and with
    // the meshes of all but the first three parts cut to one triangle.
    let body = boneyard_oni::demo_body();
    let inst = oni::body_instances("demo_humanoid", &body, &body.meshes).unwrap();
    out.push(("oni_body", "demo_body".into(), oni::write_oni(&inst).unwrap()));
    let mut few = body.clone();
    for m in few.meshes.iter_mut().skip(3) {
        m.positions.truncate(3);
        m.indices = vec![0, 1, 2];
        m.normals = None;
        m.uvs = None;
        m.colors = None;
    }
    let few_inst = oni::body_instances("few", &few, &few.meshes).unwrap();
    out.push(("oni_body", "triangles_body".into(), oni::write_oni(&few_inst).unwrap()));
    // oni_tram: the demo walk's TRAM struct and its raw data as the target lays them out.
    let doc = boneyard_oni::open_files(vec![
        InputFile::new("/nonexistent/boneyard_demo.dat", dat.clone()),
        InputFile::new("/nonexistent/boneyard_demo.raw", raw.clone()),
    ])
    .unwrap();
    let walk = &doc.trams()[0];
    let mut tr = oni::new_tram("seed", walk.key_size, walk.parts, walk.frames.min(12));
    let n = tr.frames;
    tr.heights = walk.heights[..n].to_vec();
    tr.velocities = walk.velocities[..n].to_vec();
    let keys: Vec<Vec<(usize, boneyard_oni::EQuat)>> =
        (0..walk.parts).map(|p| (0..n).map(|f| (f, walk.part_rotations(p).unwrap()[f])).collect()).collect();
    let (rot, streams) = oni::rotation_block(tr.key_size, n, &keys).unwrap();
    tr.rotations = rot.into();
    tr.streams = streams;
    let inst = oni::tram_instance(&tr).unwrap();
    let file = oni::write_oni(std::slice::from_ref(&inst)).unwrap();
    let f = boneyard_oni::InstanceFile::parse("seed.oni", file.clone(), None, None).unwrap();
    let at = f.struct_offset(0).unwrap() as usize;
    let raw_at = file.len() - f.raw_len();
    let size = boneyard_oni::layout::tram::SIZE;
    out.push(("oni_tram", "walk_12_frames".into(), [&file[at..at + size], &file[raw_at + 32..]].concat()));
    // oni_container: a u32 (where the .dat ends), then a level's .dat and .raw: the
    // triangles body and the 12-frame walk.
    let mut level = few_inst.clone();
    oni::append(&mut level, vec![inst]);
    let (ldat, lraw) = oni::write_level(&level, 1).unwrap();
    out.push(("oni_container", "level".into(), [&be32(ldat.len() as u32)[..], &ldat, &lraw].concat()));
    // oni_keys: key size 6 (index 2), 3 parts, 1 frame step; the walk's first keys.
    let mut k = vec![2u8, 2, 0];
    for q in walk.part_rotations(0).unwrap().iter().take(12) {
        k.extend(oni::encode_key(6, *q).unwrap());
    }
    out.push(("oni_keys", "six_byte_keys".into(), k));
    let mut k = vec![4u8, 0, 1];
    for q in walk.part_rotations(1).unwrap().iter().take(6) {
        k.extend(oni::encode_key(16, *q).unwrap());
    }
    out.push(("oni_keys", "sixteen_byte_keys".into(), k));
}

// ---- Shenmue ----

fn shenmue_seeds(out: &mut Vec<Seed>) {
    use boneyard_shenmue as shenmue;
    let walk = shenmue::encode_file(&[shenmue::demo_sequence(DemoClip::Walk)]);
    let fk = shenmue::encode_file(&[shenmue::demo_fk_sequence(DemoClip::Wave)]);
    out.push(("shenmue_motn", "demo_walk_ik".into(), walk.clone()));
    out.push(("shenmue_motn", "demo_wave_fk".into(), fk.clone()));
    let body = shenmue::demo_body();
    let character = shenmue::demo_character();
    out.push(("shenmue_mt5", "demo_body".into(), body.clone()));
    out.push(("shenmue_mt5", "demo_character".into(), character.clone()));
    out.push((
        "shenmue_container",
        "pks".into(),
        shenmue::write_pks(&[("MOTION", "BIN", &walk), ("CHAR", "MT5", &character)]),
    ));
    out.push(("shenmue_container", "pkf".into(), shenmue::write_pkf(&[(*b"MOTN", &walk)])));
    out.push(("shenmue_container", "afs".into(), shenmue::write_afs(&[("motion.bin", &walk)])));
    out.push(("shenmue_container", "gz".into(), shenmue::gzip(&walk)));
}

// ---- Zelda 64 ----

fn z64_demo_object() -> Vec<u8> {
    boneyard_z64::demo_files().unwrap().remove(0).1
}

/// A Normal skeleton of `limbs` Standard limbs (a chain), each drawing one triangle through
/// `dl` (an offset in the object, or none); returns the object with the skeleton header at
/// its end. `prefix` comes first (display lists, vertices, textures).
fn z64_chain_skeleton(prefix: Vec<u8>, limbs: usize, dl: Option<u32>) -> Vec<u8> {
    let mut o = z64_fixtures::Obj(prefix);
    let at = (o.0.len() + 3) & !3;
    o.at(at);
    for i in 0..limbs {
        let child = if i + 1 < limbs { (i + 1) as u8 } else { 0xFF };
        o.s16(0).s16(if i == 0 { 0 } else { 120 }).s16(0).u8(child).u8(0xFF);
        o.0.extend(be32(dl.map_or(0, |d| 0x0600_0000 | d)));
    }
    let table = o.0.len();
    for i in 0..limbs {
        o.ptr((at + i * 12) as u32);
    }
    o.ptr(table as u32).u8(limbs as u8).u8(0).s16(0);
    o.0
}

/// One limb drawing four textured triangles (RGBA16 4x4, I4 8x8, IA8 4x4, CI4 8x8 with a
/// 16-colour palette), vertices with texture coordinates and colours.
fn z64_textured_object() -> Vec<u8> {
    let vtx = 0x200u32;
    let tex = 0x240u32;
    let pal = 0x2C0u32;
    let settimg = |fmt: u32, siz: u32, addr: u32| [0xFD00_0000 | fmt << 21 | siz << 19, 0x0600_0000 | addr];
    let settile = |fmt: u32, siz: u32, palette: u32| [0xF500_0000 | fmt << 21 | siz << 19, palette << 20];
    let tilesize = |w: u32, h: u32| [0xF200_0000, ((w - 1) << 2) << 12 | ((h - 1) << 2)];
    let mut dl: Vec<u32> = vec![0xD700_0002, 0x8000_8000, 0x0100_4008, 0x0600_0000 | vtx];
    for (fmt, siz, w, h, at) in
        [(0, 2, 4, 4, tex), (4, 0, 8, 8, tex + 32), (3, 1, 4, 4, tex + 64), (2, 0, 8, 8, tex + 80)]
    {
        if fmt == 2 {
            dl.extend(settimg(0, 2, pal));
            dl.extend([0xF000_0000, 0x0700_0000 | (15 << 14)]);
        }
        dl.extend(settimg(fmt, siz, at));
        dl.extend([0xF300_0000, 0x0700_0000]);
        dl.extend(settile(fmt, siz, 0));
        dl.extend(tilesize(w, h));
        dl.extend([0x0500_0204, 0]);
    }
    dl.extend([0x0600_0406, 0x0002_0406, 0xDF00_0000, 0]);
    let mut o = z64_fixtures::Obj(words(&dl));
    o.at(vtx as usize);
    for (i, v) in [[0i16, 0, 0], [100, 0, 0], [0, 100, 0], [100, 100, 0]].iter().enumerate() {
        let st = (i as i16 & 1) * 128;
        o.s16(v[0]).s16(v[1]).s16(v[2]).s16(0).s16(st).s16((i as i16 >> 1) * 128);
        o.u8(200).u8(100 + i as u8 * 30).u8(50).u8(255);
    }
    o.at(tex as usize);
    o.0.extend((0..0x80u32).map(|i| (i * 37 % 256) as u8));
    o.at(pal as usize);
    for i in 0..16u16 {
        o.s16((i * 0x1111) as i16);
    }
    z64_chain_skeleton(o.0, 1, Some(0))
}

/// Link: a 21-limb Normal skeleton (object_link_boy), 16 Link animation headers of 2 frames
/// (gameplay_keep) and their frame data (link_animetion: 22 joints x 3 s16 + the face word per
/// frame).
fn z64_link_files() -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    use boneyard_z64::layout::{LINK_FRAME_SIZE, LINK_JOINTS};
    let mut dl = words(&[0x0100_3006, 0x0600_0018, 0x0500_0204, 0, 0xDF00_0000, 0]);
    for v in [[0i16, 0, 0], [50, 0, 0], [0, 50, 0]] {
        for x in [v[0], v[1], v[2], 0, 0, 0] {
            dl.extend(x.to_be_bytes());
        }
        dl.extend([255, 255, 255, 255]);
    }
    let object = z64_chain_skeleton(dl, LINK_JOINTS - 1, Some(0));
    let clips = 16;
    let frames = 2;
    let mut keep = Vec::new();
    let mut anim = Vec::new();
    for c in 0..clips {
        keep.extend((frames as u16).to_be_bytes());
        keep.extend([0, 0]);
        keep.extend(be32(0x0700_0000 | anim.len() as u32));
        for f in 0..frames {
            for j in 0..LINK_JOINTS * 3 {
                let v = ((c * 977 + f * 311 + j * 1223) % 4096) as i16 - 2048;
                anim.extend(v.to_be_bytes());
            }
            anim.extend([0, (c % 4) as u8]);
        }
        assert_eq!(anim.len() % LINK_FRAME_SIZE, 0);
    }
    (object, keep, anim)
}

fn z64_seeds(out: &mut Vec<Seed>) {
    use z64_fixtures::*;
    let demo = z64_demo_object();
    let skin = skin_object();
    let textured = z64_textured_object();
    for (name, o) in [
        ("demo", demo.clone()),
        ("skin", skin.clone()),
        ("keyframe_standard", kf_standard_object()),
        ("keyframe_flex", kf_flex_object()),
        ("curve", curve_object()),
        ("textured", textured.clone()),
    ] {
        out.push(("z64_object", name.into(), o));
    }
    // z64_mesh: a byte picking a direct texture decode (RGBA16 8x4), then the object.
    for (name, o) in [("demo", &demo), ("skin", &skin), ("textured", &textured)] {
        out.push(("z64_mesh", name.into(), [&[0b0001_0001u8][..], o].concat()));
    }
    // z64_keyframe: skeleton and animation header offsets, then the object.
    for (name, o, skel, anim) in [
        ("standard", kf_standard_object(), 0x34u16, 0x7Cu16),
        ("flex", kf_flex_object(), 0x20, 0x74),
        ("curve", curve_object(), 0x30, 0xB4),
    ] {
        out.push(("z64_keyframe", name.into(), [&skel.to_be_bytes()[..], &anim.to_be_bytes(), &o].concat()));
    }
    // z64_link: the two cut points, then object_link_boy | gameplay_keep | link_animetion.
    let (object, keep, anim) = z64_link_files();
    let a = object.len() as u32;
    let b = a + keep.len() as u32;
    out.push(("z64_link", "link_16_clips".into(), [&be32(a)[..], &be32(b), &object, &keep, &anim].concat()));
    // z64_rom: whole ROMs from the project's ROM builder around the demo object, stored and
    // Yaz0-compressed, with and without a file name table.
    out.push(("z64_rom", "demo_stored".into(), boneyard_z64::build_test_rom(std::slice::from_ref(&demo), false, 0)));
    out.push(("z64_rom", "demo_yaz0".into(), boneyard_z64::build_test_rom(std::slice::from_ref(&demo), true, 1)));
    let names = ["makerom", "boot", "dmadata", "object_boneyard_demo", "object_skin"];
    out.push((
        "z64_rom",
        "named_demo_and_skin".into(),
        boneyard_z64::build_test_rom_named(&[(&demo, true), (&skin, false)], Some(&names), 2),
    ));
    // z64_yaz0: a stream with its magic, and one without (the target adds it).
    let z = boneyard_z64::yaz0_encode(&skin);
    out.push(("z64_yaz0", "skin".into(), z.clone()));
    out.push(("z64_yaz0", "skin_no_magic".into(), z[4..].to_vec()));
}

// ---- export, preview, import, viewer ----

fn other_seeds(out: &mut Vec<Seed>) {
    let doc_seed = boneyard_export::testing::seed();
    out.push(("export", "three_bones".into(), doc_seed.clone()));
    // preview: the document, then size 24x24, yaw, pitch and switches.
    out.push(("preview", "three_bones".into(), [&doc_seed[..], &[23, 23, 80, 0x40]].concat()));
    out.push(("preview", "three_bones_bones".into(), [&doc_seed[..], &[15, 31, 20, 0x81]].concat()));
    // gltf_in: the export's glb of the demo walk (baked at 5 fps, so that it is small) on the
    // demo skeleton without its meshes, and as a .gltf with the buffer in a data URI.
    let baked = demo::baked_document(5.0);
    let mut bare = baked.clone();
    for s in &mut bare.skeletons {
        s.meshes.clear();
    }
    let glb = boneyard_export::glb(&bare, 0, &[0], &boneyard_export::ExportOptions::default()).unwrap();
    out.push(("gltf_in", "demo_walk.glb".into(), glb.clone()));
    out.push(("gltf_in", "demo_walk.gltf".into(), glb_to_gltf(&glb)));
    out.push(("gltf_in", "map.json".into(), br#"{"Hips": "pelvis", "Head": "head"}"#.to_vec()));
    for (name, req) in [
        ("list", "GET /api/list HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAccept: */*\r\n\r\n"),
        ("glb", "GET /api/glb?skeleton=0&anim=%230&anim=walk&in_place=1 HTTP/1.1\r\nHost: localhost:8080\r\nConnection: close\r\n\r\n"),
        ("pose", "HEAD /api/pose?anim=demo_walk&frame=3.5&skeleton=demo HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"),
        ("post", "POST /api/list HTTP/1.1\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\nbody"),
        ("bare_lf", "\r\nGET /?a=b+c&%41=%zz HTTP/1.1\nX-Many: a, b\n\n"),
    ] {
        out.push(("view_request", name.into(), req.as_bytes().to_vec()));
    }
}

/// The glb's JSON chunk with its BIN chunk as a base64 data URI (a `.gltf`).
fn glb_to_gltf(glb: &[u8]) -> Vec<u8> {
    let u32le = |at: usize| u32::from_le_bytes(glb[at..at + 4].try_into().unwrap()) as usize;
    let json_len = u32le(12);
    let mut j: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let bin_at = 20 + json_len;
    let bin = &glb[bin_at + 8..bin_at + 8 + u32le(bin_at)];
    const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for c in bin.chunks(3) {
        let n = (c[0] as u32) << 16 | (*c.get(1).unwrap_or(&0) as u32) << 8 | *c.get(2).unwrap_or(&0) as u32;
        for k in 0..4 {
            s.push(if k <= c.len() { B64[(n >> (18 - 6 * k) & 63) as usize] as char } else { '=' });
        }
    }
    j["buffers"][0]["uri"] = format!("data:application/octet-stream;base64,{s}").into();
    serde_json::to_vec(&j).unwrap()
}

fn all_seeds() -> Vec<Seed> {
    let mut out = Vec::new();
    oni_seeds(&mut out);
    shenmue_seeds(&mut out);
    z64_seeds(&mut out);
    other_seeds(&mut out);
    out
}

/// What each target's seeds must reach.
fn check_seed(target: &str, name: &str, data: &[u8]) {
    let what = format!("{target}/{name}");
    let z64 = |files: Vec<InputFile>| boneyard_z64::open_files(files).unwrap_or_else(|e| panic!("{what}: {e}"));
    match target {
        "oni_container" => {
            let cut = u32::from_be_bytes(data[..4].try_into().unwrap()) as usize;
            let files = vec![
                InputFile::new("/nonexistent/fuzz.dat", data[4..4 + cut].to_vec()),
                InputFile::new("/nonexistent/fuzz.raw", data[4 + cut..].to_vec()),
            ];
            let doc = boneyard_oni::open_files(files).unwrap();
            assert!(!doc.animations().is_empty() && !doc.skeletons().is_empty(), "{what}");
        }
        "oni_body" => {
            let doc =
                boneyard_oni::open_files(vec![InputFile::new("/nonexistent/TRBSfuzz.oni", data.to_vec())]).unwrap();
            let s = &doc.skeletons()[0];
            assert_eq!(s.skeleton.len(), 19, "{what}");
            assert!(s.meshes.len() >= 19, "{what}: {} meshes", s.meshes.len());
        }
        "oni_tram" => {
            let size = boneyard_oni::layout::tram::SIZE;
            let inst = boneyard_oni::Instance {
                tag: boneyard_oni::layout::TRAM,
                name: Some("TRAMfuzz".into()),
                data: data[..size].to_vec(),
                raw: vec![(0, data[size..].to_vec())],
                ..Default::default()
            };
            let file = boneyard_oni::write_oni(&[inst]).unwrap();
            let doc = boneyard_oni::open_files(vec![InputFile::new("/nonexistent/fuzz.oni", file)]).unwrap();
            assert_eq!(doc.trams()[0].frames, 12, "{what}");
            assert!(doc.sample(0, 3.0).is_ok(), "{what}");
        }
        "shenmue_motn" => {
            let doc = boneyard_shenmue::open_bytes(&[("fuzz.bin".to_string(), data)]).unwrap();
            assert!(doc.sample(0, 1.0).is_ok(), "{what}");
        }
        "shenmue_mt5" => assert!(boneyard_shenmue::Mt5::parse(data).is_ok(), "{what}"),
        "shenmue_container" => {
            let doc = boneyard_shenmue::open_bytes(&[("fuzz.pks".to_string(), data)]);
            assert!(doc.is_ok(), "{what}: {:?}", doc.err());
        }
        "z64_object" | "z64_mesh" => {
            let body = if target == "z64_mesh" { &data[1..] } else { data };
            let doc = z64(vec![InputFile::new("/nonexistent/object_fuzz", body.to_vec())]);
            assert!(!doc.skeletons().is_empty(), "{what}");
            if matches!(name, "demo" | "skin" | "textured") {
                assert!(!doc.skeletons()[0].meshes.is_empty(), "{what}: no meshes");
            }
            if name == "textured" {
                let textured = doc.skeletons()[0].meshes.iter().filter(|m| m.texture.is_some()).count();
                assert_eq!(textured, 4, "{what}: {:?}", doc.warnings());
            }
        }
        "z64_link" => {
            let a = u32::from_be_bytes(data[..4].try_into().unwrap()) as usize + 8;
            let b = u32::from_be_bytes(data[4..8].try_into().unwrap()) as usize + 8;
            let doc = z64(vec![
                InputFile::new("/nonexistent/object_link_boy", data[8..a].to_vec()),
                InputFile::new("/nonexistent/gameplay_keep", data[a..b].to_vec()),
                InputFile::new("/nonexistent/link_animetion", data[b..].to_vec()),
            ]);
            assert_eq!(doc.animations().len(), 16, "{what}: {:?}", doc.warnings());
            let s = doc.animations()[0].skeleton.unwrap_or_else(|| panic!("{what}: Link's clips have no skeleton"));
            assert!(doc.pose(s, Some(3), 1.0).is_ok(), "{what}");
        }
        "z64_rom" => {
            let doc = z64(vec![InputFile::new("fuzz.z64", data.to_vec())]);
            assert!(!doc.skeletons().is_empty() && !doc.animations().is_empty(), "{what}");
        }
        "z64_yaz0" => {
            let s = if data.starts_with(b"Yaz0") { data.to_vec() } else { [b"Yaz0".as_slice(), data].concat() };
            assert!(boneyard_z64::yaz0_decode(&s, None).is_ok(), "{what}");
        }
        "gltf_in" if name.ends_with(".json") => {
            assert!(boneyard_export::gltf_in::read_map(name, data).is_ok(), "{what}")
        }
        "gltf_in" => {
            let src = boneyard_export::gltf_in::GltfSource::read(name, data, Some(Path::new("/nonexistent"))).unwrap();
            assert_eq!(src.animations.len(), 1, "{what}");
        }
        _ => {}
    }
}

#[test]
fn fuzz_seeds() {
    let seeds = all_seeds();
    let write = std::env::var_os("BONEYARD_WRITE_FUZZ_SEEDS").is_some();
    let mut total = 0;
    for (target, name, data) in &seeds {
        check_seed(target, name, data);
        eprintln!("{target}/{name}: {} bytes", data.len());
        total += data.len();
        if write {
            let dir = corpus_dir().join(target);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(format!("seed_{name}")), data).unwrap();
        }
    }
    let big: Vec<String> =
        seeds.iter().filter(|s| s.2.len() > 48 * 1024).map(|s| format!("{}/{}: {}", s.0, s.1, s.2.len())).collect();
    assert!(big.is_empty(), "seeds over 48 KiB: {big:?}");
    assert!(total < 1 << 20, "{total} bytes of seeds");
    eprintln!("{} seeds, {total} bytes{}", seeds.len(), if write { ", written" } else { "" });
}
