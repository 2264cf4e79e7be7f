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
