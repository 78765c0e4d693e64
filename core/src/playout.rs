//! Random playouts: the fast move sampler of Python's `play_random`, drawing
//! a legal move without listing them all.
//!
//! The player passes with probability 1/(k+1) for k distinct cards held, else
//! plays one of them with random choices and a random court call. It is not
//! uniform over moves (that needs enumeration), but every move it makes is
//! legal and every legal move has a chance. It draws from its own generator
//! ([`SplitMix64::index`]), not Python's random stream.

use crate::batch::Start;
use crate::board::FIRST_EDITION;
use crate::board::{
    AMBASSADOR, CROWN, FACTION_CARD, FIRST_CUNNING, GARRISON, NEIGHBOURS, NUM_CARDS, NUM_CUNNING,
    NUM_KINDS, NUM_REGIONS, PLOT_BIT, SETTLEMENTS,
};
use crate::cunning;
use crate::lastcard::{last_card_applies, might_win, Judge, Remaining};
use crate::rng::SplitMix64;
use crate::rules::{
    active_ban, card_actions, court_mask, faction_targets, finish_turn, play, play_card,
    swappable_cards, Bits,
};
use crate::state::{Move, State, MAX_ACTION, NONE};

/// Play a random legal move in place and return it.
///
/// The cards drawn from are the kinds in hand, then the advanced game's Cunning
/// cards held but Plot (never played), whose action is drawn from their list.
/// With the 3-player last card, the holder passes with probability 1/2, else
/// plays a random winning move (passes if there is none).
pub fn play_random(s: &mut State, rng: &mut SplitMix64) -> Move {
    let p = s.player as usize;
    let mut cards = [0u8; NUM_CARDS + NUM_CUNNING];
    let mut k = 0;
    for (card, &n) in s.hands[p].iter().enumerate() {
        if n > 0 {
            cards[k] = card as u8;
            k += 1;
        }
    }
    if s.cunning[p] != 0 {
        for i in Bits(u32::from(s.cunning[p] & !PLOT_BIT)) {
            cards[k] = FIRST_CUNNING + i as u8;
            k += 1;
        }
    }
    if last_card_applies(s) {
        let m = if rng.index(2) == 0 {
            Move::PASS
        } else {
            random_winning_move(s, cards[0], rng)
        };
        play(s, &m);
        return m;
    }
    let pick = rng.index(k + 1);
    if pick == k {
        play(s, &Move::PASS);
        return Move::PASS;
    }
    let card = cards[pick];
    let (action, len) = random_action(s, card, rng);
    let action = &action[..len];
    // Play the card, then draw the court call from the board as the action left it.
    play_card(s, card, action);
    let calls = court_mask(&s.board, s.open);
    let court = (calls != 0).then(|| {
        let cell = nth_bit(calls, rng.index(calls.count_ones() as usize));
        (cell / NUM_KINDS, cell % NUM_KINDS)
    });
    finish_turn(s, court);
    Move::card_play(card, action, court)
}

/// Random moves until the game ends; the number of moves played.
pub fn playout(s: &mut State, rng: &mut SplitMix64) -> u64 {
    let mut moves = 0;
    while !s.is_over() {
        play_random(s, rng);
        moves += 1;
    }
    moves
}

/// Set up and play out `games` random first-edition games (first player 0),
/// each from a seed drawn from `seed`: `(games, moves played)`. For benchmarks.
///
/// Panics for a player count the game does not have.
pub fn random_games(players: u8, mordred: bool, games: u64, seed: u64) -> (u64, u64) {
    let start = Start {
        players,
        mordred,
        edition: FIRST_EDITION,
        options: crate::board::FIRST.default_options(),
        mode: 0,
    };
    random_games_in(start, games, seed)
}

/// [`random_games`] set up as `start` says (its edition, options and mode).
///
/// Panics for a setup the edition does not have.
pub fn random_games_in(start: Start, games: u64, seed: u64) -> (u64, u64) {
    let mut seeds = SplitMix64::new(seed);
    let mut rng = SplitMix64::new(seeds.next_u64());
    let mut moves = 0;
    for _ in 0..games {
        let mut s = start
            .game(seeds.next_u64())
            .unwrap_or_else(|e| panic!("{e}"));
        moves += playout(&mut s, &mut rng);
    }
    (games, moves)
}

