//! Random games in batches: what `kingisdead simulate` plays with random bots,
//! many games in one call.
//!
//! Game `index` of a simulation with seed `seed` is set up from seed
//! `seed + index` and played by the fast sampler ([`playout::play_random`])
//! from the seed that `simulate`'s per-game loop hands the sampler: the first
//! `getrandbits(64)` of Python's `random.Random(derive_seed(seed, index))`
//! (`kingisdead.cli.derive_seed`). So a batch plays, game for game, the games
//! that loop plays, only without a trip through Python for each.

use crate::playout;
use crate::rng::SplitMix64;
use crate::setup;
use crate::state::{Ending, State};

/// The setup arguments that every game of a batch shares: the start of game
/// `index` is `setup::new_game` with these and the game's own seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Start {
    pub players: u8,
    pub mordred: bool,
    pub edition: u8,
    pub options: u8,
    /// `State::mode`: 0 the standard game, else the advanced game's bits.
    pub mode: u16,
}

impl Start {
    /// The setup arguments a state was set up with.
    pub fn of(s: &State) -> Start {
        Start {
            players: s.players,
            mordred: s.mordred,
            edition: s.edition,
            options: s.options,
            mode: s.mode,
        }
    }

    /// The game that `seed` sets up (first player 0); Err for a player count the game does not have.
    pub fn game(&self, seed: u64) -> Result<State, String> {
        setup::new_game_in_mode(
            self.edition,
            self.options,
            self.mode,
            self.players,
            self.mordred,
            seed,
            0,
        )
    }
}

/// How each game of a batch ended, one entry per game and field.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcomes {
    /// 0 coronation, 1 invasion, 2 Mordred (the order of Python's `scoring.ENDINGS`).
    pub endings: Vec<u8>,
    /// Bit p set when seat p wins.
    pub winners: Vec<u8>,
    /// The single ruler's seat, or [`NO_RULER`].
    pub rulers: Vec<u8>,
    /// Moves played, passes included.
    pub moves: Vec<u16>,
}

/// `Outcomes::rulers` of a game without a single ruler.
pub const NO_RULER: u8 = u8::MAX;

/// Play games `first .. first + games` of a simulation with seed `seed`
/// (the low 64 bits of Python's seed, as `kingisdead.cli.derive_seed` masks it).
///
/// Err for a player count the game does not have, before any game is played.
pub fn random_games(start: Start, seed: u64, first: u64, games: usize) -> Result<Outcomes, String> {
    start.game(seed)?;
    let mut out = Outcomes {
        endings: Vec::with_capacity(games),
        winners: Vec::with_capacity(games),
        rulers: Vec::with_capacity(games),
        moves: Vec::with_capacity(games),
    };
    let mut lanes = [0u64; LANES];
    let mut done = 0;
    while done < games {
        let count = LANES.min(games - done);
        for (lane, slot) in lanes.iter_mut().enumerate().take(count) {
            *slot = derive_seed(seed, first.wrapping_add((done + lane) as u64));
        }
        let sampler_seeds = python_random_u64(&lanes);
        for (lane, &sampler_seed) in sampler_seeds.iter().enumerate().take(count) {
            let index = first.wrapping_add((done + lane) as u64);
            let mut s = start.game(seed.wrapping_add(index))?;
            let moves = playout::playout(&mut s, &mut SplitMix64::new(sampler_seed));
            let o = s.outcome.expect("a playout ends the game");
            out.endings.push(match o.ending {
                Ending::Coronation => 0,
                Ending::Invasion => 1,
                Ending::Mordred => 2,
            });
            out.winners.push(o.winners);
            out.rulers
                .push(if o.ruler < 0 { NO_RULER } else { o.ruler as u8 });
            out.moves.push(u16::try_from(moves).unwrap_or(u16::MAX));
        }
        done += count;
    }
    Ok(out)
}

/// `kingisdead.cli.derive_seed(seed, index)`: SplitMix64 mixing of the parts in turn.
pub fn derive_seed(seed: u64, index: u64) -> u64 {
    let mixed = SplitMix64::new(seed).next_u64();
    SplitMix64::new(mixed ^ index).next_u64()
}

// -- Python's random.Random, as far as its first 64 bits ---------------------------------------
//
// CPython seeds its Mersenne Twister (MT19937) from an int with `init_by_array`
// over the int's 32-bit words, least significant first, and `getrandbits(64)`
// puts the first output in the low half. Source: Matsumoto and Nishimura's
// mt19937ar.c, as CPython's Modules/_randommodule.c uses it. Each seed is a
// chain of 1,247 dependent steps; running LANES seeds side by side lets the
// processor overlap them (the chains are independent), in AVX2 registers
// where the processor has them (twice as fast as SSE2 on this work).

const LANES: usize = 32;
const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// `init_genrand(19650218)`: where every `init_by_array` starts.
const BASE: [u32; N] = {
    let mut mt = [0u32; N];
    mt[0] = 19_650_218;
    let mut i = 1;
    while i < N {
        mt[i] = 1_812_433_253u32
            .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30))
            .wrapping_add(i as u32);
        i += 1;
    }
    mt
};

