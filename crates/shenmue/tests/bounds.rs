//! Work and allocation bounds on hostile inputs that are small on disk but expensive to
//! open or check (each failed before its bound existed: the first ran out of memory, the
//! second ran for hours).

use boneyard_core::{Document, ErrorKind};
use boneyard_shenmue::open_bytes;
use boneyard_shenmue::Axis;
use boneyard_shenmue::{encode_file, CurveSpec, KeySpec, SequenceSpec};
use boneyard_shenmue::{write_mt5 as write, NodeSpec};
use glam::Vec3;

/// An AFS of `count` entries all `(ofs, size)`, followed by `payload` at the first offset
/// after the table (written by hand: the writer gives every entry its own data).
fn afs_all_same(count: usize, payload: &[u8]) -> Vec<u8> {
    let data_at = 8 + 8 * count;
    let mut d = Vec::with_capacity(data_at + payload.len());
    d.extend_from_slice(b"AFS\0");
    d.extend_from_slice(&(count as u32).to_le_bytes());
    for _ in 0..count {
        d.extend_from_slice(&(data_at as u32).to_le_bytes());
        d.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    }
    d.extend_from_slice(payload);
    d
}

#[test]
fn nested_archives_cannot_multiply_their_entries() {
    // Inner: 65536 empty entries. Outer (1 MB): 65536 entries that are all the inner AFS,
    // 2^32 entries in all (each with a summary note) before the byte limit stops them.
    let inner = afs_all_same(1 << 16, &[]);
    assert_eq!(boneyard_shenmue::read_afs(&inner).unwrap().len(), 1 << 16);
    let outer = afs_all_same(1 << 16, &inner);
    let started = std::time::Instant::now();
    let Err(e) = open_bytes(&[("BOMB.AFS".into(), &outer)]) else { panic!("the entry bomb opened") };
    assert!(matches!(e.kind, ErrorKind::Limit(_)), "{e}");
    assert_eq!(e.limit_name(), Some("max_total_entries"), "{e}");
    assert!(e.file.as_deref().is_some_and(|f| f.starts_with("BOMB.AFS")), "{e}");
    // Not an assertion (no timed tests): the figure, for whoever reads the log.
    eprintln!("took {:?}", started.elapsed());
}

#[test]
fn check_work_is_bounded_for_big_fk_models() {
    // A model of 4096 nodes whose root declares controller family 5, and 32 sequences of
    // 65535 frames of that family (one curve each): check would evaluate 8.8·10⁹ node
    // matrices. The file is tiny; check must refuse with a limit error instead.
    let family = 5u16;
    let nodes: Vec<NodeSpec> = (0..4096)
        .map(|i| NodeSpec {
            render_key: if i == 0 { (0x7001 + family) as i16 } else { 100 },
            parent: if i == 0 { None } else { Some(0) },
            rotation: [0; 3],
            scale: Vec3::ONE,
            position: Vec3::new(0.0, 1.0, 0.0),
            vertices: Vec::new(),
            strips: Vec::new(),
        })
        .collect();
    let model = write(&nodes, &[]);
    let key = |frame: u16, value: f32| KeySpec { frame, count: 1, tangent_in: 0.0, tangent_out: 0.0, value };
    let seqs: Vec<SequenceSpec> = (0..32)
        .map(|i| SequenceSpec {
            name: format!("long{i}"),
            frames: u16::MAX,
            flag_high: family,
            curves: vec![CurveSpec {
                control: 1,
                axis: Axis::RotY,
                keys: vec![key(0, 0.0), key(u16::MAX - 1, 0.25 + i as f32 / 64.0)],
            }],
        })
        .collect();
    let motn = encode_file(&seqs);
    assert!(motn.len() < 4096, "{} bytes", motn.len());
    let doc = open_bytes(&[("big.mt5".into(), &model), ("long.bin".into(), &motn)]).unwrap();
    assert_eq!(doc.animations().len(), 32);
    // Sampling and posing one frame stays cheap and works.
    let sk = doc.animations()[0].skeleton.unwrap();
    assert_eq!(doc.skeletons()[sk].skeleton.len(), 4096);
    assert_eq!(doc.pose(sk, Some(0), 100.0).unwrap().len(), 4096);
    let started = std::time::Instant::now();
    let e = doc.check().unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Limit(_)), "{e}");
    assert!(e.offset.is_some(), "{e}");
    // Not an assertion (no timed tests): the figure, for whoever reads the log.
    eprintln!("took {:?}", started.elapsed());
}

