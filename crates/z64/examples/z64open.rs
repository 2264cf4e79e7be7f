//! The cost of opening: `z64open open N FILE...` reads the files once and opens them N times
//! (each open takes a fresh copy of the bytes, as a caller's `Vec` would be moved in);
//! `z64open clone N FILE...` makes only the copies. Run both under
//! `valgrind --tool=callgrind` and subtract for the instructions of N opens.
//!
//! `z64open folder N DIR` opens every file of DIR the family claims (companions skipped), one
//! by one as the pipeline bench's `corpus_decode` does, each with the companions it asks for
//! (found beforehand, so the open only copies them); `z64open folderclone N DIR` makes only
//! the copies (the bench's `corpus_memcpy_floor`).
use boneyard_core::family::{Family, InputFile, NoCompanions, Score};
use boneyard_core::{Companions, MemoryCompanions};
use std::path::Path;
use std::sync::Mutex;

/// A resolver that keeps what it handed out.
struct Recording<'a> {
    inner: &'a MemoryCompanions,
    found: Mutex<Vec<InputFile>>,
}

impl Companions for Recording<'_> {
    fn find(&self, beside: &Path, names: &[&str]) -> boneyard_core::Result<Option<InputFile>> {
        let f = self.inner.find(beside, names)?;
        if let Some(f) = &f {
            self.found.lock().expect("not poisoned").push(f.clone());
        }
        Ok(f)
    }
}

fn folder(dir: &Path) -> Vec<(InputFile, MemoryCompanions)> {
    let mut paths: Vec<_> = std::fs::read_dir(dir).expect("a folder").map(|e| e.expect("an entry").path()).collect();
    paths.sort();
    let files: Vec<InputFile> =
        paths.iter().filter(|p| p.is_file()).map(|p| InputFile::read(p).expect("read")).collect();
    let all = MemoryCompanions::new(files.clone());
    let mut units = Vec::new();
    for file in files {
        let z = boneyard_z64::Z64;
        if z.probe(&file.path, &file.data) == Score::No || z.is_companion(&file.path, &file.data) {
            continue;
        }
        let rec = Recording { inner: &all, found: Default::default() };
        let _ = z.open(vec![file.clone()], &Default::default(), &rec);
        units.push((file, MemoryCompanions::new(rec.found.into_inner().expect("not poisoned"))));
    }
    units
}

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: z64open open|clone|folder|folderclone N FILE...|DIR";
    let mode = args.next().expect(usage);
    let n: usize = args.next().and_then(|a| a.parse().ok()).expect(usage);
    if mode.starts_with("folder") {
        let units = folder(Path::new(&args.next().expect(usage)));
        for _ in 0..n {
            for (file, companions) in &units {
                if mode == "folder" {
                    let doc = boneyard_z64::Z64.open(vec![file.clone()], &Default::default(), companions);
                    let _ = std::hint::black_box(doc);
                } else {
                    std::hint::black_box(file.data.clone());
                    for c in &companions.files {
                        std::hint::black_box(c.data.clone());
                    }
                }
            }
        }
        return;
    }
    let files: Vec<InputFile> = args.map(|p| InputFile::read(Path::new(&p)).expect("read")).collect();
    for _ in 0..n {
        let copy = files.clone();
        if mode == "open" {
            let doc = boneyard_z64::Z64.open(copy, &Default::default(), &NoCompanions);
            std::hint::black_box(&doc.expect("open"));
        } else {
            std::hint::black_box(&copy);
        }
    }
}