/// The position of the `n`th set bit of `mask` (n below its popcount).
#[inline]
fn nth_bit(mut mask: u32, n: usize) -> usize {
    for _ in 0..n {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as usize
}

/// A random legal action of `card`, as an array and its length.
fn random_action(s: &State, card: u8, rng: &mut SplitMix64) -> ([i8; MAX_ACTION], usize) {
    let mut a = [0i8; MAX_ACTION];
    match card {
        // The advanced game's: drawn from the ways their effect keeps.
        FIRST_CUNNING.. => cunning::random_action(s, card, rng),
        SETTLEMENTS => {
            let open = s.open as u32;
            let n = open.count_ones() as usize;
            for (f, slot) in a[..3].iter_mut().enumerate() {
                *slot = if s.stock[f] > 0 {
                    nth_bit(open, rng.index(n)) as i8
                } else {
                    NONE
                };
            }
            (a, 3)
        }
        CROWN => {
            let free = swappable_cards(s) as u32;
            let n = free.count_ones() as usize;
            if n < 2 {
                return (a, 0);
            }
            let i = rng.index(n);
            let j = (i + 1 + rng.index(n - 1)) % n;
            let (x, y) = (nth_bit(free, i.min(j)) as i8, nth_bit(free, i.max(j)) as i8);
            a[..3].copy_from_slice(&[x, y, if rng.index(2) == 0 { x } else { y }]);
            (a, 3)
        }
        GARRISON | AMBASSADOR => random_exchange(s, card, rng),
        _ => {
            let f = (card - FACTION_CARD) as usize;
            let targets = faction_targets(s, f) as u32;
            let n = targets.count_ones() as usize;
            if n == 0 || s.stock[f] == 0 {
                return (a, 0);
            }
            a[0] = nth_bit(targets, rng.index(n)) as i8;
            if s.stock[f] == 1 {
                return (a, 1);
            }
            a[1] = if s.rules().support_together {
                a[0]
            } else {
                nth_bit(targets, rng.index(n)) as i8
            };
            if a[0] > a[1] {
                a.swap(0, 1);
            }
            (a, 2)
        }
    }
}

/// A follower kind of a region drawn in proportion to numbers (`skip`: one of
/// that kind already drawn).
#[inline]
fn random_kind(counts: [u8; NUM_KINDS], skip: Option<usize>, rng: &mut SplitMix64) -> usize {
    let mut counts = counts;
    if let Some(k) = skip {
        counts[k] -= 1;
    }
    let total: u8 = counts.iter().sum();
    let mut pick = rng.index(total as usize) as u8;
    for (k, &n) in counts.iter().enumerate() {
        if pick < n {
            return k;
        }
        pick -= n;
    }
    NUM_KINDS - 1
}

/// A random exchange: a random pair of regions that allows one (2-for-1 pairs
/// for the Garrison while any exists), then random followers. A draw that
/// would undo the last exchange is redrawn; if that keeps happening, the
/// choice falls back on the full list of legal actions.
fn random_exchange(s: &State, card: u8, rng: &mut SplitMix64) -> ([i8; MAX_ACTION], usize) {
    let board = &s.board;
    let open = s.open as u32;
    let mut totals = [0u8; NUM_REGIONS];
    for r in Bits(open) {
        totals[r] = board[r].iter().sum();
    }
    let mut pairs = [(0u8, 0u8); 32];
    let mut n = 0;
    let mut two = false;
    if card == GARRISON {
        for a in Bits(open).filter(|&a| totals[a] >= 2) {
            for b in Bits(NEIGHBOURS[a] as u32 & open).filter(|&b| totals[b] > 0) {
                pairs[n] = (a as u8, b as u8);
                n += 1;
            }
        }
        two = n > 0;
        if !two {
            for a in Bits(open).filter(|&a| totals[a] > 0) {
                for b in Bits(NEIGHBOURS[a] as u32 & open).filter(|&b| b > a && totals[b] > 0) {
                    pairs[n] = (a as u8, b as u8);
                    n += 1;
                }
            }
        }
    } else {
        let occupied = Bits(open)
            .filter(|&r| totals[r] > 0)
            .fold(0u32, |m, r| m | 1 << r);
        for a in Bits(occupied) {
            for b in Bits(occupied & !((2u32 << a) - 1)) {
                pairs[n] = (a as u8, b as u8);
                n += 1;
            }
        }
    }
    let mut a = [0i8; MAX_ACTION];
    if n == 0 {
        return (a, 0);
    }
    let ban = active_ban(s, card); // worked out once, not for each draw
    for _ in 0..8 {
        let (x, y) = pairs[rng.index(n)];
        let (x, y) = (x as usize, y as usize);
        let len = if two {
            let f1 = random_kind(board[x], None, rng);
            let f2 = random_kind(board[x], Some(f1), rng);
            let g = random_kind(board[y], None, rng);
            a[..5].copy_from_slice(&[
                x as i8,
                f1.min(f2) as i8,
                f1.max(f2) as i8,
                y as i8,
                g as i8,
            ]);
            5
        } else {
            let f = random_kind(board[x], None, rng);
            let g = random_kind(board[y], None, rng);
            a[..4].copy_from_slice(&[x as i8, f as i8, y as i8, g as i8]);
            4
        };
        if !ban.is_some_and(|ban| ban.forbids(&a[..len])) {
            return (a, len);
        }
    }
    // The ban keeps hitting: fall back on the full list, which leaves it out.
    let mut options = Vec::new();
    card_actions(s, card, &mut options);
    let m = options[rng.index(options.len())];
    (m.action, m.len as usize)
}

/// A random move with the last card that wins outright, or a pass if none does:
/// actions in random order, and each action's court calls in random order.
fn random_winning_move(s: &State, card: u8, rng: &mut SplitMix64) -> Move {
    if !might_win(s) {
        return Move::PASS;
    }
    let mut actions = Vec::new();
    card_actions(s, card, &mut actions);
    shuffle(&mut actions, rng);
    let mut judge = Judge::default();
    for play in actions {
        let rest = Remaining::after(s, card, play.action());
        let calls = court_mask(&rest.board, s.open);
        let mut cells = [0i8; 32];
        let mut n = 0;
        for cell in Bits(calls) {
            cells[n] = cell as i8;
            n += 1;
        }
        if n == 0 {
            cells[0] = -1;
            n = 1;
        }
        shuffle(&mut cells[..n], rng);
        for &court in &cells[..n] {
            let m = Move { court, ..play };
            if judge.wins_after(s, &rest, &m) {
                return m;
            }
        }
    }
    Move::PASS
}

fn shuffle<T>(items: &mut [T], rng: &mut SplitMix64) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.index(i + 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{followers_conserved, is_legal, legal_moves};
    use std::collections::HashSet;

    use crate::board::{
        COURT_REDRAW, EXACT_REVERSAL, LAST_CARD_MUST_WIN, SECOND_EDITION, TIE_ALWAYS_NEXT_FACTION,
        TIE_LOWEST_SEAT, TIE_STRICT,
    };

    const FIRST_OPTIONS: u8 = crate::board::FIRST.default_options();

    /// (players, mordred, edition, options): the first edition's six setups,
    /// then the second edition's, with and without options.
    const CONFIGS: [(u8, bool, u8, u8); 11] = [
        (2, false, FIRST_EDITION, FIRST_OPTIONS),
        (3, false, FIRST_EDITION, FIRST_OPTIONS),
        (4, false, FIRST_EDITION, FIRST_OPTIONS),
        (2, true, FIRST_EDITION, FIRST_OPTIONS),
        (3, true, FIRST_EDITION, FIRST_OPTIONS),
        (4, true, FIRST_EDITION, FIRST_OPTIONS),
        (2, false, SECOND_EDITION, 0),
        (
            3,
            false,
            SECOND_EDITION,
            EXACT_REVERSAL | TIE_ALWAYS_NEXT_FACTION,
        ),
        (4, false, SECOND_EDITION, COURT_REDRAW | TIE_LOWEST_SEAT),
        (3, false, SECOND_EDITION, TIE_STRICT | LAST_CARD_MUST_WIN),
        (3, false, SECOND_EDITION, 0),
    ];

    fn start_of((players, mordred, edition, options): (u8, bool, u8, u8)) -> Start {
        Start {
            players,
            mordred,
            edition,
            options,
            mode: 0,
        }
    }

    fn start(config: (u8, bool, u8, u8), seed: u64) -> State {
        start_of(config).game(seed).unwrap()
    }

    #[test]
    fn every_sampled_move_is_legal_and_plays_as_play_does() {
        let mut rng = SplitMix64::new(11);
        for (i, &config) in CONFIGS.iter().enumerate() {
            for game in 0..150 {
                let mut s = start(config, (i * 1000 + game) as u64);
                while !s.is_over() {
                    let mut after = s;
                    let m = play_random(&mut after, &mut rng);
                    assert!(is_legal(&s, &m), "{m:?} in {s:?}");
                    let mut replay = s;
                    play(&mut replay, &m);
                    assert_eq!(replay, after);
                    assert!(followers_conserved(&after));
                    s = after;
                }
            }
        }
    }

    /// All the moves the sampler makes at a position, over many draws.
    fn sampled(s: &State, draws: usize, rng: &mut SplitMix64) -> HashSet<Move> {
        (0..draws)
            .map(|_| {
                let mut t = *s;
                play_random(&mut t, rng)
            })
            .collect()
    }

    #[test]
    fn every_legal_move_has_a_chance() {
        // Late positions have few enough moves to see them all sampled.
        let mut rng = SplitMix64::new(5);
        let mut checked = 0;
        for seed in 0..300u64 {
            let mut s = start(CONFIGS[seed as usize % CONFIGS.len()], seed);
            while !s.is_over() {
                let mut moves = Vec::new();
                legal_moves(&s, &mut moves);
                if moves.len() <= 40 && moves.len() > 1 && checked < 60 {
                    let seen = sampled(&s, 40_000, &mut rng);
                    let legal: HashSet<Move> = moves.iter().copied().collect();
                    assert_eq!(seen, legal, "{s:?}");
                    checked += 1;
                }
                play_random(&mut s, &mut rng);
            }
        }
        assert!(checked >= 20, "only {checked} positions checked");
    }

    #[test]
    fn exchanges_reach_every_action_even_under_the_ban() {
        let mut rng = SplitMix64::new(9);
        let mut checked = 0;
        for seed in 0..300u64 {
            let mut s = start(CONFIGS[[1, 4, 7, 9][seed as usize % 4]], seed);
            while !s.is_over() {
                let banned = s.undo_ban.is_some_and(|b| b.player != s.player);
                for card in [GARRISON, AMBASSADOR] {
                    if !(banned || checked < 10)
                        || checked >= 40
                        || s.hands[s.player as usize][card as usize] == 0
                    {
                        continue;
                    }
                    let mut options = Vec::new();
                    card_actions(&s, card, &mut options);
                    if options.len() > 100 {
                        continue;
                    }
                    let legal: HashSet<Vec<i8>> =
                        options.iter().map(|m| m.action().to_vec()).collect();
                    let seen: HashSet<Vec<i8>> = (0..400 * options.len() + 200)
                        .map(|_| {
                            let (a, n) = random_action(&s, card, &mut rng);
                            a[..n].to_vec()
                        })
                        .collect();
                    assert_eq!(seen, legal);
                    checked += 1;
                }
                play_random(&mut s, &mut rng);
            }
        }
        assert!(checked >= 20, "only {checked} checked");
    }

    #[test]
    fn random_games_play_to_the_end() {
        for &config in &CONFIGS {
            let (games, moves) = random_games_in(start_of(config), 50, 1);
            assert_eq!(games, 50);
            assert!(moves > 50 * 10);
        }
        assert_eq!(random_games(3, false, 20, 4), random_games(3, false, 20, 4));
    }

    /// Speed check: `cargo test --release -- --ignored --nocapture playout_speed`.
    #[test]
    #[ignore]
    fn playout_speed() {
        for &config @ (players, mordred, edition, _) in &CONFIGS {
            let games = 100_000;
            let start = std::time::Instant::now();
            let (_, moves) = random_games_in(start_of(config), games, 7);
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{} {players}p {}: {:.0} games/s, {:.1} moves/game",
                crate::board::EDITIONS[edition as usize].name,
                if mordred { "mordred" } else { "standard" },
                games as f64 / secs,
                moves as f64 / games as f64
            );
        }
    }
}
