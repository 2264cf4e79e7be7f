//! The hashing of the crate's maps keyed by one or two words (a vertex address and a limb, a
//! file index and an address): the words folded into one, then the SplitMix64 finaliser of it
//! mixed with a seed drawn per map from the standard library's random keys. SipHash cost a
//! fifth of a mesh's decoding and much of the asset table's bookkeeping; the random seed keeps
//! what a file's chosen addresses cannot be made to collide in. Two words of 32 bits or less
//! fold without loss (the first rotated into the high half), so only the finaliser can merge
//! keys, as any 64-bit hash does.

/// A [`std::hash::BuildHasher`] for keys of one or two words (see the module).
#[derive(Debug, Clone, Copy)]
pub struct WordKeys {
    seed: u64,
}

impl Default for WordKeys {
    fn default() -> Self {
        use std::hash::BuildHasher;
        WordKeys { seed: std::collections::hash_map::RandomState::new().hash_one(0x5EED_u64) }
    }
}

impl std::hash::BuildHasher for WordKeys {
    type Hasher = WordKeyHasher;
    fn build_hasher(&self) -> WordKeyHasher {
        WordKeyHasher { seed: self.seed, state: 0 }
    }
}

/// See [`WordKeys`].
pub struct WordKeyHasher {
    seed: u64,
    state: u64,
}

impl WordKeyHasher {
    fn add(&mut self, v: u64) {
        self.state = self.state.rotate_left(32) ^ v;
    }
}

impl std::hash::Hasher for WordKeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }
    fn write_u32(&mut self, v: u32) {
        self.add(u64::from(v));
    }
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
    fn finish(&self) -> u64 {
        let mut z = (self.state ^ self.seed).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// A set of one- or two-word keys hashed by [`WordKeys`].
pub type WordSet<K> = std::collections::HashSet<K, WordKeys>;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// A set hashed by [`WordKeys`] holds what the standard one holds.
        #[test]
        fn word_sets_hold_what_std_sets_hold(
            keys in proptest::collection::vec((0usize..4, any::<u32>()), 0..200),
            probes in proptest::collection::vec((0usize..4, any::<u32>()), 0..50),
        ) {
            let mut ours = WordSet::default();
            let mut std_set = std::collections::HashSet::new();
            for &k in &keys {
                prop_assert_eq!(ours.insert(k), std_set.insert(k));
            }
            prop_assert_eq!(ours.len(), std_set.len());
            for k in probes.iter().chain(&keys) {
                prop_assert_eq!(ours.contains(k), std_set.contains(k));
            }
        }
    }
}
