#![no_main]
//! An arbitrary object file (segment 6): open it, then sample, pose and check everything.
use boneyard_core::document::Document;
use boneyard_core::family::InputFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = boneyard_z64::open_files(vec![InputFile::new("object_fuzz.zobj", data.to_vec())]) else {
        return;
    };
    for a in doc.animations() {
        for f in [0.0, a.frames as f64 - 1.0, -3.7] {
            let _ = doc.sample(a.index, f);
            for s in 0..doc.skeletons().len() {
                let _ = doc.pose(s, Some(a.index), f);
            }
        }
    }
    let _ = doc.check();
});
