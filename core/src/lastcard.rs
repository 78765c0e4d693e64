//! The 3-player last card: when one action card is left in all hands, its
//! holder may play it only by a move that wins the game that then follows,
//! where nobody has a card left and every remaining struggle resolves in turn.
//!
//! Judging a move means playing the game out, so this module avoids it twice
//! over: [`might_win`] is a cheap necessary condition that proves some holders
//! cannot win at all (about one last-card position in twelve in random games),
//! and a [`Judge`] memoises results by all that the final scoring can tell
//! apart (Python's `wins_outright` memo key), computed once per action and
//! per court call from one region. Listing every winning move of a position
//! takes about 30 microseconds on average.

use crate::board::{
    CROWN, FACTION_CARD, FIRST_CUNNING, LAST_CARD_MUST_WIN, LOYALISTS, MORDRED_FLAGS, NUM_FACTIONS,
    NUM_REGIONS, SAXONS, SETTLEMENTS, TIE_ALWAYS_NEXT_FACTION, TIE_STRICT,
};
use crate::cunning;
use crate::rules::{
    apply_to_board, court_mask, faction_targets, for_each_action, held_cards, play, resolve,
    struggle_winner, Bits, Board,
};
use crate::state::{Move, State};
use std::collections::HashMap;

/// 3 players, the player to move holds the one card left to play, every other
/// hand is empty, and the edition's `last_card` is `"must_win"`
/// ([`LAST_CARD_MUST_WIN`]: the first edition's rule; the second edition's
/// default is `"free"`). In the advanced game the Cunning cards count; Plot,
/// never played, is not the mover's card to play, but another hand holding
/// only Plot is not empty: the rule binds on what the table sees.
pub fn last_card_applies(s: &State) -> bool {
    let p = s.player as usize;
    s.option(LAST_CARD_MUST_WIN)
        && s.players == 3
        && s.playable(p) == 1
        && (0..3).all(|other| other == p || s.cards_left(other) == 0)
}

/// Whether the player to move is the sole winner of the game that follows
/// `m` when every player passes to the end (Python `wins_outright`).
pub fn wins_outright(s: &State, m: &Move) -> bool {
    Judge::default().wins(s, m)
}

/// The winning card moves of the player to move (as [`wins_outright`] judges
/// them), in legal-move order. Clears `out` first.
pub fn winning_moves(s: &State, out: &mut Vec<Move>) {
    out.clear();
    push_winning_moves(s, out);
}

/// Appends the winning card moves (the last-card filter of `legal_moves`).
pub(crate) fn push_winning_moves(s: &State, out: &mut Vec<Move>) {
    if !might_win(s) {
        return;
    }
    let mut judge = Judge::default();
    for card in held_cards(s) {
        judge.card_moves(s, card, |m, wins| {
            if wins {
                out.push(m);
            }
            true
        });
    }
}

