//! Every texture the debug ROM's objects draw, against the decompilation's asset XML: the
//! image a mesh shows (`Z64Document::mesh_image`) has the width and height the XML gives the
//! `<Texture>` at that offset. The size is one period of the render tile's wrap, not the tile:
//! `object_bg`'s sweater is a 32x32 image over a 320x32 tile with mask 5 (read as 320x32 it
//! was 20 KB past the file's end), `object_dog`'s fur 32x32 over 128x32 (read as 128x32 it
//! took 6 KB of the next textures as its own). The XML is read here with its own scanner.

use boneyard_core::document::Document;
use boneyard_core::family::InputFile;
use boneyard_core::model::TextureWrap;
use boneyard_core::testdata::shared_data;
use std::collections::BTreeMap;

fn attr<'a>(tag: &'a str, key: &str) -> Option<&'a str> {
    let pat = format!(" {key}=\"");
    let v = tag.find(&pat)? + pat.len();
    Some(&tag[v..v + tag[v..].find('"')?])
}

/// The XML's lines (trimmed) outside `<Version>` blocks: those hold for every build.
fn unversioned_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut versioned = false;
    text.lines().map(str::trim).filter(move |l| {
        if l.starts_with("<Version ") {
            versioned = true;
        } else if l.starts_with("</Version") {
            versioned = false;
            return false;
        }
        !versioned
    })
}

/// `<File Name>` → offset → (width, height), for the `<Texture>`s outside `<Version>` blocks
/// (those hold for every build).
fn textures(text: &str) -> BTreeMap<String, BTreeMap<u32, (u32, u32)>> {
    let (mut out, mut file) = (BTreeMap::new(), None::<String>);
    for l in unversioned_lines(text) {
        if l.starts_with("<File ") {
            file = attr(l, "Name").map(str::to_string);
        } else if let (Some(f), true) = (&file, l.starts_with("<Texture ")) {
            let Some(off) = attr(l, "Offset").and_then(|o| o.strip_prefix("0x")) else { continue };
            let size = |k| attr(l, k).unwrap().parse::<u32>().unwrap();
            out.entry(f.clone())
                .or_insert_with(BTreeMap::new)
                .insert(u32::from_str_radix(off, 16).unwrap(), (size("Width"), size("Height")));
        }
    }
    out
}

#[test]
fn drawn_textures_are_sized_as_the_decomp_xml() {
    let Some(dir) = shared_data("z64/oot-gc-eu-mq-dbg", "drawn_textures_are_sized_as_the_decomp_xml") else { return };
    let Some(xml) = shared_data("z64/oot-decomp-xml/objects", "drawn_textures_are_sized_as_the_decomp_xml") else {
        return;
    };
    let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    let (mut same, mut drawn, mut unnamed, mut wraps) = (0, 0, 0, BTreeMap::<String, usize>::new());
    let mut differ = Vec::new();
    for path in &paths {
        let stem = path.file_name().unwrap().to_string_lossy().to_string();
        // The PAL rule (this is a PAL build): `<stem>_pal.xml` when the decomp has one.
        let text = std::fs::read_to_string(xml.join(format!("{stem}_pal.xml")))
            .or_else(|_| std::fs::read_to_string(xml.join(format!("{stem}.xml"))));
        let Ok(text) = text else { continue };
        let table = textures(&text);
        let Some(table) = table.get(&stem) else { continue };
        let Ok(doc) = boneyard_z64::open_files(vec![InputFile::read(path).unwrap()]) else { continue };
        for (si, s) in doc.skeletons().iter().enumerate() {
            for (mi, m) in s.meshes.iter().enumerate() {
                let (Some(addr), Some(t)) = (doc.mesh_image(si, mi), &m.texture) else { continue };
                // The object's own segment (6); images in the actor's run-time segments are
                // other files' (the XML's offsets there are of nothing here).
                if addr >> 24 != 6 {
                    continue;
                }
                drawn += 1;
                *wraps.entry(format!("{:?}", t.wrap)).or_default() += 1;
                match table.get(&(addr & 0xFF_FFFF)) {
                    Some(&wh) if wh == (t.width, t.height) => same += 1,
                    Some(wh) => {
                        differ.push(format!("{stem} {} {addr:#010x}: {}x{}, XML {wh:?}", m.name, t.width, t.height))
                    }
                    None => unnamed += 1,
                }
            }
        }
    }
    for d in &differ {
        println!("{d}");
    }
    println!(
        "z64 textures: {same}/{} drawn images the XML names sized as it says ({unnamed} more at offsets it does not name); wraps {wraps:?}",
        drawn - unnamed
    );
    assert!(differ.is_empty(), "{} differ", differ.len());
    assert!(same > 500, "{same}");
    // Every wrap is met: repeated, mirrored, and clamped (a clamped tile no wider than its
    // mask's period).
    for w in [TextureWrap::Repeat, TextureWrap::MirroredRepeat, TextureWrap::ClampToEdge] {
        assert!(wraps.keys().any(|k| k.contains(&format!("{w:?}"))), "{w:?}: {wraps:?}");
    }
}

