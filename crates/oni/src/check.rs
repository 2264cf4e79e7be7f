//! `check`: one line per animation, then one per file, as the seed's `tram_test`.

use crate::document::OniDocument;
use crate::keys::is_unit;
use crate::tram::Tram;
use boneyard_core::{limit, Budget, Error, Result};
use rayon::prelude::*;

// `check` decodes at most `Limits::max_check_rotations` rotations (frames × parts over all
// animations). A retail level has a few million; the memory limit on the animations alone lets
// a small file declare over 10⁹ (hundreds of 65535-frame, 32-part TRAMs whose parts share one
// stream).

/// Check lines. Per animation (in `list` order):
///
/// ```text
/// <index> <name> frames=<F> bones=<B> key=<K> type=<T> from=<S> to=<S> streams=<c0>,<c1>,...,<cB-1> motion=<m> heights=<h>
/// ```
///
/// * `<index>`: position in `boneyard list`; `<name>`: instance name without "TRAM".
/// * `frames`, `bones`, `key` (bytes per rotation key), `type`, `from`, `to`: the struct's
///   fields 0x164, 0x162, 0x158, 0x15a, 0x15e, 0x160, in decimal.
/// * `streams`: for every part, the CRC-32 (IEEE, lower-case hex, 8 digits) of the part's
///   stream bytes as the engine walks them: first key, then gap byte and key, up to the key
///   on the last frame.
/// * `motion`: CRC-32 of the per-frame motion (x, z) as little-endian f32 bytes, frame order.
/// * `heights`: CRC-32 of the per-frame heights as little-endian f32 bytes.
///
/// Then, per file given: `file <file name> <VR31|VR32> instances=<N> TRAM=<n>` (file name
/// without directories). The CLI adds `all: hash=XXXXXXXX`, the CRC-32 of every line.
///
/// Decoded rotations are not hashed (the x87's precision is not reproduced bit for bit), but
/// every frame of every animation is decoded, and a rotation that is not a unit quaternion
/// (squared length outside (0.98, 1.02), the engine's `MUmQuat_VerifyUnit`) fails the check.
pub fn lines(doc: &OniDocument) -> Result<Vec<String>> {
    let mut out = Vec::new();
    // The whole walk is priced before any of it is done, so a refused check is immediate.
    let mut work = Budget::new(limit!(doc.files.limits, max_check_rotations), "rotations to decode");
    for (i, t) in doc.trams.iter().enumerate() {
        if work.spend((t.frames as u64).saturating_mul(t.parts as u64)).is_err() {
            // Named at the frame count of the TRAM that crosses the limit.
            let at = doc
                .instance_files()
                .iter()
                .find(|f| f.name == t.file)
                .and_then(|f| f.struct_offset(t.descriptor))
                .map_or(0, |o| o + crate::layout::tram::NUM_FRAMES as u64);
            let what = format!("rotations to decode in the animations up to #{i} {}", t.name);
            return Err(work.limit().error(at, work.spent(), what).in_file(&t.file));
        }
    }
    // Animations on rayon's threads, lines kept in list order.
    // The first failing animation in that order is the error, whichever thread met it first.
    let lines: Vec<Result<String>> = doc.trams.par_iter().enumerate().map(|(i, t)| tram_line(i, t)).collect();
    for line in lines {
        out.push(line?);
    }
    for f in doc.instance_files() {
        let base =
            std::path::Path::new(&f.name).file_name().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
        out.push(format!(
            "file {base} {} instances={} TRAM={}",
            f.version.name(),
            f.descriptors.len(),
            f.with_tag(crate::layout::TRAM).count()
        ));
    }
    Ok(out)
}

/// One animation's line: every frame of every part decoded and verified unit, then the
/// CRC-32s of the streams and per-frame tracks.
fn tram_line(i: usize, t: &Tram) -> Result<String> {
    for p in 0..t.parts {
        if t.part_all_unit(p) {
            continue;
        }
        // The walk, collected, names the fault (the same values).
        for (f, q) in t.part_rotations(p)?.iter().enumerate() {
            if !is_unit(*q) {
                return Err(Error::invalid(
                    0,
                    format!("animation #{i} {} frame {f} part {p}: rotation {q:?} is not a unit quaternion", t.name),
                )
                .in_file(&t.file));
            }
        }
    }
    let streams: Vec<String> = (0..t.parts).map(|p| format!("{:08x}", crc32fast::hash(t.stream_bytes(p)))).collect();
    let mut m = crc32fast::Hasher::new();
    for v in &t.velocities {
        m.update(&v[0].to_le_bytes());
        m.update(&v[1].to_le_bytes());
    }
    let mut h = crc32fast::Hasher::new();
    for v in &t.heights {
        h.update(&v.to_le_bytes());
    }
    Ok(format!(
        "{i} {} frames={} bones={} key={} type={} from={} to={} streams={} motion={:08x} heights={:08x}",
        t.name,
        t.frames,
        t.parts,
        t.key_size,
        t.kind,
        t.from_state,
        t.to_state,
        streams.join(","),
        m.finalize(),
        h.finalize()
    ))
}
