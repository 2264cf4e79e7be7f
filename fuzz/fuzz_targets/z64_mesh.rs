#![no_main]
//! Zelda 64 meshes: an object file (segment 6) whose skeletons' display lists, Skin limbs
//! (`SkinAnimatedLimbData`, modifications, transformations) and textures (every format and
//! size, palettes) are decoded when it opens; then each mesh is validated, the first skeleton
//! posed and exported as glb (textures as PNG images). The first byte also picks a texture
//! format for a direct decode of the rest.
use boneyard_core::{Family, InputFile, Limits, NoCompanions, OpenOptions};
use boneyard_z64::Z64;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let (fmt, siz) = (pick >> 5, (pick >> 3) & 3);
    let (w, h) = (4usize << (pick & 3), 4usize << ((pick >> 2) & 1));
    let tlut = rest.get(..512);
    let _ = boneyard_z64::decode_texture(fmt, siz, w, h, rest, tlut);
    // Textures cut at 32x32 texels (the default is 256x256, each cut a warning): the glb's PNG
    // deflate of large hostile textures was 70% of each execution, none of it boneyard's.
    let limits = Limits { max_texture_texels: 32 * 32, ..Limits::default() };
    let options = OpenOptions { limits, ..Default::default() };
    let file = InputFile::new("/nonexistent/object_fuzz", rest.to_vec());
    let Ok(doc) = Z64.open(vec![file], &options, &NoCompanions) else {
        return;
    };
    for (s, info) in doc.skeletons().iter().enumerate() {
        for m in &info.meshes {
            let _ = m.validate(info.skeleton.len());
        }
        let _ = doc.pose(s, None, 0.0);
    }
    if let Some(info) = doc.skeletons().first() {
        let vertices: usize = info.meshes.iter().map(|m| m.positions.len()).sum();
        if info.meshes.len() <= 256 && vertices <= 1 << 14 {
            let anims: Vec<usize> =
                doc.animations().iter().filter(|a| a.skeleton == Some(0)).map(|a| a.index).take(1).collect();
            let _ = boneyard_export::glb(&*doc, 0, &anims, &boneyard_export::ExportOptions::default());
        }
    }
});
