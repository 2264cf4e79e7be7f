//! Print each mesh's texture size and mean colour: `cargo run --example z64tex -- FILE`
use boneyard_core::document::Document;
use boneyard_core::family::InputFile;

fn main() {
    let files: Vec<InputFile> =
        std::env::args().skip(1).map(|p| InputFile::read(std::path::Path::new(&p)).expect("read")).collect();
    let doc = boneyard_z64::open_files(files).expect("open");
    for s in doc.skeletons() {
        for m in &s.meshes {
            let mean = m.texture.as_ref().map(|t| {
                let n = (t.rgba.len() / 4).max(1) as u64;
                let mut sum = [0u64; 4];
                for px in t.rgba.chunks_exact(4) {
                    for c in 0..4 {
                        sum[c] += px[c] as u64;
                    }
                }
                (t.width, t.height, sum.map(|v| v / n))
            });
            println!("{} {} tris={} tex={:?}", s.id, m.name, m.indices.len() / 3, mean);
        }
    }
}
