//! The cost of opening: `z64open open N FILE...` reads the files once and opens them N times
//! (each open takes a fresh copy of the bytes, as a caller's `Vec` would be moved in);
//! `z64open clone N FILE...` makes only the copies. Run both under
//! `valgrind --tool=callgrind` and subtract for the instructions of N opens.
//!
//! `z64open folder N DIR` opens every file of DIR the family claims (companions skipped), one
//! by one as the pipeline bench's `corpus_decode` does, each with the companions it asks for
//! (found beforehand, so the open only copies them); `z64open folderclone N DIR` makes only
//! the copies (the bench's `corpus_memcpy_floor`). `z64open perfile N DIR` times each file's
//! open (N opens in a row) and prints the costliest (`NOMESH=1` with `folder` or `perfile`: no
//! display list drawn);
//! `z64open stats 1 DIR` counts what the opens make (skeletons, meshes, vertices, textures).
//! `z64open rom|romread|romclone N DIR` builds a retail-like ROM of DIR's files and opens it
//! (or reads its files, or copies it) N times; `ROM_OUT=FILE` also writes that ROM.
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

/// A retail-like ROM of the files of `dir` (as `z64open rom` describes), its size said.
fn test_rom(dir: &Path) -> Vec<u8> {
    let mut paths: Vec<_> = std::fs::read_dir(dir).expect("a folder").map(|e| e.expect("an entry").path()).collect();
    paths.sort();
    let files: Vec<Vec<u8>> = paths.iter().filter(|p| p.is_file()).map(|p| std::fs::read(p).expect("read")).collect();
    let t = std::time::Instant::now();
    let rom = boneyard_z64::build_retail_like_rom(&files);
    let bytes: usize = files.iter().map(|f| f.len()).sum();
    eprintln!(
        "ROM of {} files: {bytes} bytes in {} ({:.2} s to compress)",
        files.len(),
        rom.len(),
        t.elapsed().as_secs_f64()
    );
    rom
}

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: z64open open|clone|folder|folderclone|perfile N FILE...|DIR";
    let mode = args.next().expect(usage);
    let n: usize = args.next().and_then(|a| a.parse().ok()).expect(usage);
    if mode == "stats" {
        // What the folder's opens make: skeletons, meshes, vertices, triangles, texels.
        let units = folder(Path::new(&args.next().expect(usage)));
        let (mut skels, mut meshes, mut verts, mut tris, mut texels, mut textures, mut anims) = (0, 0, 0, 0, 0, 0, 0);
        for (file, companions) in &units {
            let Ok(doc) = boneyard_z64::Z64.open(vec![file.clone()], &Default::default(), companions) else { continue };
            anims += doc.animations().len();
            for s in doc.skeletons() {
                skels += 1;
                for m in &s.meshes {
                    meshes += 1;
                    verts += m.positions.len();
                    tris += m.indices.len() / 3;
                    if let Some(t) = &m.texture {
                        textures += 1;
                        texels += t.rgba.len() / 4;
                    }
                }
            }
        }
        println!("{skels} skeletons, {meshes} meshes, {verts} vertices, {tris} triangles, {textures} textures of {texels} texels, {anims} animations");
        return;
    }
    if mode == "rom" || mode == "romread" || mode == "romclone" {
        // A retail-like ROM of every file of DIR (Yaz0-compressed, no name table; the largest
        // file, link_animetion, stored early in the table as the game stores it), then N opens
        // of it (`rom`), N reads of its table and files alone (`romread`: `read_rom`), or N
        // copies of its bytes (`romclone`: the floor).
        let rom = test_rom(Path::new(&args.next().expect(usage)));
        if let Ok(out) = std::env::var("ROM_OUT") {
            // The ROM itself, for the CLI (`boneyard check`, `export`) to read.
            std::fs::write(&out, &rom).expect("write the ROM");
        }
        let limits = boneyard_core::Limits::default();
        let t = std::time::Instant::now();
        for _ in 0..n {
            let copy = rom.clone();
            match mode.as_str() {
                "rom" => {
                    let doc = boneyard_z64::Z64.open(
                        vec![InputFile::new("zelda.z64", copy)],
                        &Default::default(),
                        &NoCompanions,
                    );
                    std::hint::black_box(&doc.expect("open"));
                }
                "romread" => {
                    std::hint::black_box(&boneyard_z64::read_rom(&copy, &limits).expect("read"));
                }
                _ => {
                    std::hint::black_box(&copy);
                }
            }
        }
        println!("{mode}: {:.3} ms each", t.elapsed().as_secs_f64() * 1e3 / n.max(1) as f64);
        return;
    }
    // NOMESH=1: no display list drawn (the meshes' share of the time), for `perfile` and `folder`.
    let mut opts = boneyard_core::OpenOptions::default();
    if std::env::var_os("NOMESH").is_some() {
        opts.limits.max_document_commands = 0;
    }
    if mode == "perfile" {
        // Each file's open, timed over N opens: the costliest first.
        let units = folder(Path::new(&args.next().expect(usage)));
        let mut times: Vec<(f64, u64, String)> = units
            .iter()
            .map(|(file, companions)| {
                let t = std::time::Instant::now();
                for _ in 0..n {
                    let doc = boneyard_z64::Z64.open(vec![file.clone()], &opts, companions);
                    let _ = std::hint::black_box(doc);
                }
                let bytes = file.data.len() as u64 + companions.files.iter().map(|c| c.data.len() as u64).sum::<u64>();
                (t.elapsed().as_secs_f64() * 1e6 / n as f64, bytes, file.path.display().to_string())
            })
            .collect();
        let total: f64 = times.iter().map(|t| t.0).sum();
        times.sort_by(|a, b| b.0.total_cmp(&a.0));
        println!("total {total:.0} us");
        for (us, bytes, path) in times.iter().take(400) {
            println!("{us:9.1} us {bytes:9} B {path}");
        }
        return;
    }
    if mode.starts_with("folder") {
        let units = folder(Path::new(&args.next().expect(usage)));
        for _ in 0..n {
            for (file, companions) in &units {
                if mode == "folder" {
                    let doc = boneyard_z64::Z64.open(vec![file.clone()], &opts, companions);
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
