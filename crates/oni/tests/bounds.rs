//! Work and allocation bounds on hostile files that are small on disk but expensive to open
//! or check: instance descriptors that all point at the same data, long many-part clips.
//! Each of these opened (or checked) without complaint before its bound existed.

mod common;
use boneyard_core::{Document, ErrorKind, InputFile};
use boneyard_oni::layout::header as h;
use boneyard_oni::open_files;
use boneyard_oni::{new_tram, rotation_block, tram_instance, write_oni};

fn u32_at(d: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([d[at], d[at + 1], d[at + 2], d[at + 3]])
}

fn put_u32(d: &mut [u8], at: usize, v: u32) {
    d[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// `copies` more descriptors identical to descriptor `index` of a VR32 file, appended to the
/// descriptor table (the blocks after it move down; their header offsets follow).
fn duplicate_descriptor(file: &[u8], index: usize, copies: usize) -> Vec<u8> {
    let n = u32_at(file, h::NUM_INSTANCES) as usize;
    let size = h::SIZE_INSTANCE_DESCRIPTOR;
    let desc = file[h::SIZE + size * index..h::SIZE + size * (index + 1)].to_vec();
    let end = h::SIZE + size * n;
    let mut out = file[..end].to_vec();
    for _ in 0..copies {
        out.extend_from_slice(&desc);
    }
    out.extend_from_slice(&file[end..]);
    let shift = (size * copies) as u32;
    put_u32(&mut out, h::NUM_INSTANCES, (n + copies) as u32);
    for field in [h::DATA_OFFSET, h::NAME_OFFSET, h::RAW_OFFSET] {
        let v = u32_at(&out, field);
        put_u32(&mut out, field, v + shift);
    }
    out
}

fn open_one(name: &str, bytes: Vec<u8>) -> boneyard_core::Result<boneyard_oni::OniDocument> {
    open_files(vec![InputFile::new(format!("/nonexistent/{name}"), bytes)])
}

#[test]
fn the_helper_keeps_the_file_readable() {
    let Some(p) = common::fixture("TRAMfixture_tiny2.oni", "the_helper_keeps_the_file_readable") else { return };
    let d = std::fs::read(p).unwrap();
    let doc = open_one("tiny2x3.oni", duplicate_descriptor(&d, 0, 2)).unwrap();
    assert_eq!(doc.animations().len(), 3);
    let one = open_one("tiny2.oni", d).unwrap();
    assert_eq!(doc.sample(2, 1.0).unwrap().channels, one.sample(0, 1.0).unwrap().channels);
}

#[test]
fn many_descriptors_of_one_tram_hit_the_memory_limit() {
    // 100,000 descriptors (2 MB) of the same 2-frame TRAM: 100,000 decoded animations, each
    // with its `list` fields, unless every animation is charged for what it holds.
    let Some(p) = common::fixture("TRAMfixture_tiny2.oni", "many_descriptors_of_one_tram") else { return };
    let d = std::fs::read(p).unwrap();
    let started = std::time::Instant::now();
    let Err(e) = open_one("bomb.oni", duplicate_descriptor(&d, 0, 100_000)) else {
        panic!("100,000 animations sharing one TRAM opened")
    };
    assert!(matches!(e.kind, ErrorKind::Limit(_)), "{e}");
    assert!(e.file.as_deref().is_some_and(|f| f.ends_with("bomb.oni")), "{e}");
    // Not an assertion (no timed tests): the figure, for whoever reads the log.
    eprintln!("took {:?}", started.elapsed());
}

#[test]
fn many_descriptors_of_one_body_hit_the_body_limit() {
    // 5,000 TRBS descriptors sharing one body set: 5,000 bodies (and, before the running
    // total, 5,000²/2 mesh sums).
    let Some(p) = common::fixture("TRBSfixture_body19.oni", "many_descriptors_of_one_body") else { return };
    let d = std::fs::read(p).unwrap();
    let doc = open_one("body19.oni", d.clone()).unwrap();
    assert_eq!(doc.skeletons().len(), 1);
    // The TRBS is descriptor 0 of OniSplit's file (its links come after it).
    assert_eq!(&d[h::SIZE..h::SIZE + 4], &boneyard_oni::layout::TRBS.to_le_bytes());
    let started = std::time::Instant::now();
    let Err(e) = open_one("bodies.oni", duplicate_descriptor(&d, 0, 5_000)) else {
        panic!("5,000 bodies sharing one set opened")
    };
    assert!(matches!(e.kind, ErrorKind::Limit(_)), "{e}");
    assert!(e.to_string().contains("bodies"), "{e}");
    // Not an assertion (no timed tests): the figure, for whoever reads the log.
    eprintln!("took {:?}", started.elapsed());
}

#[test]
fn check_work_is_bounded() {
    // A 65535-frame, 32-part TRAM (a 33 KB rotation block) given 40 times: 84 million
    // rotations to decode in check. Opening, sampling and posing stay cheap; check refuses.
    let frames = 65535usize;
    let parts = 32usize;
    let q = |a: f32| [0.0, (a / 2.0).sin(), 0.0, (a / 2.0).cos()];
    let keys: Vec<Vec<(usize, [f32; 4])>> = (0..parts)
        .map(|p| {
            let mut k: Vec<(usize, [f32; 4])> = (0..frames).step_by(255).map(|f| (f, q(p as f32 * 0.01))).collect();
            if k.last().map(|x| x.0) != Some(frames - 1) {
                k.push((frames - 1, q(1.0)));
            }
            k
        })
        .collect();
    let mut t = new_tram("long", 3, parts, frames);
    let (r, s) = rotation_block(3, frames, &keys).unwrap();
    t.rotations = r.into();
    t.streams = s;
    let one = write_oni(&[tram_instance(&t).unwrap()]).unwrap();
    let many = duplicate_descriptor(&one, 0, 39);
    let doc = open_one("long.oni", many).unwrap();
    assert_eq!(doc.animations().len(), 40);
    assert_eq!(doc.sample(39, 40000.0).unwrap().frame, 40000.0);
    let started = std::time::Instant::now();
    let e = doc.check().unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Limit(_)), "{e}");
    assert!(e.offset.is_some_and(|o| o > 0), "{e}");
    // Not an assertion (no timed tests): the figure, for whoever reads the log.
    eprintln!("took {:?}", started.elapsed());
}

