#![no_main]
//! The glTF import reader (`boneyard import`): a `.glb` or `.gltf` (external buffers refused
//! or unreadable: the base folder does not exist) read, its clips retimed onto the demo
//! skeleton at 60 fps, the short ones encoded as TRAMs for the demo's Oni body (what `import
//! --into` does), and a bone-name map read from the same bytes.
use boneyard_core::Document;
use boneyard_export::gltf_in::{read_map, GltfSource};
use libfuzzer_sys::fuzz_target;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The demo's Oni level, opened once: its body and bone names.
fn demo() -> &'static (boneyard_oni::OniDocument, Vec<String>) {
    static DEMO: OnceLock<(boneyard_oni::OniDocument, Vec<String>)> = OnceLock::new();
    DEMO.get_or_init(|| {
        let files = boneyard_oni::demo_files().unwrap();
        let files = files.into_iter().map(|(n, b)| boneyard_core::InputFile::new(format!("/nonexistent/{n}"), b));
        let doc = boneyard_oni::open_files(files.collect()).unwrap();
        let names = doc.skeletons()[0].skeleton.bones.iter().map(|b| b.name.clone()).collect();
        (doc, names)
    })
}

fuzz_target!(|data: &[u8]| {
    let _ = read_map("fuzz.json", data);
    let Ok(src) = GltfSource::read("fuzz.glb", data, Some(std::path::Path::new("/nonexistent"))) else { return };
    let _ = src.select(&["#0".into(), "walk".into()]);
    let (doc, names) = demo();
    let target = &doc.skeletons()[0].skeleton;
    let map = HashMap::new();
    for a in 0..src.animations.len().min(4) {
        let mut warnings = Vec::new();
        let Ok(clip) = src.clip(a, target, 60.0, &map, &mut warnings) else { continue };
        if clip.poses.len() <= 64 {
            let body = &doc.bodies()[0];
            let keying = boneyard_oni::Keying { size: 6, tolerance: 0.01 };
            let _ = boneyard_oni::clip_to_tram(&clip, body, names, None, None, keying, &mut warnings);
        }
    }
});