/// A necessary condition for some card move of the player to move to win
/// outright: false proves that none does, without enumerating any.
///
/// After a card play by the mover, everyone passes to the end: the other
/// courts stay as they are, the mover's court gains at most one follower (the
/// court call, of a faction that is on the open board or that the card can
/// place), and the mover is the player who played last. More followers never
/// hurt the mover in any ending, so it is enough to try each callable faction.
/// The endings, with the mover's court so completed:
///
/// - Coronation (and Mordred while factions hold regions): the scoring runs
///   down the faction ranking, which the move may still change, so every
///   ranking the remaining struggles allow is tried: 3 strict levels (any
///   order in which each faction can still reach the regions of those after
///   it), or 1 level (only while at most one faction holds a region). A full
///   tie makes the last player, the mover, drop out of a first-edition
///   coronation; in the Mordred ending totals decide, then the last player
///   wins. In the second edition hands and options part a tie: the mover
///   still tied counts as a possible winner (a necessary condition only).
/// - Mordred with no faction holding a region: totals, ties to the mover.
///   Only possible with a Loyalist left on the board or in supply.
/// - Invasion (possible only while `saxons + unresolved >= 4`): most complete
///   sets, ties to the mover.
///
/// With 4 players a single winner is impossible by coronation (partners share
/// it), but the team rules are not bounded here: it answers true; so it does
/// in the advanced game, whose Cunning cards move followers every which way
/// and whose Plot scores for its holder.
pub fn might_win(s: &State) -> bool {
    if s.players == 4 || s.advanced() {
        return true;
    }
    let me = s.player as usize;
    let players = s.players as usize;
    let hand = s.hands[me];
    let mut callable = [false; NUM_FACTIONS];
    for (f, can) in callable.iter_mut().enumerate() {
        let on_board = (0..NUM_REGIONS).any(|r| s.open >> r & 1 == 1 && s.board[r][f] > 0);
        let placed = s.stock[f] > 0
            && (hand[SETTLEMENTS as usize] > 0
                || (hand[FACTION_CARD as usize + f] > 0 && faction_targets(s, f) != 0));
        *can = on_board || placed;
    }
    let mut regions = [0u8; NUM_FACTIONS];
    for &c in &s.control {
        if (0..NUM_FACTIONS as i8).contains(&c) {
            regions[c as usize] += 1;
        }
    }
    let holders = regions.iter().filter(|&&n| n > 0).count();
    let unresolved = (NUM_REGIONS - s.resolved as usize) as u8;
    let can_lead = |a: usize, b: usize| regions[a] + unresolved >= regions[b];
    let mordred = s.mordred
        && (s.stock[LOYALISTS] > 0
            || (0..NUM_REGIONS).any(|r| s.open >> r & 1 == 1 && s.board[r][LOYALISTS] > 0));
    let invasion = s.saxons + unresolved >= s.invasion();
    let any_call = callable.iter().any(|&c| c);
    let hands = s.rules().hands_break_ties;
    // Levels a hands tie-break may follow: `tie_faction = "second"` compares two factions only.
    let tied_levels = if s.option(TIE_STRICT | TIE_ALWAYS_NEXT_FACTION) {
        3
    } else {
        2
    };
    for call in 0..=NUM_FACTIONS {
        if (call < NUM_FACTIONS && !callable[call]) || (call == NUM_FACTIONS && any_call) {
            continue;
        }
        let mut courts = s.courts;
        if call < NUM_FACTIONS {
            courts[me][call] += 1;
        }
        for ranking in RANKINGS {
            let levels = if ranking[1] == ranking[0] { 1 } else { 3 };
            let possible = if levels == 1 {
                holders == 0 || (holders == 1 && regions[ranking[0]] > 0)
            } else {
                can_lead(ranking[0], ranking[1])
                    && can_lead(ranking[1], ranking[2])
                    && can_lead(ranking[0], ranking[2])
            };
            if possible
                && (rules_alone(&courts[..players], me, &ranking[..levels], false)
                    || (hands
                        && tied_with(&courts[..players], me, &ranking[..levels.min(tied_levels)]))
                    || (mordred && rules_alone(&courts[..players], me, &ranking[..levels], true)))
            {
                return true;
            }
        }
        if mordred && holders == 0 && rules_alone(&courts[..players], me, &[], true) {
            return true;
        }
        if invasion {
            let sets = |p: usize| courts[p].iter().copied().min().unwrap_or(0);
            if (0..players).all(|p| sets(me) >= sets(p)) {
                return true;
            }
        }
    }
    false
}

/// Faction rankings for [`might_win`]: the 6 orders of 3 strict levels, then
/// the 3 single levels (written with the top faction repeated).
const RANKINGS: [[usize; 3]; 9] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
    [0, 0, 0],
    [1, 1, 1],
    [2, 2, 2],
];

