//! Bodies written the way OniSplit writes them: the OniSplit fixtures (`-create:trbs`,
//! a TRBS from XML, `-create:m3gm`), read by boneyard and re-encoded by boneyard's encoder,
//! give OniSplit's files byte for byte; the demo level has every M3GM link OniSplit's
//! `GeometryDatReader` reads; what the reader skips is reported as a warning.

mod common;
use boneyard_core::{Document, InputFile};
use boneyard_oni::layout::{self, m3gm as g, M3GM, TRBS, TRGA};
use boneyard_oni::write_oni;
use boneyard_oni::InstanceFile;
use boneyard_oni::M3GM_SLOTS;
use boneyard_oni::{demo_files, open_paths};
use common::*;

fn same(name: &str, mine: &[u8], original: &[u8]) {
    if mine != original {
        let at = mine.iter().zip(original).position(|(a, b)| a != b).unwrap_or(mine.len().min(original.len()));
        panic!("{name}: differs at byte {at:#x} (lengths {} vs {})", mine.len(), original.len());
    }
}

/// Re-encode the body set of a TRBS fixture from boneyard's reading of it.
fn re_encode_body_set(file: &str, set_name: &str, test: &str) -> Option<(Vec<u8>, Vec<u8>)> {
    let p = fixture(file, test)?;
    let original = std::fs::read(&p).unwrap();
    let doc = open_paths(&[p.as_path()]).unwrap();
    assert!(doc.warnings().is_empty(), "{:?}", doc.warnings());
    let trbs = doc.instance_files()[0].with_tag(TRBS).next().unwrap();
    let (bodies, slots) = doc.body_set_lods(0, trbs).unwrap();
    let inst = boneyard_oni::body_set_instances(set_name, &bodies, slots).unwrap();
    Some((write_oni(&inst).unwrap(), original))
}

/// `TRBSfixture_body19.oni` (38,832 bytes, `-create:trbs`: one TRCM in all five slots, 138
/// instances): the whole file, byte for byte — header, descriptor order (TRBS, TRCM, TRGA,
/// TRTA, TRIA, then per part M3GM, PNTA, VCRA, VCRA, TXCA, IDXA, IDXA), flags, names,
/// 32-byte alignment, PNTA bounding box and sphere, triangle normals (computed as OniSplit
/// computes them), TXCA padding, strips.
#[test]
fn body19_re_encodes_byte_for_byte() {
    let Some((mine, original)) =
        re_encode_body_set("TRBSfixture_body19.oni", "fixture_body19", "body19_re_encodes_byte_for_byte")
    else {
        return;
    };
    assert_eq!(original.len(), 38_832);
    same("TRBSfixture_body19.oni", &mine, &original);
}

/// `TRBSfixture_lod5.oni` (226,976 bytes, five distinct TRCMs, 686 instances): byte for byte.
#[test]
fn lod5_re_encodes_byte_for_byte() {
    let Some((mine, original)) =
        re_encode_body_set("TRBSfixture_lod5.oni", "fixture_lod5", "lod5_re_encodes_byte_for_byte")
    else {
        return;
    };
    assert_eq!(original.len(), 226_976);
    same("TRBSfixture_lod5.oni", &mine, &original);
}

/// `M3GMfixture_box.oni` (2,128 bytes, `-create:m3gm` of an OBJ with normals and texture
/// coordinates, the M3GM named): byte for byte.
#[test]
fn m3gm_box_re_encodes_byte_for_byte() {
    let test = "m3gm_box_re_encodes_byte_for_byte";
    let Some(p) = fixture("M3GMfixture_box.oni", test) else { return };
    let original = std::fs::read(&p).unwrap();
    assert_eq!(original.len(), 2_128);
    let doc = open_paths(&[p.as_path()]).unwrap();
    assert!(doc.warnings().is_empty(), "{:?}", doc.warnings());
    let body = &doc.bodies()[0];
    let mut inst = Vec::new();
    boneyard_oni::geometry_instances(&doc.body_meshes(0)[0], Some(&body.strips[0]), Some(&body.name), &mut inst);
    same("M3GMfixture_box.oni", &write_oni(&inst).unwrap(), &original);
}

