//! Bad input gives a clear error naming the file and the byte offset: each invariant broken
//! on purpose in a small file made by the encoder.

use boneyard_core::{ErrorKind, InputFile};
use boneyard_oni::layout::tram as t;
use boneyard_oni::open_files;
use boneyard_oni::{new_tram, rotation_block, tram_instance, write_level, write_oni};

/// A 2-part, 3-frame TRAM .oni; returns the file and the file offset of the struct.
fn tiny() -> (Vec<u8>, usize) {
    let mut tr = new_tram("tiny", 6, 2, 3);
    let id = [0.0, 0.0, 0.0, 1.0];
    let (r, s) = rotation_block(6, 3, &[vec![(0, id), (2, id)], vec![(0, id), (1, id), (2, id)]]).unwrap();
    tr.rotations = r.into();
    tr.streams = s;
    let f = write_oni(&[tram_instance(&tr).unwrap()]).unwrap();
    let data_block = u32::from_le_bytes(f[0x20..0x24].try_into().unwrap()) as usize;
    (f, data_block + 8)
}

fn raw_base(f: &[u8]) -> usize {
    u32::from_le_bytes(f[0x30..0x34].try_into().unwrap()) as usize
}

fn err(f: Vec<u8>) -> boneyard_core::Error {
    match open_files(vec![InputFile::new("/nonexistent/bad.oni", f)]) {
        Ok(_) => panic!("should fail"),
        Err(e) => e,
    }
}