/// The textures actors bind to segments 8-0xD before drawing (eyes, mouths: from the decomp's
/// actor draw functions, in the state first drawn), against the XML: each names a texture of
/// the object at that offset, is drawn on some mesh, and no texture of its segment is left
/// out any more.
#[test]
fn actor_segment_textures_are_the_xml_textures_and_drawn() {
    let test = "actor_segment_textures_are_the_xml_textures_and_drawn";
    let Some(dir) = shared_data("z64/oot-gc-eu-mq-dbg", test) else { return };
    let Some(xml) = shared_data("z64/oot-decomp-xml/objects", test) else { return };
    let (mut bound, mut objects) = (0, 0);
    for a in boneyard_z64::actor_defaults().iter().filter(|a| !a.segments.is_empty()) {
        let text = std::fs::read_to_string(xml.join(format!("{}.xml", a.object))).unwrap();
        let names: BTreeMap<u32, String> = text
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with("<Texture "))
            .filter_map(|l| {
                let off = attr(l, "Offset")?.strip_prefix("0x")?;
                Some((u32::from_str_radix(off, 16).ok()?, attr(l, "Name")?.to_string()))
            })
            .collect();
        let doc = boneyard_z64::open_files(vec![InputFile::read(&dir.join(a.object)).unwrap()]).unwrap();
        let drawn: Vec<u32> = (0..doc.skeletons().len())
            .flat_map(|s| (0..doc.skeletons()[s].meshes.len()).map(move |m| (s, m)))
            .filter_map(|(s, m)| doc.mesh_image(s, m))
            .collect();
        for &(seg, off, name) in a.segments {
            assert_eq!(names.get(&off).map(String::as_str), Some(name), "{} {off:#X}", a.object);
            assert!(drawn.contains(&(0x0600_0000 | off)), "{} segment {seg:#X}: {name} drawn on no mesh", a.object);
            let left = format!("segment {seg:#X} is bound to no file");
            assert!(!doc.warnings().iter().any(|w| w.message.contains(&left)), "{}: {left}", a.object);
            bound += 1;
        }
        objects += 1;
    }
    println!("z64 actor segments: {bound} bindings in {objects} objects, each the XML's texture and drawn");
    assert!(objects >= 30, "{objects}");
}

/// The display lists actors bind to segments 8-0xD before drawing (colours set per limb, an
/// empty list where a fading actor binds a render mode, Link's cull mode, texture scrolls:
/// from the decomp's draw functions), on the real objects: every list ends as the game's do,
/// every call into a bound segment is followed (no "display lists in segment" warning for it
/// is left), and each environment colour a list sets is the colour of some mesh drawn after
/// it (the object's own combiners multiply by it).
#[test]
fn actor_segment_lists_are_followed_and_their_colours_drawn() {
    let test = "actor_segment_lists_are_followed_and_their_colours_drawn";
    let Some(dir) = shared_data("z64/oot-gc-eu-mq-dbg", test) else { return };
    let (mut lists, mut colours, mut objects) = (0, 0, 0);
    for a in boneyard_z64::actor_defaults().iter().filter(|a| !a.lists.is_empty()) {
        let doc = boneyard_z64::open_files(vec![InputFile::read(&dir.join(a.object)).unwrap()]).unwrap();
        let skeletons: Vec<_> =
            doc.skeletons().iter().filter(|s| a.skeleton.is_none_or(|name| s.name == name)).collect();
        assert!(!skeletons.is_empty(), "{}: no skeleton {:?}", a.object, a.skeleton);
        for &(seg, list, what) in a.lists {
            assert_eq!(list.last().map(|g| (g.w0, g.w1)), Some((0xDF00_0000, 0)), "{} {seg:#X}: ends", a.object);
            let left = format!("display lists in segment {seg:#X},");
            assert!(!doc.warnings().iter().any(|w| w.message.contains(&left)), "{}: {left}", a.object);
            let said = format!("segment {seg:#X}: {what}");
            assert!(doc.warnings().iter().any(|w| w.message.contains(&said)), "{}: the choice is told", a.object);
            lists += 1;
            // gsDPSetEnvColor: the colour of some mesh of the skeletons drawn with it.
            for g in list.iter().filter(|g| g.w0 == 0xFB00_0000) {
                let rgb = &g.w1.to_be_bytes()[..3];
                let drawn = skeletons.iter().flat_map(|s| &s.meshes).any(|m| {
                    let c: Vec<u8> = m.base_color[..3].iter().map(|&v| (v * 255.0).round() as u8).collect();
                    c == rgb
                });
                assert!(drawn || rgb == [255, 255, 255], "{} {seg:#X}: no mesh has the colour {rgb:?}", a.object);
                colours += drawn as usize;
            }
        }
        objects += 1;
    }
    // Link's draw binds gCullBackDList (set the cull mode, end) to segment 0xC in both ages.
    for object in ["object_link_boy", "object_link_child"] {
        let doc = boneyard_z64::open_files(vec![InputFile::read(&dir.join(object)).unwrap()]).unwrap();
        assert!(!doc.warnings().iter().any(|w| w.message.contains("display lists in segment 0xC,")), "{object}");
        lists += 1;
    }
    println!("z64 actor lists: {lists} lists bound in {objects} objects and Link's two, followed; {colours} environment colours drawn");
    assert!(objects >= 20 && lists >= 30, "{objects} {lists}");
}