/// The triangle normals are OniSplit's computation, not a copy: without the stored strips
/// the encoder writes one strip per triangle, and its triangle normals still equal OniSplit's
/// wherever the triangle is the same one OniSplit lists (the first triangle of each strip).
#[test]
fn triangle_normals_are_computed() {
    let test = "triangle_normals_are_computed";
    let Some(p) = fixture("M3GMfixture_box.oni", test) else { return };
    let doc = open_paths(&[p.as_path()]).unwrap();
    let theirs = &doc.instance_files()[0];
    let vcra = |f: &InstanceFile, i: usize| f.instance(i).unwrap().data()[g::LIST_ELEMENTS..].to_vec();
    let mut inst = Vec::new();
    let mesh = &doc.body_meshes(0)[0];
    boneyard_oni::geometry_instances(mesh, None, Some("fixture_box"), &mut inst);
    let ours = InstanceFile::parse("ours", write_oni(&inst).unwrap(), None, None).unwrap();
    // Their first triangle (strip 0x80000003, 0, 2, 1 starts with 3, 0, 2) is the reader's
    // first triangle, as stored or with its last two corners swapped.
    let (a, b) = (vcra(&ours, 3), vcra(theirs, 3));
    let n = |v: &[u8], k: usize| -> [f32; 3] {
        let f = |j: usize| f32::from_le_bytes(v[12 * k + 4 * j..12 * k + 4 * j + 4].try_into().unwrap());
        [f(0), f(1), f(2)]
    };
    let (x, y) = (n(&a, 0), n(&b, 0));
    assert!(x == y || x == y.map(|c| -c), "{x:?} {y:?}");
    for k in 0..12 {
        let v = n(&a, k);
        assert_eq!(v.iter().map(|c| c * c).sum::<f32>(), 1.0, "{v:?}");
    }
}

/// What OniSplit's `GeometryDatReader.Read` needs of every M3GM, checked on a file: all six
/// links present and of the type it expects at that slot, and the arrays consistent (as many
/// vertex normals and texture coordinates as points, a triangle normal index per strip
/// triangle, every index in range).
fn onisplit_would_read(f: &InstanceFile) -> usize {
    let u32_at = |d: &[u8], at: usize| u32::from_le_bytes(d[at..at + 4].try_into().unwrap());
    let mut count = 0;
    for i in f.with_tag(M3GM) {
        let d = f.instance(i).unwrap().data().to_vec();
        let mut target = Vec::new();
        for &(off, tag, what) in M3GM_SLOTS.iter() {
            let l = u32_at(&d, off);
            assert_ne!(l, 0, "M3GM #{i}: {what} link is 0");
            let k = layout::link_index(l).unwrap();
            assert_eq!(
                f.descriptors[k].tag,
                tag,
                "M3GM #{i}: {what} links a {}",
                layout::tag_name(f.descriptors[k].tag)
            );
            target.push(f.instance(k).unwrap().data().to_vec());
        }
        let points = u32_at(&target[0], g::PNTA_COUNT) as usize;
        let list = |t: &Vec<u8>| u32_at(t, g::LIST_COUNT) as usize;
        assert_eq!(list(&target[1]), points, "vertex normals");
        assert_eq!(list(&target[3]), points, "texture coordinates");
        assert!(target[3].len() >= g::LIST_ELEMENTS + 8 * points + boneyard_oni::TXCA_PADDING);
        let strips: Vec<u32> = (0..list(&target[4])).map(|k| u32_at(&target[4], g::LIST_ELEMENTS + 4 * k)).collect();
        let tris = boneyard_oni::strip_triangles(&strips).expect("strips well formed");
        let tni: Vec<u32> = (0..list(&target[5])).map(|k| u32_at(&target[5], g::LIST_ELEMENTS + 4 * k)).collect();
        assert_eq!(tni.len(), tris.len());
        assert!(tni.iter().all(|&k| (k as usize) < list(&target[2])));
        assert!(tris.iter().flatten().all(|&v| (v as usize) < points));
        for t in [&target[1], &target[2]] {
            for k in 0..list(t) * 3 {
                assert!(f32::from_le_bytes(t[24 + 4 * k..28 + 4 * k].try_into().unwrap()).is_finite());
            }
        }
        count += 1;
    }
    count
}