/// Whether `me`, the player who played last, is the sole winner when the
/// ranking's strict levels are `levels` (Python `_coronation` with the
/// Mordred totals when `mordred`).
fn rules_alone(courts: &[[u8; NUM_FACTIONS]], me: usize, levels: &[usize], mordred: bool) -> bool {
    let mut candidates: u32 = (1 << courts.len()) - 1;
    for &f in levels {
        let best = (0..courts.len())
            .filter(|&p| candidates >> p & 1 == 1)
            .map(|p| courts[p][f])
            .max()
            .unwrap_or(0);
        candidates &= (0..courts.len())
            .filter(|&p| courts[p][f] == best)
            .fold(0, |m, p| m | 1 << p);
        if candidates.count_ones() == 1 {
            break;
        }
    }
    if candidates.count_ones() == 1 || !mordred {
        // A tie left in a coronation: the mover, who played last, drops out.
        return candidates == 1 << me;
    }
    let total = |p: usize| courts[p].iter().map(|&n| n as u32).sum::<u32>();
    candidates >> me & 1 == 1
        && (0..courts.len()).all(|p| candidates >> p & 1 == 0 || total(me) >= total(p))
}

/// Whether `me` is still among the best after the ranking's strict `levels`.
fn tied_with(courts: &[[u8; NUM_FACTIONS]], me: usize, levels: &[usize]) -> bool {
    levels
        .iter()
        .all(|&f| courts.iter().all(|c| c[f] <= courts[me][f]))
}

/// Judges moves from one position, remembering results by their key.
///
/// After a card play, the final result depends only on who wins each
/// remaining struggle (in region-card order, up to the ending) and on which
/// faction the mover called to court: the resolved regions, the other courts
/// and the order of last plays are the same for every move. This is the key
/// of Python's `wins_outright` memo, computed the same way.
#[derive(Debug, Default)]
pub struct Judge {
    memo: HashMap<u32, bool>,
}

impl Judge {
    /// Whether the player to move is the sole winner after `m` and passes to the end.
    pub fn wins(&mut self, s: &State, m: &Move) -> bool {
        if m.is_pass() {
            return play_out(s, m); // a pass leaves a different last player: not memoised
        }
        let rest = Remaining::after(s, m.card as u8, m.action());
        self.wins_after(s, &rest, m)
    }

    /// [`wins`](Self::wins) for a move whose action left `rest`.
    pub(crate) fn wins_after(&mut self, s: &State, rest: &Remaining, m: &Move) -> bool {
        let key = rest.key(s, m.court());
        *self.memo.entry(key).or_insert_with(|| play_out(s, m))
    }

    /// Calls `visit` with each move of `card` and whether it wins, in
    /// legal-move order, until `visit` returns false.
    pub(crate) fn card_moves(
        &mut self,
        s: &State,
        card: u8,
        mut visit: impl FnMut(Move, bool) -> bool,
    ) {
        let mut going = true;
        for_each_action(s, card, |action| {
            if !going {
                return;
            }
            let rest = Remaining::after(s, card, action);
            let play = Move::card_play(card, action, None);
            let calls = court_mask(&rest.board, s.open);
            if calls == 0 {
                going = visit(play, self.wins_after(s, &rest, &play));
            }
            for cell in Bits(calls) {
                if !going {
                    return;
                }
                let m = Move {
                    court: cell as i8,
                    ..play
                };
                going = visit(m, self.wins_after(s, &rest, &m));
            }
        });
    }
}

/// The remaining struggles after a card's action (before the court call):
/// what each region holds when its turn comes, Loyalists added meanwhile
/// included, and who would win it, so that each court call is judged by
/// looking again at one region only.
pub(crate) struct Remaining {
    /// The board after the action.
    pub(crate) board: Board,
    order: [u8; NUM_REGIONS],
    /// Followers of each region when it is resolved (if the game lasts till then).
    at_resolution: Board,
    /// Winner of each region's struggle with no court call.
    winner: [i8; NUM_REGIONS],
}

