//! The heuristic judgement of a position, the same formula and constants as
//! `kingisdead/evaluation.py` (values agree with Python to the last bit or so),
//! and the search's rewards from `kingisdead/bots/mcts.py`.
//!
//! The projection assumes every unresolved region goes to the kind now leading
//! in it (a tie or an empty region to the Saxons), weighs each faction by how
//! likely it is to rule, and scores each player by how far they lead the
//! others. It is a heuristic, not a rule. Search calls it for every candidate
//! move, so nothing here allocates.

use crate::board::{LOYALISTS, NUM_FACTIONS, NUM_KINDS, NUM_REGIONS};
use crate::state::{State, MAX_PLAYERS};

/// Worth of a card in hand, in followers of the ruling faction (Python `CARD_VALUE`).
///
/// Just above one follower: a card whose only gain is the follower it calls to
/// court is worth keeping, since whoever holds cards late decides the last
/// struggles (measured in docs/bots.md).
pub const CARD_VALUE: f64 = 1.02;
/// How much a region counts while only projected (a resolved one counts 1).
pub const PROJECTED_WEIGHT: f64 = 0.8;
/// Lead in weighted followers that makes a position about 76% won (tanh(1)).
pub const SPREAD: f64 = 3.0;

/// Index of the Saxons in a [`Tally`] (the control value 4).
const SAXON_SLOT: usize = 4;

/// Who would win a region's struggle now: the strictly largest kind, else the
/// Saxons (4), as `evaluation._leader`.
#[inline]
pub fn leader(counts: &[u8; NUM_KINDS]) -> usize {
    let [a, b, c, d] = *counts;
    let best = a.max(b).max(c).max(d);
    if best == 0 {
        return SAXON_SLOT;
    }
    let ties =
        u8::from(a == best) + u8::from(b == best) + u8::from(c == best) + u8::from(d == best);
    if ties > 1 {
        SAXON_SLOT
    } else if a == best {
        0
    } else if b == best {
        1
    } else if c == best {
        2
    } else {
        LOYALISTS
    }
}

/// Control of every region if each unresolved one went to its current leader.
pub fn projected_control(s: &State) -> [i8; NUM_REGIONS] {
    let mut out = s.control;
    for (r, c) in out.iter_mut().enumerate() {
        if *c < 0 {
            *c = leader(&s.board[r]) as i8;
        }
    }
    out
}

/// Regions each kind holds (resolved) and is projected to take (unresolved),
/// indexed by control value: 0-2 the factions, 3 Loyalists, 4 Saxons.
///
/// Kept apart from [`strengths`] so that a caller judging many court calls can
/// adjust one region's projection instead of recounting the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    pub held: [u8; 5],
    pub projected: [u8; 5],
    /// Saxon tokens (instability discs) that end the game: the edition's.
    pub invasion_at: u8,
}

impl Tally {
    pub fn of(s: &State) -> Tally {
        let mut tally = Tally {
            held: [0; 5],
            projected: [0; 5],
            invasion_at: s.invasion(),
        };
        for r in 0..NUM_REGIONS {
            let c = s.control[r];
            if c >= 0 {
                tally.held[c as usize] += 1;
            } else {
                tally.projected[leader(&s.board[r])] += 1;
            }
        }
        tally
    }

    /// Whether the projection ends in a Saxon invasion.
    #[inline]
    pub fn invasion(&self) -> bool {
        self.held[SAXON_SLOT] + self.projected[SAXON_SLOT] >= self.invasion_at
    }

    /// Each faction's weight `(expected / top) ** 3` (unused on the invasion course).
    #[inline]
    pub fn weights(&self) -> [f64; NUM_FACTIONS] {
        let expected: [f64; NUM_FACTIONS] = std::array::from_fn(|f| {
            f64::from(self.held[f]) + PROJECTED_WEIGHT * f64::from(self.projected[f])
        });
        let top = expected[0].max(expected[1]).max(expected[2]);
        // Python: `max(expected) or 1.0`.
        let top = if top == 0.0 { 1.0 } else { top };
        expected.map(|e| (e / top).powf(3.0))
    }
}

/// Each player's weighted court plus cards in hand (teams pooled with 4 players),
/// as `evaluation.strengths`; entries past `s.players` are 0.
pub fn strengths(s: &State) -> [f64; MAX_PLAYERS] {
    strengths_with(s, &Tally::of(s), &s.courts)
}

