//! Every exporter (glb, bvh, obj) over hostile documents decoded from the fuzzer's bytes
//! (see `boneyard_export::testing`): a file or an error, never a panic or a hang.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    boneyard_export::testing::export_all(data);
});
