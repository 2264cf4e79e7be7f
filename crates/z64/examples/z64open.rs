//! The cost of opening: `z64open open N FILE...` reads the files once and opens them N times
//! (each open takes a fresh copy of the bytes, as a caller's `Vec` would be moved in);
//! `z64open clone N FILE...` makes only the copies. Run both under
//! `valgrind --tool=callgrind` and subtract for the instructions of N opens.
use boneyard_core::family::{Family, InputFile, NoCompanions};

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: z64open open|clone N FILE...";
    let mode = args.next().expect(usage);
    let n: usize = args.next().and_then(|a| a.parse().ok()).expect(usage);
    let files: Vec<InputFile> = args.map(|p| InputFile::read(std::path::Path::new(&p)).expect("read")).collect();
    for _ in 0..n {
        let copy = files.clone();
        if mode == "open" {
            let doc = boneyard_z64::Z64.open(copy, &Default::default(), &NoCompanions).expect("open");
            std::hint::black_box(&doc);
        } else {
            std::hint::black_box(&copy);
        }
    }
}
