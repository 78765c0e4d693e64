//! A compact, fixed-size feature vector of a position for a small dense
//! network, and the integer building steps of a move (the action encoding of
//! `kingisdead/interfaces/encoding.py`).
//!
//! The vector is seen from one seat: seats are relative (0 = that seat, 1 =
//! the next in turn, ...), so one network plays every seat, and the player
//! count and variant are inputs, so one network serves 2, 3 and 4 players and
//! Mordred. Every slot lies in [0, 1]. Besides the raw position it holds what
//! the heuristic ([`crate::eval`]) derives from it (each region's leader and
//! margin, each faction's held and projected regions and weight, each seat's
//! heuristic value), which a small network would otherwise have to learn.
//! `docs/learning.md` documents every slot; `kingisdead/learning/features.py`
//! computes the same vector from a `GameState` and the tests compare the two.
//!
//! [`features`] runs at every leaf of a search: it writes into the caller's
//! slice and allocates nothing.

use crate::board::{AMBASSADOR, CARD_COPIES, CROWN, GARRISON, HAND_SIZE, SETTLEMENTS};
use crate::board::{NUM_CARDS, NUM_FACTIONS, NUM_KINDS, NUM_REGIONS};
use crate::eval::{leader, strengths_with, value_from, Tally};
use crate::lastcard::last_card_applies;
use crate::state::{Move, State, MAX_PLAYERS, NONE};

/// Scale of a region's followers of one kind (clipped at 1).
pub const REGION_SCALE: f32 = 16.0;
/// Scale of a region's lead of its leader over the next kind (clipped at 1).
pub const MARGIN_SCALE: f32 = 8.0;
/// Scale of a court's followers of one faction: a court holds at most 2 + 8.
pub const COURT_SCALE: f32 = 10.0;
/// Scale of the common stock of each faction (18 followers each).
pub const STOCK_SCALE: f32 = 18.0;
/// Scale of the Loyalist supply (9 Loyalists).
pub const LOYALIST_SCALE: f32 = 9.0;

/// Slots of the game block: players one-hot (2, 3, 4), Mordred, Saxon tokens / 4,
/// struggles resolved / 8, passes / 4, the 3-player last-card rule binds the mover.
pub const GAME_SLOTS: usize = 8;
/// Slots of one region: followers of each kind (4), leader one-hot (5: Scots,
/// Welsh, Romano-British, Loyalists, Saxons; unresolved regions only), the
/// leader's margin, control one-hot (6: unresolved, the three factions,
/// Loyalists, Saxons), struggles until its own / 7, contested now, the
/// relative seat holding its Crown token (4).
pub const REGION_SLOTS: usize = 22;
/// Slots of one relative seat: present, on the observer's side, court (3),
/// hand (7), cards left, recency of the latest card play, holds the exchange
/// ban, the heuristic's value.
pub const SEAT_SLOTS: usize = 16;
/// Slots of the kinds block: regions held (5) and projected (5) by each
/// control kind / 8, each faction's weight (3), the projection is an invasion.
pub const KIND_SLOTS: usize = 14;

pub const GAME_AT: usize = 0;
pub const TO_MOVE_AT: usize = GAME_AT + GAME_SLOTS;
pub const REGIONS_AT: usize = TO_MOVE_AT + MAX_PLAYERS;
pub const STOCK_AT: usize = REGIONS_AT + NUM_REGIONS * REGION_SLOTS;
pub const SEATS_AT: usize = STOCK_AT + NUM_KINDS;
pub const KINDS_AT: usize = SEATS_AT + MAX_PLAYERS * SEAT_SLOTS;
/// Length of the feature vector.
pub const FEATURES: usize = KINDS_AT + KIND_SLOTS;

/// Action integers of the move-building steps (`interfaces/encoding.py`).
pub const PASS_ACTION: u8 = 0;
pub const CARD_BASE: u8 = 1;
pub const REGION_BASE: u8 = CARD_BASE + NUM_CARDS as u8;
pub const FACTION_BASE: u8 = REGION_BASE + NUM_REGIONS as u8;
pub const NONE_ACTION: u8 = FACTION_BASE + NUM_KINDS as u8;
pub const NUM_ACTIONS: usize = NONE_ACTION as usize + 1;
/// The longest move: a card, a 2-for-1 Garrison (5 choices) and a court call (2).
pub const MAX_STEPS: usize = 8;

