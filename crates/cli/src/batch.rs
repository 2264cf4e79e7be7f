//! Running a command over every document of a [`Plan`]: documents are independent, one that
//! fails is reported (file, offset, reason) and the others complete; the run closes with a
//! summary line on stderr and exits 1 when any failed. A run of one document named by its
//! files is not a batch: its error is the command's error, as before.

use crate::inputs::{Plan, Skipped, Unit};
use anyhow::Result;
use boneyard_core::{Document, OpenOptions, Warning};
use rayon::prelude::*;
use std::collections::HashMap;

/// One document as the work sees it.
pub struct Doc<'a> {
    /// Its first file, as given or found.
    pub label: &'a str,
    /// What outputs are named after: the first file's stem, made unique within the run.
    pub stem: &'a str,
    pub doc: &'a dyn Document,
    /// Found by a folder walk ([`crate::inputs::Unit::walked`]), not named.
    pub walked: bool,
}

/// What the work made of one document.
pub struct Report<T> {
    pub label: String,
    /// The unit's name ([`crate::inputs::Unit::name`]).
    pub name: String,
    pub result: Result<T>,
    /// The document's warnings (empty when it did not open).
    pub warnings: Vec<Warning>,
}

/// The outcome of a whole run.
pub struct Run<T> {
    pub reports: Vec<Report<T>>,
    pub skipped: Vec<Skipped>,
    pub batch: bool,
}

/// The run failed for some documents; the message counts them (exit status 1).
#[derive(Debug)]
pub struct BatchFailed {
    pub failed: usize,
    pub total: usize,
}

impl std::fmt::Display for BatchFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} of {} documents failed (each is reported above)", self.failed, self.total)
    }
}
impl std::error::Error for BatchFailed {}

/// Output stems: the file stem; `<folder>_<stem>` where two documents share a stem; and
/// `<folder>_<stem>_<n>` where even that is shared, so two documents never write one name.
fn stems(units: &[Unit]) -> Vec<String> {
    fn counts(names: &[String]) -> HashMap<&str, usize> {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for s in names {
            *seen.entry(s.as_str()).or_default() += 1;
        }
        seen
    }
    // Compared as the outputs are named (`a b` and `a_b` are both `a_b`).
    let safe = crate::output::safe_name;
    let plain: Vec<String> = units.iter().map(|u| safe(&u.stem())).collect();
    let seen = counts(&plain);
    let qualified: Vec<String> = units
        .iter()
        .zip(&plain)
        .map(|(u, s)| {
            if seen[s.as_str()] < 2 {
                return s.clone();
            }
            let parent = u.paths.first().and_then(|p| p.parent()).and_then(|p| p.file_name());
            safe(&format!("{}_{s}", parent.map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()))
        })
        .collect();
    let seen = counts(&qualified);
    qualified
        .iter()
        .enumerate()
        .map(|(i, s)| if seen[s.as_str()] < 2 { s.clone() } else { format!("{s}_{i}") })
        .collect()
}

/// For each stem, the index of the shortest stem of the run that is it or starts it followed by
/// `_`: documents of one such key can write one file name (every output is `<stem>.<ext>` or
/// `<stem>_<...>.<ext>`, so `object_box`'s `object_box_gTreasureChestSkel.glb` is also the
/// output of a file named `object_box_gTreasureChestSkel`), those of two keys never. (If `a`
/// starts `b` and `b` starts `c`, each followed by `_`, all three have `c`'s key.)
fn name_groups(stems: &[String]) -> Vec<usize> {
    // Compared as `output::claim` compares names: case aside.
    let folded: Vec<String> = stems.iter().map(|s| s.to_ascii_lowercase()).collect();
    let mut first: HashMap<&str, usize> = HashMap::new();
    for (i, s) in folded.iter().enumerate() {
        first.entry(s.as_str()).or_insert(i);
    }
    folded
        .iter()
        .enumerate()
        .map(|(i, s)| {
            // The shortest stem that starts it, else the first of its own (a file given twice).
            s.match_indices('_')
                .map(|(k, _)| &s[..k])
                .find_map(|head| first.get(head).copied())
                .or_else(|| first.get(s.as_str()).copied())
                .unwrap_or(i)
        })
        .collect()
}

