#![no_main]
//! MT5 models: nodes, meshes, strips, parent vertices, and their routing onto the rig.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = boneyard_shenmue::Mt5::parse(data) {
        let rest = boneyard_shenmue::rig_rest();
        let _ = boneyard_shenmue::rig_meshes(&m, &rest);
        let _ = boneyard_shenmue::model_skeleton(&m, "fuzz", "fuzz");
    }
});
