//! The 3-player last card: when one action card is left in all hands, its
//! holder may play it only by a move that wins the game that then follows,
//! where nobody has a card left and every remaining struggle resolves in turn.
//!
//! Judging a move means playing the game out, so this module avoids it twice
//! over: [`might_win`] is a cheap necessary condition that proves most holders
//! cannot win at all, and a [`Judge`] memoises results by all that the final
//! scoring can tell apart (as Python's `wins_outright` memo does).

use crate::board::{
    CROWN, LOYALISTS, MORDRED_FLAGS, NUM_FACTIONS, NUM_REGIONS, SAXONS, SAXON_INVASION,
};
use crate::rules::{apply_to_board, for_each_card_move, play, resolve, struggle_winner, Board};
use crate::state::{Move, State};

/// 3 players, one card left in all hands, and the player to move holds it.
pub fn last_card_applies(s: &State) -> bool {
    s.players == 3 && s.cards_in_hands() == 1 && s.cards_left(s.player as usize) == 1
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
    let hand = s.hands[s.player as usize];
    for card in 0..hand.len() as u8 {
        if hand[card as usize] > 0 {
            for_each_card_move(s, card, |m| {
                if judge.wins(s, &m) {
                    out.push(m)
                }
            });
        }
    }
}

/// A necessary condition for some card move of the player to move to win
/// outright: false proves that none does, without enumerating any.
///
/// After a card play by the mover, everyone passes: the other courts stay as
/// they are, the mover's court gains at most one follower (the court call),
/// and the mover is the player who played last. So, with `mine` the mover's
/// court and `most[f]` the largest other court in faction `f`:
///
/// - Coronation: a full tie is broken by the last player dropping out, which
///   is the mover, so the mover must be strictly ahead at some level of the
///   ranking: `mine[f] + 1 > most[f]` for some `f`.
/// - Mordred: either that, or the mover survives the top faction's level
///   (`mine[f] + 1 >= most[f]` for some `f`) and wins on totals, where ties
///   go to the mover: some other player has `total <= my total + 1`. With no
///   ranking at all (possible only while no faction holds a region yet) there
///   is no level to survive, only the totals. Only possible in the variant
///   with a Loyalist left on the board or in supply.
/// - Invasion (possible only while `saxons + unresolved >= 4`): ties go to the
///   mover, so the mover's best complete sets after one more follower must
///   reach every other player's sets.
///
/// With 4 players a single winner is impossible by coronation (partners share
/// it), but the team rules are not bounded here: it answers true.
pub fn might_win(s: &State) -> bool {
    if s.players == 4 {
        return true;
    }
    let me = s.player as usize;
    let others = (0..s.players as usize).filter(|&p| p != me);
    let mine = s.courts[me];
    let mut most = [0u8; NUM_FACTIONS];
    for o in others.clone() {
        for (most, &n) in most.iter_mut().zip(&s.courts[o]) {
            *most = (*most).max(n);
        }
    }
    if (0..NUM_FACTIONS).any(|f| mine[f] >= most[f]) {
        return true;
    }
    let total = |p: usize| s.courts[p].iter().map(|&n| n as u32).sum::<u32>();
    let loyalists_left = s.stock[LOYALISTS] > 0
        || (0..NUM_REGIONS).any(|r| s.open >> r & 1 == 1 && s.board[r][LOYALISTS] > 0);
    let ranked = s
        .control
        .iter()
        .any(|&c| (0..NUM_FACTIONS as i8).contains(&c));
    if s.mordred
        && loyalists_left
        && (!ranked || (0..NUM_FACTIONS).any(|f| mine[f] + 1 >= most[f]))
        && others.clone().any(|o| total(me) + 1 >= total(o))
    {
        return true;
    }
    let invasion_possible =
        s.saxons as usize + NUM_REGIONS - s.resolved as usize >= SAXON_INVASION as usize;
    if invasion_possible {
        let best_sets = (0..NUM_FACTIONS)
            .map(|c| {
                (0..NUM_FACTIONS)
                    .map(|f| mine[f] + (f == c) as u8)
                    .min()
                    .unwrap_or(0)
            })
            .max()
            .unwrap_or(0);
        let other_sets = others
            .map(|o| s.courts[o].iter().copied().min().unwrap_or(0))
            .max()
            .unwrap_or(0);
        if best_sets >= other_sets {
            return true;
        }
    }
    false
}

/// Judges moves from one position, remembering results by their key.
///
/// After a card play, the final result depends only on who wins each
/// remaining struggle (in region-card order, up to the ending) and on which
/// faction the mover called to court: the resolved regions, the other courts
/// and the order of last plays are the same for every move.
#[derive(Debug, Default)]
pub struct Judge {
    memo: Vec<(u32, bool)>,
}

impl Judge {
    /// Whether the player to move is the sole winner after `m` and passes to the end.
    pub fn wins(&mut self, s: &State, m: &Move) -> bool {
        if m.is_pass() {
            return play_out(s, m); // a pass leaves a different last player: not memoised
        }
        let mut board = s.board;
        let mut order = s.order;
        if m.card == CROWN as i8 {
            if let &[a, b, _] = m.action() {
                let i = order.iter().position(|&r| r as i8 == a).unwrap_or(0);
                let j = order.iter().position(|&r| r as i8 == b).unwrap_or(0);
                order.swap(i, j);
            }
        } else {
            apply_to_board(&mut board, m.card as u8, m.action());
        }
        let called = match m.court() {
            Some((r, f)) => {
                board[r][f] -= 1;
                f as u32
            }
            None => 3,
        };
        let key = remaining_outcomes(s, &mut board, &order) << 2 | called;
        if let Some(&(_, wins)) = self.memo.iter().find(|&&(k, _)| k == key) {
            return wins;
        }
        let wins = play_out(s, m);
        self.memo.push((key, wins));
        wins
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

/// Who wins each remaining struggle, in order, if every player passes from now
/// on (Python `_remaining_outcomes`), packed 3 bits each with the count above:
/// `board` and `order` are those after the move (`board` is modified).
fn remaining_outcomes(s: &State, board: &mut Board, order: &[u8; NUM_REGIONS]) -> u32 {
    let mut key = 0u32;
    let mut n = 0;
    let (mut saxons, mut loyalists, mut resolved) = (s.saxons, s.stock[LOYALISTS], !s.open);
    for &region in &order[s.resolved as usize..] {
        let region = region as usize;
        let winner = struggle_winner(board[region]);
        key |= (winner as u32) << (3 * n);
        n += 1;
        resolved |= 1 << region;
        if winner == SAXONS {
            saxons += 1;
            if saxons >= SAXON_INVASION {
                break;
            }
        } else if winner == LOYALISTS as i8 {
            break;
        }
        let flag = MORDRED_FLAGS[region];
        if s.mordred && loyalists > 0 && resolved >> flag & 1 == 0 {
            loyalists -= 1;
            board[flag][LOYALISTS] += 1;
        }
    }
    key | n << 24
}