/// [`strengths`] from a given tally and courts (the hands are the state's).
#[inline]
pub fn strengths_with(
    s: &State,
    tally: &Tally,
    courts: &[[u8; NUM_FACTIONS]; MAX_PLAYERS],
) -> [f64; MAX_PLAYERS] {
    let n = s.players as usize;
    let invasion = tally.invasion();
    let [w0, w1, w2] = if invasion { [0.0; 3] } else { tally.weights() };
    let mut strength = [0.0; MAX_PLAYERS];
    for (p, (x, court)) in strength.iter_mut().zip(courts).enumerate().take(n) {
        let [a, b, c] = *court;
        *x = if invasion {
            // Heading for an invasion: complete sets decide, and followers towards them count a little.
            f64::from(a.min(b).min(c)) * 2.0 + f64::from(a + b + c) * 0.2
        } else {
            w0 * f64::from(a) + w1 * f64::from(b) + w2 * f64::from(c)
        };
        // Cards in hand, the advanced game's Cunning cards (Plot too) included, as Python's.
        *x += CARD_VALUE * f64::from(s.cards_left(p));
    }
    if n == 4 {
        let team = [strength[0] + strength[2], strength[1] + strength[3]];
        strength = [team[0], team[1], team[0], team[1]];
    }
    strength
}

/// Player `p`'s value from everyone's strengths: `0.95 * tanh(lead / SPREAD)`
/// against the strongest rival (partners are no rivals with 4 players).
#[inline]
pub fn value_from(strength: &[f64; MAX_PLAYERS], players: usize, p: usize) -> f64 {
    let mut rival = f64::NEG_INFINITY;
    for (q, &x) in strength.iter().enumerate().take(players) {
        if q != p && (players != 4 || q % 2 != p % 2) && x > rival {
            rival = x;
        }
    }
    0.95 * ((strength[p] - rival) / SPREAD).tanh()
}

/// A value per player in [-1, 1], higher is better (`evaluation.evaluate`);
/// entries past `s.players` are 0.
///
/// A finished game gives +1 to winners and -1 to the others. A running one
/// compares players' courts, each faction weighted by how likely it is to rule,
/// plus [`CARD_VALUE`] for every card still in hand.
pub fn evaluate(s: &State) -> [f64; MAX_PLAYERS] {
    let n = s.players as usize;
    let mut values = [0.0; MAX_PLAYERS];
    if let Some(outcome) = &s.outcome {
        for (p, v) in values.iter_mut().enumerate().take(n) {
            *v = if outcome.winners >> p & 1 == 1 {
                1.0
            } else {
                -1.0
            };
        }
        return values;
    }
    let strength = strengths(s);
    for (p, v) in values.iter_mut().enumerate().take(n) {
        *v = value_from(&strength, n, p);
    }
    values
}

/// [`evaluate`] for one player only (the same number, bit for bit).
#[inline]
pub fn evaluate_for(s: &State, p: usize) -> f64 {
    if let Some(outcome) = &s.outcome {
        return if outcome.winners >> p & 1 == 1 {
            1.0
        } else {
            -1.0
        };
    }
    value_from(&strengths(s), s.players as usize, p)
}

