#![no_main]
//! Oni TRAM: the fuzz input is a TRAM struct (0x180 bytes) followed by raw data; boneyard's
//! writer wraps them in a VR32 .oni (the raw blob at raw offset 0x20, the struct's own raw
//! offsets kept as the fuzzer made them), then it is read, walked at every frame and checked.
use boneyard_core::Document;
use boneyard_oni::{write_oni, Instance};
use boneyard_oni::layout::{tram, TRAM};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < tram::SIZE {
        return;
    }
    let (st, raw) = data.split_at(tram::SIZE);
    // The blob hangs off field 0x00 (the run-time name, which readers ignore).
    let inst = Instance {
        tag: TRAM,
        name: Some("TRAMfuzz".into()),
        data: st.to_vec(),
        raw: vec![(0, raw.to_vec())],
        ..Default::default()
    };
    let Ok(file) = write_oni(&[inst]) else { return };
    let files = vec![boneyard_core::InputFile::new("/nonexistent/fuzz.oni", file)];
    if let Ok(doc) = boneyard_oni::open_files(files) {
        for t in doc.trams() {
            for p in 0..t.parts {
                let _ = t.part_rotations(p);
            }
        }
        for a in 0..doc.animations().len() {
            let _ = doc.sample(a, 1.0);
        }
        let _ = doc.check();
    }
});
