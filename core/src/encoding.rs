//! The observation vector of `kingisdead/interfaces/encoding.py`, number for
//! number, and the rewards of `kingisdead/interfaces/stepping.py`.
//!
//! The vector is `OBSERVATION_SIZE` floats for one observer, laid out field by
//! field as Python's `encoding.FIELDS`; seats are relative to the observer
//! (0 = the observer, 1 = the next player in turn, ...). See docs/rl.md.

use crate::board::{NUM_CARDS, NUM_FACTIONS, NUM_KINDS, NUM_REGIONS};
use crate::lastcard;
use crate::state::{State, MAX_PLAYERS};
use crate::stepping::{MAX_STEPS, NUM_ACTIONS};

const BOARD: usize = 0;
const STOCK: usize = BOARD + NUM_REGIONS * NUM_KINDS;
const COURTS: usize = STOCK + NUM_KINDS;
const HANDS: usize = COURTS + MAX_PLAYERS * NUM_FACTIONS;
const CARDS_LEFT: usize = HANDS + MAX_PLAYERS * NUM_CARDS;
const TOP_CARD: usize = CARDS_LEFT + MAX_PLAYERS;
const REGION_POSITION: usize = TOP_CARD + MAX_PLAYERS * (NUM_CARDS + 1);
const CONTESTED: usize = REGION_POSITION + NUM_REGIONS * NUM_REGIONS;
const CROWNS: usize = CONTESTED + NUM_REGIONS;
const CONTROL: usize = CROWNS + NUM_REGIONS * MAX_PLAYERS;
const SAXONS: usize = CONTROL + NUM_REGIONS * 6;
const RESOLVED: usize = SAXONS + 1;
const PASSES: usize = RESOLVED + 1;
const TO_MOVE: usize = PASSES + 1;
const SEAT: usize = TO_MOVE + MAX_PLAYERS;
const PLAYERS: usize = SEAT + MAX_PLAYERS;
const MORDRED: usize = PLAYERS + 3;
const RECENT_PLAY: usize = MORDRED + 1;
const EXCHANGE_BAN: usize = RECENT_PLAY + MAX_PLAYERS;
const LAST_CARD: usize = EXCHANGE_BAN + MAX_PLAYERS;
const PARTIAL_MOVE: usize = LAST_CARD + 1;
/// Length of the observation vector (456).
pub const OBSERVATION_SIZE: usize = PARTIAL_MOVE + MAX_STEPS * NUM_ACTIONS;

/// Writes the observation of `s` for `player`, with `steps` of a move already
/// chosen, into `out` (length [`OBSERVATION_SIZE`]; every slot is written).
pub fn observe(s: &State, player: usize, steps: &[u8], out: &mut [f32]) {
    assert_eq!(
        out.len(),
        OBSERVATION_SIZE,
        "observation buffer of the wrong length"
    );
    out.fill(0.0);
    let n = s.players as usize;
    let rel = |q: usize| (q + n - player) % n;
    for (r, row) in s.board.iter().enumerate() {
        for (k, &v) in row.iter().enumerate() {
            out[BOARD + r * NUM_KINDS + k] = v as f32;
        }
    }
    for (k, &v) in s.stock.iter().enumerate() {
        out[STOCK + k] = v as f32;
    }
    for q in 0..n {
        let r = rel(q);
        for f in 0..NUM_FACTIONS {
            out[COURTS + r * NUM_FACTIONS + f] = s.courts[q][f] as f32;
        }
        for c in 0..NUM_CARDS {
            out[HANDS + r * NUM_CARDS + c] = s.hands[q][c] as f32;
        }
        out[CARDS_LEFT + r] = s.cards_left(q) as f32;
        out[TOP_CARD + r * (NUM_CARDS + 1) + (s.tops[q] + 1) as usize] = 1.0;
        // Rank among the players who played a card (plays are numbered, so distinct).
        let mine = s.last_play[q];
        if mine > 0 {
            let rank = (0..n)
                .filter(|&p| s.last_play[p] > 0 && s.last_play[p] <= mine)
                .count();
            out[RECENT_PLAY + r] = rank as f32;
        }
    }
    for (position, &region) in s.order.iter().enumerate() {
        out[REGION_POSITION + region as usize * NUM_REGIONS + position] = 1.0;
    }
    for region in 0..NUM_REGIONS {
        if s.crowns[region] >= 0 {
            out[CROWNS + region * MAX_PLAYERS + rel(s.crowns[region] as usize)] = 1.0;
        }
        out[CONTROL + region * 6 + (s.control[region] + 1) as usize] = 1.0;
    }
    if (s.resolved as usize) < NUM_REGIONS && !s.is_over() {
        out[CONTESTED + s.order[s.resolved as usize] as usize] = 1.0;
    }
    out[SAXONS] = s.saxons as f32;
    out[RESOLVED] = s.resolved as f32;
    out[PASSES] = s.passes as f32;
    out[TO_MOVE + rel(s.player as usize)] = 1.0;
    out[SEAT + player] = 1.0;
    out[PLAYERS + n - 2] = 1.0;
    out[MORDRED] = s.mordred as u8 as f32;
    if let Some(ban) = s.undo_ban {
        out[EXCHANGE_BAN + rel(ban.player as usize)] = 1.0;
    }
    out[LAST_CARD] = (!s.is_over() && lastcard::last_card_applies(s)) as u8 as f32;
    for (i, &action) in steps.iter().enumerate() {
        out[PARTIAL_MOVE + i * NUM_ACTIONS + action as usize] = 1.0;
    }
}

