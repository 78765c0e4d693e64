//! The observation vector of `kingisdead/interfaces/encoding.py`, number for
//! number, and the rewards of `kingisdead/interfaces/stepping.py`.
//!
//! The standard game's vector is `OBSERVATION_SIZE` floats for one observer,
//! laid out field by field as Python's `encoding.FIELDS`; the advanced game's
//! is `ADVANCED_OBSERVATION_SIZE` floats, `encoding.ADVANCED_FIELDS`, built
//! from what the observer's seat may know (Python's `view_observation` of
//! `state.view(seat)`): its own Cunning cards, every card played, how many
//! each other seat holds, never which. Seats are relative to the observer
//! (0 = the observer, 1 = the next player in turn, ...). See docs/rl.md.

use crate::board::{
    CUNNING_DEALT, FIRST_CUNNING, NUM_CARDS, NUM_CUNNING, NUM_FACTIONS, NUM_KINDS, NUM_REGIONS,
};
use crate::lastcard;
use crate::state::{State, MAX_PLAYERS};
use crate::stepping::{ADVANCED_MAX_STEPS, ADVANCED_NUM_ACTIONS, MAX_STEPS, NUM_ACTIONS};

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
/// Length of the standard game's observation vector (456).
pub const OBSERVATION_SIZE: usize = PARTIAL_MOVE + MAX_STEPS * NUM_ACTIONS;

/// The advanced game's vector has the standard fields from `top_card` to
/// `last_card` this much earlier: its `cards_left` comes after them.
const ADVANCED_SHIFT: usize = MAX_PLAYERS;
const ADVANCED_CARDS_LEFT: usize = PARTIAL_MOVE - ADVANCED_SHIFT;
const CUNNING_HAND: usize = ADVANCED_CARDS_LEFT + MAX_PLAYERS;
const CUNNING_HIDDEN: usize = CUNNING_HAND + NUM_CUNNING;
const CUNNING_PLAYED: usize = CUNNING_HIDDEN + MAX_PLAYERS;
const CUNNING_TOP: usize = CUNNING_PLAYED + MAX_PLAYERS * NUM_CUNNING;
const ADVANCED_PARTIAL_MOVE: usize = CUNNING_TOP + MAX_PLAYERS * NUM_CUNNING;
/// Length of the advanced game's observation vector (770).
pub const ADVANCED_OBSERVATION_SIZE: usize =
    ADVANCED_PARTIAL_MOVE + ADVANCED_MAX_STEPS * ADVANCED_NUM_ACTIONS;

/// The length of the observation of `s`'s game: [`OBSERVATION_SIZE`] or [`ADVANCED_OBSERVATION_SIZE`].
pub fn observation_size(s: &State) -> usize {
    if s.advanced() {
        ADVANCED_OBSERVATION_SIZE
    } else {
        OBSERVATION_SIZE
    }
}