#[test]
fn odd_frames_clamp() {
    // What the viewer's `/api/pose?frame=` can send: the frame actually sampled (fractional
    // frames are sampled as such, the rest clamped to 0..frames-1, NaN to 0).
    let files = boneyard_shenmue::demo_files().unwrap();
    let named: Vec<(String, &[u8])> = files.iter().map(|(n, d)| (n.clone(), d.as_slice())).collect();
    let doc = open_bytes(&named).unwrap();
    for a in doc.animations() {
        let last = f64::from(a.frames) - 1.0;
        for (asked, got) in [
            (-1.0, 0.0),
            (0.5, 0.5),
            (last + 1.0, last),
            (1e12, last),
            (f64::NAN, 0.0),
            (f64::INFINITY, last),
            (f64::NEG_INFINITY, 0.0),
        ] {
            assert_eq!(doc.sample(a.index, asked).unwrap().frame, got, "{} frame {asked}", a.name);
            let sk = a.skeleton.unwrap();
            assert_eq!(doc.pose(sk, Some(a.index), asked).unwrap(), doc.pose(sk, Some(a.index), got).unwrap());
        }
    }
}

#[test]
fn nodes_sharing_a_long_strip_stream_are_bounded() {
    // 4096 nodes whose mesh offsets all point at one mesh with a stream of a million no-op
    // opcodes (2 MB): 4·10⁹ opcode reads before the opcodes were charged to the model.
    use boneyard_shenmue::layout::mt5 as L;
    let nodes: Vec<NodeSpec> = (0..4096)
        .map(|i| NodeSpec {
            render_key: 100,
            parent: if i == 0 { None } else { Some(0) },
            rotation: [0; 3],
            scale: Vec3::ONE,
            position: Vec3::ZERO,
            vertices: Vec::new(),
            strips: Vec::new(),
        })
        .collect();
    let mut d = write(&nodes, &[]);
    let mesh = d.len();
    let strips = mesh + L::MESH_HEADER;
    // poly type, vertex offset, vertex count 0, strip offset, centre, radius.
    for w in [0u32, strips as u32, 0, strips as u32, 0, 0, 0, 0] {
        d.extend_from_slice(&w.to_le_bytes());
    }
    d.extend(std::iter::repeat_n(0u8, 2 * ((1 << 20) - 1)));
    d.extend_from_slice(&L::STRIP_END.to_le_bytes());
    for i in 0..4096 {
        let at = 12 + i * L::NODE_SIZE + L::NODE_MESH;
        d[at..at + 4].copy_from_slice(&(mesh as u32).to_le_bytes());
    }
    let started = std::time::Instant::now();
    let e = boneyard_shenmue::Mt5::parse(&d).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Limit(_)), "{e}");
    // Not an assertion (no timed tests): the figure, for whoever reads the log.
    eprintln!("took {:?}", started.elapsed());
    // One node with that mesh is fine (a million opcodes is within a model's limit).
    let mut one = write(&nodes[..1], &[]);
    let mesh1 = one.len();
    let strips1 = mesh1 + L::MESH_HEADER;
    for w in [0u32, strips1 as u32, 0, strips1 as u32, 0, 0, 0, 0] {
        one.extend_from_slice(&w.to_le_bytes());
    }
    one.extend_from_slice(&d[strips..]);
    one[12 + L::NODE_MESH..12 + L::NODE_MESH + 4].copy_from_slice(&(mesh1 as u32).to_le_bytes());
    let m = boneyard_shenmue::Mt5::parse(&one).unwrap();
    assert!(m.nodes[0].mesh.as_ref().is_some_and(|x| x.strips.is_empty()));
}

#[test]
fn one_motion_listed_many_times_is_bounded() {
    // An AFS whose 65536 entries are all the demo's motion file: each entry was parsed and
    // held (with its listings) until the archive's byte limit, about 1 GB of motion data.
    let motion = boneyard_shenmue::demo_files().unwrap().remove(0).1;
    let afs = afs_all_same(1 << 16, &motion);
    let started = std::time::Instant::now();
    let Err(e) = open_bytes(&[("MOTIONS.AFS".into(), &afs)]) else { panic!("65536 copies of a motion opened") };
    assert!(matches!(e.kind, ErrorKind::Limit(_)), "{e}");
    assert_eq!(e.limit_name(), Some("max_parsed_bytes"), "{e}");
    // Not an assertion (no timed tests): the figure, for whoever reads the log.
    eprintln!("took {:?}", started.elapsed());
    // A few copies are fine: each is its own file of animations.
    let few = afs_all_same(3, &motion);
    let doc = open_bytes(&[("FEW.AFS".into(), &few)]).unwrap();
    assert_eq!(doc.animations().len(), 3 * 4);
}
