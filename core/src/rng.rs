//! SplitMix64, the seeded source of every random draw, bit for bit the same
//! as `kingisdead/rng.py` (so a seed sets up the same game in both engines).
//!
//! Source: Steele, Lea and Flood, "Fast splittable pseudorandom number
//! generators" (OOPSLA 2014); constants as in Vigna's reference `splitmix64.c`.

/// A 64-bit SplitMix generator.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` without modulo bias (rejection sampling, as in Python).
    ///
    /// Panics if `n` is 0.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below() needs a positive bound");
        // Python computes limit = 2**64 - 2**64 % n; in u64 that is 0 when n divides 2**64.
        let rem = ((u64::MAX % n) + 1) % n;
        loop {
            let x = self.next_u64();
            if rem == 0 || x < 0u64.wrapping_sub(rem) {
                return x % n;
            }
        }
    }

    /// A fast draw in `0..n` for playouts and search (Lemire's multiply-shift;
    /// a bias below n / 2**64 does not matter there). Setup draws use [`below`](Self::below).
    #[inline]
    pub fn index(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// A float in [0, 1) with 53 random bits.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_sequence() {
        // splitmix64.c with seed 0 starts with these values.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn below_stays_in_range() {
        let mut rng = SplitMix64::new(7);
        for n in 1..50u64 {
            for _ in 0..20 {
                assert!(rng.below(n) < n);
            }
        }
        assert!(rng.below(1 << 63) < 1 << 63);
    }
}
