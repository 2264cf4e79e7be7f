use crate::batch::Doc;
use anyhow::Result;
use boneyard_core::OpenOptions;
use std::path::PathBuf;

pub fn run(files: &[PathBuf], json: bool, options: &OpenOptions) -> Result<()> {
    let plan = crate::inputs::plan(files)?;
    let run = crate::batch::run(plan, options, true, |d: Doc| Ok(d.doc.files()));
    let done = run.collect()?;
    let summaries: Vec<_> = done.ok.iter().flat_map(|(_, f)| f.iter()).collect();
    if json {
        let v: Vec<_> = summaries.iter().map(|f| crate::json::file(f)).collect();
        let warnings: Vec<_> = done.warnings.iter().map(crate::json::warning).collect();
        let mut out = serde_json::json!({ "files": v, "warnings": warnings });
        if done.batch {
            out["errors"] = serde_json::json!(done.errors);
            out["skipped"] = done.skipped_json();
        }
        super::print_json(&out)?;
    } else {
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
    }
    done.close("read", &format!("{} files", summaries.len()))
}
