#![no_main]
//! MOTN: parse, then sample and pose a few frames of the first sequences (the rig's IK).
use boneyard_core::Document;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = boneyard_shenmue::MotnFile::parse(data);
    if let Ok(doc) = boneyard_shenmue::open_bytes(&[("fuzz.bin".to_string(), data)]) {
        for a in 0..doc.animations().len().min(3) {
            for f in [0.0, 1.5, 1e6] {
                let _ = doc.sample(a, f);
                let _ = doc.pose(0, Some(a), f);
            }
        }
    }
});
