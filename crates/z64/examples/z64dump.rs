//! Print what boneyard-z64 finds in files: `cargo run -p boneyard-z64 --example z64dump -- FILE...`
use boneyard_core::document::Document;
use boneyard_core::family::InputFile;

fn main() {
    let files: Vec<InputFile> =
        std::env::args().skip(1).map(|p| InputFile::read(std::path::Path::new(&p)).expect("read")).collect();
    let doc = match boneyard_z64::open_files(files) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    for f in doc.files() {
        println!("{} | {} | {} | {:?} | {:?}", f.path, f.format, f.variant, f.counts, f.notes);
    }
    for s in doc.skeletons() {
        println!(
            "skel {} {} bones={} meshes={} tris={} {}",
            s.id,
            s.name,
            s.skeleton.len(),
            s.meshes.len(),
            s.meshes.iter().map(|m| m.indices.len() / 3).sum::<usize>(),
            serde_json::Value::Object(s.extra.clone())
        );
    }
    match doc.check() {
        Ok(lines) => {
            for l in lines.iter().take(12) {
                println!("{l}");
            }
            println!("... {} animations", lines.len());
        }
        Err(e) => println!("check error: {e}"),
    }
}
