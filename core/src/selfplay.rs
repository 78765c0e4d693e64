//! Self-play: games played by the search against itself, recorded as
//! training data for the learned evaluation (see `docs/learning.md`).
//!
//! Every seat is the same search ([`crate::mcts`]) at a small iteration
//! budget. For each position the record keeps what a network learns from:
//! the features from the mover's view ([`crate::features`]), the search's
//! visits over its root moves (each move as its building steps, and the visit
//! mass of every next step after every prefix: the policy targets over the
//! move-building actions), and, once the game ends, the result of every seat.
//!
//! Exploration: the first `explore_plies` moves of a game are drawn in
//! proportion to `visits ^ (1 / temperature)`; later moves are the most
//! visited. The search's own candidate draws are seeded too, so a game is a
//! pure function of its two seeds and the configuration.

use crate::eval::rewards;
use crate::features::{features, move_steps, FEATURES, MAX_STEPS, NUM_ACTIONS};
use crate::mcts::{search, Budget, SearchConfig, SearchResult};
use crate::rng::SplitMix64;
use crate::rules;
use crate::setup::new_game;
use crate::state::{Move, State, MAX_PLAYERS};
use crate::stepping::SteppedGame;

/// How self-play games are played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SelfPlayConfig {
    /// Search iterations per move.
    pub iterations: u64,
    /// Moves at the start of a game drawn by visit counts instead of the most visited.
    pub explore_plies: u32,
    /// Visit counts are raised to `1 / temperature` before drawing (1: in proportion).
    pub temperature: f64,
    pub search: SearchConfig,
}

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            iterations: 200,
            explore_plies: 8,
            temperature: 1.0,
            search: SearchConfig::default(),
        }
    }
}

/// One searched move at the root of a position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootMove {
    pub mv: Move,
    /// The move's building steps, `steps[..len]`.
    pub steps: [u8; MAX_STEPS],
    pub len: u8,
    pub visits: u32,
    /// The search's mean reward of the mover after this move, in [0, 1].
    pub value: f32,
}

/// The visit mass of every next building step after one prefix of steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepTarget {
    pub prefix: [u8; MAX_STEPS],
    pub len: u8,
    /// Sums to 1 over the actions that continue the prefix into a searched move.
    pub target: [f32; NUM_ACTIONS],
    /// Bit a set when the rules offer action a after the prefix (every legal
    /// continuation, searched or not).
    pub legal: u32,
}

/// One position of a self-play game and what the search made of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    pub state: State,
    pub features: [f32; FEATURES],
    /// The mover had no card: the pass was played without a search.
    pub forced: bool,
    /// The root moves, most visited first.
    pub moves: Vec<RootMove>,
    /// The policy targets: the empty prefix first, then prefixes in the order they first appear.
    pub targets: Vec<StepTarget>,
    /// Index in `moves` of the move played.
    pub played: usize,
}

/// A finished self-play game.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    pub positions: Vec<Position>,
    /// The final position.
    pub end: State,
    /// Each seat's result: 1 for a win, shared equally between winning sides
    /// (a 4-player team's partners both get their side's share), 0 for a loss.
    pub result: [f32; MAX_PLAYERS],
}

/// The index of the move to play: drawn by `visits ^ (1 / temperature)` while
/// exploring, else the most visited (the first).
fn choose(moves: &[RootMove], explore: bool, temperature: f64, rng: &mut SplitMix64) -> usize {
    if !explore || moves.len() == 1 {
        return 0;
    }
    let weights: Vec<f64> = moves
        .iter()
        .map(|m| f64::from(m.visits).powf(1.0 / temperature))
        .collect();
    let total: f64 = weights.iter().sum();
    let mut x = rng.unit() * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    moves.len() - 1
}

/// Per prefix of the root moves' steps, the visit mass of each next step.
fn step_targets(moves: &[RootMove], out: &mut Vec<StepTarget>) {
    out.clear();
    let total: f64 = moves.iter().map(|m| f64::from(m.visits)).sum();
    let mut mass: Vec<[f64; NUM_ACTIONS]> = Vec::new();
    for m in moves {
        let share = f64::from(m.visits) / total;
        for k in 0..m.len as usize {
            let prefix = &m.steps[..k];
            let i = match out
                .iter()
                .position(|t| t.len as usize == k && &t.prefix[..k] == prefix)
            {
                Some(i) => i,
                None => {
                    let mut p = [0u8; MAX_STEPS];
                    p[..k].copy_from_slice(prefix);
                    out.push(StepTarget {
                        prefix: p,
                        len: k as u8,
                        target: [0.0; NUM_ACTIONS],
                        legal: 0,
                    });
                    mass.push([0.0; NUM_ACTIONS]);
                    out.len() - 1
                }
            };
            mass[i][m.steps[k] as usize] += share;
        }
    }
    // Normalise each prefix's mass (a prefix carries the share of the moves through it).
    for (t, m) in out.iter_mut().zip(&mass) {
        let sum: f64 = m.iter().sum();
        for (x, v) in t.target.iter_mut().zip(m) {
            *x = (v / sum) as f32;
        }
    }
}

