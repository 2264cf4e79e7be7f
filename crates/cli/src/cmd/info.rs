use crate::batch::Doc;
use anyhow::Result;
use boneyard_core::OpenOptions;
use std::path::PathBuf;

pub fn run(files: &[PathBuf], json: bool, options: &OpenOptions) -> Result<()> {
    let plan = crate::inputs::plan(files)?;
    let run = crate::batch::run(plan, options, true, |d: Doc| Ok((d.doc.files(), sizes(d.doc))));
    let done = run.collect()?;
    // Each file with the document it was read in: a folder's objects each read gameplay_keep
    // beside them, which listed it once a document without saying why.
    let summaries: Vec<(&str, &boneyard_core::FileSummary)> = done
        .ok
        .iter()
        .zip(&done.names)
        .flat_map(|((_, (f, _)), name)| f.iter().map(move |f| (name.as_str(), f)))
        .collect();
    // Each with the document it is of, by name (a folder's skeletons share ids: `generic3` of
    // two levels).
    let models: Vec<(&str, &Size)> = done
        .ok
        .iter()
        .zip(&done.names)
        .flat_map(|((_, (_, s)), name)| s.iter().map(move |m| (name.as_str(), m)))
        .collect();
    if json {
        let v: Vec<_> = summaries
            .iter()
            .map(|(doc, f)| {
                let mut j = crate::json::file(f);
                j["document"] = serde_json::json!(doc);
                j
            })
            .collect();
        let warnings: Vec<_> = done.warnings.iter().map(crate::json::warning).collect();
        let skeletons: Vec<_> = models
            .iter()
            .map(|(doc, m)| {
                let mut j = serde_json::json!({"id": m.id, "name": m.name, "height": m.height, "size": m.size, "document": doc});
                if let Some((anim, height, size)) = &m.standing {
                    j["standing"] = serde_json::json!({"anim": anim, "frame": 0, "height": height, "size": size});
                }
                j
            })
            .collect();
        let mut out = serde_json::json!({ "files": v, "skeletons": skeletons, "warnings": warnings });
        if done.batch {
            out["errors"] = serde_json::json!(done.errors);
            out["skipped"] = done.skipped_json();
        }
        super::print_json(&out)?;
    } else {
        let mut last_doc = None;
        for (doc, f) in &summaries {
            if done.batch && last_doc != Some(*doc) {
                println!("document {}", boneyard_core::text::escape_controls(doc));
                last_doc = Some(*doc);
            }
            println!(
                "{}: {}{}",
                boneyard_core::text::escape_controls(&f.path),
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
        for (doc, m) in &models {
            let of =
                if done.batch { format!(" of {}", boneyard_core::text::escape_controls(doc)) } else { String::new() };
            // Standing first where a clip shows it: the rest pose of a Zelda skeleton has every
            // limb unturned (adult Link 2671 units tall at rest, 6522 as he walks).
            let standing = match &m.standing {
                Some((anim, h, size)) => format!(
                    "{h} engine units tall at frame 0 of {} (box {} x {} x {}), {} at rest",
                    boneyard_core::text::escape_controls(anim),
                    size[0],
                    size[1],
                    size[2],
                    m.height
                ),
                None => format!(
                    "{} engine units tall at rest (box {} x {} x {})",
                    m.height, m.size[0], m.size[1], m.size[2]
                ),
            };
            println!(
                "skeleton {} {:?}{of}: {standing}; export --scale F to resize",
                boneyard_core::text::escape_controls(&m.id),
                m.name,
            );
        }
    }
    // Files read in several documents (a companion) counted once.
    let distinct: std::collections::HashSet<&str> = summaries.iter().map(|(_, f)| f.path.as_str()).collect();
    done.close("read", &format!("{} files", distinct.len()))
}

/// A skeleton's size at rest, for choosing `export --scale`.
struct Size {
    id: String,
    name: String,
    /// The extent along Y (up in every family's export), in engine units.
    height: f64,
    size: [f64; 3],
    /// At frame 0 of the clip the skeleton is best seen in (a png's without `--anim`): its
    /// name, height and size.
    standing: Option<(String, f64, [f64; 3])>,
}

fn sizes(doc: &dyn boneyard_core::Document) -> Vec<Size> {
    // Rounded to 4 significant digits: a size for people, not a checksum (as an f64, so that
    // 3640.4 is not printed 3640.39990234375).
    let r = |v: f32| if v == 0.0 { 0.0 } else { format!("{:.4e}", v).parse().unwrap_or(f64::from(v)) };
    doc.skeletons()
        .iter()
        .enumerate()
        .filter_map(|(k, s)| {
            let (lo, hi) = s.rest_bounds()?;
            let d = hi - lo;
            let own: Vec<usize> = (0..doc.animations().len()).filter(|&a| doc.skeleton_for(a) == Some(k)).collect();
            let standing = crate::best_clip::shown_clip(doc, k, &own).and_then(|a| {
                let (lo, hi) = boneyard_preview::posed_bounds(doc, k, Some(a), 0.0).ok()??;
                let d = hi - lo;
                Some((doc.animations()[a].name.clone(), r(d.y), [r(d.x), r(d.y), r(d.z)]))
            });
            Some(Size {
                id: s.id.clone(),
                name: s.name.clone(),
                height: r(d.y),
                size: [r(d.x), r(d.y), r(d.z)],
                standing,
            })
        })
        .collect()
}