#[inline]
fn scaled(x: u8, scale: f32) -> f32 {
    (f32::from(x) / scale).min(1.0)
}

/// Write the features of `s` seen from `seat` into `out[..FEATURES]`.
///
/// Works on finished games too (the heuristic values are then the result).
/// Panics if `seat` is not a seat of the game or `out` is shorter than [`FEATURES`].
pub fn features(s: &State, seat: u8, out: &mut [f32]) {
    let n = s.players as usize;
    assert!(
        (seat as usize) < n,
        "features: seat {seat} is not in a {n}-player game"
    );
    let out = &mut out[..FEATURES];
    out.fill(0.0);
    let seat = seat as usize;
    let rel = |q: usize| (q + n - seat) % n;
    let over = s.is_over();

    // The game.
    out[GAME_AT + n - 2] = 1.0;
    out[GAME_AT + 3] = f32::from(u8::from(s.mordred));
    out[GAME_AT + 4] = scaled(s.saxons, f32::from(s.invasion()));
    out[GAME_AT + 5] = scaled(s.resolved, NUM_REGIONS as f32);
    out[GAME_AT + 6] = scaled(s.passes, MAX_PLAYERS as f32);
    out[GAME_AT + 7] = f32::from(u8::from(!over && last_card_applies(s)));
    out[TO_MOVE_AT + rel(s.player as usize)] = 1.0;

    // The regions, in the board's order.
    let contested = (!over && (s.resolved as usize) < NUM_REGIONS)
        .then(|| s.order[s.resolved as usize] as usize);
    let mut position = [0usize; NUM_REGIONS];
    for (i, &r) in s.order.iter().enumerate() {
        position[r as usize] = i;
    }
    for r in 0..NUM_REGIONS {
        let o = REGIONS_AT + r * REGION_SLOTS;
        let counts = &s.board[r];
        for k in 0..NUM_KINDS {
            out[o + k] = scaled(counts[k], REGION_SCALE);
        }
        let control = s.control[r];
        if control < 0 {
            out[o + 4 + leader(counts)] = 1.0;
            let mut sorted = *counts;
            sorted.sort_unstable();
            out[o + 9] = scaled(sorted[3] - sorted[2], MARGIN_SCALE);
            let ahead = position[r].saturating_sub(s.resolved as usize);
            out[o + 16] = ahead as f32 / (NUM_REGIONS - 1) as f32;
        }
        out[o + 10 + (control + 1) as usize] = 1.0;
        out[o + 17] = f32::from(u8::from(contested == Some(r)));
        if s.crowns[r] >= 0 {
            out[o + 18 + rel(s.crowns[r] as usize)] = 1.0;
        }
    }

    out[STOCK_AT..STOCK_AT + NUM_FACTIONS]
        .iter_mut()
        .zip(&s.stock)
        .for_each(|(x, &v)| *x = scaled(v, STOCK_SCALE));
    out[STOCK_AT + 3] = scaled(s.stock[3], LOYALIST_SCALE);

    // The seats.
    let tally = Tally::of(s);
    let strength = strengths_with(s, &tally, &s.courts);
    for q in 0..n {
        let o = SEATS_AT + rel(q) * SEAT_SLOTS;
        out[o] = 1.0;
        out[o + 1] = f32::from(u8::from(q == seat || (n == 4 && q % 2 == seat % 2)));
        for f in 0..NUM_FACTIONS {
            out[o + 2 + f] = scaled(s.courts[q][f], COURT_SCALE);
        }
        for c in 0..NUM_CARDS {
            out[o + 5 + c] = scaled(s.hands[q][c], f32::from(CARD_COPIES[c]));
        }
        out[o + 12] = scaled(s.cards_left(q), f32::from(HAND_SIZE));
        // Recency: the rank of the latest card play among the seats (0: none yet).
        if s.last_play[q] > 0 {
            let rank = (0..n)
                .filter(|&p| s.last_play[p] > 0 && s.last_play[p] <= s.last_play[q])
                .count();
            out[o + 13] = rank as f32 / MAX_PLAYERS as f32;
        }
        out[o + 14] = f32::from(u8::from(
            s.undo_ban.is_some_and(|ban| ban.player as usize == q),
        ));
        let value = match &s.outcome {
            Some(outcome) => f64::from(outcome.winners >> q & 1),
            None => (value_from(&strength, n, q) + 1.0) * 0.5,
        };
        out[o + 15] = value as f32;
    }

    // The kinds: the heuristic's tally.
    let weights = if tally.invasion() {
        [0.0; NUM_FACTIONS]
    } else {
        tally.weights()
    };
    for k in 0..5 {
        out[KINDS_AT + k] = scaled(tally.held[k], NUM_REGIONS as f32);
        out[KINDS_AT + 5 + k] = scaled(tally.projected[k], NUM_REGIONS as f32);
    }
    for f in 0..NUM_FACTIONS {
        out[KINDS_AT + 10 + f] = weights[f] as f32;
    }
    out[KINDS_AT + 13] = f32::from(u8::from(tally.invasion()));
}