fn root_move(mv: Move, visits: u32, value: f32) -> RootMove {
    let mut steps = [0u8; MAX_STEPS];
    let len = move_steps(&mv, &mut steps) as u8;
    RootMove {
        mv,
        steps,
        len,
        visits,
        value,
    }
}

/// Plays one game from the setup of `setup_seed` (first player seat 0) with
/// the core's search ([`crate::mcts::search`], `config.search`); every
/// search seed and exploration draw comes from `seed`.
///
/// Errors for a player count other than 2-4; panics if the configuration's
/// iterations are 0.
pub fn play_game(
    players: u8,
    mordred: bool,
    setup_seed: u64,
    seed: u64,
    config: &SelfPlayConfig,
) -> Result<Game, String> {
    play_game_with(players, mordred, setup_seed, seed, config, |s, seed| {
        search(
            s,
            Budget::iterations(config.iterations),
            seed,
            &config.search,
            &[],
        )
    })
}

/// [`play_game`] with another search: `search(state, seed)` is called for
/// every position whose mover holds a card, and must return that position's
/// root moves with their visits (a search guided by a learned network, for
/// the next round of self-play). `config.iterations` and `config.search` are
/// then only what the caller's search makes of them.
pub fn play_game_with(
    players: u8,
    mordred: bool,
    setup_seed: u64,
    seed: u64,
    config: &SelfPlayConfig,
    mut search: impl FnMut(&State, u64) -> SearchResult,
) -> Result<Game, String> {
    let mut s = new_game(players, mordred, setup_seed, 0)?;
    let mut rng = SplitMix64::new(seed);
    let mut positions = Vec::new();
    let mut stepper = SteppedGame::new(s);
    let mut ply = 0u32;
    while !s.is_over() {
        let mover = s.player;
        let mut feats = [0.0f32; FEATURES];
        features(&s, mover, &mut feats);
        let forced = s.cards_left(mover as usize) == 0;
        let mut moves: Vec<RootMove> = if forced {
            vec![root_move(Move::PASS, 1, 0.0)]
        } else {
            search(&s, rng.next_u64())
                .moves
                .iter()
                .filter(|m| m.visits > 0)
                .map(|m| root_move(m.mv, m.visits as u32, m.value as f32))
                .collect()
        };
        assert!(
            !moves.is_empty(),
            "self-play: the search gave no visited move"
        );
        // Most visited first (a stable sort: the search's own order breaks ties).
        moves.sort_by_key(|m| std::cmp::Reverse(m.visits));
        let played = choose(
            &moves,
            ply < config.explore_plies,
            config.temperature,
            &mut rng,
        );
        let mut targets = Vec::new();
        step_targets(&moves, &mut targets);
        for t in &mut targets {
            stepper.restart(s);
            for &a in &t.prefix[..t.len as usize] {
                let done = stepper
                    .step(i64::from(a))
                    .expect("a searched move's steps are offered");
                debug_assert!(done.is_none(), "a prefix is shorter than its move");
            }
            t.legal = stepper.offered() as u32; // the standard game's 21 integers
        }
        let mv = moves[played].mv;
        positions.push(Position {
            state: s,
            features: feats,
            forced,
            moves,
            targets,
            played,
        });
        rules::play(&mut s, &mv);
        ply += 1;
    }
    let reward = rewards(&s);
    Ok(Game {
        positions,
        end: s,
        result: reward.map(|r| r as f32),
    })
}

