//! Colour state of display lists as materials: crafted combiners with hand-worked results,
//! loops cut with a warning, and on the real adult Link the tunic colour and face textures the
//! game's draw sets (values from the decomp's z_player_lib.c and object_link_boy.xml).

mod common;

use boneyard_core::document::Document;
use boneyard_core::family::{Family, InputFile, OpenOptions};
use boneyard_core::testdata::shared_data;
use boneyard_z64::{open_files, Z64};
use std::path::PathBuf;

/// gbi.h's `gsDPSetCombineLERP` words.
fn combine_lerp(c0: [u32; 8], c1: [u32; 8]) -> [u32; 2] {
    let c = boneyard_z64::Combine::lerp(c0, c1);
    [c.w0, c.w1]
}

// gbi.h G_CCMUX_* / G_ACMUX_* numbers.
const TEXEL0: u32 = 1;
const PRIMITIVE: u32 = 3;
const SHADE: u32 = 4;
const ENVIRONMENT: u32 = 5;
const ZERO_AB: u32 = 15;
const ZERO_D: u32 = 7;
const ONE_D: u32 = 6;

/// An object of three Standard limbs (0 the parent of 1, 1 of 2), each with its own display
/// list drawing one triangle (vertices at 0x400, colours (200, 100, 50, 255)):
/// * limb 0 at 0x000: 1-cycle (G_SETOTHERMODE_H), the "texture edge" render mode (a cut-out),
///   PRIMITIVE * SHADE, prim (0x33, 0x66, 0x99).
/// * limb 1 at 0x100: (TEXEL0 - ENV) * SHADE + ENV, env never set: approximated; a
///   translucent render mode through G_RDPSETOTHERMODE.
/// * limb 2 at 0x200: the triangle (the render state carried from limb 1), then a call of
///   itself (a loop).
fn crafted() -> Vec<u8> {
    let mut dls: Vec<Vec<u32>> = Vec::new();
    let tri = [0x0100_3006, 0x0600_0400, 0x0500_0204, 0]; // G_VTX 3 at 0x400, G_TRI1 0 1 2
    let prim_shade = [PRIMITIVE, ZERO_AB, SHADE, ZERO_D, 7, 7, 7, PRIMITIVE];
    let mut l0 = vec![0xD9DF_FFFF, 0]; // G_LIGHTING cleared: the vertex colours are the shade
    l0.extend([0xE300_0A01, 0]); // G_SETOTHERMODE_H cycle type (shift 20, 2 bits): 1-cycle
                                 // gsDPSetRenderMode(G_RM_FOG_SHADE_A, G_RM_AA_ZB_TEX_EDGE2): G_SETOTHERMODE_L, shift 3,
                                 // 29 bits; AA_EN | Z_CMP | Z_UPD | IM_RD | CVG_DST_CLAMP | CVG_X_ALPHA | ALPHA_CVG_SEL.
    l0.extend([0xE200_001C, 0xC811_3078]);
    l0.extend(combine_lerp(prim_shade, prim_shade));
    l0.extend([0xFA00_0000, 0x3366_99FF]);
    l0.extend(tri);
    l0.extend([0xDF00_0000, 0]);
    dls.push(l0);
    let blend = [TEXEL0, ENVIRONMENT, SHADE, ENVIRONMENT, 7, 7, 7, ONE_D];
    let mut l1 = combine_lerp(blend, blend).to_vec();
    // gsDPSetOtherMode: both words; the high one as the setup leaves it (2-cycle, bilinear),
    // the low one a translucent surface (FORCE_BL | ZMODE_XLU | ...).
    l1.extend([0xEF10_2000, 0x0C18_49D8]);
    l1.extend(tri);
    l1.extend([0xDF00_0000, 0]);
    dls.push(l1);
    let mut l2 = tri.to_vec();
    l2.extend([0xDE00_0000, 0x0600_0200, 0xDF00_0000, 0]); // G_DL call 0x200: itself
    dls.push(l2);
    let mut o = common::Obj(Vec::new());
    for (i, dl) in dls.iter().enumerate() {
        o.at(0x100 * i);
        for w in dl {
            o.0.extend_from_slice(&w.to_be_bytes());
        }
    }
    o.at(0x400);
    for v in [[0, 0, 0], [100, 0, 0], [0, 100, 0]] {
        o.s16(v[0]).s16(v[1]).s16(v[2]).s16(0).s16(0).s16(0).u8(200).u8(100).u8(50).u8(255);
    }
    // Limbs at 0x440 (0xC each): pos, child, sibling, display list.
    o.at(0x440);
    o.s16(0).s16(0).s16(0).u8(1).u8(0xFF).ptr(0x000);
    o.s16(0).s16(0).s16(0).u8(2).u8(0xFF).ptr(0x100);
    o.s16(0).s16(0).s16(0).u8(0xFF).u8(0xFF).ptr(0x200);
    let table = o.0.len() as u32;
    for i in 0..3 {
        o.ptr(0x440 + 0xC * i);
    }
    o.ptr(table).u8(3).u8(0).s16(0);
    o.0
}

