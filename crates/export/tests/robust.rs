//! Hostile documents (see `boneyard_export::testing`): every exporter returns a file or an
//! error, never panics, for random bytes and for mutations of a seed that exports cleanly.

use boneyard_export::testing::{doc_from_bytes, export_all, seed};
use boneyard_export::{glb, ExportOptions};
use proptest::prelude::*;

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
