//! Print what boneyard reads from Oni files (a developer's aid): `oni_dump FILE... [anim frame]`.
use boneyard_core::Document;
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let paths: Vec<&Path> = args.iter().filter(|a| a.contains('.')).map(Path::new).collect();
    let doc = match boneyard_oni::open_paths(&paths) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    for f in doc.files() {
        println!("{} | {} | {} | {:?}", f.path, f.format, f.variant, f.counts);
    }
    for s in doc.skeletons() {
        println!("skeleton {} {} bones={} meshes={}", s.id, s.name, s.skeleton.len(), s.meshes.len());
    }
    for a in doc.animations() {
        println!("anim {} {} frames={} bones={} {} sk={:?}", a.index, a.name, a.frames, a.bones, a.format, a.skeleton);
    }
    match doc.check() {
        Ok(l) => l.iter().for_each(|l| println!("{l}")),
        Err(e) => println!("check error: {e}"),
    }
}
