//! `check`: one line per animation, then one per file, as the seed's `tram_test`.

use crate::document::OniDocument;
use crate::keys::is_unit;
use crate::tram::Tram;
use boneyard_core::{limit, Budget, Result};
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
                return Err(t.not_unit(p, f, *q, &format!("animation #{i} {}", t.name)));
            }
        }
    }
    // Written into one string (the same text as `{:08x}` joined by commas): `check` makes
    // one line per animation of a level, and a `String` per part was most of its formatting.
    let mut line = format!(
        "{i} {} frames={} bones={} key={} type={} from={} to={} streams=",
        t.name, t.frames, t.parts, t.key_size, t.kind, t.from_state, t.to_state
    );
    for p in 0..t.parts {
        if p > 0 {
            line.push(',');
        }
        push_hex8(&mut line, crc32fast::hash(t.stream_bytes(p)));
    }
    line.push_str(" motion=");
    push_hex8(&mut line, crc_le_f32(t.velocities.iter().flatten().copied()));
    line.push_str(" heights=");
    push_hex8(&mut line, crc_le_f32(t.heights.iter().copied()));
    Ok(line)
}

/// `value` as `{:08x}` does: eight lower-case hex digits.
fn push_hex8(out: &mut String, value: u32) {
    for shift in (0..8).rev() {
        let nibble = (value >> (shift * 4)) & 0xF;
        out.push(char::from_digit(nibble, 16).unwrap_or('0'));
    }
}

/// CRC-32 of `values` as consecutive little-endian f32 bytes, fed to the hasher a buffer at a
/// time (the CRC of the whole byte string; one `update` per float was a call per 4 bytes).
fn crc_le_f32(values: impl Iterator<Item = f32>) -> u32 {
    let mut h = crc32fast::Hasher::new();
    let mut buf = [0u8; 1024];
    let mut n = 0;
    for v in values {
        buf[n..n + 4].copy_from_slice(&v.to_le_bytes());
        n += 4;
        if n == buf.len() {
            h.update(&buf);
            n = 0;
        }
    }
    h.update(&buf[..n]);
    h.finalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand-written hex and the buffered CRC are `{:08x}` and the per-value CRC.
    #[test]
    fn hex_and_buffered_crc_are_the_plain_ones() {
        for v in [0u32, 1, 0xdead_beef, 0x0012_3abc, u32::MAX] {
            let mut s = String::new();
            push_hex8(&mut s, v);
            assert_eq!(s, format!("{v:08x}"));
        }
        for n in [0usize, 1, 255, 256, 257, 1000] {
            let values: Vec<f32> = (0..n).map(|i| i as f32 * 0.37 - 5.0).collect();
            let mut h = crc32fast::Hasher::new();
            for v in &values {
                h.update(&v.to_le_bytes());
            }
            assert_eq!(crc_le_f32(values.iter().copied()), h.finalize(), "{n} values");
        }
    }
}