#[test]
fn crafted_combiners_become_materials() {
    let doc = open_files(vec![InputFile::new("object_colors", crafted())]).unwrap();
    let s = &doc.skeletons()[0];
    let mesh = |dl: u32| s.meshes.iter().find(|m| m.name.ends_with(&format!("{dl:06X}"))).unwrap();
    // PRIMITIVE * SHADE: factor = prim, vertex colours kept, no texture.
    let m = mesh(0);
    let prim = [0x33 as f32 / 255.0, 0x66 as f32 / 255.0, 0x99 as f32 / 255.0, 1.0];
    assert_eq!(m.base_color, prim);
    assert!(m.texture.is_none());
    // The render modes: a cut-out, then translucent (set whole by G_RDPSETOTHERMODE), which
    // the next limb's list inherits as the RDP's state does.
    use boneyard_core::model::AlphaMode;
    assert_eq!([0, 0x100, 0x200].map(|dl| mesh(dl).alpha_mode), [AlphaMode::Mask, AlphaMode::Blend, AlphaMode::Blend]);
    let c = m.colors.as_ref().unwrap()[0];
    assert_eq!(c, [200.0 / 255.0, 100.0 / 255.0, 50.0 / 255.0, 1.0]);
    // (TEXEL0 - ENV) * SHADE + ENV: a sum, approximated, the warning at its G_SETCOMBINE
    // (0x100) naming the formula.
    let w = doc.warnings();
    let approx = w.iter().find(|w| w.message.contains("approximated")).expect("approximation warned");
    assert_eq!((approx.file.as_str(), approx.offset), ("object_colors", Some(0x100)), "{approx:?}");
    assert!(approx.message.contains("(TEXEL0 - ENVIRONMENT) * SHADE + ENVIRONMENT"), "{}", approx.message);
    assert!(approx.message.contains("environment colour is set at run time"), "{}", approx.message);
    // The self-call: the triangle before it kept, the call cut, told at the G_DL (0x210)
    // with the limb.
    assert_eq!(mesh(0x200).indices.len(), 3);
    let cut = w.iter().find(|w| w.message.contains("already running")).expect("loop warned");
    assert_eq!(cut.offset, Some(0x210), "{cut:?}");
    assert!(cut.message.contains("limb 2"), "{}", cut.message);
}

fn dbg_file(name: &str, test: &str) -> Option<PathBuf> {
    shared_data(&format!("z64/oot-gc-eu-mq-dbg/{name}"), test)
}

fn open_link(test: &str, runtime: Vec<(String, String)>) -> Option<Box<dyn Document>> {
    let files: Vec<PathBuf> = ["object_link_boy", "gameplay_keep", "link_animetion"]
        .iter()
        .map(|n| dbg_file(n, test))
        .collect::<Option<_>>()?;
    let inputs = files.iter().map(|p| InputFile::read(p).unwrap()).collect();
    Some(
        Z64.open(
            inputs,
            &OpenOptions { pick: None, runtime, ..Default::default() },
            &boneyard_core::DiskCompanions::default(),
        )
        .unwrap(),
    )
}

/// `sTunicColors` in the decomp's z_player_lib.c (RGB8), written here by hand.
const KOKIRI: [u8; 3] = [30, 105, 27];
const ZORA: [u8; 3] = [0, 60, 100];

fn tunic_meshes(doc: &dyn Document, rgb: [u8; 3]) -> Vec<String> {
    let want = rgb.map(|c| c as f32 / 255.0);
    let s = doc.skeletons().iter().find(|s| s.name == "gLinkAdultSkel").expect("adult Link's skeleton");
    s.meshes
        .iter()
        .filter(|m| m.base_color[..3].iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-6))
        .map(|m| m.name.clone())
        .collect()
}