#[test]
fn odd_frames_clamp() {
    // What the viewer's `/api/pose?frame=` can send: the frame actually sampled.
    let Some(p) = common::fixture("TRAMfixture_walk19.oni", "odd_frames_clamp") else { return };
    let doc = open_one("walk19.oni", std::fs::read(p).unwrap()).unwrap();
    let doc: &dyn Document = &doc;
    let last = doc.animations()[0].frames as f64 - 1.0;
    for (asked, got) in [
        (-1.0, 0.0),
        (0.5, 0.0),
        (1.5, 1.0),
        (last + 1.0, last),
        (1e12, last),
        (f64::NAN, 0.0),
        (f64::INFINITY, last),
        (f64::NEG_INFINITY, 0.0),
    ] {
        assert_eq!(doc.sample(0, asked).unwrap().frame, got, "frame {asked}");
        let sk = doc.skeleton_for(0).unwrap();
        assert_eq!(doc.pose(sk, Some(0), asked).unwrap(), doc.pose(sk, Some(0), got).unwrap(), "frame {asked}");
    }
}

#[test]
fn classes_sharing_a_big_trac_are_bounded() {
    // A TRAC of 65535 entries that is its own parent, and 4,000 character classes (the
    // ONCC descriptor repeated) using it: 4,000 × 16 × 65535 lookups (and a list of 10⁶
    // names per class) before the walk was bounded.
    use boneyard_oni::Body;
    use boneyard_oni::{append, body_instances, oncc_instance, trac_instance};
    let mut inst = body_instances("b", &Body::generic(2), &[]).unwrap();
    let mut t = new_tram("t", 16, 2, 2);
    let q = [0.0, 0.0, 0.0, 1.0];
    let (r, s) = rotation_block(16, 2, &[vec![(0, q), (1, q)], vec![(0, q), (1, q)]]).unwrap();
    t.rotations = r.into();
    t.streams = s;
    let tram = inst.len();
    append(&mut inst, vec![tram_instance(&t).unwrap()]);
    let trac = inst.len();
    inst.push(trac_instance("big", &vec![tram; 65535], Some(trac)));
    let oncc = inst.len();
    inst.push(oncc_instance("c", 0, Some(trac)));
    let one = write_oni(&inst).unwrap();
    let doc = open_one("class.oni", one.clone()).unwrap();
    assert_eq!(doc.animations()[0].skeleton, Some(0));
    let started = std::time::Instant::now();
    let Err(e) = open_one("classes.oni", duplicate_descriptor(&one, oncc, 4_000)) else {
        panic!("4,000 classes sharing a 65535-entry TRAC opened")
    };
    assert!(matches!(e.kind, ErrorKind::Limit(_)), "{e}");
    assert!(e.to_string().contains("TRAC"), "{e}");
    // Not an assertion (no timed tests): the figure, for whoever reads the log.
    eprintln!("took {:?}", started.elapsed());
}

