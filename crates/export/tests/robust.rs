//! Hostile documents (see `boneyard_export::testing`): every exporter returns a file or an
//! error, never panics, for random bytes and for mutations of a seed that exports cleanly.

use boneyard_export::testing::{doc_from_bytes, export_all};
use boneyard_export::{glb, ExportOptions};
use proptest::prelude::*;

/// A seed whose document is valid (so mutations start from files that export), written in
/// the decoder's field order. Ordinary values are bytes below 224: (b - 112) / 16.
fn seed() -> Vec<u8> {
    const Z: u8 = 112; // 0.0
    let mut s = vec![3u8]; // 3 bones
                           // parent byte, name, translation, rotation (0 = Euler xyz follows), scale (0 = 1)
    s.extend([0, 1, Z, Z, Z, 0, Z, Z, Z, 0]); // root
    s.extend([64, 2, Z, Z + 16, Z, 0, Z, Z, Z, 0]); // parent 64 % 1 = 0, at (0,1,0)
    s.extend([65, 3, Z, Z + 32, Z, 0, Z, Z, Z, 0]); // parent 65 % 2 = 1, at (0,2,0)
    s.push(1); // 1 mesh
    s.extend([3, Z, Z, Z, Z + 16, Z, Z, Z, Z + 16, Z]); // 3 positions
    s.extend([3, 0, 1, 2]); // 3 indices
    s.extend([0, 2]); // rigid on bone 2
    s.extend([200, 200, 200]); // no normals, colors, uvs
    s.extend([120, 124, 128, 128]); // base colour
    s.push(1); // 1 clip
    s.extend([3, 0, 0, 0, 0, 0, 0]); // 3 frames, 30 fps, skeleton 0, "walk", frames as given, LINEAR, all bones
    for f in 0..3u8 {
        for b in 0..3u8 {
            s.extend([Z, Z + 16 * b, Z + f, 0, Z + f, Z + 2 * f, Z, 0]);
        }
    }
    s.push(200); // root motion
    s.extend([1, 2, 3]);
    s
}

#[test]
fn seed_exports() {
    let doc = doc_from_bytes(&seed());
    assert_eq!(doc.skeletons[0].skeleton.len(), 3);
    assert!(glb(&doc, 0, &[], &ExportOptions::default()).is_ok());
}

#[test]
fn deterministic_mutations_never_panic() {
    let base = seed();
    let mut x: u32 = 0x1234_5678;
    for _ in 0..3000 {
        let mut d = base.clone();
        for _ in 0..1 + (x % 6) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let i = x as usize % d.len();
            d[i] = (x >> 8) as u8;
        }
        export_all(&d);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, .. ProptestConfig::default() })]
    #[test]
    fn random_documents_never_panic(data in proptest::collection::vec(any::<u8>(), 0..400)) {
        export_all(&data);
    }
}

#[test]
fn seed_has_meshes_and_a_clip() {
    let doc = doc_from_bytes(&seed());
    let s = &doc.skeletons[0];
    assert_eq!((s.meshes.len(), doc.clips.len()), (1, 1));
    let g = glb(&doc, 0, &[0], &ExportOptions::default());
    assert!(g.is_ok(), "{g:?}");
}