/// The first-step policy target (pass or a card) of a position: its empty-prefix target.
pub fn first_step(p: &Position) -> &[f32; NUM_ACTIONS] {
    debug_assert_eq!(p.targets[0].len, 0);
    &p.targets[0].target
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::{CARD_BASE, NONE_ACTION, PASS_ACTION};

    fn small() -> SelfPlayConfig {
        SelfPlayConfig {
            iterations: 30,
            ..SelfPlayConfig::default()
        }
    }

    #[test]
    fn a_game_is_played_to_its_end_and_repeats_for_its_seeds() {
        for (players, mordred) in [(2, false), (3, true), (4, false)] {
            let a = play_game(players, mordred, 5, 9, &small()).unwrap();
            let b = play_game(players, mordred, 5, 9, &small()).unwrap();
            assert_eq!(a, b);
            assert!(a.end.is_over());
            let c = play_game(players, mordred, 5, 10, &small()).unwrap();
            assert_ne!(a.positions, c.positions);
            // Replaying the played moves from the setup reaches the same end.
            let mut s = new_game(players, mordred, 5, 0).unwrap();
            for p in &a.positions {
                assert_eq!(p.state, s);
                let mv = p.moves[p.played].mv;
                assert!(rules::is_legal(&s, &mv));
                rules::play(&mut s, &mv);
            }
            assert_eq!(s, a.end);
        }
    }

    #[test]
    fn results_are_the_outcome_shared_between_sides() {
        for seed in 0..4 {
            let g = play_game(4, false, seed, seed, &small()).unwrap();
            let winners = g.end.outcome.unwrap().winners;
            for p in 0..4 {
                let won = winners >> p & 1 == 1;
                assert_eq!(g.result[p] > 0.0, won);
                assert_eq!(g.result[p], g.result[p ^ 2]);
            }
            let g = play_game(3, false, seed, seed, &small()).unwrap();
            let total: f32 = g.result.iter().sum();
            assert!((total - 1.0).abs() < 1e-6 || total == 0.0);
        }
    }

    #[test]
    fn targets_sum_to_one_and_follow_the_visits() {
        let g = play_game(2, false, 3, 4, &small()).unwrap();
        let mut searched = 0;
        for p in &g.positions {
            let visits: u32 = p.moves.iter().map(|m| m.visits).sum();
            for t in &p.targets {
                let sum: f32 = t.target.iter().sum();
                assert!((sum - 1.0).abs() < 1e-5);
                for (a, &x) in t.target.iter().enumerate() {
                    assert!(
                        x == 0.0 || t.legal >> a & 1 == 1,
                        "a target off the legal steps"
                    );
                }
            }
            // The first step: the pass and every card in hand (no last-card rule with 2 players).
            let hand = p.state.hands[p.state.player as usize];
            let cards = (0..7)
                .filter(|&c| hand[c] > 0)
                .fold(0u32, |m, c| m | 1 << (c + 1));
            assert_eq!(p.targets[0].legal, 1 | cards);
            let first = first_step(p);
            for m in &p.moves {
                assert!(first[m.steps[0] as usize] > 0.0);
                assert!(m.steps[..m.len as usize]
                    .iter()
                    .all(|&a| (a as usize) < NUM_ACTIONS));
            }
            // The empty prefix's mass on a card is the visit share of that card's moves.
            for card in 0..7u8 {
                let share: u32 = p
                    .moves
                    .iter()
                    .filter(|m| m.steps[0] == CARD_BASE + card)
                    .map(|m| m.visits)
                    .sum();
                let expected = share as f32 / visits as f32;
                assert!((first[(CARD_BASE + card) as usize] - expected).abs() < 1e-5);
            }
            assert!(first[NONE_ACTION as usize] == 0.0);
            if p.forced {
                assert_eq!(first[PASS_ACTION as usize], 1.0);
            } else {
                searched += 1;
                assert_eq!(visits as u64, small().iterations);
            }
        }
        assert!(searched > 10);
    }

    #[test]
    fn another_search_can_play_the_games() {
        // A search that sees only half the budget plays other games than the default one.
        let config = small();
        let mut calls = 0;
        let g = play_game_with(3, false, 2, 3, &config, |s, seed| {
            calls += 1;
            search(s, Budget::iterations(15), seed, &config.search, &[])
        })
        .unwrap();
        assert!(g.end.is_over());
        assert_eq!(calls, g.positions.iter().filter(|p| !p.forced).count());
        for p in g.positions.iter().filter(|p| !p.forced) {
            assert_eq!(p.moves.iter().map(|m| m.visits).sum::<u32>(), 15);
        }
        assert_ne!(g, play_game(3, false, 2, 3, &config).unwrap());
    }

    #[test]
    fn exploring_draws_other_moves_than_the_most_visited() {
        let config = SelfPlayConfig {
            explore_plies: 1000,
            ..small()
        };
        let g = play_game(2, false, 1, 1, &config).unwrap();
        assert!(g.positions.iter().any(|p| p.played > 0));
        let g = play_game(
            2,
            false,
            1,
            1,
            &SelfPlayConfig {
                explore_plies: 0,
                ..small()
            },
        )
        .unwrap();
        assert!(g.positions.iter().all(|p| p.played == 0));
    }
}