/// Open every document and run `work` on it, two at a time on the machine's threads, the
/// reports in the plan's order.
/// `count_documents`: the progress bar counts documents (commands whose outputs are not
/// files); export counts the files it writes instead.
pub fn run<T: Send>(
    plan: Plan,
    options: &OpenOptions,
    count_documents: bool,
    work: impl Fn(Doc) -> Result<T> + Sync,
) -> Run<T> {
    each(plan, count_documents, |unit, stem| {
        let label = unit.label();
        let name = unit.name.clone();
        let walked = unit.walked();
        [match unit.open(options) {
            Ok(doc) => {
                let result = work(Doc { label: &label, stem, doc: doc.as_ref(), walked });
                Report { label, name, result, warnings: doc.warnings().to_vec() }
            }
            Err(e) => Report { label, name, result: Err(e), warnings: Vec::new() },
        }]
    })
}

/// A document [`open_all`] opened: the document, the stem its outputs are named after, and
/// how to open it again (the viewer's run-time state).
pub type Opened = (Box<dyn Document>, String, crate::inputs::Reopen);

/// Open every document and keep it with the stem its outputs are named after (the viewer serves
/// them all, and names a download as `export` names the file), in the plan's order. A file
/// that fails among files named together is a failed document of its own, reported before
/// the document the others make ([`crate::inputs::Unit::open_without_failing`]); the run is
/// then a batch (a summary, exit status 1).
pub fn open_all(plan: Plan, options: &OpenOptions) -> Run<Opened> {
    each(plan, true, |unit, stem| {
        let label = unit.label();
        let name = unit.name.clone();
        let (opened, dropped) = unit.open_without_failing(options);
        let mut reports: Vec<Report<Opened>> = dropped.into_iter().map(|(p, e)| failed(p, e)).collect();
        reports.push(match opened {
            Ok((doc, reopen)) => {
                let warnings = doc.warnings().to_vec();
                Report { label, name, result: Ok((doc, stem.to_string(), reopen)), warnings }
            }
            Err(e) => Report { label, name, result: Err(e), warnings: Vec::new() },
        });
        reports
    })
}

/// A file that failed, as a report of its own.
fn failed<T>(path: std::path::PathBuf, e: anyhow::Error) -> Report<T> {
    Report {
        label: path.display().to_string(),
        name: path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        result: Err(e),
        warnings: Vec::new(),
    }
}

/// `one` for every unit of `plan` (with its output stem), on the machine's threads: its
/// reports (one, or more when it splits); the files that could not be read are failed reports
/// after the others. A unit that splits makes the run a batch.
fn each<T: Send, R: IntoIterator<Item = Report<T>>>(
    plan: Plan,
    count_documents: bool,
    one: impl Fn(Unit, &str) -> R + Sync,
) -> Run<T> {
    let stems = stems(&plan.units);
    if count_documents {
        crate::progress::add(plan.units.len() as u64, "documents");
    }
    // Files that could not be read are failed documents, after the others.
    let unread: Vec<Report<T>> = plan.failed.into_iter().map(|(path, e)| failed(path, e)).collect();
    // Documents whose output names can meet are run one after another, in the inputs' order,
    // so that the first of them keeps a name they share and the later ones get `_2`
    // ([`crate::output::claim`]) whichever thread is quicker; the others run side by side.
    let keys = name_groups(&stems);
    let mut groups: Vec<Vec<(usize, Unit, String)>> = Vec::new();
    let mut group_of: HashMap<usize, usize> = HashMap::new();
    for (i, (unit, stem)) in plan.units.into_iter().zip(stems).enumerate() {
        let g = *group_of.entry(keys[i]).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push((i, unit, stem));
    }
    let done: Vec<Vec<(usize, Vec<Report<T>>)>> = groups
        .into_par_iter()
        .map(|g| {
            g.into_iter()
                .map(|(i, unit, stem)| {
                    let reports: Vec<Report<T>> = one(unit, &stem).into_iter().collect();
                    if count_documents {
                        crate::progress::step(1);
                    }
                    (i, reports)
                })
                .collect()
        })
        .collect();
    let mut done: Vec<(usize, Vec<Report<T>>)> = done.into_iter().flatten().collect();
    done.sort_by_key(|(i, _)| *i);
    let split = done.iter().any(|(_, r)| r.len() > 1);
    let mut reports: Vec<Report<T>> = done.into_iter().flat_map(|(_, r)| r).collect();
    reports.extend(unread);
    Run { reports, skipped: plan.skipped, batch: plan.batch || split }
}

