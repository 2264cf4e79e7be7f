use anyhow::Result;
use boneyard_core::Document;
use std::path::PathBuf;

pub fn run(files: &[PathBuf], anim: &str, frame: f64, json: bool, options: &boneyard_core::OpenOptions) -> Result<()> {
    let frame = super::check_frame(frame)?;
    let opened = crate::inputs::open_single(files, options)?;
    let doc: &dyn Document = opened.as_ref();
    let a = doc.find_animation(anim)?;
    let info = &doc.animations()[a];
    let s = doc.sample(a, frame).map_err(|e| super::in_document(e, files))?;
    if json {
        return super::print_json(&crate::json::sample(doc, info, &s));
    }
    println!(
        "#{} {} ({}) frame {} of {} at {} fps",
        info.index, info.name, info.format, s.frame, info.frames, info.fps
    );
    println!("channels:");
    for c in &s.channels {
        println!("  {} {} = {}", c.target, c.path, c.value);
    }
    println!("local transforms (translation; rotation x y z w):");
    let skel = doc.skeleton_for(a).and_then(|i| doc.skeletons().get(i));
    for (i, t) in s.locals.iter().enumerate() {
        let name = skel.and_then(|k| k.skeleton.bones.get(i)).map(|b| b.name.as_str()).unwrap_or("");
        let (p, q) = (t.translation, t.rotation);
        println!(
            "  {i:3} {name:<20} t=({:.4}, {:.4}, {:.4}) r=({:.6}, {:.6}, {:.6}, {:.6})",
            p.x, p.y, p.z, q.x, q.y, q.z, q.w
        );
    }
    Ok(())
}
