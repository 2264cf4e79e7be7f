//! `check`: walk every animation, one line each, and a CRC-32 over all lines.

use crate::document::Document;
use crate::error::{Error, Result};

/// `all: hash=XXXXXXXX`: CRC-32 (IEEE) over every line followed by '\n', lower-case hex.
pub fn hash_lines<S: AsRef<str>>(lines: &[S]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    for l in lines {
        h.update(l.as_ref().as_bytes());
        h.update(b"\n");
    }
    h.finalize()
}

/// Feed a float to a hasher by its bits (machine-independent, no formatting involved).
pub fn hash_f32(h: &mut crc32fast::Hasher, v: f32) {
    h.update(&v.to_bits().to_le_bytes());
}

/// Is `q` a unit quaternion within `tol`?
pub fn is_unit(q: glam::Quat, tol: f32) -> bool {
    q.is_finite() && (q.length() - 1.0).abs() <= tol
}

/// The generic check line: `index name frames=N fps=F bones=B crc=XXXXXXXX`, where the CRC
/// covers every bone's local translation and rotation at every frame. Fails when a sample is
/// not finite or a rotation is not a unit quaternion.
pub fn generic_lines<D: Document + ?Sized>(doc: &D) -> Result<Vec<String>> {
    let mut lines = Vec::with_capacity(doc.animations().len());
    for a in doc.animations() {
        let mut h = crc32fast::Hasher::new();
        for f in 0..a.frames {
            let s = doc.sample(a.index, f as f64)?;
            for (b, t) in s.locals.iter().enumerate() {
                if !is_unit(t.rotation, 1e-3) || !t.translation.is_finite() {
                    return Err(Error::invalid(
                        0,
                        format!(
                            "animation #{} {} frame {f} bone {b}: rotation {} is not a unit quaternion",
                            a.index, a.name, t.rotation
                        ),
                    ));
                }
                for v in t.translation.to_array().into_iter().chain(t.rotation.to_array()) {
                    hash_f32(&mut h, v);
                }
            }
        }
        lines.push(format!(
            "{} {} frames={} fps={} bones={} crc={:08x}",
            a.index,
            a.name,
            a.frames,
            a.fps,
            a.bones,
            h.finalize()
        ));
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_crc32_of_lines_with_newlines() {
        // Values from an independent CRC-32 (IEEE) implementation, zlib's
        // (`python3 -c 'import zlib; print(hex(zlib.crc32(b"a\nb\n")))'`), not from crc32fast:
        // each line is followed by '\n', nothing else is hashed.
        assert_eq!(hash_lines(&["a", "b"]), 0x18572a97);
        assert_eq!(hash_lines(&["12345678"]), 0x74245830);
        // The empty input hashes to the CRC's initial value after final XOR: 0.
        assert_eq!(hash_lines::<&str>(&[]), 0);
        // The hasher is CRC-32/ISO-HDLC (the IEEE CRC of zlib and PNG): its published check
        // value is CRC("123456789") = 0xCBF43926 (the catalogue of parametrised CRCs).
        let mut h = crc32fast::Hasher::new();
        h.update(b"123456789");
        assert_eq!(h.finalize(), 0xcbf43926);
    }
}
