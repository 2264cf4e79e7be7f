use crate::batch::Doc;
use anyhow::Result;
use boneyard_core::{Document, OpenOptions};
use serde_json::{json, Value};
use std::path::PathBuf;

/// What `list` prints of one document.
enum Listed {
    Json(Value),
    Text(String),
    /// Already written (the one document of a run that is not a batch, `--json`).
    Printed,
}

/// A batch's `list --json`: cli.md's keys (`files`, `skeletons`, `animations`, `warnings`) over
/// every document, each skeleton, animation and warning naming its `document` (as `info --json`
/// and `check --json` of a batch keep their own shapes), plus `documents` (each one's name and
/// files, in the batch's order), `errors` and `skipped`. (A batch's list was `{"documents":
/// [<one document's list>...]}`, so a script's `.animations` found nothing in a folder's.)
fn batch_json(docs: Vec<Value>, names: &[String], errors: &[Value], skipped: Value) -> Value {
    let (mut files, mut skeletons, mut animations, mut warnings) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut documents = Vec::new();
    for (mut d, name) in docs.into_iter().zip(names) {
        let own = d.get_mut("files").map(Value::take).unwrap_or_else(|| json!([]));
        for f in own.as_array().into_iter().flatten() {
            // A companion read in several documents (gameplay_keep beside each of Link's
            // objects) is one file.
            if !files.contains(f) {
                files.push(f.clone());
            }
        }
        documents.push(json!({"name": name, "files": own}));
        for (key, to) in [("skeletons", &mut skeletons), ("animations", &mut animations), ("warnings", &mut warnings)] {
            if let Some(Value::Array(items)) = d.get_mut(key).map(Value::take) {
                to.extend(items.into_iter().map(|mut item| {
                    // (Every entry is an object; indexing a value that is not would panic.)
                    if let Some(o) = item.as_object_mut() {
                        o.insert("document".into(), json!(name));
                    }
                    item
                }));
            }
        }
    }
    json!({
        "files": files,
        "skeletons": skeletons,
        "animations": animations,
        "warnings": warnings,
        "documents": documents,
        "errors": errors,
        "skipped": skipped,
    })
}

pub fn run(files: &[PathBuf], json: bool, options: &OpenOptions) -> Result<()> {
    let plan = crate::inputs::plan(files)?;
    let batch = plan.batch;
    // One document alone: its JSON is written while the document is open, element by
    // element (`json::ListStream`), so the output never exists as one tree.
    let stream = json && !batch && plan.units.len() == 1;
    let named: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    // One document's `files`: those named, then the files read beside them (Link's
    // gameplay_keep and link_animetion, a level's .raw, an object's animation banks), as a
    // batch's `files` has them (they were left out).
    let with_companions = |doc: &dyn Document| -> Vec<String> {
        let canonical = |p: &str| std::fs::canonicalize(p).ok();
        let given: Vec<_> = named.iter().filter_map(|p| canonical(p)).collect();
        let mut all = named.clone();
        for f in doc.files() {
            if std::path::Path::new(&f.path).is_file() && canonical(&f.path).is_some_and(|c| !given.contains(&c)) {
                all.push(f.path.clone());
            }
        }
        all
    };
    let run = crate::batch::run(plan, options, true, |d: Doc| {
        let doc = d.doc;
        // A document named alone that holds nothing is said (a folder walk counts them in
        // its summary): `list object_bdoor` printed two empty lists without a word.
        if !batch && doc.skeletons().is_empty() && doc.animations().is_empty() {
            crate::progress::eprint(&format!(
                "boneyard: warning: {}: holds no skeleton or animation (`info` says what it holds)",
                named.join(", ")
            ));
        }
        let listed = if stream {
            super::print_json(&crate::json::ListStream { docs: &[doc], files: &with_companions(doc) })?;
            Listed::Printed
        } else if json {
            let own = if batch { doc.files().iter().map(|f| f.path.clone()).collect() } else { with_companions(doc) };
            Listed::Json(crate::json::list(&[doc], &own))
        } else {
            Listed::Text(text(doc))
        };
        Ok((listed, doc.skeletons().len(), doc.animations().len()))
    });
    let mut done = run.collect()?;
    let skeletons: usize = done.ok.iter().map(|(_, (_, s, _))| s).sum();
    let animations: usize = done.ok.iter().map(|(_, (_, _, a))| a).sum();
    if stream {
        // Written above.
    } else if json {
        // Moved out, not copied: a CD's worth of animations is hundreds of megabytes as trees.
        let docs: Vec<Value> = done
            .ok
            .iter_mut()
            .filter_map(|(_, (l, _, _))| if let Listed::Json(v) = l { Some(std::mem::take(v)) } else { None })
            .collect();
        if done.batch {
            super::print_json(&batch_json(docs, &done.names, &done.errors, done.skipped_json()))?;
        } else {
            // One document's shape is cli.md's; files of several families named together
            // are listed as one, as before.
            let mut merged = json!({"files": named, "skeletons": [], "animations": [], "warnings": []});
            for mut d in docs {
                for k in ["skeletons", "animations", "warnings"] {
                    if let (Some(Value::Array(to)), Some(Value::Array(from))) = (merged.get_mut(k), d.get_mut(k)) {
                        to.append(from);
                    }
                }
            }
            super::print_json(&merged)?;
        }
    } else {
        for (label, (l, _, _)) in &done.ok {
            if let Listed::Text(t) = l {
                if done.batch {
                    println!("{}:", boneyard_core::text::escape_controls(label));
                }
                print!("{t}");
            }
        }
    }
    done.close(
        "listed",
        &format!(
            "{}, {}",
            crate::progress::counted(skeletons, "skeleton", "skeletons"),
            crate::progress::counted(animations, "animation", "animations")
        ),
    )
}

fn text(d: &dyn Document) -> String {
    use std::fmt::Write;
    // Names from files (and files' own names) with a newline would make lines of their own.
    let e = boneyard_core::text::escape_controls;
    let mut o = String::new();
    let _ = writeln!(o, "skeletons ({}):", d.skeletons().len());
    for (i, s) in d.skeletons().iter().enumerate() {
        let _ = writeln!(
            o,
            "  #{i} {} {:?} bones={} meshes={} source={}",
            e(&s.id),
            s.name,
            s.skeleton.len(),
            s.meshes.len(),
            e(&s.source)
        );
    }
    let _ = writeln!(o, "animations ({}):", d.animations().len());
    for a in d.animations() {
        let sk = a
            .skeleton
            .and_then(|s| d.skeletons().get(s))
            .map(|s| format!(" skeleton={}", e(&s.id)))
            .unwrap_or_default();
        let _ = writeln!(
            o,
            "  #{} {} frames={} fps={} bones={} format={}{} source={}",
            a.index,
            e(&a.name),
            a.frames,
            a.fps,
            a.bones,
            a.format,
            sk,
            e(&a.source)
        );
    }
    o
}