/// The demo level: 19 M3GMs, none with a zero link, each linked instance of the type
/// OniSplit expects at its slot. The demo boxes have no normals and no texture coordinates:
/// the vertex normals are the ones OniSplit generates (unit, pointing out of the box) and the
/// texture coordinates zero, as OniSplit writes for such a source.
#[test]
fn demo_level_geometry_reads_in_onisplit() {
    let files = demo_files().unwrap();
    let dat = InstanceFile::parse("boneyard_demo.dat", files[0].1.clone(), Some(files[1].clone()), None).unwrap();
    assert_eq!(onisplit_would_read(&dat), 19);
    // Every link of TRBS and TRGA present too.
    for tag in [TRBS, TRGA] {
        for i in dat.with_tag(tag) {
            let d = dat.instance(i).unwrap().data().to_vec();
            let from = if tag == TRGA { layout::array::ELEMENTS } else { 0 };
            for at in (from..d.len()).step_by(4) {
                assert_ne!(u32::from_le_bytes(d[at..at + 4].try_into().unwrap()), 0, "{}", layout::tag_name(tag));
            }
        }
    }
    let doc = boneyard_oni::open_files(files.into_iter().map(|(n, b)| InputFile::new(n, b)).collect()).unwrap();
    assert!(doc.warnings().is_empty(), "{:?}", doc.warnings());
    for m in &doc.skeletons()[0].meshes {
        let (n, uv) = (m.normals.as_ref().unwrap(), m.uvs.as_ref().unwrap());
        assert!(uv.iter().all(|t| t.x == 0.0 && t.y == 0.0));
        let lo = m.positions.iter().fold(glam::Vec3::splat(f32::MAX), |a, &p| a.min(p));
        let hi = m.positions.iter().fold(glam::Vec3::splat(f32::MIN), |a, &p| a.max(p));
        let c = (lo + hi) * 0.5;
        for (p, v) in m.positions.iter().zip(n) {
            assert!((v.length() - 1.0).abs() < 1e-6, "{v}");
            assert!((*p - c).dot(*v) > 0.0, "{} normal {v} at {p} points inwards", m.name);
        }
    }
}

/// The OniSplit fixtures themselves pass the same check (so the check is OniSplit's).
#[test]
fn onisplit_fixtures_pass_the_reader_check() {
    for name in ["TRBSfixture_body19.oni", "TRBSfixture_lod5.oni", "M3GMfixture_box.oni"] {
        let Some(p) = fixture(name, "onisplit_fixtures_pass_the_reader_check") else { return };
        let f = InstanceFile::parse(name, std::fs::read(p).unwrap(), None, None).unwrap();
        assert!(onisplit_would_read(&f) > 0, "{name}");
    }
}

/// What the reader leaves out is reported with file and offset: a part whose TRGA entry is
/// 0, an M3GM without vertex normals (link 0), a TXCA of the wrong count.
#[test]
fn skipped_geometry_is_a_warning() {
    let body = boneyard_oni::demo_body();
    let mut inst = boneyard_oni::body_instances("w", &body, &body.meshes).unwrap();
    // Part 3's TRGA entry out; the first M3GM without vertex normals; the last M3GM's
    // texture coordinates count 1.
    let trga = inst.iter().position(|i| i.tag == TRGA).unwrap();
    inst[trga].links.retain(|l| l.0 != layout::array::ELEMENTS + 12);
    let m3gm: Vec<usize> = inst.iter().enumerate().filter(|(_, i)| i.tag == M3GM).map(|(k, _)| k).collect();
    inst[m3gm[0]].links.retain(|l| l.0 != g::VERTEX_NORMALS);
    let txca = inst[*m3gm.last().unwrap()].links.iter().find(|l| l.0 == g::TEXCOORDS).unwrap().1;
    inst[txca].data[g::LIST_COUNT..g::LIST_COUNT + 4].copy_from_slice(&1u32.to_le_bytes());
    let bytes = write_oni(&inst).unwrap();
    let f = InstanceFile::parse("w.oni", bytes.clone(), None, None).unwrap();
    let doc = boneyard_oni::open_files(vec![InputFile::new("w.oni", bytes)]).unwrap();
    let w = doc.warnings();
    assert_eq!(w.len(), 3, "{w:?}");
    let struct_at = |i: usize| f.struct_offset(i).unwrap();
    assert_eq!(w[0].file, "w.oni");
    assert!(w[0].message.contains("no vertex normals"), "{:?}", w[0]);
    assert_eq!(w[0].offset, Some(struct_at(m3gm[0]) + g::VERTEX_NORMALS as u64));
    assert!(w[1].message.contains("part 3 (left_foot) has no geometry"), "{:?}", w[1]);
    assert_eq!(w[1].offset, Some(struct_at(trga) + layout::array::ELEMENTS as u64 + 12));
    assert!(w[2].message.contains("1 texture coordinates for 8 points"), "{:?}", w[2]);
    assert_eq!(w[2].offset, Some(struct_at(*m3gm.last().unwrap()) + g::TEXCOORDS as u64));
    // Still opens and draws the rest.
    assert_eq!(doc.skeletons()[0].meshes.len(), 18);
}

