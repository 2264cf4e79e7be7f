//! Crashers the fuzz targets found (fuzz/fuzz_targets/gltf_in.rs), kept as regression tests:
//! each must be an error naming what is wrong, never a panic.

use boneyard_core::demo;
use boneyard_export::gltf_in::GltfSource;
use boneyard_export::{glb, ExportOptions};

/// The export's glb of the demo walk (the `gltf_in` fuzz seed), with `from` replaced by `to`
/// once (same length, so the chunk lengths still hold).
fn demo_glb_with(from: &str, to: &str) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let mut doc = demo::baked_document(5.0);
    for s in &mut doc.skeletons {
        s.meshes.clear();
    }
    let mut bytes = glb(&doc, 0, &[0], &ExportOptions::default()).unwrap();
    let at = bytes.windows(from.len()).position(|w| w == from.as_bytes()).unwrap();
    bytes[at..at + from.len()].copy_from_slice(to.as_bytes());
    bytes
}

/// fuzz/artifacts/gltf_in/crash-249079be: one channel's target path `transl2tion`; gltf's
/// validation let it through and `Target::property` panicked.
#[test]
fn unknown_target_path_is_an_error() {
    let bytes = demo_glb_with(r#""path":"translation""#, r#""path":"transl2tion""#);
    let Err(e) = GltfSource::read("walk.glb", &bytes, None) else { panic!("read without an error") };
    assert!(e.to_string().contains("target path"), "{e}");
    assert_eq!(e.file.as_deref(), Some("walk.glb"));
}

/// fuzz/artifacts/gltf_in/crash-be508f36: a GLB header whose length field (2) is shorter than
/// the header; gltf's `Glb::from_slice` subtracted 12 from it unchecked.
#[test]
fn glb_length_shorter_than_its_header_is_an_error() {
    let mut bytes = demo_glb_with("glTF", "glTF");
    bytes[8..12].copy_from_slice(&2u32.to_le_bytes());
    let Err(e) = GltfSource::read("walk.glb", &bytes, None) else { panic!("read without an error") };
    assert!(e.to_string().contains("length of 2 bytes"), "{e}");
}

/// fuzz/artifacts/gltf_in/crash-66093633: a channel targets node 99 of 19 (gltf's validation
/// let it through and `Target::node` unwrapped it).
#[test]
fn missing_target_node_is_an_error() {
    let bytes = demo_glb_with(r#""node":10"#, r#""node":99"#);
    let Err(e) = GltfSource::read("walk.glb", &bytes, None) else { panic!("read without an error") };
    assert!(e.to_string().contains("target node 99 does not exist"), "{e}");
}

/// fuzz/artifacts/gltf_in/crash-7b016a4b: a primitive's POSITION names accessor 0 of none (the
/// seed's `"accessors"` key mutated away); gltf-json's validation indexed the list unchecked.
#[test]
fn missing_position_accessor_is_an_error() {
    let json = br#"{"asset":{"version":"2.0"},"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}]}"#;
    let Err(e) = GltfSource::read("walk.gltf", json, None) else { panic!("read without an error") };
    assert!(e.to_string().contains("POSITION accessor 0 does not exist (0 accessors)"), "{e}");
    assert_eq!(e.file.as_deref(), Some("walk.gltf"));
}
