//! Promising moves without listing every legal move, as
//! `kingisdead/bots/candidates.py`.
//!
//! A 2-player start has about 19,000 legal moves, nearly all of them the same
//! few ideas with a different court call. Search cannot afford to list them at
//! every node, so it works from a short list built here: for each card in hand
//! a few actions drawn from that card's legal actions, each finished with the
//! court call the heuristic likes best, plus the pass, all ranked by
//! [`evaluate`](crate::eval::evaluate).
//!
//! The draws come from [`SplitMix64`], so the actions drawn differ from
//! Python's (which uses `random.Random`); the procedure is the same.
//! Court preferences are judged incrementally (a call changes one region's
//! count and one court), with the same arithmetic as `evaluate`, so they give
//! the same numbers without copying the state once per call.

use crate::board::{NUM_CARDS, NUM_FACTIONS, NUM_REGIONS};
use crate::eval::{evaluate_for, leader, strengths_with, value_from, Tally};
use crate::lastcard::last_card_applies;
use crate::rng::SplitMix64;
use crate::rules;
use crate::state::{Move, State};

/// The most court calls a board can offer: every faction in every region.
pub const MAX_COURT_CALLS: usize = NUM_REGIONS * NUM_FACTIONS;

/// Court calls as `(region, faction)`, best first for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CourtPreferences {
    calls: [(u8, u8); MAX_COURT_CALLS],
    len: usize,
}

impl CourtPreferences {
    pub fn as_slice(&self) -> &[(u8, u8)] {
        &self.calls[..self.len]
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The first preferred call still possible on `board`, if any.
    fn first_on(&self, board: &[[u8; 4]; NUM_REGIONS]) -> Option<(usize, usize)> {
        self.as_slice()
            .iter()
            .map(|&(r, f)| (r as usize, f as usize))
            .find(|&(r, f)| board[r][f] > 0)
    }
}

/// The court calls open on a board, in the rules' order (region, then faction).
fn for_each_call(s: &State, mut f: impl FnMut(usize, usize)) {
    for r in 0..NUM_REGIONS {
        if s.open >> r & 1 == 1 {
            for faction in 0..NUM_FACTIONS {
                if s.board[r][faction] > 0 {
                    f(r, faction);
                }
            }
        }
    }
}

/// What calling `(region, faction)` to `mover`'s court is worth to the mover,
/// the same number as `evaluate` after the call, computed from the state's
/// tally without copying the state.
pub(crate) fn call_value(
    s: &State,
    tally: &Tally,
    mover: usize,
    region: usize,
    faction: usize,
) -> f64 {
    let mut counts = s.board[region];
    let before = leader(&counts);
    counts[faction] -= 1;
    let after = leader(&counts);
    let mut t = *tally;
    t.projected[before] -= 1;
    t.projected[after] += 1;
    let mut courts = s.courts;
    courts[mover][faction] += 1;
    value_from(&strengths_with(s, &t, &courts), s.players as usize, mover)
}

/// The court calls open now, best first for the player to move, judged by
/// calling alone (`candidates.court_preferences`; ties keep the rules' order).
pub fn court_preferences(s: &State) -> CourtPreferences {
    let mover = s.player as usize;
    let tally = Tally::of(s);
    let mut scored = [(0.0f64, 0u8, 0u8); MAX_COURT_CALLS];
    let mut len = 0;
    for_each_call(s, |r, f| {
        scored[len] = (call_value(s, &tally, mover, r, f), r as u8, f as u8);
        len += 1;
    });
    // Stable, best first: equal values keep the rules' order, as Python's sort.
    scored[..len].sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut prefs = CourtPreferences {
        calls: [(0, 0); MAX_COURT_CALLS],
        len,
    };
    for (slot, &(_, r, f)) in prefs.calls.iter_mut().zip(&scored[..len]) {
        *slot = (r, f);
    }
    prefs
}

/// The court call for `mover` after a card's action: the first preferred call
/// still possible, else the best call left judged directly (the action emptied
/// every preferred spot), else none (`candidates._best_court`).
pub fn best_court(
    after: &State,
    mover: usize,
    preferences: &CourtPreferences,
) -> Option<(usize, usize)> {
    if let Some(call) = preferences.first_on(&after.board) {
        return Some(call);
    }
    let tally = Tally::of(after);
    let mut best = None;
    let mut best_value = -2.0;
    for_each_call(after, |r, f| {
        let value = call_value(after, &tally, mover, r, f);
        if value > best_value {
            best = Some((r, f));
            best_value = value;
        }
    });
    best
}

/// Play `card` with `action` on a copy of `s` and add the preferred court
/// call: the move and the state after it (`candidates.finish_move`).
pub fn finish_move(
    s: &State,
    card: u8,
    action: &[i8],
    preferences: &CourtPreferences,
) -> (Move, State) {
    let mover = s.player as usize;
    let mut after = *s;
    rules::play_card(&mut after, card, action);
    let court = best_court(&after, mover, preferences);
    rules::finish_turn(&mut after, court);
    (Move::card_play(card, action, court), after)
}

/// Builds candidate lists with reusable buffers (search builds one per node).
#[derive(Debug, Default)]
pub struct CandidateBuilder {
    actions: Vec<Move>,
    keys: Vec<f64>,
}

/// A standard Gumbel variate, `-ln(-ln u)` for `u` uniform in (0, 1).
fn gumbel(rng: &mut SplitMix64) -> f64 {
    let u = ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
    -(-u.ln()).ln()
}

impl CandidateBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Append the ranked candidates of `s` to `out` (see [`ranked_candidates`]);
    /// only the appended part is sorted.
    pub fn build(
        &mut self,
        s: &State,
        rng: &mut SplitMix64,
        per_card: usize,
        out: &mut Vec<(f64, Move)>,
    ) {
        self.build_drawn(s, rng, per_card, out, None);
    }

