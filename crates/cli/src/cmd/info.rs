use anyhow::Result;
use std::path::PathBuf;

pub fn run(files: &[PathBuf], json: bool) -> Result<()> {
    let opened = crate::inputs::open(files)?;
    let summaries: Vec<_> = opened.docs.iter().flat_map(|d| d.files()).collect();
    if json {
        let v: Vec<_> = summaries.iter().map(crate::json::file).collect();
        let docs: Vec<&dyn boneyard_core::Document> = opened.docs.iter().map(|d| d.as_ref()).collect();
        return super::print_json(&serde_json::json!({ "files": v, "warnings": crate::json::warnings(&docs) }));
    }
    for f in &summaries {
        println!(
            "{}: {}{}",
            f.path,
            f.format,
            if f.variant.is_empty() { String::new() } else { format!(" ({})", f.variant) }
        );
        if !f.counts.is_empty() {
            let c: Vec<String> = f.counts.iter().map(|(k, v)| format!("{k} {v}")).collect();
            println!("  {}", c.join(", "));
        }
        for n in &f.notes {
            println!("  {n}");
        }
    }
    Ok(())
}