/// A texture link (not decoded) is reported once per file, not once per geometry; a TRAM's
/// direct-animation link that names nothing of the files given is reported at its offset.
#[test]
fn texture_and_direct_animation_links_are_warnings() {
    let body = boneyard_oni::demo_body();
    let mut inst = boneyard_oni::body_instances("w", &body, &body.meshes).unwrap();
    let m3gm: Vec<usize> = inst.iter().enumerate().filter(|(_, i)| i.tag == M3GM).map(|(k, _)| k).collect();
    for &k in &m3gm[..2] {
        inst[k].links.push((g::BASE_MAP, 0)); // any instance: the reader does not follow it
    }
    let mut tr = boneyard_oni::new_tram("t", 16, 2, 2);
    let q = [0.0, 0.0, 0.0, 1.0];
    let (r, s) = boneyard_oni::rotation_block(16, 2, &[vec![(0, q), (1, q)], vec![(0, q), (1, q)]]).unwrap();
    tr.rotations = r.into();
    tr.streams = s;
    let mut t = boneyard_oni::tram_instance(&tr).unwrap();
    let direct = layout::tram::DIRECT_ANIMATIONS + 4;
    t.data[direct..direct + 4].copy_from_slice(&layout::make_link(9999).to_le_bytes());
    let tram = inst.len();
    inst.push(t);
    let bytes = write_oni(&inst).unwrap();
    let f = InstanceFile::parse("t.oni", bytes.clone(), None, None).unwrap();
    let doc = boneyard_oni::open_files(vec![InputFile::new("t.oni", bytes)]).unwrap();
    let w = doc.warnings();
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w[0].message.contains("TRAM t: a direct-animation link"), "{:?}", w[0]);
    assert_eq!(w[0].offset, Some(f.struct_offset(tram).unwrap() + direct as u64));
    assert!(w[1].message.contains("links a texture"), "{:?}", w[1]);
    assert_eq!(w[1].offset, Some(f.struct_offset(m3gm[0]).unwrap() + g::BASE_MAP as u64));
}

/// OniSplit's level (`-import` of the fixtures, arrays de-duplicated, instances packed): each
/// body set boneyard reads from it, re-encoded, gives the level's instances byte for byte,
/// followed link by link from the TRBS (struct bytes with the links blanked; every link of
/// ours where the level has one, to an instance of the same bytes).
#[test]
fn level_bodies_re_encode_byte_for_byte() {
    let test = "level_bodies_re_encode_byte_for_byte";
    let Some(dat) = fixture("level1_Final.dat", test) else { return };
    let doc = open_paths(&[dat.as_path()]).unwrap();
    // Nothing left out; the one word is about the overlay TRAM it holds, played alone.
    assert!(doc.warnings().iter().all(|w| w.message.contains("an overlay (flags 0x2000)")), "{:?}", doc.warnings());
    let theirs = &doc.instance_files()[0];
    let sets: Vec<usize> = theirs.with_tag(TRBS).collect();
    assert_eq!(sets.len(), 2);
    let mut compared = 0;
    for set in sets {
        let (bodies, slots) = doc.body_set_lods(0, set).unwrap();
        let name = theirs.descriptors[set].name.clone().unwrap();
        let ours = boneyard_oni::body_set_instances(&name[4..], &bodies, slots).unwrap();
        // Walk both graphs from the TRBS.
        let mut stack = vec![(0usize, set)];
        while let Some((a, b)) = stack.pop() {
            let mine = &ours[a];
            let d = theirs.instance(b).unwrap().data().to_vec();
            assert_eq!(mine.tag, theirs.descriptors[b].tag);
            let mut blank = d.clone();
            for &(at, target) in &mine.links {
                let l = u32::from_le_bytes(d[at..at + 4].try_into().unwrap());
                stack.push((target, layout::link_index(l).expect("a link where ours has one")));
                blank[at..at + 4].fill(0);
            }
            assert_eq!(mine.data, blank, "{} #{b}", layout::tag_name(mine.tag));
            compared += 1;
        }
    }
    // Visits (one per link followed): the TRBS, then per slot a TRCM, TRGA, TRTA, TRIA and 19
    // geometries of 7 instances; body19's five slots link one TRCM, visited five times.
    assert_eq!(compared, 2 * (1 + 5 * (4 + 19 * 7)));
}

