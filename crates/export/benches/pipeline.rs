//! Speed of the whole pipeline on real files (when `../shared/data` is present) and on the
//! demo files of every family: open (decode), sample every frame of every animation with
//! the engine's own sampler, pose (engine world matrices), `check` (on all threads, on one,
//! and together with the open), and glTF export.
//!
//! `cargo bench -p boneyard-export --bench pipeline`. On a shared 2-core machine wall-clock
//! figures are noisy; compare runs on the same machine, or count instructions with callgrind.

use boneyard_core::{testdata, Document, Family, InputFile};
use std::hint::black_box;

fn main() {
    divan::main();
}

/// (label, family, files): real files first, then the demo encodings.
fn inputs() -> Vec<(String, &'static dyn Family, Vec<InputFile>)> {
    let mut out: Vec<(String, &'static dyn Family, Vec<InputFile>)> = Vec::new();
    let real: [(&str, &'static dyn Family, &[&str]); 4] = [
        ("oni_level1", &boneyard_oni::Oni, &["oni/level1_Final.dat"]),
        ("z64_dekunuts", &boneyard_z64::Z64, &["z64/oot-gc-eu-mq-dbg/object_dekunuts"]),
        (
            "z64_link",
            &boneyard_z64::Z64,
            &[
                "z64/oot-gc-eu-mq-dbg/object_link_boy",
                "z64/oot-gc-eu-mq-dbg/gameplay_keep",
                "z64/oot-gc-eu-mq-dbg/link_animetion",
            ],
        ),
        ("shenmue_motion", &boneyard_shenmue::Shenmue, &["shenmue/motion.bin"]),
    ];
    for (label, family, rels) in real {
        let paths: Option<Vec<_>> = rels.iter().map(|r| testdata::shared_data(r, "bench")).collect();
        if let Some(paths) = paths {
            out.push((label.into(), family, paths.iter().map(|p| InputFile::read(p).expect("read")).collect()));
        }
    }
    let families: [&'static dyn Family; 3] = [&boneyard_oni::Oni, &boneyard_z64::Z64, &boneyard_shenmue::Shenmue];
    for family in families {
        let files = family.demo_files().expect("demo files");
        let files = files.into_iter().map(|(n, b)| InputFile::new(std::env::temp_dir().join(n), b)).collect();
        out.push((format!("{}_demo", family.name()), family, files));
    }
    out
}

fn labels() -> Vec<String> {
    inputs().into_iter().map(|(l, _, _)| l).collect()
}

fn open(label: &str) -> Box<dyn Document> {
    let (_, family, files) = inputs().into_iter().find(|(l, _, _)| l == label).expect("known input");
    family.open(files, &Default::default(), &boneyard_core::DiskCompanions::default()).expect("open")
}

#[divan::bench(args = labels())]
fn decode(bencher: divan::Bencher, label: &str) {
    let (_, family, files) = inputs().into_iter().find(|(l, _, _)| l == label).expect("known input");
    bencher.with_inputs(|| files.clone()).bench_values(|f| {
        black_box(family.open(f, &Default::default(), &boneyard_core::DiskCompanions::default()).expect("open"))
    });
}

#[divan::bench(args = labels())]
fn sample_every_frame(bencher: divan::Bencher, label: &str) {
    let doc = open(label);
    bencher.bench(|| {
        for a in doc.animations() {
            for f in 0..a.frames {
                if let Ok(s) = doc.sample(a.index, f64::from(f)) {
                    black_box(s);
                }
            }
        }
    });
}

#[divan::bench(args = labels())]
fn pose_every_frame(bencher: divan::Bencher, label: &str) {
    let doc = open(label);
    bencher.bench(|| {
        for a in doc.animations() {
            let Some(sk) = a.skeleton else { continue };
            for f in 0..a.frames {
                if let Ok(m) = doc.pose(sk, Some(a.index), f64::from(f)) {
                    black_box(m);
                }
            }
        }
    });
}

#[divan::bench(args = labels())]
fn check(bencher: divan::Bencher, label: &str) {
    let doc = open(label);
    bencher.bench(|| black_box(doc.check().expect("check")));
}

/// `check` on one rayon thread: the work `check` shares out over the cores (the Shenmue
/// reader walks its distinct sequences in parallel).
#[divan::bench(args = labels())]
fn check_one_thread(bencher: divan::Bencher, label: &str) {
    let doc = open(label);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a one-thread pool");
    bencher.bench(|| pool.install(|| black_box(doc.check().expect("check"))));
}

/// Open and `check`, as `boneyard check FILE` does it (without the process start and the
/// printing): the row `scripts/bench-peers.sh` compares with new-yokosuka.
#[divan::bench(args = labels())]
fn open_and_check(bencher: divan::Bencher, label: &str) {
    let (_, family, files) = inputs().into_iter().find(|(l, _, _)| l == label).expect("known input");
    bencher.with_inputs(|| files.clone()).bench_values(|f| {
        black_box(
            family
                .open(f, &Default::default(), &boneyard_core::DiskCompanions::default())
                .expect("open")
                .check()
                .expect("check"),
        )
    });
}

#[divan::bench(args = labels(), sample_count = 5)]
fn export_glb(bencher: divan::Bencher, label: &str) {
    let doc = open(label);
    let anims: Vec<usize> = (0..doc.animations().len()).filter(|&a| doc.skeleton_for(a) == Some(0)).take(50).collect();
    bencher.bench(|| {
        black_box(boneyard_export::glb_skipping(doc.as_ref(), 0, &anims, &Default::default()).expect("export"))
    });
}

/// The floor for decoding: copying the input's bytes once (what any reader must at least
/// touch). `decode` over this is the "times the memcpy floor" figure of the README.
#[divan::bench(args = labels())]
fn memcpy_floor(bencher: divan::Bencher, label: &str) {
    let (_, _, files) = inputs().into_iter().find(|(l, _, _)| l == label).expect("known input");
    bencher.bench(|| {
        for f in &files {
            black_box(f.data.clone());
        }
    });
}

/// The input's bytes copied into buffers made (and written) beforehand: the memory's bandwidth
/// alone. A fresh copy (the floor) also pays for new memory, which for inputs of megabytes is
/// mostly the kernel mapping its pages; `scripts/bench-decode.sh` shows both ratios.
#[divan::bench(args = labels())]
fn memcpy_warm(bencher: divan::Bencher, label: &str) {
    let (_, _, files) = inputs().into_iter().find(|(l, _, _)| l == label).expect("known input");
    let mut into: Vec<Vec<u8>> = files.iter().map(|f| f.data.clone()).collect();
    bencher.bench_local(|| {
        for (to, f) in into.iter_mut().zip(&files) {
            to.copy_from_slice(&f.data);
        }
        black_box(&into);
    });
}

/// Every clip of the first skeleton in one glb (adult Link: 575 clips), as `export` writes it.
#[divan::bench(args = labels(), sample_count = 5)]
fn export_glb_every_clip(bencher: divan::Bencher, label: &str) {
    let doc = open(label);
    let anims: Vec<usize> = (0..doc.animations().len()).filter(|&a| doc.skeleton_for(a) == Some(0)).collect();
    bencher.bench(|| {
        black_box(boneyard_export::glb_skipping(doc.as_ref(), 0, &anims, &Default::default()).expect("export"))
    });
}

/// A level holding as many TRAMs and frames as the whole retail CD (8,604 TRAMs, 393,903 frames
/// of 19 parts), written by the project's own encoder (`boneyard_oni::corpus_level`).
fn cd_corpus() -> Vec<InputFile> {
    static LEVEL: std::sync::OnceLock<(Vec<u8>, Vec<u8>)> = std::sync::OnceLock::new();
    let (dat, raw) =
        LEVEL.get_or_init(|| boneyard_oni::corpus_level(boneyard_oni::CorpusShape::CD).expect("the corpus level"));
    vec![InputFile::new("level1_corpus.dat", dat.clone()), InputFile::new("level1_corpus.raw", raw.clone())]
}

/// The CD-scale corpus: open (every TRAM read and its streams walked).
#[divan::bench(sample_count = 10)]
fn oni_cd_corpus_decode(bencher: divan::Bencher) {
    bencher.with_inputs(cd_corpus).bench_values(|f| {
        black_box(
            boneyard_oni::Oni.open(f, &Default::default(), &boneyard_core::DiskCompanions::default()).expect("open"),
        )
    });
}

/// The CD-scale corpus: `check` (every frame of every part decoded, on all threads).
#[divan::bench(sample_count = 10)]
fn oni_cd_corpus_check(bencher: divan::Bencher) {
    let doc = boneyard_oni::Oni
        .open(cd_corpus(), &Default::default(), &boneyard_core::DiskCompanions::default())
        .expect("open");
    bencher.bench(|| black_box(doc.check().expect("check")));
}

/// The CD-scale corpus's bytes copied once (its decoding floor).
#[divan::bench(sample_count = 10)]
fn oni_cd_corpus_memcpy_floor(bencher: divan::Bencher) {
    let files = cd_corpus();
    bencher.bench(|| {
        for f in &files {
            black_box(f.data.clone());
        }
    });
}

/// [`oni_cd_corpus_memcpy_floor`] into buffers made beforehand (see [`memcpy_warm`]).
#[divan::bench(sample_count = 10)]
fn oni_cd_corpus_memcpy_warm(bencher: divan::Bencher) {
    let files = cd_corpus();
    let mut into: Vec<Vec<u8>> = files.iter().map(|f| f.data.clone()).collect();
    bencher.bench_local(|| {
        for (to, f) in into.iter_mut().zip(&files) {
            to.copy_from_slice(&f.data);
        }
        black_box(&into);
    });
}

/// One document of a whole folder, as `boneyard list FOLDER` opens it: a file and the
/// companions its family finds for it (read beforehand, so the row times decoding only).
struct CorpusUnit {
    family: &'static dyn Family,
    files: Vec<InputFile>,
    companions: boneyard_core::MemoryCompanions,
}

/// A companion resolver that keeps what it handed out: which bytes an open was given.
struct Recording<'a> {
    inner: &'a boneyard_core::MemoryCompanions,
    found: std::sync::Mutex<Vec<InputFile>>,
}

impl boneyard_core::Companions for Recording<'_> {
    fn find(&self, beside: &std::path::Path, names: &[&str]) -> boneyard_core::Result<Option<InputFile>> {
        let f = self.inner.find(beside, names)?;
        if let Some(f) = &f {
            self.found.lock().expect("not poisoned").push(f.clone());
        }
        Ok(f)
    }
}

/// The real folders decoded whole (`../shared/data`): every file a family claims, each opened
/// alone as a folder walk opens it (a companion file only beside the file it belongs to).
fn corpora() -> Vec<(&'static str, Vec<CorpusUnit>)> {
    let families: [&'static dyn Family; 3] = [&boneyard_oni::Oni, &boneyard_z64::Z64, &boneyard_shenmue::Shenmue];
    let folders = [("oni_files", "oni"), ("z64_objects", "z64/oot-gc-eu-mq-dbg"), ("z64_fan", "z64/fan")];
    let mut out = Vec::new();
    for (label, rel) in folders {
        let Some(dir) = testdata::shared_data(rel, "bench") else { continue };
        let mut paths: Vec<_> =
            std::fs::read_dir(&dir).expect("a folder").map(|e| e.expect("an entry").path()).collect();
        paths.sort();
        let files: Vec<InputFile> =
            paths.iter().filter(|p| p.is_file()).map(|p| InputFile::read(p).expect("read")).collect();
        let all = boneyard_core::MemoryCompanions::new(files.clone());
        let mut units = Vec::new();
        for file in files {
            let Some(family) = boneyard_core::best_family(&families, &file.path, &file.data) else { continue };
            if family.is_companion(&file.path, &file.data) {
                continue;
            }
            // The companions this open asks for, found once here so the timed open only copies them.
            let rec = Recording { inner: &all, found: Default::default() };
            let _ = family.open(vec![file.clone()], &Default::default(), &rec);
            let companions = boneyard_core::MemoryCompanions::new(rec.found.into_inner().expect("not poisoned"));
            units.push(CorpusUnit { family, files: vec![file], companions });
        }
        out.push((label, units));
    }
    out
}

fn corpus_labels() -> Vec<&'static str> {
    corpora().into_iter().map(|(l, _)| l).collect()
}

fn corpus(label: &str) -> Vec<CorpusUnit> {
    corpora().into_iter().find(|(l, _)| *l == label).expect("known corpus").1
}

/// A whole real folder opened file by file (a file that fails to open, as OniSplit's
/// `TRAMfixture_badlast.oni` does, counts with its error).
#[divan::bench(args = corpus_labels(), sample_count = 30)]
fn corpus_decode(bencher: divan::Bencher, label: &str) {
    let units = corpus(label);
    bencher.with_inputs(|| units.iter().map(|u| u.files.clone()).collect::<Vec<_>>()).bench_values(|files| {
        for (u, f) in units.iter().zip(files) {
            let _ = black_box(u.family.open(f, &Default::default(), &u.companions));
        }
    });
}

/// [`corpus_decode`] with the files opened on rayon's threads, as `boneyard list DIR` and the
/// other batch commands open a folder (a document a file, as many at once as there are cores).
#[divan::bench(args = corpus_labels(), sample_count = 30)]
fn corpus_decode_threads(bencher: divan::Bencher, label: &str) {
    use rayon::prelude::*;
    let units = corpus(label);
    bencher.with_inputs(|| units.iter().map(|u| u.files.clone()).collect::<Vec<_>>()).bench_values(|files| {
        units.par_iter().zip(files).for_each(|(u, f)| {
            let _ = black_box(u.family.open(f, &Default::default(), &u.companions));
        });
    });
}

/// The floor of [`corpus_decode`]: every byte the opens are handed (each file, and each
/// companion as often as it is found) copied once.
#[divan::bench(args = corpus_labels(), sample_count = 30)]
fn corpus_memcpy_floor(bencher: divan::Bencher, label: &str) {
    let units = corpus(label);
    bencher.bench(|| units.iter().for_each(copy_inputs));
}

/// Every byte one open is handed (the file, and each companion it finds) copied into new memory.
fn copy_inputs(u: &CorpusUnit) {
    for f in u.files.iter().chain(&u.companions.files) {
        black_box(f.data.clone());
    }
}

/// [`corpus_memcpy_floor`] on rayon's threads, file by file as [`corpus_decode_threads`] opens
/// them: the floor the threaded decode is compared with.
#[divan::bench(args = corpus_labels(), sample_count = 30)]
fn corpus_memcpy_floor_threads(bencher: divan::Bencher, label: &str) {
    use rayon::prelude::*;
    let units = corpus(label);
    bencher.bench(|| units.par_iter().for_each(copy_inputs));
}

/// [`corpus_memcpy_floor`] into buffers made beforehand (see [`memcpy_warm`]).
#[divan::bench(args = corpus_labels(), sample_count = 30)]
fn corpus_memcpy_warm(bencher: divan::Bencher, label: &str) {
    let units = corpus(label);
    let from: Vec<&[u8]> =
        units.iter().flat_map(|u| u.files.iter().chain(&u.companions.files)).map(|f| &f.data[..]).collect();
    let mut into: Vec<Vec<u8>> = from.iter().map(|d| d.to_vec()).collect();
    bencher.bench_local(|| {
        for (to, d) in into.iter_mut().zip(&from) {
            to.copy_from_slice(d);
        }
        black_box(&into);
    });
}

/// A whole game's worth of Zelda objects as one ROM: the 207 OoT objects of `../shared/data`
/// (and the banks beside them) in a retail-like ROM (`boneyard_z64::build_retail_like_rom`:
/// Yaz0, no name table; 5.6 MB holding 7.8 MB), built once; no row without the data.
fn objects_rom() -> Option<&'static [u8]> {
    static ROM: std::sync::OnceLock<Option<Vec<u8>>> = std::sync::OnceLock::new();
    ROM.get_or_init(|| {
        let dir = testdata::shared_data("z64/oot-gc-eu-mq-dbg", "bench")?;
        let mut paths: Vec<_> =
            std::fs::read_dir(&dir).expect("a folder").map(|e| e.expect("an entry").path()).collect();
        paths.sort();
        let files: Vec<Vec<u8>> =
            paths.iter().filter(|p| p.is_file()).map(|p| std::fs::read(p).expect("read")).collect();
        Some(boneyard_z64::build_retail_like_rom(&files))
    })
    .as_deref()
}