/// The action integers that build `m` in its canonical order (Python's
/// `encoding.move_to_actions`), written to `out`; returns how many (1-8).
pub fn move_steps(m: &Move, out: &mut [u8; MAX_STEPS]) -> usize {
    if m.is_pass() {
        out[0] = PASS_ACTION;
        return 1;
    }
    let card = m.card as u8;
    let action = m.action();
    out[0] = CARD_BASE + card;
    let mut len = 1;
    for (i, &v) in action.iter().enumerate() {
        let faction = match card {
            CROWN | SETTLEMENTS => false,
            // Exchanges: region, faction(s), region, faction.
            GARRISON | AMBASSADOR => !(i == 0 || i == action.len() - 2),
            _ => false,
        };
        out[len] = if v == NONE {
            NONE_ACTION
        } else if faction {
            FACTION_BASE + v as u8
        } else {
            REGION_BASE + v as u8
        };
        len += 1;
    }
    if let Some((r, f)) = m.court() {
        out[len] = REGION_BASE + r as u8;
        out[len + 1] = FACTION_BASE + f as u8;
        len += 2;
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playout::play_random;
    use crate::rng::SplitMix64;
    use crate::rules;
    use crate::setup::new_game;

    fn games() -> Vec<State> {
        let mut states = Vec::new();
        for (players, mordred) in [
            (2, false),
            (3, false),
            (4, false),
            (2, true),
            (3, true),
            (4, true),
        ] {
            for seed in 0..6u64 {
                let mut s = new_game(players, mordred, seed, 0).unwrap();
                let mut rng = SplitMix64::new(seed + 100);
                states.push(s);
                while !s.is_over() {
                    play_random(&mut s, &mut rng);
                    states.push(s);
                }
            }
        }
        states
    }

    #[test]
    fn the_layout_adds_up() {
        assert_eq!(FEATURES, 270);
        assert_eq!(KINDS_AT + KIND_SLOTS, FEATURES);
        assert_eq!(NUM_ACTIONS, 21);
    }

    #[test]
    fn every_slot_lies_in_the_unit_interval_and_one_hots_are_one() {
        let mut out = [0.0f32; FEATURES];
        for s in games() {
            let n = s.players as usize;
            for seat in 0..s.players {
                features(&s, seat, &mut out);
                assert!(out.iter().all(|x| (0.0..=1.0).contains(x)), "{out:?}");
                assert_eq!(out[GAME_AT..GAME_AT + 3].iter().sum::<f32>(), 1.0);
                assert_eq!(out[TO_MOVE_AT..TO_MOVE_AT + 4].iter().sum::<f32>(), 1.0);
                let present: f32 = (0..MAX_PLAYERS)
                    .map(|q| out[SEATS_AT + q * SEAT_SLOTS])
                    .sum();
                assert_eq!(present as usize, n);
                for r in 0..NUM_REGIONS {
                    let o = REGIONS_AT + r * REGION_SLOTS;
                    assert_eq!(out[o + 10..o + 16].iter().sum::<f32>(), 1.0);
                    let unresolved = s.control[r] < 0;
                    assert_eq!(
                        out[o + 4..o + 9].iter().sum::<f32>(),
                        f32::from(u8::from(unresolved))
                    );
                }
                // The observer is always seat 0 of its own view.
                assert_eq!(out[SEATS_AT + 1], 1.0);
            }
        }
    }

    #[test]
    fn the_view_turns_with_the_seat() {
        let mut a = [0.0f32; FEATURES];
        let mut b = [0.0f32; FEATURES];
        let s = new_game(3, false, 9, 0).unwrap();
        features(&s, 0, &mut a);
        features(&s, 1, &mut b);
        // Seat 0 to move: relative seat 0 for itself, relative seat 2 for seat 1.
        assert_eq!(a[TO_MOVE_AT], 1.0);
        assert_eq!(b[TO_MOVE_AT + 2], 1.0);
        let court = |v: &[f32], q: usize| {
            v[SEATS_AT + q * SEAT_SLOTS + 2..SEATS_AT + q * SEAT_SLOTS + 5].to_vec()
        };
        assert_eq!(court(&a, 1), court(&b, 0));
        assert_eq!(court(&a, 0), court(&b, 2));
    }

    /// Speed check: `cargo test --release -- --ignored --nocapture features_speed`.
    /// Prints the cost of one feature vector beside one heuristic evaluation.
    #[test]
    #[ignore]
    fn features_speed() {
        let states = games();
        let mut out = [0.0f32; FEATURES];
        let rounds = 200;
        let start = std::time::Instant::now();
        let mut sum = 0.0f32;
        for _ in 0..rounds {
            for s in &states {
                features(s, s.player, &mut out);
                sum += out[FEATURES - 1];
            }
        }
        let ours = start.elapsed().as_secs_f64() / (rounds * states.len()) as f64;
        let start = std::time::Instant::now();
        let mut total = 0.0;
        for _ in 0..rounds {
            for s in &states {
                total += crate::eval::evaluate(s)[0];
            }
        }
        let theirs = start.elapsed().as_secs_f64() / (rounds * states.len()) as f64;
        println!(
            "{} positions: features {:.0} ns, heuristic evaluation {:.0} ns ({:.1}x) [{sum} {total:.1}]",
            states.len(),
            ours * 1e9,
            theirs * 1e9,
            ours / theirs
        );
    }

    #[test]
    #[should_panic(expected = "not in a 2-player game")]
    fn a_missing_seat_is_refused() {
        let s = new_game(2, false, 1, 0).unwrap();
        features(&s, 2, &mut [0.0; FEATURES]);
    }

    #[test]
    fn move_steps_have_the_encodings_kinds() {
        let mut steps = [0u8; MAX_STEPS];
        assert_eq!(move_steps(&Move::PASS, &mut steps), 1);
        assert_eq!(steps[0], PASS_ACTION);
        let s = new_game(2, false, 3, 0).unwrap();
        let mut legal = Vec::new();
        rules::legal_moves(&s, &mut legal);
        for m in &legal {
            let len = move_steps(m, &mut steps);
            assert!((1..=MAX_STEPS).contains(&len));
            if m.is_pass() {
                continue;
            }
            assert_eq!(steps[0], CARD_BASE + m.card as u8);
            assert_eq!(len, 1 + m.len as usize + 2 * usize::from(m.court >= 0));
            assert!(steps[1..len]
                .iter()
                .all(|&a| a >= REGION_BASE && (a as usize) < NUM_ACTIONS));
            if m.card as u8 == GARRISON && m.len == 5 {
                let [a, f1, f2, b, g, ..] = m.action;
                assert_eq!(
                    steps[1..6],
                    [
                        REGION_BASE + a as u8,
                        FACTION_BASE + f1 as u8,
                        FACTION_BASE + f2 as u8,
                        REGION_BASE + b as u8,
                        FACTION_BASE + g as u8
                    ]
                );
            }
        }
    }
}