impl Remaining {
    pub(crate) fn after(s: &State, card: u8, action: &[i8]) -> Remaining {
        let mut board = s.board;
        let mut order = s.order;
        if card >= FIRST_CUNNING {
            // A Cunning card, carried out on a copy (a spied Negotiate swaps region cards).
            let mut after = *s;
            cunning::carry_out(&mut after, card, action);
            (board, order) = (after.board, after.order);
        } else if card == CROWN {
            if let &[a, b, _] = action {
                let i = order.iter().position(|&r| r as i8 == a).unwrap_or(0);
                let j = order.iter().position(|&r| r as i8 == b).unwrap_or(0);
                order.swap(i, j);
            }
        } else {
            apply_to_board(&mut board, card, action);
        }
        // Loyalists that resolutions add, as Python's `_remaining_outcomes`
        // adds them (none once the game has ended, but then nothing later counts).
        let mut at_resolution = board;
        let (mut loyalists, mut resolved) = (s.stock[LOYALISTS], !s.open);
        for &region in &order[s.resolved as usize..] {
            resolved |= 1 << region;
            let flag = MORDRED_FLAGS[region as usize];
            if s.mordred && loyalists > 0 && resolved >> flag & 1 == 0 {
                loyalists -= 1;
                at_resolution[flag][LOYALISTS] += 1;
            }
        }
        let mut winner = [SAXONS; NUM_REGIONS];
        for r in 0..NUM_REGIONS {
            winner[r] = struggle_winner(at_resolution[r]);
        }
        Remaining {
            board,
            order,
            at_resolution,
            winner,
        }
    }

    /// Python's memo key for the move with this court call: who wins each
    /// remaining struggle, in order up to the ending, 3 bits each, with their
    /// number at bit 24, then the faction called (3 for none) in the low bits.
    fn key(&self, s: &State, court: Option<(usize, usize)>) -> u32 {
        let mut key = 0u32;
        let mut n = 0;
        let mut saxons = s.saxons;
        for &region in &self.order[s.resolved as usize..] {
            let region = region as usize;
            let winner = match court {
                Some((r, f)) if r == region => {
                    let mut counts = self.at_resolution[r];
                    counts[f] -= 1;
                    struggle_winner(counts)
                }
                _ => self.winner[region],
            };
            key |= (winner as u32) << (3 * n);
            n += 1;
            if winner == SAXONS {
                saxons += 1;
                if saxons >= s.invasion() {
                    break;
                }
            } else if winner == LOYALISTS as i8 {
                break;
            }
        }
        let called = court.map_or(3, |(_, f)| f as u32);
        (key | n << 24) << 2 | called
    }
}

