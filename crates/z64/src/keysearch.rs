//! The key search of `Keyframe_KeyCalc` and `Curve_Interpolate`, by bisection.
//!
//! Both walk a channel's keys from the first to the first key past the time asked for, and
//! interpolate between it and the key before. Sampled at every frame of a clip, that walk costs
//! frames × keys: a crafted channel of 30,000 keys and 32,767 frames took half a minute to
//! export. Keys need not be in order (the asset table names clips the scan would not take),
//! so the bisection is over each key's *reach*, the largest position from the run's second
//! key up to it: the first key whose position is past the time is the first whose reach is,
//! and reaches never decrease.

/// The reaches of runs of key positions, in one vector parallel to the keys: for each run
/// `(start, count)` of `runs`, `reach[start]` is `i16::MIN` (a search never stops at a run's
/// first key) and `reach[start + j]` the largest of `position(start + 1 ..= start + j)`.
pub(crate) fn reaches(
    len: usize,
    runs: impl Iterator<Item = (usize, usize)>,
    position: impl Fn(usize) -> i16,
) -> Vec<i16> {
    let mut reach = vec![i16::MIN; len];
    for (start, count) in runs {
        let mut most = i16::MIN;
        let end = (start + count).min(len);
        for (k, r) in reach.iter_mut().enumerate().take(end).skip(start + 1) {
            most = most.max(position(k));
            *r = most;
        }
    }
    reach
}

/// The index (1 ..= the run's length − 1) of the first key of a run, after its first, whose
/// position is past `x` (`x < position as f32`), given the run's reaches; the run's length
/// when there is none. `x` must not be NaN (the game's loop finds no key then, and callers
/// check the end keys first).
pub(crate) fn first_past(reach: &[i16], x: f32) -> usize {
    match reach.get(1..) {
        Some(rest) => 1 + rest.partition_point(|&m| m as f32 <= x),
        None => reach.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The bisection stops where the game's walk does, on keys in any order.
        #[test]
        fn bisection_stops_where_the_walk_does(
            positions in proptest::collection::vec(-40i16..40, 1..40),
            x in -50.0f32..50.0,
        ) {
            let reach = reaches(positions.len(), std::iter::once((0, positions.len())), |k| positions[k]);
            let walk = (1..positions.len()).find(|&i| x < positions[i] as f32).unwrap_or(positions.len());
            prop_assert_eq!(first_past(&reach, x), walk);
        }
    }

    #[test]
    fn runs_are_apart() {
        let p = [5i16, 1, 9, 3, 7, 2, 4];
        let r = reaches(p.len(), [(0, 3), (3, 4)].into_iter(), |k| p[k]);
        assert_eq!(r, [i16::MIN, 1, 9, i16::MIN, 7, 7, 7]);
        assert_eq!(first_past(&r[0..3], 0.5), 1);
        assert_eq!(first_past(&r[0..3], 1.0), 2);
        assert_eq!(first_past(&r[0..3], 9.0), 3);
        assert_eq!(first_past(&r[3..7], 6.9), 1);
        assert_eq!(first_past(&r[3..7], 7.0), 4);
    }
}