/// Generated normals: a flat quad gets its plane's normal at every corner (to the last bit of
/// the reciprocal); vertices at the
/// same position (0 and -0 alike) share one normal.
#[test]
fn generated_normals_of_a_quad() {
    use glam::Vec3;
    let p =
        vec![Vec3::new(0.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 0.0), Vec3::new(2.0, 3.0, 0.0), Vec3::new(0.0, 3.0, 0.0)];
    let n = boneyard_oni::generated_normals(&p, &[0, 1, 2, 0, 2, 3]);
    // (times the reciprocal of the length, as OniSplit: 0.99999994 for some lengths, as its
    // own triangle normals in the fixtures)
    assert!(n.iter().all(|v| v.x == 0.0 && v.y == 0.0 && (v.z - 1.0).abs() <= f32::EPSILON), "{n:?}");
    // Two copies of corner 0 (one at -0), each in one triangle: both get the sum.
    let p2 = vec![p[0], p[1], p[2], Vec3::new(-0.0, 0.0, 0.0), p[3]];
    let n2 = boneyard_oni::generated_normals(&p2, &[0, 1, 2, 3, 2, 4]);
    assert_eq!(n2[0], n2[3]);
    assert!(n2.iter().all(|v| (v.z - 1.0).abs() < 1e-6), "{n2:?}");
}

/// The level's 19-part clips are in no character class's TRAC, so the files' first 19-part
/// body (fixture_lod5) is theirs by default only: they are also written with fixture_body19
/// (export wrote them with the first alone). Played on it, each frame's local transforms
/// composed down the hierarchy are the engine's own matrices for that body
/// (`engine_pose`, `iBuildMatriciesRecursive`), and a clip of another part count plays on
/// neither.
#[test]
fn untied_clips_play_on_every_body_of_their_part_count() {
    let test = "untied_clips_play_on_every_body_of_their_part_count";
    let Some(dat) = fixture("level1_Final.dat", test) else { return };
    let doc = open_paths(&[dat.as_path()]).unwrap();
    let sk = |id: &str| doc.skeletons().iter().position(|s| s.id == id).unwrap();
    let (lod5, body19) = (sk("TRBSfixture_lod5"), sk("TRBSfixture_body19"));
    let anim = |name: &str| doc.animations().iter().position(|a| a.name == name).unwrap();
    let (walk, tiny) = (anim("fixture_walk19"), anim("fixture_tiny2"));
    assert_eq!(doc.animations()[walk].skeleton, Some(lod5));
    assert_eq!(doc.also_plays_on(walk), [body19]);
    assert!(doc.also_plays_on(tiny).is_empty());
    assert!(doc.plays_on(walk, body19) && !doc.plays_on(tiny, body19) && !doc.plays_on(walk, sk("generic2")));
    let mut locals = Vec::new();
    let parents: Vec<Option<usize>> = doc.skeletons()[body19].skeleton.bones.iter().map(|b| b.parent).collect();
    let mut worst = 0f32;
    for f in 0..doc.animations()[walk].frames {
        doc.sample_locals_on(walk, body19, f64::from(f), &mut locals).unwrap();
        let mut world = vec![glam::Mat4::IDENTITY; locals.len()];
        for (i, l) in locals.iter().enumerate() {
            let m = l.matrix();
            world[i] = parents[i].map_or(m, |p| world[p] * m);
        }
        for (w, e) in world.iter().zip(doc.pose(body19, Some(walk), f64::from(f)).unwrap()) {
            worst = worst
                .max((w.to_cols_array().iter().zip(e.to_cols_array()).map(|(a, b)| (a - b).abs())).fold(0.0, f32::max));
        }
    }
    assert!(worst < 1e-4, "{worst}");
    assert!(doc.sample_locals_on(tiny, body19, 0.0, &mut locals).is_err());
}