/// A run's documents after their warnings and errors were printed.
pub struct Finished<T> {
    /// The documents that completed, with what the work made of them, in order.
    pub ok: Vec<(String, T)>,
    /// Their names ([`crate::inputs::Unit::name`]), in the same order.
    pub names: Vec<String>,
    /// The failures as JSON (`{"file","offset","message"}`), for `--json` outputs.
    pub errors: Vec<serde_json::Value>,
    pub skipped: Vec<Skipped>,
    /// Every document's warnings, in order (already printed on stderr).
    pub warnings: Vec<Warning>,
    pub batch: bool,
    total: usize,
}

impl<T> Run<T> {
    /// Print each document's warnings and errors on stderr, in order. Outside a batch the
    /// one document's error is the run's error (its exit status as before).
    pub fn collect(self) -> Result<Finished<T>> {
        let total = self.reports.len();
        let mut ok = Vec::new();
        let mut names = Vec::new();
        let mut errors = Vec::new();
        let mut warnings = Vec::new();
        for r in self.reports {
            crate::progress::warnings(&r.warnings);
            warnings.extend(r.warnings);
            match r.result {
                Ok(v) => {
                    ok.push((r.label, v));
                    names.push(r.name);
                }
                // The one document's error names its file when the reader's did not (an
                // export a format cannot hold said only "unsupported: BVH has no scale...").
                Err(e) if !self.batch => {
                    return Err(match e.downcast::<boneyard_core::Error>() {
                        Ok(be) if be.file.is_none() => be.in_file(r.label).into(),
                        Ok(be) => be.into(),
                        Err(e) => e,
                    })
                }
                Err(e) => errors.push(report_error(&e, &r.label)),
            }
        }
        Ok(Finished { ok, names, errors, skipped: self.skipped, warnings, batch: self.batch, total })
    }
}

/// A failed document's error on stderr, as JSON for `--json` outputs. Each failure names its
/// document: the reader's errors name their file, the others (nothing to export, a clip a
/// format cannot hold) get the document's.
fn report_error(e: &anyhow::Error, label: &str) -> serde_json::Value {
    let line = crate::one_line(e);
    let named = e.downcast_ref::<boneyard_core::Error>().is_some_and(|be| be.file.is_some()) || line.starts_with(label);
    let line = if named { line } else { format!("{label}: {line}") };
    crate::progress::eprint(&format!("boneyard: error: {line}"));
    error_json(e, label)
}

impl<T> Finished<T> {
    /// For a batch, the summary line `boneyard: <verb> N of M documents (<what>); K failed;
    /// J files not read`, on stderr; the run's result ([`BatchFailed`] when any failed).
    pub fn close(&self, verb: &str, what: &str) -> Result<()> {
        self.close_counting(verb, self.ok.len(), what)
    }

