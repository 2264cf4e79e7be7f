#![no_main]
//! An arbitrary object file (segment 6): open it, then sample, pose and check everything.
use boneyard_core::{Family, InputFile, Limits, NoCompanions, OpenOptions};
use boneyard_z64::Z64;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // `check`'s joint budget lowered from its default (2^25 joint values) to 2^16: a hostile
    // keyframe clip of 0x7FFF frames otherwise costs each execution tens of milliseconds of
    // the same sampling; hitting the limit is itself a path under test.
    let limits = Limits { max_check_joints: 1 << 16, ..Limits::default() };
    let options = OpenOptions { limits, ..Default::default() };
    let Ok(doc) = Z64.open(vec![InputFile::new("object_fuzz.zobj", data.to_vec())], &options, &NoCompanions) else {
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
