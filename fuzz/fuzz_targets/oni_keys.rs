#![no_main]
//! Oni rotation keys and the engine math: every key size decoded, lerped, turned into a
//! matrix; the rotation-block walk over arbitrary bytes.
use boneyard_core::{Endian, Reader};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let size = [3u16, 4, 6, 8, 16][data[0] as usize % 5];
    let parts = 1 + data[1] as usize % 32;
    let frames = 1 + data[2] as usize * 4;
    let body = &data[3..];
    for k in body.chunks_exact(size as usize).take(64) {
        if let Some(q) = boneyard_oni::decode_key(size, k) {
            let r = boneyard_oni::quat_lerp(q, [0.0, 0.0, 0.0, 1.0], 0.5);
            let _ = boneyard_oni::Matrix43::from_quat(r).to_mat4();
            let _ = boneyard_oni::to_glam(q);
        }
    }
    let _ = boneyard_oni::walk_block(&Reader::new(body, Endian::Little), parts, frames, size as usize);
});
