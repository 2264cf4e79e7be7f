#![no_main]
//! The preview rasterizer and its encoders: a hostile document decoded from the fuzz input
//! (`boneyard_export::testing::doc_from_bytes`: NaN and huge transforms, stray weights and
//! indices, odd colours and textures, clips without frames or frame rate), drawn as a PNG at
//! rest and at a frame, and as GIF and APNG when its clip is short; the picture size, camera
//! and switches come from the last bytes (pictures up to 32 pixels a side and GIF/APNG clips up to
//! 8 frames: larger ones run the same code, ten times slower per execution).
use boneyard_preview::{apng, gif, png, RenderOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let (body, tail) = data.split_at(data.len() - 4);
    let doc = boneyard_export::testing::doc_from_bytes(body);
    let opts = RenderOptions {
        width: 1 + (tail[0] % 32) as u32,
        height: 1 + (tail[1] % 32) as u32,
        yaw_degrees: tail[2] as f32 * 1.5 - 90.0,
        pitch_degrees: (tail[3] >> 2) as f32 * 3.0 - 90.0,
        draw_bones: tail[3] & 1 != 0,
        draw_mesh: tail[3] & 2 == 0,
        fit_clip: tail[0] & 0x80 == 0,
        ..Default::default()
    };
    let _ = png(&doc, 0, None, 0.0, &opts);
    let _ = png(&doc, 0, Some(0), 1.5, &opts);
    if doc.clips.first().is_some_and(|c| c.info.frames <= 8) {
        let _ = gif(&doc, 0, 0, &opts);
        let _ = apng(&doc, 0, 0, &opts);
    }
});
