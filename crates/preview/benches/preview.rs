//! Animated previews of a real textured model (`object_dekunuts`, from `../shared/data`, or
//! `$BONEYARD_DATA`): one frame drawn, and a whole clip (18 frames) to GIF and to APNG at the
//! CLI's default size, 480 x 480.
//!
//!   cargo bench -p boneyard-preview --bench preview
use boneyard_core::family::{Family, InputFile};
use boneyard_core::{testdata, Document};
use boneyard_preview::RenderOptions;
use divan::black_box;

fn main() {
    divan::main();
}

/// The Deku Scrub and the CLI's preview options, or None (the rows skip) without the data.
fn dekunuts() -> Option<(Box<dyn Document>, RenderOptions)> {
    let path = testdata::shared_data("z64/oot-gc-eu-mq-dbg/object_dekunuts", "bench")?;
    let file = InputFile::read(&path).expect("read");
    let doc = boneyard_z64::Z64.open(vec![file], &Default::default(), &boneyard_core::NoCompanions).expect("open");
    Some((doc, RenderOptions { width: 480, height: 480, ..Default::default() }))
}

#[divan::bench(sample_count = 10)]
fn render_frame(bencher: divan::Bencher) {
    let Some((doc, o)) = dekunuts() else { return };
    bencher.bench_local(|| black_box(boneyard_preview::render(&*doc, 0, Some(0), 9.0, &o).expect("render")));
}

#[divan::bench(sample_count = 10)]
fn gif_clip(bencher: divan::Bencher) {
    let Some((doc, o)) = dekunuts() else { return };
    bencher.bench_local(|| black_box(boneyard_preview::gif(&*doc, 0, 0, &o).expect("gif")));
}

#[divan::bench(sample_count = 10)]
fn apng_clip(bencher: divan::Bencher) {
    let Some((doc, o)) = dekunuts() else { return };
    bencher.bench_local(|| black_box(boneyard_preview::apng(&*doc, 0, 0, &o).expect("apng")));
}