/// Segment 4 is gameplay_keep's, which the game keeps loaded: a texture an object draws from
/// it (`object_sb`'s at 0x04016A50) is said to need gameplay_keep when that is not given, and
/// drawn when it is.
#[test]
fn gameplay_keep_textures_are_drawn_when_it_is_given_and_asked_for_when_not() {
    let test = "gameplay_keep_textures_are_drawn_when_it_is_given_and_asked_for_when_not";
    let Some(dir) = shared_data("z64/oot-gc-eu-mq-dbg", test) else { return };
    let alone = boneyard_z64::open_files(vec![InputFile::read(&dir.join("object_sb")).unwrap()]).unwrap();
    let asks = "texture 0x04016a50 (32x32, format 0, size 2) not decoded: segment 0x4 is bound to no file \
                (it is gameplay_keep's, which was not given: give it with this file)";
    assert!(alone.warnings().iter().any(|w| w.message.contains(asks)), "{:?}", alone.warnings());
    let both = boneyard_z64::open_files(vec![
        InputFile::read(&dir.join("object_sb")).unwrap(),
        InputFile::read(&dir.join("gameplay_keep")).unwrap(),
    ])
    .unwrap();
    assert!(!both.warnings().iter().any(|w| w.message.contains("segment 0x4")), "{:?}", both.warnings());
    let sb = both.skeletons().iter().position(|s| s.name == "object_sb_Skel_002BF0").unwrap();
    let drawn = (0..both.skeletons()[sb].meshes.len()).filter_map(|m| both.mesh_image(sb, m)).collect::<Vec<_>>();
    assert!(drawn.contains(&0x0401_6A50), "{drawn:X?}");
}

/// `gSPModifyVertex` places Ruto's skin gradient (`gRutoChildBlueSkinGradientTex`, 8x8 at
/// 0xE7B8) vertex by vertex: her torso's list loads its vertices with texture coordinates
/// (0, 0) and then gives 182 of them their own. The meshes drawing the gradient spread over
/// it (they sat on one texel before those commands were applied).
#[test]
fn modified_vertices_place_rutos_skin_gradient() {
    let test = "modified_vertices_place_rutos_skin_gradient";
    let Some(dir) = shared_data("z64/oot-gc-eu-mq-dbg", test) else { return };
    let doc = boneyard_z64::open_files(vec![InputFile::read(&dir.join("object_ru1")).unwrap()]).unwrap();
    let s = doc.skeletons().iter().position(|s| s.name == "gRutoChildSkel").unwrap();
    let mut uvs = std::collections::BTreeSet::new();
    for (m, mesh) in doc.skeletons()[s].meshes.iter().enumerate() {
        if doc.mesh_image(s, m) == Some(0x0600_E7B8) {
            uvs.extend(mesh.uvs.iter().flatten().map(|uv| (uv.x.to_bits(), uv.y.to_bits())));
        }
    }
    println!("z64 gSPModifyVertex: Ruto's skin gradient drawn with {} distinct texture coordinates", uvs.len());
    assert!(uvs.len() >= 20, "{}", uvs.len());
    assert!(!doc.warnings().iter().any(|w| w.message.contains("not applied")), "{:?}", doc.warnings());
}