    /// [`Finished::close`] saying `done` documents were `verb` (those an export wrote files
    /// for, not every one that opened).
    pub fn close_counting(&self, verb: &str, done: usize, what: &str) -> Result<()> {
        if !self.batch {
            return Ok(());
        }
        let failed = self.errors.len();
        let mut line = format!("boneyard: {verb} {done} of {} documents", self.total);
        if !what.is_empty() {
            line.push_str(&format!(" ({what})"));
        }
        if failed > 0 {
            line.push_str(&format!("; {failed} failed"));
        }
        if !self.skipped.is_empty() {
            use crate::inputs::SkipKind;
            let verbose = crate::progress::verbose();
            // The files no warning named as the walk met them are named here with `-v`.
            if verbose {
                for s in self.skipped.iter().filter(|s| s.kind != SkipKind::NotAFile) {
                    crate::progress::note(&format!("{}: not read: {}", s.path.display(), s.reason));
                }
            }
            let count = |k: SkipKind| self.skipped.iter().filter(|s| s.kind == k).count();
            let total = self.skipped.len();
            // Each kind with its count (none where it is the only one: the total says it).
            let part = |n: usize, one: &str, many: &str| match n {
                0 => None,
                1 if total == 1 => Some(one.replace("no family reads", "no family reads it")),
                n if n == total => Some(many.to_string()),
                1 => Some(format!("1 {one}")),
                n => Some(format!("{n} {many}")),
            };
            let quiet: Vec<String> = [
                part(count(SkipKind::NoFamily), "no family reads", "no family reads them"),
                part(count(SkipKind::Hidden), "hidden", "hidden"),
            ]
            .into_iter()
            .flatten()
            .collect();
            let warned = part(count(SkipKind::NotAFile), "not a file", "not files");
            let whys = if verbose {
                let all: Vec<String> = quiet.into_iter().chain(warned).collect();
                format!("{}: {}", all.join(", "), if total == 1 { "named above" } else { "each named above" })
            } else {
                let them = if total == 1 { "it" } else { "them" };
                let quiet = (!quiet.is_empty()).then(|| format!("{}: -v names {them}", quiet.join(", ")));
                let warned =
                    warned.map(|w| format!("{w}: {}", if total == 1 { "named above" } else { "each named above" }));
                quiet.into_iter().chain(warned).collect::<Vec<_>>().join("; ")
            };
            line.push_str(&format!(
                "; {} not read ({whys})",
                crate::progress::counted(self.skipped.len(), "file", "files")
            ));
        }
        crate::progress::summary(&line);
        if failed > 0 {
            return Err(BatchFailed { failed, total: self.total }.into());
        }
        // Nothing to read at all (an empty folder, one of junk): an error, so that a script
        // sees that nothing was done (it was exit 0, `exported 0 of 0 documents`).
        if self.total == 0 {
            return Err(crate::inputs::nothing_readable().into());
        }
        Ok(())
    }

    /// The files a folder walk did not read, as JSON (`{"file","reason"}`).
    pub fn skipped_json(&self) -> serde_json::Value {
        serde_json::Value::Array(
            self.skipped
                .iter()
                .map(|s| serde_json::json!({"file": s.path.display().to_string(), "reason": s.reason}))
                .collect(),
        )
    }
}

/// The errors of a run's reports as JSON (`{"file","offset","message"}`), for `--json` outputs.
pub fn error_json(e: &anyhow::Error, label: &str) -> serde_json::Value {
    match e.downcast_ref::<boneyard_core::Error>() {
        Some(be) => serde_json::json!({
            "file": be.file.clone().unwrap_or_else(|| label.to_string()),
            "offset": be.offset,
            "message": be.kind.to_string(),
        }),
        None => serde_json::json!({"file": label, "offset": null, "message": crate::one_line(e)}),
    }
}

#[cfg(test)]
mod tests {
    use super::name_groups;

    #[test]
    fn documents_whose_names_can_meet_share_a_group() {
        let stems: Vec<String> = ["a_b", "x", "a", "a_b_c", "ab", "a_c", "b_c"].iter().map(|s| s.to_string()).collect();
        // `a` starts `a_b`, `a_b_c`, `a_c`; `ab` and `b_c` start with no stem followed by `_`.
        assert_eq!(name_groups(&stems), [2, 1, 2, 2, 4, 2, 6]);
        // A stem given twice, or again in another case, is one group (their names meet, on a
        // file system that does not tell case too).
        let stems: Vec<String> =
            ["object_oA10", "b", "object_oa10", "B_x", "b"].iter().map(|s| s.to_string()).collect();
        assert_eq!(name_groups(&stems), [0, 1, 0, 1, 1]);
    }
}
