//! Dev tool: write the GLBs that hostile documents export successfully, to run the validator
//! over them (`node .ci/gltf/validate.mjs DIR/*.glb`). usage: fuzz_dump DIR [COUNT]
fn main() {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).expect("DIR"));
    let count: u32 = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(300);
    std::fs::create_dir_all(&dir).unwrap();
    let mut x: u32 = 0x9e37_79b9;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    let mut written = 0;
    for i in 0..count * 20 {
        let len = 50 + next() as usize % 400;
        // Bias towards ordinary values so that most documents are exportable.
        let data: Vec<u8> = if i % 2 == 0 {
            (0..len)
                .map(|_| {
                    let v = next();
                    if v % 16 == 0 {
                        (v >> 8) as u8
                    } else {
                        (v >> 8) as u8 % 224
                    }
                })
                .collect()
        } else {
            // Mutations of a seed with a mesh and a clip.
            let mut d = boneyard_export::testing::seed();
            for _ in 0..1 + next() % 4 {
                let k = next() as usize % d.len();
                d[k] = (next() >> 8) as u8;
            }
            d
        };
        let doc = boneyard_export::testing::doc_from_bytes(&data);
        let anims: Vec<usize> = (0..doc.clips.len()).collect();
        if let Ok(g) = boneyard_export::glb(&doc, 0, &anims, &Default::default()) {
            std::fs::write(dir.join(format!("f{i}.glb")), g).unwrap();
            written += 1;
            if written >= count {
                break;
            }
        }
    }
    println!("wrote {written} files to {}", dir.display());
}