#[test]
fn adult_link_tunic_is_the_decomps_kokiri_green_and_zora_on_request() {
    let Some(doc) = open_link("adult_link_tunic", vec![]) else { return };
    let kokiri = tunic_meshes(doc.as_ref(), KOKIRI);
    println!("Kokiri-green meshes: {} ({:?})", kokiri.len(), kokiri);
    assert!(kokiri.len() >= 5, "{kokiri:?}");
    // Nothing of the tunic comes out white-on-green from the display lists' own primitive
    // colour: the combiner reads the environment colour the draw sets.
    assert!(tunic_meshes(doc.as_ref(), ZORA).is_empty());
    let Some(zora) = open_link("adult_link_tunic", vec![("tunic".into(), "zora".into())]) else { return };
    let blue = tunic_meshes(zora.as_ref(), ZORA);
    println!("Zora-blue meshes with --tunic zora: {}", blue.len());
    assert_eq!(blue, kokiri, "the same meshes change colour");
    assert!(tunic_meshes(zora.as_ref(), KOKIRI).is_empty());
    let files: Vec<PathBuf> = ["object_link_boy", "gameplay_keep", "link_animetion"]
        .iter()
        .map(|n| dbg_file(n, "adult_link_tunic").unwrap())
        .collect();
    let inputs = files.iter().map(|p| InputFile::read(p).unwrap()).collect();
    let e = Z64.open(
        inputs,
        &OpenOptions { pick: None, runtime: vec![("tunic".into(), "pink".into())], ..Default::default() },
        &boneyard_core::DiskCompanions::default(),
    );
    assert!(e.is_err());
}

/// One `<Texture>` of the decomp's XML: (offset, width, height, tlut offset).
fn xml_texture(xml: &str, name: &str) -> (usize, usize, usize, usize) {
    let line = xml.lines().find(|l| l.contains(&format!("Name=\"{name}\""))).expect(name);
    let attr = |a: &str| {
        let v = line.split(&format!("{a}=\"")).nth(1).unwrap().split('"').next().unwrap();
        match v.strip_prefix("0x") {
            Some(h) => usize::from_str_radix(h, 16).unwrap(),
            None => v.parse().unwrap(),
        }
    };
    (attr("Offset"), attr("Width"), attr("Height"), attr("TlutOffset"))
}

#[test]
fn adult_link_face_is_the_xmls_open_eyes_and_closed_mouth() {
    let Some(doc) = open_link("adult_link_face", vec![]) else { return };
    let Some(xml) = shared_data("z64/oot-decomp-xml/objects/object_link_boy.xml", "adult_link_face") else { return };
    let xml = std::fs::read_to_string(xml).unwrap();
    let obj = std::fs::read(dbg_file("object_link_boy", "adult_link_face").unwrap()).unwrap();
    let s = doc.skeletons().iter().find(|s| s.name == "gLinkAdultSkel").unwrap();
    for name in ["gLinkAdultEyesOpenTex", "gLinkAdultMouthClosedTex"] {
        let (off, w, h, tlut) = xml_texture(&xml, name);
        // CI8 through the XML's palette.
        let want =
            boneyard_z64::decode_texture(boneyard_z64::FMT_CI, 1, w, h, &obj[off..off + w * h], Some(&obj[tlut..]))
                .unwrap();
        let hits: Vec<&str> = s
            .meshes
            .iter()
            .filter(|m| m.texture.as_ref().is_some_and(|t| t.rgba == want.rgba))
            .map(|m| m.name.as_str())
            .collect();
        println!("{name} at {off:#X} ({w}x{h}): meshes {hits:?}");
        assert!(!hits.is_empty(), "{name} is on no mesh");
    }
    // Segments 8 and 9 are no longer said to be bound to no file.
    let w = doc.warnings();
    assert!(!w.iter().any(|w| w.message.contains("texture 0x08") || w.message.contains("texture 0x09")), "{w:?}");
}

