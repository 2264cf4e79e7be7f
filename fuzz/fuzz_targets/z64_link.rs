#![no_main]
//! Link's path: his skeleton's object (`object_link_boy`), `gameplay_keep` (his animation
//! headers, found by the asset table or the header scan) and `link_animetion` (their frame
//! data, segment 7), cut from the fuzz input at the two big-endian u32 offsets its first 8
//! bytes give (modulo the length); opened as the three files, then each of the first clips
//! sampled and posed on the skeleton it plays on.
use boneyard_core::document::Document;
use boneyard_core::family::InputFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 8 {
        return;
    }
    let (head, rest) = data.split_at(8);
    let cut = |k: usize| u32::from_be_bytes(head[k..k + 4].try_into().unwrap()) as usize % (rest.len() + 1);
    let (a, b) = (cut(0), cut(4));
    let (a, b) = (a.min(b), a.max(b));
    let files = vec![
        InputFile::new("/nonexistent/object_link_boy", rest[..a].to_vec()),
        InputFile::new("/nonexistent/gameplay_keep", rest[a..b].to_vec()),
        InputFile::new("/nonexistent/link_animetion", rest[b..].to_vec()),
    ];
    let Ok(doc) = boneyard_z64::open_files(files) else { return };
    for a in doc.animations().iter().take(8) {
        for f in [0.0, 0.5, a.frames as f64 - 1.0, -1.0] {
            let _ = doc.sample(a.index, f);
            if let Some(s) = a.skeleton {
                let _ = doc.pose(s, Some(a.index), f);
            }
        }
    }
    let _ = doc.check();
});