#[test]
fn parts_sharing_one_big_geometry_stop_while_reading() {
    // A 32-part TRCM whose TRGA links every part to the same geometry of 100,000 points and
    // 150,000 triangles: 32 copies (17.6 million vertices and indices, about 700 MB) were
    // read before the document's limit was checked; now the body stops at the limit.
    use boneyard_core::Mesh;
    use boneyard_oni::body_instances;
    use boneyard_oni::layout::{array as arr, TRGA};
    use boneyard_oni::Body;
    let points: Vec<glam::Vec3> = (0..100_000).map(|i| glam::Vec3::new(i as f32, (i % 7) as f32, 0.0)).collect();
    let indices: Vec<u32> = (0..150_000u32).flat_map(|t| [t % 99_998, t % 99_998 + 1, t % 99_998 + 2]).collect();
    let mesh = Mesh::rigid("big", 0, points, indices);
    let mut inst = body_instances("big", &Body::generic(32), &[mesh]).unwrap();
    let trga = inst.iter().position(|i| i.tag == TRGA).unwrap();
    let geometry = inst[trga].links[0].1;
    inst[trga].links = (0..32).map(|p| (arr::ELEMENTS + 4 * p, geometry)).collect();
    let file = write_oni(&inst).unwrap();
    let Err(e) = open_one("shared_geometry.oni", file) else { panic!("32 copies of a big geometry opened") };
    assert!(matches!(e.kind, ErrorKind::Limit(_)), "{e}");
    assert_eq!(e.limit_name(), Some("max_body_vertices"), "{e}");
    assert!(e.to_string().contains("TRCM's geometries up to part"), "{e}");
    // Named at the TRGA link of the part that crossed the limit.
    assert!(e.offset.is_some_and(|o| o > 0), "{e}");
}

#[test]
fn names_are_bounded() {
    // Names in a new name block at the end of the file: "TRAM" and 300 letters. A million
    // descriptors naming it would have scanned and copied it a million times.
    let Some(p) = common::fixture("TRAMfixture_tiny2.oni", "names_are_bounded") else { return };
    let d = std::fs::read(p).unwrap();
    let named = |letters: usize| {
        let mut f = d.clone();
        let at = f.len();
        f.extend_from_slice(b"TRAM");
        f.extend(std::iter::repeat_n(b'a', letters));
        f.push(0);
        let len = (f.len() - at) as u32;
        put_u32(&mut f, h::NAME_OFFSET, at as u32);
        put_u32(&mut f, h::NAME_LENGTH, len);
        for k in 0..u32_at(&f, h::NUM_INSTANCES) as usize {
            put_u32(&mut f, h::SIZE + k * h::SIZE_INSTANCE_DESCRIPTOR + 8, 0);
        }
        (f, at)
    };
    let (ok, _) = named(200);
    let doc = open_one("long_name.oni", ok).unwrap();
    assert_eq!(doc.animations()[0].name.len(), 200);
    let (bad, at) = named(300);
    let Err(e) = open_one("longer_name.oni", bad) else { panic!("a 304-byte name was read") };
    assert!(e.to_string().contains("not terminated within 256 bytes"), "{e}");
    assert_eq!(e.offset, Some(at as u64), "{e}");
}

