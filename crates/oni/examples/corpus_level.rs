//! Writes the synthetic CD-scale level (`boneyard_oni::corpus_level`) for measuring the
//! CLI on it: `cargo run --release -p boneyard-oni --example corpus_level -- OUT_DIR [TRAMS FRAMES]`.
use boneyard_oni::{corpus_level, CorpusShape};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = std::path::PathBuf::from(args.next().ok_or("usage: corpus_level OUT_DIR [TRAMS FRAMES]")?);
    let mut shape = CorpusShape::CD;
    if let (Some(t), Some(f)) = (args.next(), args.next()) {
        shape.trams = t.parse()?;
        shape.frames = f.parse()?;
    }
    let (dat, raw) = corpus_level(shape)?;
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join("level1_corpus.dat"), &dat)?;
    std::fs::write(dir.join("level1_corpus.raw"), &raw)?;
    println!("{} TRAMs, {} frames: {} + {} bytes", shape.trams, shape.frames, dat.len(), raw.len());
    Ok(())
}
