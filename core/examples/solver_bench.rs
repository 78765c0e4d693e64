//! Solver speed on 2-player endgames: random games played down to at most
//! `cards` cards in each hand, then solved.
//!
//! `cargo run --release --example solver_bench -- [cards] [positions] [seconds] [seed] [policy]`
//!
//! `policy` 0 (the default) plays the games at random (the fast sampler, which
//! rarely passes twice in a row, so most regions are still open at the end);
//! a number above 0 plays them by search with that many iterations a move.

use std::time::Instant;

use _core::mcts::{search, Budget, SearchConfig};
use _core::playout::play_random;
use _core::rng::SplitMix64;
use _core::rules::play;
use _core::setup::new_game;
use _core::solver::solve;
use _core::state::State;

/// The first position of a random game with at most `cards` cards in each hand.
fn endgame(seed: u64, cards: u8, policy: u64) -> Option<State> {
    let mut s = new_game(2, seed % 4 == 3, seed, 0).ok()?;
    let mut rng = SplitMix64::new(seed ^ 0x5eed);
    while !s.is_over() && (s.cards_left(0) > cards || s.cards_left(1) > cards) {
        if policy == 0 {
            play_random(&mut s, &mut rng);
        } else {
            let budget = Budget::iterations(policy);
            let best = search(&s, budget, rng.next_u64(), &SearchConfig::default(), &[]).best();
            play(&mut s, &best);
        }
    }
    (!s.is_over()).then_some(s)
}

fn main() {
    let args: Vec<f64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let cards = args.first().copied().unwrap_or(3.0) as u8;
    let positions = args.get(1).copied().unwrap_or(20.0) as usize;
    let seconds = args.get(2).copied().unwrap_or(10.0);
    let first_seed = args.get(3).copied().unwrap_or(0.0) as u64;
    let policy = args.get(4).copied().unwrap_or(0.0) as u64;
    let mut times = Vec::new();
    let mut unsolved = 0;
    let mut seed = first_seed;
    while times.len() + unsolved < positions {
        seed += 1;
        let Some(s) = endgame(seed, cards, policy) else {
            continue;
        };
        let start = Instant::now();
        let solution = solve(&s, u64::MAX, Some(seconds));
        let t = start.elapsed().as_secs_f64();
        match solution {
            Some(sol) => {
                println!(
                    "seed {seed}: hands {}+{}, open {}, value {:+}, {} nodes, {t:.3} s",
                    s.cards_left(0),
                    s.cards_left(1),
                    s.open.count_ones(),
                    sol.value,
                    sol.nodes
                );
                times.push(t);
            }
            None => {
                println!(
                    "seed {seed}: hands {}+{}, open {}, unsolved in {t:.1} s",
                    s.cards_left(0),
                    s.cards_left(1),
                    s.open.count_ones()
                );
                unsolved += 1;
            }
        }
    }
    times.sort_by(f64::total_cmp);
    if !times.is_empty() {
        println!(
            "{} solved, {unsolved} unsolved within {seconds} s; median {:.3} s, max {:.3} s",
            times.len(),
            times[times.len() / 2],
            times[times.len() - 1]
        );
    }
}