#[test]
fn link_face_changes_per_frame_as_the_face_word_says() {
    let files: Option<Vec<PathBuf>> = ["object_link_boy", "gameplay_keep", "link_animetion"]
        .iter()
        .map(|n| dbg_file(n, "link_face_per_frame"))
        .collect();
    let Some(files) = files else { return };
    let Some(xml) = shared_data("z64/oot-decomp-xml/objects/object_link_boy.xml", "link_face_per_frame") else {
        return;
    };
    let xml = std::fs::read_to_string(xml).unwrap();
    let obj = std::fs::read(&files[0]).unwrap();
    let doc = open_files(files.iter().map(|p| InputFile::read(p).unwrap()).collect()).unwrap();
    let si = doc.skeletons().iter().position(|s| s.name == "gLinkAdultSkel").unwrap();
    // The first Link animation frame whose face word picks closed eyes (eye index 2).
    let mut found = None;
    'search: for (a, info) in doc.animations().iter().enumerate() {
        if info.skeleton != Some(si) {
            continue;
        }
        for f in 0..info.frames {
            if doc.face_at(Some(a), f as f64).unwrap().0 == 2 {
                found = Some((a, f));
                break 'search;
            }
        }
    }
    let (a, f) = found.expect("some Link animation closes his eyes");
    let swaps = doc.frame_textures(si, Some(a), f as f64).unwrap();
    // The eye textures in the XML's order, which is sEyeTextures' order: the third.
    let eyes: Vec<&str> = xml.lines().filter(|l| l.contains("Name=\"gLinkAdultEyes")).collect();
    let name = eyes[2].split("Name=\"").nth(1).unwrap().split('"').next().unwrap();
    let (off, w, h, tlut) = xml_texture(&xml, name);
    let want = boneyard_z64::decode_texture(boneyard_z64::FMT_CI, 1, w, h, &obj[off..off + w * h], Some(&obj[tlut..]))
        .unwrap();
    println!(
        "{} frame {f}: face {:?}, {name} at {off:#X}",
        doc.animations()[a].name,
        doc.face_at(Some(a), f as f64).unwrap()
    );
    assert!(swaps.iter().any(|(_, t)| t.rgba == want.rgba), "{} swaps", swaps.len());
    // The rest pose draws the default face: nothing swapped.
    assert!(doc.frame_textures(si, None, 0.0).unwrap().is_empty());
}

/// Objects whose actor sets a constant environment colour before drawing (runtime.rs's table,
/// values read off the decomp's draw functions: EnDog_Draw, EnFr_Draw, EnFirefly_Draw): the
/// meshes whose combiner reads ENVIRONMENT carry that colour, not white, and a warning says
/// which variant's it is. (The Keese's combiners read only the environment's alpha, 255 as
/// white's, so its meshes come out as before.)
#[test]
fn documented_actor_environment_colours() {
    let objects = [
        ("object_dog", [255u8, 255, 200, 0], true),
        ("object_fr", [200, 170, 0, 255], true),
        ("object_firefly", [0, 0, 0, 255], false),
    ];
    for (name, env, visible) in objects {
        let Some(path) = dbg_file(name, "actor_environment_colours") else { return };
        let doc = open_files(vec![InputFile::read(&path).unwrap()]).unwrap();
        let white =
            doc.warnings().iter().filter(|w| w.message.contains("environment colour is set at run time")).count();
        assert_eq!(white, 0, "{name}: {:?}", doc.warnings());
        let said =
            doc.warnings().iter().find(|w| w.message.contains("environment colour") && w.message.contains("draw"));
        let said = said.unwrap_or_else(|| panic!("{name}: no warning names the actor's colour"));
        let [r, g, b, a] = env;
        assert!(said.message.contains(&format!("{r},{g},{b},{a}")), "{}", said.message);
        // Some mesh's colour differs from what a white environment gives: open the object
        // again with the colour unknown (a copy under another name) and compare.
        let data = std::fs::read(&path).unwrap();
        let anon = open_files(vec![InputFile::new(path.with_file_name(format!("{name}_copy")), data)]);
        let changed = match anon {
            Ok(anon) => doc.skeletons()[0]
                .meshes
                .iter()
                .zip(&anon.skeletons()[0].meshes)
                .filter(|(m, w)| {
                    // (The copy's draw binds no segment: where the actor binds an eye, the copy
                    // has no texture.)
                    assert!(
                        m.positions == w.positions && (m.texture == w.texture || w.texture.is_none()),
                        "{}: the copy reads another mesh",
                        m.name
                    );
                    if m.base_color != w.base_color {
                        // The combiner's product: white's factor times the environment's RGB.
                        let want: Vec<f32> = (0..3).map(|c| w.base_color[c] * env[c] as f32 / 255.0).collect();
                        assert!(
                            (0..3).all(|c| (m.base_color[c] - want[c]).abs() < 1e-6),
                            "{}: {:?}, want {want:?}",
                            m.name,
                            m.base_color
                        );
                    }
                    m.base_color != w.base_color
                })
                .count(),
            Err(_) => usize::MAX, // without its asset-table name the copy may not be found
        };
        println!("{name}: {} meshes coloured by the actor's environment {env:?}; {}", changed, said.message);
        assert_eq!(changed > 0, visible, "{name}: meshes the environment colour changes");
    }
}
