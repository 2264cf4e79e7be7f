#![no_main]
//! An arbitrary ROM image (input that starts with no ROM magic gets the .z64 one prepended, so
//! the ROM path is always taken; the seeds are whole ROMs made by `rom::build_test_rom_named`):
//! byte order, header, build strings, dmadata walk, decompression, then everything the
//! document offers.
use boneyard_core::document::Document;
use boneyard_core::family::InputFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let rom = if boneyard_z64::byte_order(data).is_some() {
        data.to_vec()
    } else {
        [&[0x80, 0x37, 0x12, 0x40][..], data].concat()
    };
    let Ok(doc) = boneyard_z64::open_files(vec![InputFile::new("fuzz.z64", rom)]) else { return };
    for a in doc.animations().iter().take(16) {
        let _ = doc.sample(a.index, 0.0);
        if let Some(s) = a.skeleton {
            let _ = doc.pose(s, Some(a.index), 1.0);
        }
    }
    let _ = doc.check();
});