/// The first `getrandbits(64)` of `random.Random(seed)` for each seed.
pub fn python_random_u64(seeds: &[u64; LANES]) -> [u64; LANES] {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2 (checked just above).
        return unsafe { python_random_u64_avx2(seeds) };
    }
    python_random_lanes(seeds)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn python_random_u64_avx2(seeds: &[u64; LANES]) -> [u64; LANES] {
    python_random_lanes(seeds)
}

#[inline(always)]
fn python_random_lanes(seeds: &[u64; LANES]) -> [u64; LANES] {
    let mut mt = [[0u32; LANES]; N];
    for (row, &base) in mt.iter_mut().zip(BASE.iter()) {
        *row = [base; LANES];
    }
    // init_by_array adds key[j] + j at step j of the key; the key is one word
    // below 2**32 (j stays 0), else two (j alternates 0, 1).
    let mut add = [[0u32; LANES]; 2];
    for (lane, &seed) in seeds.iter().enumerate() {
        let (low, high) = (seed as u32, (seed >> 32) as u32);
        add[0][lane] = low;
        add[1][lane] = if high == 0 { low } else { high.wrapping_add(1) };
    }
    // Each loop walks i = 1, 2, ... N - 1, copies mt[N - 1] to mt[0] and goes on from i = 1:
    // the first for N steps (ending on i = 1), the second for N - 1 (from i = 2, ending on i = 1).
    let mix = |mt: &mut [[u32; LANES]; N], i: usize, step: usize| {
        let previous = mt[i - 1];
        let row = &mut mt[i];
        let add = &add[step & 1];
        for lane in 0..LANES {
            let p = previous[lane];
            row[lane] =
                (row[lane] ^ (p ^ (p >> 30)).wrapping_mul(1_664_525)).wrapping_add(add[lane]);
        }
    };
    for i in 1..N {
        mix(&mut mt, i, i - 1);
    }
    mt[0] = mt[N - 1];
    mix(&mut mt, 1, N - 1);
    let scramble = |mt: &mut [[u32; LANES]; N], i: usize| {
        let previous = mt[i - 1];
        let row = &mut mt[i];
        for lane in 0..LANES {
            let p = previous[lane];
            row[lane] =
                (row[lane] ^ (p ^ (p >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
        }
    };
    for i in 2..N {
        scramble(&mut mt, i);
    }
    mt[0] = mt[N - 1];
    scramble(&mut mt, 1);
    mt[0] = [UPPER_MASK; LANES];
    // The first two outputs need only the first two words of the first twist.
    let mut out = [0u64; LANES];
    for (lane, value) in out.iter_mut().enumerate() {
        let word = |k: usize| {
            let y = (mt[k][lane] & UPPER_MASK) | (mt[k + 1][lane] & LOWER_MASK);
            temper(mt[k + M][lane] ^ (y >> 1) ^ if y & 1 == 1 { MATRIX_A } else { 0 })
        };
        *value = u64::from(word(0)) | u64::from(word(1)) << 32;
    }
    out
}

fn temper(mut y: u32) -> u32 {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c_5680;
    y ^= (y << 15) & 0xefc6_0000;
    y ^ (y >> 18)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_random_matches_cpython() {
        // [random.Random(s).getrandbits(64) for s in seeds], printed by CPython 3.
        let mut seeds = [0; LANES];
        seeds[..8].copy_from_slice(&[
            0,
            1,
            (1 << 32) - 1,
            1 << 32,
            12_345_678_901_234_567_890,
            u64::MAX,
            7,
            42,
        ]);
        let expected = [
            7_106_521_602_475_165_645,
            10_499_958_131_665_514_997,
            11_429_015_403_106_846_985,
            6_480_552_028_864_852_439,
            15_871_761_815_878_999_594,
            4_589_153_898_531_806_846,
            17_485_029_721_327_973_432,
            2_053_695_854_357_871_005,
        ];
        assert_eq!(python_random_u64(&seeds)[..8], expected);
        assert_eq!(python_random_lanes(&seeds)[..8], expected);
    }

    #[test]
    fn derive_seed_matches_python() {
        // kingisdead.cli.derive_seed(3, 5)
        assert_eq!(derive_seed(3, 5), 14_871_207_630_202_690_639);
    }

    #[test]
    fn a_batch_is_the_games_one_by_one() {
        let start = Start::of(&setup::new_game(3, true, 0, 0).unwrap());
        let batch = random_games(start, 11, 5, 70).unwrap();
        for (k, index) in (5..75).enumerate() {
            let mut seeds = [0; LANES];
            seeds[0] = derive_seed(11, index);
            let mut s = setup::new_game(3, true, 11 + index, 0).unwrap();
            let moves =
                playout::playout(&mut s, &mut SplitMix64::new(python_random_u64(&seeds)[0]));
            let o = s.outcome.unwrap();
            assert_eq!(batch.winners[k], o.winners);
            assert_eq!(batch.rulers[k] as i8, o.ruler);
            assert_eq!(u64::from(batch.moves[k]), moves);
        }
    }

    #[test]
    fn a_player_count_the_game_does_not_have_is_refused() {
        let mut start = Start::of(&setup::new_game(2, false, 0, 0).unwrap());
        start.players = 5;
        assert!(random_games(start, 0, 0, 3).is_err());
    }
}