/// Writes the observation of `s` for `player`, with `steps` of a move already
/// chosen, into `out` (length [`observation_size`]; every slot is written), as
/// Python's `encoding.observation`: in the advanced game only what `player`'s
/// seat may know, and the steps and the last-card rule only when `player` is
/// the one to move.
pub fn observe(s: &State, player: usize, steps: &[u8], out: &mut [f32]) {
    assert_eq!(
        out.len(),
        observation_size(s),
        "observation buffer of the wrong length"
    );
    out.fill(0.0);
    let n = s.players as usize;
    let rel = |q: usize| (q + n - player) % n;
    let over = s.is_over();
    if !s.advanced() {
        public::<0>(s, player, out);
        out[SAXONS] = s.saxons as f32;
        for q in 0..n {
            out[CARDS_LEFT + rel(q)] = s.cards_left(q) as f32;
        }
        out[LAST_CARD] = (!over && lastcard::last_card_applies(s)) as u8 as f32;
        for (i, &action) in steps.iter().enumerate() {
            out[PARTIAL_MOVE + i * NUM_ACTIONS + action as usize] = 1.0;
        }
        return;
    }
    let shift = ADVANCED_SHIFT;
    public::<ADVANCED_SHIFT>(s, player, out);
    // The view's count of invaded regions (Python `view.control.count(SAXONS)`).
    let invaded = s
        .control
        .iter()
        .filter(|&&c| c == crate::board::SAXONS)
        .count();
    out[SAXONS - shift] = invaded as f32;
    for q in 0..n {
        let r = rel(q);
        // Another seat's unplayed Cunning cards are only a count (each is dealt three).
        let (own, hidden) = if q == player {
            (s.cunning[q].count_ones() as usize, 0)
        } else {
            (0, CUNNING_DEALT - s.cunning_played[q].count_ones() as usize)
        };
        let actions: usize = s.hands[q].iter().map(|&c| c as usize).sum();
        out[ADVANCED_CARDS_LEFT + r] = (actions + own + hidden) as f32;
        out[CUNNING_HIDDEN + r] = hidden as f32;
        for i in 0..NUM_CUNNING {
            out[CUNNING_PLAYED + r * NUM_CUNNING + i] = (s.cunning_played[q] >> i & 1) as f32;
        }
        if s.tops[q] >= FIRST_CUNNING as i8 {
            out[CUNNING_TOP + r * NUM_CUNNING + (s.tops[q] as u8 - FIRST_CUNNING) as usize] = 1.0;
        }
    }
    for i in 0..NUM_CUNNING {
        out[CUNNING_HAND + i] = (s.cunning[player] >> i & 1) as f32;
    }
    let mine = player == s.player as usize && !over;
    if mine {
        out[LAST_CARD - shift] = lastcard::last_card_applies(s) as u8 as f32;
        for (i, &action) in steps.iter().enumerate() {
            out[ADVANCED_PARTIAL_MOVE + i * ADVANCED_NUM_ACTIONS + action as usize] = 1.0;
        }
    }
}

