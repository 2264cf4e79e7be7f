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
    /// Bytes (the packed keys of the memo maps, arrays of words written in one call): eight at
    /// a time, each word multiplied into the state (with more than two words the fold of
    /// [`WordKeyHasher::add`] would let words cancel), the last 1-7 zero-extended.
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut words = bytes.chunks_exact(8);
        for w in words.by_ref() {
            let mut b = [0u8; 8];
            b.copy_from_slice(w);
            self.state = (self.state.rotate_left(23) ^ u64::from_le_bytes(b)).wrapping_mul(K);
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            self.state =
                (self.state.rotate_left(23) ^ u64::from_le_bytes(b) ^ (rest.len() as u64) << 59).wrapping_mul(K);
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

/// A map keyed by words (one or two, or an array of them) hashed by [`WordKeys`].
pub type WordMap<K, V> = std::collections::HashMap<K, V, WordKeys>;

/// A map from keys `(u32, usize)` (a vertex address and a limb) to `u32` indices, only ever
/// added to and emptied: the index a display list's vertex has in its mesh. An open-addressed
/// table of one array (no control bytes, no deletions) whose emptying is a new generation
/// rather than a pass over the slots, hashed by multiplying by a random odd number and keeping
/// the product's top bits (a universal family: a file cannot choose addresses that collide
/// without knowing the number). The standard map's entry call cost more than the rest of a
/// vertex's decoding.
#[derive(Debug, Clone)]
pub struct WordIndex {
    /// Odd, from the document's [`WordKeys`] seed.
    multiplier: u64,
    /// Slots: key, value, and the generation that wrote them (an older one: empty). A power
    /// of two of them.
    slots: Vec<Slot>,
    /// 64 minus log2 of the slots: the product's top bits index a slot.
    shift: u32,
    generation: u32,
    len: usize,
}

#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    addr: u32,
    value: u32,
    generation: u32,
    limb: usize,
}

impl WordIndex {
    /// Slots of a new table: room for a group of 128 vertices before it grows (most groups
    /// hold at least a vertex cache's worth, 32).
    const FIRST_SLOTS: usize = 256;

    /// An empty index hashed with `keys`' seed.
    pub fn new(keys: WordKeys) -> Self {
        // Generation 0 marks the slots never written: the table's own start at 1.
        WordIndex {
            multiplier: keys.seed | 1,
            slots: vec![Slot::default(); Self::FIRST_SLOTS],
            shift: 64 - Self::FIRST_SLOTS.trailing_zeros(),
            generation: 1,
            len: 0,
        }
    }

    /// Slots allocated (what the table holds on to, emptied or not).
    pub fn slots(&self) -> usize {
        self.slots.len()
    }

    /// Keys held.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no key is held.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The first slot `(addr, limb)` is looked for in.
    fn home(&self, addr: u32, limb: usize) -> usize {
        // The two words folded (a limb index is far below 2^32: folding loses nothing there,
        // and keys are compared whole all the same).
        let key = (u64::from(addr) << 32) ^ limb as u64;
        (key.wrapping_mul(self.multiplier) >> self.shift) as usize
    }

    /// The value of `key`, inserting `value` for it when it is not held.
    #[inline]
    pub fn get_or_insert(&mut self, (addr, limb): (u32, usize), value: u32) -> u32 {
        // At most half full: a probe always meets an empty slot.
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(addr, limb);
        loop {
            let s = &mut self.slots[i];
            if s.generation != self.generation {
                *s = Slot { addr, value, generation: self.generation, limb };
                self.len += 1;
                return value;
            }
            if s.addr == addr && s.limb == limb {
                return s.value;
            }
            i = (i + 1) & mask;
        }
    }

    /// Every key gone (the slots kept).
    pub fn clear(&mut self) {
        self.len = 0;
        match self.generation.checked_add(1) {
            Some(g) => self.generation = g,
            // After 2^32 - 1 emptyings, the slots are really emptied once.
            None => {
                self.slots.fill(Slot::default());
                self.generation = 1;
            }
        }
    }

    /// Twice the slots, the keys held put in them again.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let bigger = vec![Slot::default(); 2 * self.slots.len()];
        let old = std::mem::replace(&mut self.slots, bigger);
        self.shift -= 1;
        let (generation, mask) = (self.generation, self.slots.len() - 1);
        for s in old.into_iter().filter(|s| s.generation == generation) {
            let mut i = self.home(s.addr, s.limb);
            while self.slots[i].generation == generation {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Emptied across the generations' wrap, the index holds nothing of before.
    #[test]
    fn word_index_empties_across_the_generation_wrap() {
        let mut index = WordIndex::new(WordKeys::default());
        index.generation = u32::MAX;
        assert_eq!(index.get_or_insert((1, 2), 5), 5);
        index.clear();
        assert_eq!((index.generation, index.len()), (1, 0));
        assert_eq!(index.get_or_insert((1, 2), 6), 6);
    }

    proptest! {
        /// A [`WordIndex`] answers what the standard map's `entry().or_insert()` answers, over
        /// rounds of inserts (growing past its first slots) and emptyings, keys often repeated.
        #[test]
        fn word_index_answers_what_std_maps_answer(
            rounds in proptest::collection::vec(
                proptest::collection::vec((0u32..64, 0usize..3), 0..300), 1..5),
        ) {
            let mut ours = WordIndex::new(WordKeys::default());
            for keys in rounds {
                let mut std_map = std::collections::HashMap::new();
                for (n, &(a, limb)) in keys.iter().enumerate() {
                    // Addresses of vertices: 16 bytes apart in segment 6.
                    let key = (0x0600_0000 | (16 * a), limb);
                    let next = n as u32;
                    prop_assert_eq!(ours.get_or_insert(key, next), *std_map.entry(key).or_insert(next));
                }
                prop_assert_eq!(ours.len(), std_map.len());
                ours.clear();
                prop_assert!(ours.is_empty());
            }
        }
    }

    proptest! {
        /// A map hashed by [`WordKeys`] keyed by arrays of words (as the memo maps are) holds
        /// what the standard one holds, keys differing in a word or two.
        #[test]
        fn word_maps_of_arrays_hold_what_std_maps_hold(
            keys in proptest::collection::vec((0usize..11, 0u32..3, 0u64..7), 0..200),
        ) {
            let mut ours: WordMap<([u32; 11], [u64; 7]), usize> = WordMap::default();
            let mut std_map = std::collections::HashMap::new();
            for (n, &(i, a, b)) in keys.iter().enumerate() {
                let mut k = ([7u32; 11], [9u64; 7]);
                k.0[i] = a;
                k.1[i % 7] = b;
                prop_assert_eq!(*ours.entry(k).or_insert(n), *std_map.entry(k).or_insert(n));
            }
            prop_assert_eq!(ours.len(), std_map.len());
        }
    }

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
