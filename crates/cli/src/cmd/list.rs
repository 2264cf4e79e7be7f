use anyhow::Result;
use boneyard_core::Document;
use std::path::PathBuf;

pub fn run(files: &[PathBuf], json: bool) -> Result<()> {
    let opened = crate::inputs::open(files)?;
    let docs: Vec<&dyn Document> = opened.docs.iter().map(|d| d.as_ref()).collect();
    if json {
        let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
        return super::print_json(&crate::json::list(&docs, &names));
    }
    for d in docs {
        println!("skeletons ({}):", d.skeletons().len());
        for (i, s) in d.skeletons().iter().enumerate() {
            println!(
                "  #{i} {} {:?} bones={} meshes={} source={}",
                s.id,
                s.name,
                s.skeleton.len(),
                s.meshes.len(),
                s.source
            );
        }
        println!("animations ({}):", d.animations().len());
        for a in d.animations() {
            let sk = a
                .skeleton
                .and_then(|s| d.skeletons().get(s))
                .map(|s| format!(" skeleton={}", s.id))
                .unwrap_or_default();
            println!(
                "  #{} {} frames={} fps={} bones={} format={}{} source={}",
                a.index, a.name, a.frames, a.fps, a.bones, a.format, sk, a.source
            );
        }
    }
    Ok(())
}