/// Each seat's reward once the game is over, into `out[..players]`: +1 to each
/// winner, -1 to the others, 0 to all when everyone wins; all 0 before the end
/// (Python `stepping.returns`).
pub fn returns(s: &State, out: &mut [f32]) {
    let n = s.players as usize;
    let winners = s.outcome.map_or(0, |o| o.winners);
    let everyone = (1u8 << n) - 1;
    for (p, value) in out[..n].iter_mut().enumerate() {
        *value = if winners == 0 || winners == everyone {
            0.0
        } else if winners >> p & 1 == 1 {
            1.0
        } else {
            -1.0
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use crate::setup::new_game;
    use crate::stepping::SteppedGame;

    #[test]
    fn the_layout_has_python_s_size() {
        assert_eq!(OBSERVATION_SIZE, 456);
        assert_eq!(PARTIAL_MOVE, 288);
    }

    #[test]
    fn a_start_position_seen_by_each_seat() {
        let s = new_game(3, true, 5, 1).unwrap();
        let mut out = vec![0.0; OBSERVATION_SIZE];
        for player in 0..3 {
            observe(&s, player, &[], &mut out);
            assert_eq!(out[SEAT + player], 1.0);
            assert_eq!(out[PLAYERS + 1], 1.0);
            assert_eq!(out[MORDRED], 1.0);
            // Seat 1 is to move: relative seat (1 - player) mod 3.
            assert_eq!(out[TO_MOVE + (1 + 3 - player) % 3], 1.0);
            assert_eq!(out[CARDS_LEFT], 8.0);
            assert_eq!(
                out[CARDS_LEFT + 3],
                0.0,
                "no fourth seat in a 3-player game"
            );
            assert_eq!(out[CONTESTED + s.order[0] as usize], 1.0);
            let on_board: f32 = out[BOARD..STOCK].iter().sum();
            let total: u32 = s.board.iter().flatten().map(|&v| v as u32).sum();
            assert_eq!(on_board, total as f32);
            assert!(out.iter().all(|v| *v >= 0.0));
        }
    }

    #[test]
    fn rewards_are_zero_until_the_end_then_plus_and_minus_one() {
        let mut rng = SplitMix64::new(9);
        for players in 2..=4u8 {
            let mut game = SteppedGame::new(new_game(players, false, 21, 0).unwrap());
            let mut out = [9.0f32; MAX_PLAYERS];
            while !game.is_over() {
                returns(&game.state, &mut out);
                assert!(out[..players as usize].iter().all(|&v| v == 0.0));
                let offered = game.offered();
                let pick = crate::rules::Bits(offered)
                    .nth(rng.index(offered.count_ones() as usize))
                    .unwrap();
                game.step(pick as i64).unwrap();
            }
            returns(&game.state, &mut out);
            let winners = game.state.outcome.unwrap().winners;
            for (p, &value) in out[..players as usize].iter().enumerate() {
                let expected = if winners.count_ones() == players as u32 {
                    0.0
                } else if winners >> p & 1 == 1 {
                    1.0
                } else {
                    -1.0
                };
                assert_eq!(value, expected);
            }
        }
    }
}
