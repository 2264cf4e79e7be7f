#![no_main]
//! Oni bodies: an OniSplit `.oni` holding a TRBS (a body set of five LODs), its TRCMs with
//! their TRGA/TRTA/TRIA part tables and M3GM geometries (points, normals, texture
//! coordinates, strips), and perhaps an ONCC/TRAC/TRAM beside them, opened as a user's file
//! is: skeletons and meshes listed, posed at rest and at a few frames of each clip, checked.
use boneyard_core::{Document, InputFile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let files = vec![InputFile::new("/nonexistent/TRBSfuzz.oni", data.to_vec())];
    let Ok(doc) = boneyard_oni::open_files(files) else { return };
    let d: &dyn Document = &doc;
    for (s, info) in d.skeletons().iter().enumerate() {
        for m in &info.meshes {
            let _ = m.validate(info.skeleton.len());
        }
        let _ = d.pose(s, None, 0.0);
    }
    for a in d.animations().iter().take(4) {
        for f in [0.0, 1.5, a.frames as f64 - 1.0] {
            let _ = d.sample(a.index, f);
            if let Some(s) = d.skeleton_for(a.index) {
                let _ = doc.engine_pose(s, Some(a.index), f);
            }
        }
    }
    for f in 0..doc.instance_files().len() {
        for t in doc.instance_files()[f].with_tag(boneyard_oni::layout::TRBS).take(2).collect::<Vec<_>>() {
            let _ = doc.body_set_lods(f, t);
        }
    }
    let _ = d.check();
});
