#![no_main]
//! Oni instance files (.dat VR31 with a .raw, .oni VR32): header, descriptors, names, links,
//! and everything the document builds from them (TRAMs, bodies), then sampling, posing, check.
use boneyard_core::{Document, InputFile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // A big-endian u32 says where the .dat/.oni ends (modulo the length), the rest is its
    // .raw (paths that exist nowhere); the seeds are levels from boneyard's encoder.
    if data.len() < 4 {
        return;
    }
    let (head, data) = data.split_at(4);
    let cut = u32::from_be_bytes(head.try_into().unwrap()) as usize % (data.len() + 1);
    let files = vec![
        InputFile::new("/nonexistent/fuzz.dat", data[..cut].to_vec()),
        InputFile::new("/nonexistent/fuzz.raw", data[cut..].to_vec()),
    ];
    let _ = boneyard_oni::InstanceFile::parse("fuzz.oni", data.to_vec(), None, None);
    if let Ok(doc) = boneyard_oni::open_files(files) {
        let doc: &dyn Document = &doc;
        let _ = doc.files();
        for a in doc.animations().iter().take(8) {
            let _ = doc.sample(a.index, 0.0);
            if let Some(s) = doc.skeleton_for(a.index) {
                let _ = doc.pose(s, Some(a.index), (a.frames / 2) as f64);
            }
        }
        let _ = doc.check();
    }
});