fn rom_labels() -> Vec<&'static str> {
    objects_rom().map(|_| "z64_objects_rom").into_iter().collect()
}

/// The ROM opened whole, as `boneyard list zelda.z64` opens it: its table walked, every file
/// decompressed (on rayon's threads) and every object's skeletons, animations and meshes read.
#[divan::bench(args = rom_labels(), sample_count = 20)]
fn rom_decode(bencher: divan::Bencher, _label: &str) {
    let rom = objects_rom().expect("a label only with the ROM");
    bencher.with_inputs(|| vec![InputFile::new("zelda.z64", rom.to_vec())]).bench_values(|f| {
        black_box(boneyard_z64::Z64.open(f, &Default::default(), &boneyard_core::NoCompanions).expect("open"))
    });
}

/// The ROM's table walked and its files decompressed, nothing decoded (`read_rom`): the share
/// of [`rom_decode`] that is Yaz0.
#[divan::bench(args = rom_labels(), sample_count = 20)]
fn rom_read(bencher: divan::Bencher, _label: &str) {
    let rom = objects_rom().expect("a label only with the ROM");
    let limits = boneyard_core::Limits::default();
    bencher.bench(|| black_box(boneyard_z64::read_rom(rom, &limits).expect("read")));
}

/// The ROM's bytes copied once (its decoding floor).
#[divan::bench(args = rom_labels(), sample_count = 20)]
fn rom_memcpy_floor(bencher: divan::Bencher, _label: &str) {
    let rom = objects_rom().expect("a label only with the ROM");
    bencher.bench(|| black_box(rom.to_vec()));
}

/// [`rom_memcpy_floor`] into a buffer made beforehand (see [`memcpy_warm`]).
#[divan::bench(args = rom_labels(), sample_count = 20)]
fn rom_memcpy_warm(bencher: divan::Bencher, _label: &str) {
    let rom = objects_rom().expect("a label only with the ROM");
    let mut into = rom.to_vec();
    bencher.bench_local(|| {
        into.copy_from_slice(rom);
        black_box(&into);
    });
}