/// Play `m`, resolve every struggle left, and see whether the mover alone won.
fn play_out(s: &State, m: &Move) -> bool {
    let mut after = *s;
    play(&mut after, m);
    while after.outcome.is_none() {
        resolve(&mut after);
    }
    after.outcome.is_some_and(|o| o.winners == 1 << s.player)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playout::play_random;
    use crate::rng::SplitMix64;
    use crate::rules::{for_each_card_move, legal_moves};
    use crate::setup::{new_game, test_game};

    /// Positions where the 3-player last card applies, from random games that
    /// play cards eagerly (most passes are redrawn).
    fn last_card_positions(games: u64, seed: u64) -> Vec<State> {
        let mut rng = SplitMix64::new(seed);
        let mut found = Vec::new();
        for game in 0..games {
            let variant = (game % 6) as u8;
            let mut s = test_game(3, variant, seed * 10_000 + game, (game % 3) as u8);
            while !s.is_over() {
                if last_card_applies(&s) {
                    found.push(s);
                }
                let mut next = s;
                let mut m = play_random(&mut next, &mut rng);
                for _ in 0..4 {
                    if !m.is_pass() {
                        break;
                    }
                    next = s;
                    m = play_random(&mut next, &mut rng);
                }
                s = next;
            }
        }
        found
    }

    /// Every winning move found by judging each move afresh, with no bound and no memo.
    fn winners_the_slow_way(s: &State) -> Vec<Move> {
        let mut out = Vec::new();
        for card in 0..7u8 {
            if s.hands[s.player as usize][card as usize] > 0 {
                for_each_card_move(s, card, |m| {
                    if play_out(s, &m) {
                        out.push(m)
                    }
                });
            }
        }
        out
    }

    /// The position with other courts shuffled about, to reach more kinds of ending.
    fn perturbed(s: &State, rng: &mut SplitMix64) -> State {
        let mut t = *s;
        for p in 0..3 {
            if p != t.player as usize {
                for f in 0..NUM_FACTIONS {
                    t.courts[p][f] = (t.courts[p][f] as i32 + rng.index(5) as i32 - 2).max(0) as u8;
                }
            }
        }
        t
    }

    #[test]
    fn the_bound_never_hides_a_win_and_the_memo_never_changes_a_verdict() {
        let positions = last_card_positions(300, 1);
        assert!(positions.len() >= 50, "only {} positions", positions.len());
        let mut rng = SplitMix64::new(3);
        let (mut pruned, mut checked, mut winning) = (0, 0, 0);
        for s in &positions {
            for t in [*s, perturbed(s, &mut rng), perturbed(s, &mut rng)] {
                let slow = winners_the_slow_way(&t);
                let mut fast = Vec::new();
                winning_moves(&t, &mut fast);
                if fast != slow {
                    let mut after = t;
                    play(&mut after, &slow[0]);
                    while after.outcome.is_none() {
                        resolve(&mut after);
                    }
                    eprintln!("{t:?}\n{:?}\n{:?}", after.outcome, after.courts);
                }
                assert_eq!(fast, slow);
                if !might_win(&t) {
                    assert!(slow.is_empty(), "the bound hid a win in {t:?}");
                    pruned += 1;
                }
                let mut legal = Vec::new();
                legal_moves(&t, &mut legal);
                assert_eq!(legal[0], Move::PASS);
                assert_eq!(legal[1..], slow[..]);
                checked += 1;
                winning += !slow.is_empty() as usize;
            }
        }
        println!("the bound pruned {pruned} of {checked} positions ({winning} had a win)");
        assert!(winning > 0);
    }

    /// Speed check: `cargo test --release -- --ignored --nocapture last_card_speed`.
    #[test]
    #[ignore]
    fn last_card_speed() {
        let positions = last_card_positions(2000, 2);
        let mut out = Vec::new();
        let start = std::time::Instant::now();
        let mut wins = 0;
        for s in &positions {
            winning_moves(s, &mut out);
            wins += !out.is_empty() as usize;
        }
        let secs = start.elapsed().as_secs_f64();
        let pruned = positions.iter().filter(|s| !might_win(s)).count();
        println!(
            "{} last-card positions ({wins} with a win, {pruned} pruned by the bound): {:.1} us each",
            positions.len(),
            secs * 1e6 / positions.len() as f64
        );
    }

    #[test]
    fn the_last_card_applies_only_to_its_holder_with_three_players() {
        let mut s = new_game(3, false, 2, 0).unwrap();
        assert!(!last_card_applies(&s));
        s.hands = [[0; 7]; 4];
        s.hands[0][5] = 1;
        assert!(last_card_applies(&s));
        s.player = 1;
        assert!(!last_card_applies(&s));
        let mut legal = Vec::new();
        legal_moves(&s, &mut legal);
        assert_eq!(legal, [Move::PASS]);
        let mut s = new_game(2, false, 2, 0).unwrap();
        s.hands = [[0; 7]; 4];
        s.hands[0][5] = 1;
        assert!(!last_card_applies(&s));
    }
}
