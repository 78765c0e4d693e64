//! Search speed: iterations per second at a game's start, one thread.
//!
//! `cargo run --release --example search_bench -- [players] [seed] [iterations]`

use std::time::Instant;

use _core::mcts::{search, Budget, SearchConfig};
use _core::setup::new_game;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let players = args.first().copied().unwrap_or(2) as u8;
    let seed = args.get(1).copied().unwrap_or(1);
    let iterations = args.get(2).copied().unwrap_or(100_000);
    let s = new_game(players, false, seed, 0).expect("a valid game");
    let start = Instant::now();
    let r = search(
        &s,
        Budget::iterations(iterations),
        seed,
        &SearchConfig::default(),
        &[],
    );
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{players} players, seed {seed}: {} iterations in {seconds:.3} s = {:.0} iterations/s; best {:?} ({} visits, value {:.3})",
        r.iterations,
        r.iterations as f64 / seconds,
        r.moves[0].mv,
        r.moves[0].visits,
        r.moves[0].value
    );
}