/// Writes the fields every seat sees (Python `encoding._public`): the board, the
/// stock, the courts, the Action cards in hand, the piles' standard top cards,
/// the regions and the turn; the fields from `top_card` on `SHIFT` slots earlier
/// (a constant: the offsets fold).
fn public<const SHIFT: usize>(s: &State, player: usize, out: &mut [f32]) {
    let shift = SHIFT;
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
        // A Cunning card on top shows in the advanced game's `cunning_top` instead.
        if s.tops[q] < FIRST_CUNNING as i8 {
            out[TOP_CARD - shift + r * (NUM_CARDS + 1) + (s.tops[q] + 1) as usize] = 1.0;
        }
        // Rank among the players who played a card (plays are numbered, so distinct).
        let mine = s.last_play[q];
        if mine > 0 {
            let rank = (0..n)
                .filter(|&p| s.last_play[p] > 0 && s.last_play[p] <= mine)
                .count();
            out[RECENT_PLAY - shift + r] = rank as f32;
        }
    }
    for (position, &region) in s.order.iter().enumerate() {
        out[REGION_POSITION - shift + region as usize * NUM_REGIONS + position] = 1.0;
    }
    for region in 0..NUM_REGIONS {
        if s.crowns[region] >= 0 {
            out[CROWNS - shift + region * MAX_PLAYERS + rel(s.crowns[region] as usize)] = 1.0;
        }
        out[CONTROL - shift + region * 6 + (s.control[region] + 1) as usize] = 1.0;
    }
    if (s.resolved as usize) < NUM_REGIONS && !s.is_over() {
        out[CONTESTED - shift + s.order[s.resolved as usize] as usize] = 1.0;
    }
    out[RESOLVED - shift] = s.resolved as f32;
    out[PASSES - shift] = s.passes as f32;
    out[TO_MOVE - shift + rel(s.player as usize)] = 1.0;
    out[SEAT - shift + player] = 1.0;
    out[PLAYERS - shift + n - 2] = 1.0;
    out[MORDRED - shift] = s.mordred as u8 as f32;
    if let Some(ban) = s.undo_ban {
        out[EXCHANGE_BAN - shift + rel(ban.player as usize)] = 1.0;
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
                let pick = (0..64)
                    .filter(|&a| offered >> a & 1 == 1)
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

    /// A 3-player advanced game, seat 1 to move.
    fn advanced(seed: u64) -> State {
        let mode = crate::board::ADVANCED;
        crate::setup::new_game_in_mode(crate::board::SECOND_EDITION, 0, mode, 3, false, seed, 1)
            .unwrap()
    }

    #[test]
    fn the_advanced_layout_has_python_s_size() {
        assert_eq!(ADVANCED_OBSERVATION_SIZE, 770);
        assert_eq!(
            (ADVANCED_CARDS_LEFT, CUNNING_HAND, ADVANCED_PARTIAL_MOVE),
            (284, 288, 400)
        );
    }

    #[test]
    fn an_advanced_observation_shows_the_own_cunning_cards_and_only_counts_the_others() {
        let s = advanced(4);
        let mut out = vec![0.0; ADVANCED_OBSERVATION_SIZE];
        for player in 0..3 {
            observe(&s, player, &[], &mut out);
            let hand: Vec<f32> = (0..NUM_CUNNING)
                .map(|i| (s.cunning[player] >> i & 1) as f32)
                .collect();
            assert_eq!(&out[CUNNING_HAND..CUNNING_HIDDEN], &hand[..]);
            assert_eq!(&out[CUNNING_HIDDEN..CUNNING_PLAYED], &[0.0, 3.0, 3.0, 0.0]);
            let left: Vec<f32> = (0..3).map(|q| s.cards_left(q) as f32).collect();
            assert_eq!(&out[ADVANCED_CARDS_LEFT..CUNNING_HAND - 1], &left[..]);
            assert_eq!(out[SEAT - ADVANCED_SHIFT + player], 1.0);
            assert_eq!(out[TO_MOVE - ADVANCED_SHIFT + (4 - player) % 3], 1.0);
            assert!(out[CUNNING_PLAYED..].iter().all(|&v| v == 0.0));
        }
    }

    #[test]
    fn another_seats_hidden_cards_do_not_change_the_observation() {
        // Seat 2 gives a card to the box and takes one from it; seats 1 and 2 then swap hands.
        let s = advanced(7);
        let all = (1u16 << NUM_CUNNING) - 1;
        let boxed = all & !(s.cunning[0] | s.cunning[1] | s.cunning[2]);
        let mut twin = s;
        let low = twin.cunning[2] & twin.cunning[2].wrapping_neg();
        twin.cunning[2] = twin.cunning[2] & !low | boxed & boxed.wrapping_neg();
        twin.cunning.swap(1, 2);
        let (mut seen, mut twin_seen) = (vec![0.0; 770], vec![0.0; 770]);
        observe(&s, 0, &[], &mut seen);
        observe(&twin, 0, &[], &mut twin_seen);
        assert_eq!(seen, twin_seen);
        observe(&s, 1, &[], &mut seen);
        observe(&twin, 1, &[], &mut twin_seen);
        assert_ne!(seen, twin_seen, "seat 1's own hand changed");
    }

    #[test]
    fn only_the_mover_sees_its_steps_and_a_cunning_top_card_leaves_top_card_empty() {
        let mut s = advanced(2);
        s.tops[0] = crate::board::AID as i8;
        let mut out = vec![0.0; ADVANCED_OBSERVATION_SIZE];
        let steps = [crate::stepping::CUNNING_BASE + 1];
        observe(&s, 1, &steps, &mut out);
        assert_eq!(out[ADVANCED_PARTIAL_MOVE + steps[0] as usize], 1.0);
        // Seat 0 is relative seat 2 for seat 1: its top is the Aid, index 1 of the Cunning cards.
        assert_eq!(out[CUNNING_TOP + 2 * NUM_CUNNING + 1], 1.0);
        let top_row = TOP_CARD - ADVANCED_SHIFT + 2 * (NUM_CARDS + 1);
        assert!(out[top_row..top_row + NUM_CARDS + 1]
            .iter()
            .all(|&v| v == 0.0));
        observe(&s, 0, &steps, &mut out);
        assert!(out[ADVANCED_PARTIAL_MOVE..].iter().all(|&v| v == 0.0));
    }
}
