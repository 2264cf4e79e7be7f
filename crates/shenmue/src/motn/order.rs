//! The order of the sequence table's entries by the offset they point at, for the open: a
//! stable radix sort on the offsets instead of a comparison sort of (offset, entry) keys.
//! `MOTION.BIN`'s 1,559 entries are sorted twice (data and action metadata offsets), and the
//! comparison sorts were a tenth of the open's one-thread work; the offsets take two or
//! three byte passes.

/// Sort `keys` by their high 32 bits (an offset), keeping the order of keys with the same
/// offset: when the low 32 bits (the entry) ascend in `keys`, the result is exactly
/// `keys.sort_unstable()`. `scratch` is reused between calls.
pub(super) fn sort_by_offset(keys: &mut Vec<u64>, scratch: &mut Vec<u64>) {
    // The bits that differ between keys: a byte of the offset where all agree needs no pass.
    let (any, all) = keys.iter().fold((0u64, u64::MAX), |(any, all), &k| (any | k, all & k));
    let varying = (any ^ all) >> 32;
    for shift in [32u32, 40, 48, 56] {
        if (varying >> (shift - 32)) & 0xFF == 0 {
            continue;
        }
        let mut counts = [0usize; 256];
        for &k in keys.iter() {
            counts[(k >> shift) as usize & 0xFF] += 1;
        }
        let mut at = 0;
        for c in counts.iter_mut() {
            (*c, at) = (at, at + *c);
        }
        // Every slot is written below (the counts partition the keys): no zeroing is needed
        // once the scratch has grown.
        if scratch.len() < keys.len() {
            scratch.resize(keys.len(), 0);
        }
        scratch.truncate(keys.len());
        for &k in keys.iter() {
            let slot = &mut counts[(k >> shift) as usize & 0xFF];
            // `counts` are the starts of each digit's run; they sum to `keys.len()`.
            if let Some(s) = scratch.get_mut(*slot) {
                *s = k;
            }
            *slot += 1;
        }
        std::mem::swap(keys, scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::sort_by_offset;

    /// The same order as the comparison sort of (offset, entry) keys, on seeded tables:
    /// repeated offsets, offsets that differ only in one byte, all alike, empty, up to u32::MAX.
    #[test]
    fn the_order_is_the_comparison_sorts() {
        let mut rng = boneyard_core::testdata::XorShift64(0x05EE_D0FF_5E7A_u64);
        let mut scratch = Vec::new();
        for round in 0..2_000 {
            let n = (rng.next_u64() % 300) as usize;
            let spread = [1u64, 7, 256, 65_536, 1 << 24, 1 << 32][round % 6];
            let base = rng.next_u64() % (1 << 32);
            let keys: Vec<u64> = (0..n)
                .map(|i| {
                    let offset = (base + rng.next_u64() % spread) & 0xFFFF_FFFF;
                    offset << 32 | i as u64
                })
                .collect();
            let mut expected = keys.clone();
            expected.sort_unstable();
            let mut got = keys;
            sort_by_offset(&mut got, &mut scratch);
            assert_eq!(got, expected, "round {round}");
        }
    }
}