#[test]
fn parts_sharing_one_long_stream_are_charged() {
    // 32 parts whose offsets all name one stream of 65535 keys (a 262 KB block), given 100
    // times: 100 × 32 × 65535 keys walked at open, while the bytes came to 105 MB, under the
    // memory limit. Keys are now charged per part.
    use boneyard_oni::Stream;
    let (frames, parts) = (65535usize, 32usize);
    let table = 2 * parts;
    let mut block = Vec::new();
    for _ in 0..parts {
        block.extend_from_slice(&(table as u16).to_le_bytes());
    }
    block.extend_from_slice(&[128, 128, 0]);
    for _ in 1..frames {
        block.extend_from_slice(&[1, 128, 128, 0]);
    }
    let mut t = new_tram("shared", 3, parts, frames);
    t.streams = vec![Stream { start: table, end: block.len(), keys: frames }; parts];
    t.rotations = block.into();
    let one = write_oni(&[tram_instance(&t).unwrap()]).unwrap();
    let doc = open_one("shared.oni", one.clone()).unwrap();
    assert_eq!(doc.sample(0, 7.0).unwrap().frame, 7.0);
    let Err(e) = open_one("shared100.oni", duplicate_descriptor(&one, 0, 99)) else {
        panic!("100 TRAMs of 32 × 65535 keys opened")
    };
    assert!(matches!(e.kind, ErrorKind::Limit(_)), "{e}");
}

#[test]
fn repeated_warnings_do_not_crowd_out_the_rest() {
    // A body set whose 32 parts have no geometry, given 41 times (1,312 warnings, 32 of them
    // different), then a 32-part body whose parts all draw one textured geometry, given 4,001
    // times (128,032 geometries read). The repeats filled the list to `max_oni_warnings`
    // before the textured body came, so the texture note was left out, and each of the
    // 128,032 reads searched the whole list for it: the open took seconds. Now each warning
    // is said once as it comes, and the note is looked up by file.
    use boneyard_core::Mesh;
    use boneyard_oni::layout::{array as arr, m3gm as g, M3GM, TRCM, TRGA};
    use boneyard_oni::{body_instances, Body};
    let a = body_instances("a", &Body::generic(32), &[]).unwrap();
    let tri = Mesh::rigid("tri", 0, vec![glam::Vec3::ZERO, glam::Vec3::X, glam::Vec3::Y], vec![0, 1, 2]);
    let mut b = body_instances("b", &Body::generic(32), &[tri]).unwrap();
    let trga = b.iter().position(|i| i.tag == TRGA).unwrap();
    let geometry = b[trga].links[0].1;
    b[trga].links = (0..32).map(|p| (arr::ELEMENTS + 4 * p, geometry)).collect();
    // Without its TRBS, B's TRCM is a body no set uses: read after every set.
    let shift = a.len() - 1;
    let mut all = a;
    for mut i in b.into_iter().skip(1) {
        for l in &mut i.links {
            l.1 += shift;
        }
        all.push(i);
    }
    let m3gm = all.iter().rposition(|i| i.tag == M3GM).unwrap();
    all[m3gm].links.push((g::BASE_MAP, 0)); // any instance: the reader does not follow it
    let trcm_b = all.iter().rposition(|i| i.tag == TRCM).unwrap();
    let file = write_oni(&all).unwrap();
    let file = duplicate_descriptor(&file, 0, 40);
    let file = duplicate_descriptor(&file, trcm_b, 4000);
    let started = std::time::Instant::now();
    let doc = open_one("repeats.oni", file).unwrap();
    // Not an assertion (no timed tests): the figure, for whoever reads the log.
    eprintln!("took {:?}", started.elapsed());
    assert_eq!(doc.skeletons().len(), 41 + 4001);
    let w = doc.warnings();
    let said = |m: &str| w.iter().filter(|w| w.message.contains(m)).count();
    assert_eq!(said("has no geometry (link 0)"), 32, "{w:#?}");
    assert_eq!(said("links a texture (TXMP)"), 1, "{w:#?}");
    assert_eq!(said("more warnings were left out"), 0, "{w:#?}");
    assert!(w.len() < 50, "{w:#?}");
}