/// Texture generation (`G_TEXTURE_GEN`, a reflection map): the Stalfos's sword reads its
/// coordinates from the normals, spread over its texture as the normals give (its own
/// coordinates are one texel: drawn as a dark red ribbon), and a warning says they are the view
/// from the front.
#[test]
fn texture_generation_spreads_the_stalfos_sword_over_its_reflection() {
    let test = "texture_generation_spreads_the_stalfos_sword";
    let Some(dir) = shared_data("z64/oot-gc-eu-mq-dbg", test) else { return };
    let doc = boneyard_z64::open_files(vec![InputFile::read(&dir.join("object_sk2")).unwrap()]).unwrap();
    let s = doc.skeletons().iter().position(|s| s.name == "gStalfosSkel").unwrap();
    let sword: Vec<_> = doc.skeletons()[s].meshes.iter().filter(|m| m.name.starts_with("gStalfosSwordDL")).collect();
    let texgen: Vec<_> = doc
        .warnings()
        .iter()
        .filter(|w| w.message.contains("is mapped by texture generation") && w.message.contains("gStalfosSwordDL"))
        .collect();
    assert_eq!(texgen.len(), 1, "{:?}", doc.warnings());
    // The list sets G_TEXTURE_GEN | G_TEXTURE_GEN_LINEAR (D9FFFFFF 000C0000) and
    // gSPTexture(0x08FC, 0x08FC) over the 4x4 gStalfosSwordBladeTex (XML): u = acos(-n.x) / 2 pi
    // of 0x08FC / 65536 of the s10.5 range, over 4 texels: 0 to 8.98, the texture repeated.
    let scale = f32::from(0x08FCu16) / 32.0 / 4.0;
    let (mut lo, mut hi, mut n) = (f32::MAX, f32::MIN, 0);
    for m in sword.iter().filter(|m| texgen[0].message.contains(&m.name)) {
        let (uvs, normals) = (m.uvs.as_ref().unwrap(), m.normals.as_ref().unwrap());
        for (uv, nrm) in uvs.iter().zip(normals) {
            // The normals are the bytes made unit, the RSP reads them over 127 (these are about
            // 119 long): a few hundredths of a texel apart.
            let want = (-nrm.x).acos() / std::f32::consts::TAU * scale;
            assert!((uv.x - want).abs() < 0.05, "u {} against {want} for the normal {nrm}", uv.x);
            (lo, hi, n) = (lo.min(uv.x), hi.max(uv.x), n + 1);
        }
    }
    assert!(n >= 8, "{n}");
    assert!(lo >= 0.0 && hi <= 0.5 * scale && hi - lo > 0.5, "u from {lo} to {hi}");
    println!(
        "z64 texture generation: the Stalfos sword's {n} vertices mapped over u {lo:.2}..{hi:.2} as the normals give"
    );
}

/// The display lists of an object that no limb draws are said, one warning a file: against the
/// decomp's XML, every `<DList>` of each object with a skeleton is drawn by a limb (a mesh, or
/// a list a limb's list calls) or named in that warning; the Deku Baba's stem and leaves (drawn
/// by EnDekubaba's code) are named.
#[test]
fn display_lists_no_limb_draws_are_said() {
    let test = "display_lists_no_limb_draws_are_said";
    let (Some(dir), Some(xml)) =
        (shared_data("z64/oot-gc-eu-mq-dbg", test), shared_data("z64/oot-decomp-xml/objects", test))
    else {
        return;
    };
    let (mut objects, mut lists, mut undrawn) = (0, 0, 0);
    let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    names.sort();
    for path in names {
        let stem = path.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(text) = std::fs::read_to_string(xml.join(format!("{stem}.xml"))) else { continue };
        let Ok(doc) = boneyard_z64::open_files(vec![InputFile::read(&path).unwrap()]) else { continue };
        if doc.skeletons().is_empty() || stem.starts_with("gameplay_") {
            continue;
        }
        // The XML's DLists outside <Version> blocks (the same in every build).
        let xml_lists = unversioned_lines(&text).filter(|l| l.starts_with("<DList ")).count();
        let said: Vec<_> = doc.warnings().iter().filter(|w| w.message.contains("that no limb draws")).collect();
        assert!(said.len() <= 1, "{stem}: {said:?}");
        let n = said.first().map_or(0, |w| w.message.split(' ').next().unwrap().parse::<usize>().unwrap());
        assert!(n <= xml_lists, "{stem}: {n} undrawn of {xml_lists}");
        if stem == "object_dekubaba" {
            for l in ["gDekuBabaBaseLeavesDL (0x10F0)", "gDekuBabaStemTopDL (0x1330)", "gDekuBabaStemMiddleDL (0x1628)"]
            {
                assert!(said[0].message.contains(l), "{}", said[0].message);
            }
            assert_eq!(said[0].offset, Some(0x10F0));
        }
        if stem == "object_dekunuts" {
            assert!(said[0].message.contains("gDekuNutsFlowerDL (0x2298)"), "{}", said[0].message);
        }
        objects += 1;
        lists += xml_lists;
        undrawn += n;
    }
    assert!(objects >= 80, "{objects}");
    println!("z64 display lists: {undrawn} of the {lists} XML display lists of {objects} objects with skeletons said to be drawn by no limb");
}