/// Each player's reward in [0, 1] for the search (`mcts.rewards`): the result
/// when the game is over, shared equally between the winning sides, else the
/// heuristic rescaled.
pub fn rewards(s: &State) -> [f64; MAX_PLAYERS] {
    let n = s.players as usize;
    let mut out = [0.0; MAX_PLAYERS];
    match &s.outcome {
        Some(outcome) => {
            let winners = outcome.winners;
            let sides = if n == 4 {
                u32::from(winners & 0b0101 != 0) + u32::from(winners & 0b1010 != 0)
            } else {
                winners.count_ones()
            };
            let share = if sides > 0 {
                1.0 / f64::from(sides)
            } else {
                0.0
            };
            for (p, r) in out.iter_mut().enumerate().take(n) {
                if winners >> p & 1 == 1 {
                    *r = share;
                }
            }
        }
        None => {
            let values = evaluate(s);
            for p in 0..n {
                out[p] = (values[p] + 1.0) * 0.5;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{NUM_CARDS, SAXONS, UNRESOLVED};
    use crate::state::{Ending, Outcome};

    /// A plain running 2-player position built by hand (no setup needed).
    fn position(players: u8) -> State {
        State {
            edition: crate::board::FIRST_EDITION,
            options: crate::board::FIRST.default_options(),
            players,
            mordred: false,
            board: [
                [2, 2, 0, 0],
                [2, 2, 0, 0],
                [0, 0, 3, 0],
                [0, 0, 0, 0],
                [1, 0, 0, 0],
                [0, 1, 1, 0],
                [4, 1, 0, 0],
                [0, 0, 2, 0],
            ],
            stock: [5, 5, 5, 0],
            courts: [[2, 1, 0], [0, 1, 3], [1, 1, 1], [0, 0, 2]],
            hands: [[1; NUM_CARDS]; MAX_PLAYERS],
            order: [0, 1, 2, 3, 4, 5, 6, 7],
            crowns: [-1; NUM_REGIONS],
            control: [UNRESOLVED; NUM_REGIONS],
            open: 0xff,
            resolved: 0,
            saxons: 0,
            player: 0,
            passes: 0,
            tops: [-1; MAX_PLAYERS],
            last_play: [0; MAX_PLAYERS],
            plays: 0,
            mode: 0,
            cunning: [0; MAX_PLAYERS],
            cunning_played: [0; MAX_PLAYERS],
            undo_ban: None,
            outcome: None,
        }
    }

    #[test]
    fn leader_needs_a_strict_majority() {
        assert_eq!(leader(&[0, 0, 0, 0]), SAXONS as usize);
        assert_eq!(leader(&[1, 1, 0, 0]), SAXONS as usize);
        assert_eq!(leader(&[1, 2, 0, 0]), 1);
        assert_eq!(leader(&[0, 0, 0, 1]), LOYALISTS);
    }

    #[test]
    fn matches_a_hand_computation() {
        let s = position(2);
        // Leaders: tie, tie, R, empty, S, tie, S, R -> S 2, R 2, Saxons 4 (invasion).
        let t = Tally::of(&s);
        assert_eq!(t.projected, [2, 0, 2, 0, 4]);
        assert!(t.invasion());
        // Invasion course: sets * 2 + followers * 0.2, plus 1.02 per card (7 each).
        let strength = strengths(&s);
        assert!((strength[0] - (0.0 + 0.6 + 7.14)).abs() < 1e-12);
        assert!((strength[1] - (0.0 + 0.8 + 7.14)).abs() < 1e-12);
        let v = evaluate(&s);
        assert!((v[0] - 0.95 * ((7.74 - 7.94) / 3.0f64).tanh()).abs() < 1e-12);
        assert!((v[0] + v[1]).abs() < 1e-12);
    }

    #[test]
    fn weights_follow_the_projection() {
        let mut s = position(2);
        s.board[3] = [0, 1, 0, 0]; // Deva now Welsh: 3 Saxons, no invasion.
        let t = Tally::of(&s);
        assert!(!t.invasion());
        let w = t.weights();
        // Expected: S 1.6, W 0.8, R 1.6.
        assert_eq!(w[0], 1.0);
        assert!((w[1] - 0.125).abs() < 1e-15);
        let strength = strengths(&s);
        assert!((strength[0] - (2.0 + 0.125 + 7.14)).abs() < 1e-12);
    }

    #[test]
    fn four_players_pool_teams_and_compare_with_the_other_team() {
        let s = position(4);
        let strength = strengths(&s);
        assert_eq!(strength[0], strength[2]);
        assert_eq!(strength[1], strength[3]);
        let v = evaluate(&s);
        assert_eq!(v[0], v[2]);
        assert!((v[0] + v[1]).abs() < 1e-12);
        assert_eq!(evaluate_for(&s, 1), v[1]);
    }

    #[test]
    fn finished_games_score_the_result() {
        let mut s = position(4);
        s.outcome = Some(Outcome {
            ending: Ending::Coronation,
            winners: 0b0101,
            ruler: 0,
            ranking: [0, 1, 2],
            ranked: 3,
        });
        assert_eq!(evaluate(&s), [1.0, -1.0, 1.0, -1.0]);
        assert_eq!(rewards(&s), [1.0, 0.0, 1.0, 0.0]);
        s.players = 3;
        s.outcome.as_mut().unwrap().winners = 0b011;
        assert_eq!(rewards(&s), [0.5, 0.5, 0.0, 0.0]);
    }

    #[test]
    fn rewards_rescale_the_heuristic() {
        let s = position(3);
        let v = evaluate(&s);
        let r = rewards(&s);
        for p in 0..3 {
            assert!((r[p] - (v[p] + 1.0) * 0.5).abs() < 1e-15);
        }
        assert_eq!(r[3], 0.0);
    }
}
