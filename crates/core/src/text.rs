//! Names: numbers written into names without the formatting machinery (the families name
//! every animation, mesh and scanned record of a document this way, thousands on a whole level
//! or object folder, where `format!` cost more than the reading it named), and a file's name
//! without its folders.

/// `n` and the noun for it: "1 frame", "2 frames" (messages count things of any number).
pub fn counted(n: impl std::fmt::Display + PartialEq<usize>, one: &str, many: &str) -> String {
    let noun = if n == 1 { one } else { many };
    format!("{n} {noun}")
}

/// Appends `v`'s decimal digits, zero-padded to at least `min_width`: what
/// `write!(s, "{v:0min_width$}")` appends.
#[inline]
pub fn push_decimal(s: &mut String, v: u64, min_width: usize) {
    // A u64 has at most 20 decimal digits, written from the end.
    let mut digits = [b'0'; 20];
    let (mut n, mut v) = (0, v);
    while v > 0 || n == 0 {
        digits[19 - n] = b'0' + (v % 10) as u8;
        v /= 10;
        n += 1;
    }
    push_padded(s, &digits[20 - n..], min_width);
}

/// Appends `v`'s upper-case hex digits, zero-padded to at least `min_digits`: what
/// `write!(s, "{v:0min_digits$X}")` appends.
#[inline]
pub fn push_hex(s: &mut String, v: u64, min_digits: usize) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let n = ((64 - v.leading_zeros()).div_ceil(4) as usize).max(1);
    let mut digits = [0u8; 16];
    for (i, d) in digits[16 - n..].iter_mut().rev().enumerate() {
        *d = HEX[((v >> (4 * i)) & 0xF) as usize];
    }
    push_padded(s, &digits[16 - n..], min_digits);
}

/// Appends zeros up to `min_width` characters in all, then `digits` (ASCII digits).
#[inline]
fn push_padded(s: &mut String, digits: &[u8], min_width: usize) {
    s.reserve(digits.len().max(min_width));
    for _ in digits.len()..min_width {
        s.push('0');
    }
    // ASCII digits by construction.
    s.push_str(std::str::from_utf8(digits).unwrap_or_default());
}

/// `path` (a file's name as given) without its folders: what a document's `source` fields and
/// outputs name, the same wherever the file lies. `path` itself when it ends in no file name.
pub fn file_name(path: &str) -> &str {
    std::path::Path::new(path).file_name().and_then(|n| n.to_str()).unwrap_or(path)
}

/// `s` with its control characters (newlines, tabs, escapes) written as Rust escapes (`\n`),
/// for output read line by line: a name from a file (or a file's own name) holding a newline
/// made a line of its own, such as a forged `all: hash=` in `check`. Borrowed when there is
/// none, as in every real file.
pub fn escape_controls(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert!(matches!(escape_controls("gDekuNutsSpitAnim ä"), std::borrow::Cow::Borrowed(_)));
        assert_eq!(escape_controls("evil\nall: hash=deadbeef"), "evil\\nall: hash=deadbeef");
        assert_eq!(escape_controls("a\tb\r\u{1b}[2J"), "a\\tb\\r\\u{1b}[2J");
    }

    /// Both write what the formatter writes, at every digit count and widths below, at and
    /// above it.
    #[test]
    fn numbers_are_the_formatters() {
        let mut rng = crate::testdata::XorShift64(0xDEC);
        for shift in 0..64 {
            let v = rng.next_u64() >> shift;
            for width in [0, 1, 2, 6, 21] {
                let mut s = String::from("x#");
                push_decimal(&mut s, v, width);
                assert_eq!(s, format!("x#{v:0width$}"));
                let mut s = String::from("x#");
                push_hex(&mut s, v, width);
                assert_eq!(s, format!("x#{v:0width$X}"));
            }
        }
        let (mut d, mut h) = (String::new(), String::new());
        push_decimal(&mut d, 0, 0);
        push_hex(&mut h, 0, 0);
        assert_eq!((d.as_str(), h.as_str()), ("0", "0"));
    }
}
