#![no_main]
//! An arbitrary ROM image (the magic is prepended so the ROM path is taken): byte order,
//! header, build strings, dmadata walk, decompression, then everything the document offers.
use boneyard_core::document::Document;
use boneyard_core::family::InputFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut rom = vec![0x80, 0x37, 0x12, 0x40];
    rom.extend_from_slice(data);
    let Ok(doc) = boneyard_z64::open_files(vec![InputFile::new("fuzz.z64", rom)]) else { return };
    for a in doc.animations() {
        let _ = doc.sample(a.index, 0.0);
    }
    let _ = doc.check();
});