fn put16(f: &mut [u8], at: usize, v: u16) {
    f[at..at + 2].copy_from_slice(&v.to_le_bytes());
}
fn put32(f: &mut [u8], at: usize, v: u32) {
    f[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn good_file_opens() {
    let (f, _) = tiny();
    let doc = open_files(vec![InputFile::new("/nonexistent/ok.oni", f)]).unwrap();
    assert_eq!(doc.trams()[0].frames, 3);
}

#[test]
fn unknown_key_size() {
    let (mut f, s) = tiny();
    put16(&mut f, s + t::COMPRESSION, 5);
    let e = err(f);
    assert_eq!(e.offset, Some((s + t::COMPRESSION) as u64));
    assert!(e.to_string().contains("bad.oni") && e.to_string().contains("key size 5"), "{e}");
}

#[test]
fn gaps_overrun_the_frames() {
    let (mut f, s) = tiny();
    // Part 0's only gap (after its first 6-byte key) says 5 where 2 frames remain.
    let rot = raw_base(&f) + u32::from_le_bytes(f[s + t::ROTATIONS..s + t::ROTATIONS + 4].try_into().unwrap()) as usize;
    let p0 = rot + u16::from_le_bytes([f[rot], f[rot + 1]]) as usize;
    f[p0 + 6] = 5;
    let e = err(f);
    assert_eq!(e.offset, Some((p0 + 6) as u64));
    assert!(e.to_string().contains("part 0") && e.to_string().contains("overruns"), "{e}");
}

#[test]
fn fewer_frames_than_the_gaps() {
    let (mut f, s) = tiny();
    put16(&mut f, s + t::NUM_FRAMES, 2);
    let e = err(f);
    assert!(e.to_string().contains("must add up to frames - 1 = 1"), "{e}");
}

#[test]
fn more_frames_than_the_gaps() {
    let (mut f, s) = tiny();
    put16(&mut f, s + t::NUM_FRAMES, 40);
    let e = err(f);
    // The heights array of 40 frames no longer fits, or the streams end early.
    assert!(e.offset.is_some() && e.to_string().contains("bad.oni"), "{e}");
}

#[test]
fn stream_offset_past_the_end() {
    let (mut f, s) = tiny();
    let rot = raw_base(&f) + u32::from_le_bytes(f[s + t::ROTATIONS..s + t::ROTATIONS + 4].try_into().unwrap()) as usize;
    put16(&mut f, rot + 2, 0xfff0);
    let e = err(f);
    assert_eq!(e.offset, Some((rot + 2) as u64));
    assert!(e.to_string().contains("part 1's stream offset"), "{e}");
}

#[test]
fn raw_offset_past_the_end() {
    let (mut f, s) = tiny();
    put32(&mut f, s + t::HEIGHTS, 0x7fff_0000);
    let e = err(f);
    assert_eq!(e.offset, Some((s + t::HEIGHTS) as u64));
    assert!(e.to_string().contains("past the end of the raw data"), "{e}");
}

#[test]
fn zero_parts_and_frames() {
    let (mut f, s) = tiny();
    put16(&mut f, s + t::NUM_PARTS, 0);
    assert!(err(f).to_string().contains("0 parts"));
    let (mut f, s) = tiny();
    put16(&mut f, s + t::NUM_FRAMES, 0);
    assert!(err(f).to_string().contains("no frames"));
}

#[test]
fn wrong_version_and_truncated_header() {
    let (mut f, _) = tiny();
    f[8..12].copy_from_slice(b"43RV");
    // No longer looks like an instance file at all.
    assert!(err(f).to_string().contains("not an Oni instance file"));
    let (f, _) = tiny();
    let e = boneyard_oni::InstanceFile::parse("short.oni", f[..0x30].to_vec(), None, None).unwrap_err();
    assert!(e.to_string().contains("short.oni") && e.to_string().contains("too short"), "{e}");
    let mut g = f.clone();
    g[8..12].copy_from_slice(b"43RV");
    let e = boneyard_oni::InstanceFile::parse("v.oni", g, None, None).unwrap_err();
    assert_eq!(e.offset, Some(8));
}

#[test]
fn descriptor_outside_the_data_block() {
    let (mut f, _) = tiny();
    put32(&mut f, 0x40 + 4, 0x10_0000); // data offset of instance 0
    let e = err(f);
    assert_eq!(e.offset, Some(0x44));
    assert!(e.to_string().contains("outside the data block"), "{e}");
}

#[test]
fn link_out_of_range() {
    // A TRAM's direct-animation link pointing at descriptor 9 of 1.
    let (mut f, s) = tiny();
    put32(&mut f, s + t::DIRECT_ANIMATIONS, (9 << 8) | 1);
    // Direct animation links are only named; a body link out of range is an error:
    let doc = open_files(vec![InputFile::new("/nonexistent/ok.oni", f)]).unwrap();
    assert_eq!(doc.trams()[0].direct_animations[0], None);
    let files = boneyard_oni::Files::new(doc.instance_files().to_vec());
    let e = files.resolve(0, (9 << 8) | 1, 0x1234).unwrap_err();
    assert_eq!(e.offset, Some(0x1234));
    assert!(e.to_string().contains("not (index << 8) | 1"), "{e}");
}

#[test]
fn level_without_its_raw() {
    let (f, _) = tiny();
    let doc = open_files(vec![InputFile::new("/nonexistent/ok.oni", f)]).unwrap();
    let inst: Vec<_> = doc.trams().iter().map(|t| tram_instance(t).unwrap()).collect();
    let (dat, raw) = write_level(&inst, 3).unwrap();
    // Without it: the TRAM is left out with a warning naming it, file and offset.
    let alone = open_files(vec![InputFile::new("/nonexistent/lvl.dat", dat.clone())]).unwrap();
    assert!(alone.trams().is_empty());
    let w = boneyard_core::Document::warnings(&alone);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].message.contains("not found beside the .dat") && w[0].message.starts_with("TRAM "), "{w:?}");
    assert_eq!((w[0].file.as_str(), w[0].offset.is_some()), ("/nonexistent/lvl.dat", true));
    // A truncated .raw: the error names the .raw.
    let e = match open_files(vec![
        InputFile::new("/nonexistent/lvl.dat", dat),
        InputFile::new("/nonexistent/lvl.raw", raw[..raw.len() - 8].to_vec()),
    ]) {
        Err(e) => e,
        Ok(_) => panic!(),
    };
    assert!(e.to_string().contains("lvl.raw"), "{e}");
    assert!(matches!(e.kind, ErrorKind::Invalid(_) | ErrorKind::Truncated { .. }));
}

/// probe: the VR31/VR32 header whatever the name (Magic); a .raw/.sep by its extension,
/// Structure when it starts with a raw file's 32 zero bytes, whether or not a .dat is beside
/// it (probes do no I/O); anything else no, and never a panic on short input.
#[test]
fn probe_magic_first_extension_second() {
    use boneyard_core::{Family, Score};
    use std::path::Path;
    let (f, _) = tiny();
    let oni = boneyard_oni::Oni;
    assert_eq!(oni.probe(Path::new("anything.bin"), &f), Score::Magic);
    assert_eq!(oni.probe(Path::new("x.oni"), b"not an oni file at all, just text....."), Score::No);
    assert_eq!(oni.probe(Path::new("x.dat"), &f[..10]), Score::No);
    assert_eq!(oni.probe(Path::new("x.dat"), &[]), Score::No);
    assert_eq!(oni.probe(Path::new("/nonexistent/level1_Final.raw"), &[0u8; 64]), Score::Structure);
    assert_eq!(oni.probe(Path::new("/nonexistent/level1_Final.SEP"), &[1u8; 64]), Score::Extension);
    assert_eq!(oni.probe(Path::new("/nonexistent/level1_Final.raw"), &[0u8; 8]), Score::Extension);
    assert_eq!(oni.probe(Path::new("/nonexistent/x.txt"), &[0u8; 64]), Score::No);
}