    /// [`CandidateBuilder::build`], with a card's actions drawn by `score`
    /// where it has more than `per_card`: the `per_card` actions of largest
    /// `score(action) + Gumbel noise`, a draw without replacement with chances
    /// proportional to `exp(score)` (Gumbel-top-k); None draws uniformly.
    pub fn build_drawn(
        &mut self,
        s: &State,
        rng: &mut SplitMix64,
        per_card: usize,
        out: &mut Vec<(f64, Move)>,
        mut score: Option<&mut dyn FnMut(&Move) -> f64>,
    ) {
        let mover = s.player as usize;
        let start = out.len();
        let mut after = *s;
        rules::play(&mut after, &Move::PASS);
        out.push((evaluate_for(&after, mover), Move::PASS));
        if last_card_applies(s) {
            // With 3 players' last card in play the few legal moves are listed exactly.
            self.actions.clear();
            rules::legal_moves(s, &mut self.actions);
            for mv in self.actions.iter().filter(|m| !m.is_pass()) {
                let mut after = *s;
                rules::play(&mut after, mv);
                out.push((evaluate_for(&after, mover), *mv));
            }
        } else {
            let preferences = court_preferences(s);
            for card in 0..NUM_CARDS as u8 {
                if s.hands[mover][card as usize] == 0 {
                    continue;
                }
                self.actions.clear();
                rules::card_actions(s, card, &mut self.actions);
                let n = self.actions.len();
                let take = n.min(per_card);
                if n > per_card {
                    match score.as_mut() {
                        Some(score) => {
                            self.keys.clear();
                            self.keys
                                .extend(self.actions.iter().map(|a| score(a) + gumbel(rng)));
                            let keys = &self.keys;
                            let mut order: Vec<usize> = (0..n).collect();
                            order.sort_by(|&i, &j| keys[j].total_cmp(&keys[i]));
                            let drawn: Vec<Move> =
                                order[..take].iter().map(|&i| self.actions[i]).collect();
                            self.actions[..take].copy_from_slice(&drawn);
                        }
                        None => {
                            // A uniform sample without replacement (partial Fisher-Yates), as `random.sample`.
                            for i in 0..take {
                                let j = i + rng.index(n - i);
                                self.actions.swap(i, j);
                            }
                        }
                    }
                }
                for a in &self.actions[..take] {
                    let (mv, after) = finish_move(s, card, a.action(), &preferences);
                    out.push((evaluate_for(&after, mover), mv));
                }
            }
        }
        // Stable, best first: equal values keep the order they were made in.
        out[start..].sort_by(|a, b| b.0.total_cmp(&a.0));
    }
}

/// The pass and up to `per_card` actions of each card in hand, each with its
/// preferred court call, best first (`candidates.ranked_candidates`).
///
/// Each entry is (value of the position after the move for the mover, move).
/// With 3 players' last card in play, the legal moves are listed exactly.
pub fn ranked_candidates(s: &State, rng: &mut SplitMix64, per_card: usize) -> Vec<(f64, Move)> {
    let mut out = Vec::new();
    CandidateBuilder::new().build(s, rng, per_card, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;
    use crate::setup::new_game;

    fn games() -> Vec<State> {
        let mut out = Vec::new();
        for players in 2..=4u8 {
            for seed in 0..6u64 {
                let mut s = new_game(players, seed % 2 == 1, seed, 0).unwrap();
                let mut rng = SplitMix64::new(seed);
                while !s.is_over() {
                    out.push(s);
                    crate::playout::play_random(&mut s, &mut rng);
                }
            }
        }
        out
    }

    #[test]
    fn court_preferences_match_evaluating_each_call() {
        for s in games() {
            let p = s.player as usize;
            let prefs = court_preferences(&s);
            let mut expected = Vec::new();
            for_each_call(&s, |r, f| {
                let mut trial = s;
                trial.board[r][f] -= 1;
                trial.courts[p][f] += 1;
                expected.push((evaluate(&trial)[p], r as u8, f as u8));
            });
            expected.sort_by(|a, b| b.0.total_cmp(&a.0));
            let calls: Vec<(u8, u8)> = expected.iter().map(|&(_, r, f)| (r, f)).collect();
            assert_eq!(prefs.as_slice(), &calls[..]);
        }
    }

    #[test]
    fn candidates_are_legal_ranked_and_valued() {
        let mut rng = SplitMix64::new(3);
        for s in games().into_iter().step_by(3) {
            let p = s.player as usize;
            let ranked = ranked_candidates(&s, &mut rng, 3);
            assert!(ranked.iter().any(|(_, m)| m.is_pass()));
            for w in ranked.windows(2) {
                assert!(w[0].0 >= w[1].0);
            }
            for (value, mv) in &ranked {
                assert!(rules::is_legal(&s, mv), "illegal candidate {mv:?}");
                let mut after = s;
                rules::play(&mut after, mv);
                assert_eq!(*value, evaluate(&after)[p]);
            }
            let cards = s.hands[p].iter().filter(|&&n| n > 0).count();
            if !last_card_applies(&s) {
                assert!(ranked.len() <= 1 + 3 * cards);
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_candidates() {
        let s = new_game(2, false, 1, 0).unwrap();
        let a = ranked_candidates(&s, &mut SplitMix64::new(9), 24);
        let b = ranked_candidates(&s, &mut SplitMix64::new(9), 24);
        assert_eq!(a, b);
        assert!(a.len() > 24);
    }
}
