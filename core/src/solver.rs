//! The exact endgame solver for two players: the result with best play from
//! both sides, the algorithm of `kingisdead/bots/solver.py`.
//!
//! The game has no chance after the setup and two players alternate strictly,
//! so negamax with alpha-beta pruning (Knuth and Moore, "An analysis of
//! alpha-beta pruning", 1975) and a transposition table proves the result.
//! Values are from the point of view of the player to move: +1 a win, 0 a
//! shared win (both tied and neither played a card), -1 a loss. With only
//! three values the first winning child ends a node's search.
//!
//! What keeps it fast while exact:
//! - windows are clamped to -1..=1, so a node cuts at its first win at every
//!   depth (Python's solver searches its first root move with a window reaching
//!   to +2, which keeps every other level of that subtree from cutting);
//! - successors are de-duplicated by the position they lead to (Settlements
//!   placing a follower and calling it back leaves the board as another
//!   Settlements does), and positions are compared by a [`Key`] holding only
//!   what decides the rest of the game (not the played piles' top cards, not
//!   Crown tokens on resolved cards, only the order of the latest card plays);
//! - the move the table remembers for a position (the hash move), else the
//!   move that last cut at the same depth (the killer heuristic: Akl and
//!   Newborn, "The principal continuation and the killer heuristic", 1977), is
//!   searched before the others are even listed; the rest are ordered by the
//!   heuristic (a move that ends the game in a win first);
//! - a player without cards can only pass (one child, no listing); when nobody
//!   holds a card the struggles left resolve in turn; the holder of the last
//!   card of the game has its card moves judged by the last-card rule's judge
//!   (each ends the game alike for all moves with the same struggle winners);
//! - a court out of reach ([`decided`]) settles a position at once, and so
//!   does a win by passing to the end while the other player holds no card
//!   ([`wins_by_passing`]);
//! - before its children are searched, each child's key is looked up in the
//!   table, and one already known to lose for its mover cuts at once (the
//!   enhanced transposition cut-off: Plaat, Schaeffer, Pijls and de Bruin,
//!   "Nearly optimal minimax tree search?", 1994); the last-card judge's
//!   values are kept in the table too.
//!
//! The tree grows with the cards still in hand, so the solver gives up,
//! returning None, past a node limit or a time limit.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::time::{Duration, Instant};

use crate::board::{NUM_CARDS, NUM_FACTIONS, NUM_KINDS, NUM_REGIONS};
use crate::candidates::call_value;
use crate::eval::{evaluate_for, Tally};
use crate::lastcard::{self, Judge};
use crate::rules::{self, Bits};
use crate::state::{Move, State};

/// A proven result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// +1: the player to move wins with best play; 0: a shared win; -1: a loss.
    pub value: i8,
    /// A move that achieves `value`.
    pub mv: Move,
    /// Positions searched.
    pub nodes: u64,
}

/// The exact value and a best move for the player to move, or None past
/// `node_limit` positions or `seconds`.
///
/// Panics unless the game is a running 2-player one.
pub fn solve(s: &State, node_limit: u64, seconds: Option<f64>) -> Option<Solution> {
    assert_eq!(s.players, 2, "the exact solver is for two players");
    assert!(!s.is_over(), "the game is over: there is nothing to solve");
    Solver::new(node_limit, seconds).solve(s)
}

/// The finished game's value for `player`: +1 a win, 0 a shared win, -1 a loss.
pub fn terminal_value_for(s: &State, player: usize) -> i8 {
    let winners = s.outcome.expect("a finished game").winners;
    let me = winners >> player & 1 == 1;
    let other = winners >> (1 - player) & 1 == 1;
    match (me, other) {
        (true, true) => 0,
        (true, false) => 1,
        _ => -1,
    }
}

/// The value for the mover when one player's court is so far ahead that no
/// play can change the result, else None (a cheap exact cut-off).
///
/// Courts only grow, by at most one follower per card played. So if `a`'s
/// court beats `b`'s by more than `b`'s cards in hand on every faction that
/// could still rule, `a` wins every coronation and every Mordred ending with a
/// ruling faction at its first comparison; a Mordred ending with no faction
/// holding a region (possible only while none holds one now) compares totals;
/// an invasion (possible only while the Saxons can still get their fourth
/// token) compares complete sets. A coronation always has a ruling faction
/// (eight regions, at most three Saxon ones, and Loyalists end it as Mordred).
pub fn decided(s: &State) -> Option<i8> {
    let mut regions = [0u8; NUM_FACTIONS];
    for &c in &s.control {
        if (0..NUM_FACTIONS as i8).contains(&c) {
            regions[c as usize] += 1;
        }
    }
    let unresolved = NUM_REGIONS as u8 - s.resolved;
    let most = regions.iter().copied().max().unwrap_or(0);
    let can_rule = regions.map(|n| n + unresolved >= most);
    let none_hold = most == 0;
    let invasion = s.saxons + unresolved >= s.invasion();
    let cards = [s.cards_left(0), s.cards_left(1)];
    let beats = |a: usize, b: usize| {
        let (ca, cb) = (s.courts[a], s.courts[b]);
        let ahead = |x: u8, y: u8| u16::from(x) > u16::from(y) + u16::from(cards[b]);
        (0..NUM_FACTIONS).all(|f| !can_rule[f] || ahead(ca[f], cb[f]))
            && (!none_hold || ahead(ca.iter().sum(), cb.iter().sum()))
            && (!invasion
                || ahead(
                    *ca.iter().min().unwrap_or(&0),
                    *cb.iter().min().unwrap_or(&0),
                ))
    };
    let me = s.player as usize;
    if beats(me, 1 - me) {
        Some(1)
    } else if beats(1 - me, me) {
        Some(-1)
    } else {
        None
    }
}

/// Whether the mover wins by passing to the end while the other player holds
/// no card (a cheap exact cut-off): the other can only pass, so the mover's
/// passes resolve every struggle left in turn.
pub fn wins_by_passing(s: &State) -> bool {
    let me = s.player as usize;
    if s.is_over() || s.hands[1 - me].iter().any(|&n| n > 0) {
        return false;
    }
    let mut end = *s;
    while !end.is_over() {
        rules::resolve(&mut end);
    }
    terminal_value_for(&end, me) == 1
}

/// Whether a move in canonical spelling (as this solver lists them) is legal
/// in a running 2-player game: [`rules::is_legal`] without the spelling's
/// normalisation and the 3-player last-card rule, comparing actions as words.
/// The killer and hash moves are checked this way at almost every node.
fn is_legal_here(s: &State, m: &Move) -> bool {
    if m.is_pass() {
        return true;
    }
    let card = m.card as u8;
    if s.hands[s.player as usize][card as usize] == 0 {
        return false;
    }
    let word = |action: &[i8]| {
        let mut bytes = [0u8; 8];
        for (b, &a) in bytes.iter_mut().zip(action) {
            *b = a as u8;
        }
        bytes[7] = action.len() as u8;
        u64::from_le_bytes(bytes)
    };
    let wanted = word(m.action());
    let mut found = false;
    rules::for_each_action(s, card, |action| found |= word(action) == wanted);
    if !found {
        return false;
    }
    let mut board = s.board;
    rules::apply_to_board(&mut board, card, m.action());
    match rules::court_mask(&board, s.open) {
        0 => m.court == -1,
        calls => m.court >= 0 && calls >> m.court & 1 == 1,
    }
}

/// What decides the rest of a game, packed into words: equal keys, equal
/// futures and equal results.
///
/// Left out: the played piles' top cards (shown to people; only the second
/// edition's undo ban looks at one, kept with the ban),
/// Crown tokens on resolved region cards (only swaps look at them), the number
/// of card plays and the exact numbers of the latest plays (the tie-breaks only
/// compare them: who played last is kept), and what follows from the rest (the
/// open regions, the Saxon count, the outcome). Two players only.
///
/// Fields are bit-packed, none across a word boundary: the 32 board cells (5
/// bits each, 12 to a word), the courts, the stock and the hands, then the
/// region cards, then the struggle's state. A court call changes one board
/// cell, one court and the player to move, so a child's key is its parent's
/// plus three word operations (see `cell_bit` and `court_bit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key([u64; KEY_WORDS]);

const KEY_WORDS: usize = 6;
/// Where the player to move lies: word 5, bit 4.
const PLAYER_BIT: (usize, u32) = (5, 4);

/// Word and bit of board cell `region * 4 + kind`.
#[inline]
const fn cell_bit(cell: usize) -> (usize, u32) {
    (cell / 12, (5 * (cell % 12)) as u32)
}

/// Word and bit of `courts[player][faction]` (`i = player * 3 + faction`).
#[inline]
const fn court_bit(i: usize) -> (usize, u32) {
    if i < 4 {
        (2, 40 + 5 * i as u32)
    } else {
        (3, 5 * (i - 4) as u32)
    }
}

impl Key {
    pub fn of(s: &State) -> Key {
        /// `values` packed `width` bits apart, the first at bit 0.
        #[inline(always)]
        fn pack(values: &[u8], width: u32) -> u64 {
            values
                .iter()
                .enumerate()
                .fold(0, |x, (i, &n)| x | u64::from(n) << (width * i as u32))
        }
        let cells = s.board.as_flattened();
        debug_assert!(
            cells.iter().chain(&s.stock).all(|&n| n < 32),
            "a count past 5 bits"
        );
        let (c0, c1) = (s.courts[0], s.courts[1]);
        let mut w = [0u64; KEY_WORDS];
        w[0] = pack(&cells[..12], 5);
        w[1] = pack(&cells[12..24], 5);
        w[2] = pack(&cells[24..], 5) | pack(&[c0[0], c0[1], c0[2], c1[0]], 5) << 40;
        w[3] = pack(&[c1[1], c1[2]], 5)
            | pack(&s.stock, 5) << 10
            | pack(&s.hands[0], 2) << 30
            | pack(&s.hands[1], 2) << 44;
        for r in 0..NUM_REGIONS {
            let crown = if s.control[r] < 0 { s.crowns[r] + 1 } else { 3 };
            w[4] |= u64::from(s.order[r]) << (3 * r)
                | ((s.control[r] + 1) as u64) << (24 + 3 * r)
                | (crown as u64) << (48 + 2 * r);
        }
        // Who has played a card, and which of the two played last.
        let [a, b, ..] = s.last_play;
        let last = u64::from(a > 0) | u64::from(b > 0) << 1 | u64::from(b > a) << 2;
        w[5] = u64::from(s.resolved)
            | u64::from(s.player) << PLAYER_BIT.1
            | u64::from(s.passes) << 5
            | u64::from(s.mordred) << 7
            | last << 8;
        if let Some(ban) = s.undo_ban {
            w[5] |= (1 | u64::from(ban.player) << 1) << 11;
            // The reverse (which also fixes its effect, the ban judged by effect)
            // and whether the ban binds the Garrison or the Ambassador.
            let r = ban.reverse;
            let top = s.tops[ban.player as usize] == crate::board::GARRISON as i8;
            w[5] |= (pack(&r.map(|x| x as u8), 3) | u64::from(ban.len == 5) << 15) << 37
                | u64::from(top) << 53;
        }
        w[5] |= u64::from(s.edition) << 32 | u64::from(s.options) << 33;
        Key(w)
    }

    /// The key after `player` calls `(region, faction)` to court and the turn passes.
    #[inline]
    fn after_call(&self, player: usize, region: usize, faction: usize) -> Key {
        let mut w = self.0;
        let (i, bit) = cell_bit(region * NUM_KINDS + faction);
        w[i] -= 1 << bit;
        let (i, bit) = court_bit(player * 3 + faction);
        w[i] += 1 << bit;
        Key(w).with_turn_passed()
    }

    /// The key with the other player to move.
    #[inline]
    fn with_turn_passed(mut self) -> Key {
        self.0[PLAYER_BIT.0] ^= 1 << PLAYER_BIT.1;
        self
    }
}

/// A fast hasher for [`Key`]s (the FxHash step of rustc, with a final mix):
/// the keys are not chosen by an adversary, so SipHash's protection is not needed.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.write_u64(u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
        }
        for &b in chunks.remainder() {
            self.write_u64(u64::from(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    #[inline]
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }

    fn finish(&self) -> u64 {
        // SplitMix64's finaliser spreads the bits (hashbrown reads the top ones).
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

type KeyBuild = BuildHasherDefault<KeyHasher>;

/// How a stored value bounds the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

impl Bound {
    /// What a value searched within the window (alpha, beta) proves.
    fn of(value: i8, alpha: i8, beta: i8) -> Bound {
        if value <= alpha {
            Bound::Upper
        } else if value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }
}

/// A transposition table entry: the value, how it bounds the truth, and the
/// move that decided it (tried first when the position comes back).
#[derive(Clone, Copy, Debug)]
struct Entry {
    value: i8,
    bound: Bound,
    best: Option<Move>,
}

/// Out of nodes or time.
struct OutOfBudget;

/// Negamax with alpha-beta and a transposition table, for one root position.
struct Solver {
    node_limit: u64,
    deadline: Option<Instant>,
    nodes: u64,
    table: HashMap<Key, Entry, KeyBuild>,
    /// Reused buffers, one per depth: the children (heuristic value, move)
    /// and the keys of the positions they lead to.
    children: Vec<Vec<(f64, Move)>>,
    seen: Vec<HashSet<Key, KeyBuild>>,
    /// The move that last cut at each depth.
    killers: Vec<Option<Move>>,
}

impl Solver {
    fn new(node_limit: u64, seconds: Option<f64>) -> Solver {
        Solver {
            node_limit,
            deadline: seconds.map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.0))),
            nodes: 0,
            table: HashMap::default(),
            children: Vec::new(),
            seen: Vec::new(),
            killers: Vec::new(),
        }
    }

    fn solve(&mut self, s: &State) -> Option<Solution> {
        self.buffers(0);
        let mut children = std::mem::take(&mut self.children[0]);
        self.list_children(s, 0, None, 2, &mut children);
        let mut alpha = -2;
        let mut best = None;
        for &(_, mv) in &children {
            let mut after = *s;
            rules::play(&mut after, &mv);
            let value = match self.negamax(&after, -1, -alpha, 1) {
                Ok(v) => -v,
                Err(OutOfBudget) => return None,
            };
            if value > alpha {
                alpha = value;
                best = Some(mv);
                if alpha == 1 {
                    break;
                }
            }
        }
        best.map(|mv| Solution {
            value: alpha,
            mv,
            nodes: self.nodes,
        })
    }

    fn buffers(&mut self, depth: usize) {
        while self.children.len() <= depth {
            self.children.push(Vec::new());
            self.seen.push(HashSet::default());
            self.killers.push(None);
        }
    }

    /// Each distinct successor but `skip`'s (a position already searched), the
    /// heuristic's favourites first (for early cuts): a win ends the game best,
    /// then the value of the position for the mover.
    ///
    /// Card moves are made as the rules list them (each action, then each
    /// court call on the board it leaves); a court call changes one board
    /// cell, one court and the player to move, so its key and value are
    /// derived from the action's instead of from a copy per move.
    fn list_children(
        &mut self,
        s: &State,
        depth: usize,
        skip: Option<Key>,
        beta: i8,
        out: &mut Vec<(f64, Move)>,
    ) -> Option<(i8, Move)> {
        out.clear();
        let me = s.player as usize;
        let seen = &mut self.seen[depth];
        seen.clear();
        let table = &self.table;
        // Enhanced transposition cut-off: a child the table already bounds at
        // or below -beta (for its own mover) makes this node cut at once.
        let mut cut: Option<(i8, Move)> = None;
        let mut probe = |key: &Key, mv: &dyn Fn() -> Move| {
            if cut.is_some() {
                return;
            }
            if let Some(e) = table.get(key) {
                if e.bound != Bound::Lower && -e.value >= beta {
                    cut = Some((-e.value, mv()));
                }
            }
        };
        if let Some(key) = skip {
            seen.insert(key);
        }
        let mut pass = *s;
        rules::play(&mut pass, &Move::PASS);
        let pass_key = Key::of(&pass);
        if seen.insert(pass_key) {
            probe(&pass_key, &|| Move::PASS);
            let value = if pass.is_over() {
                2.0 * f64::from(terminal_value_for(&pass, me))
            } else {
                evaluate_for(&pass, me)
            };
            out.push((value, Move::PASS));
        }
        for card in 0..NUM_CARDS as u8 {
            if s.hands[me][card as usize] == 0 {
                continue;
            }
            rules::for_each_action(s, card, |action| {
                let mut base = *s;
                rules::play_card(&mut base, card, action);
                let key = Key::of(&base);
                let calls = rules::court_mask(&base.board, base.open);
                if calls == 0 {
                    let child = key.with_turn_passed();
                    if seen.insert(child) {
                        probe(&child, &|| Move::card_play(card, action, None));
                        out.push((evaluate_for(&base, me), Move::card_play(card, action, None)));
                    }
                    return;
                }
                let tally = Tally::of(&base);
                for cell in Bits(calls) {
                    let (r, f) = (cell / NUM_KINDS, cell % NUM_KINDS);
                    let child = key.after_call(me, r, f);
                    if seen.insert(child) {
                        probe(&child, &|| Move::card_play(card, action, Some((r, f))));
                        let value = call_value(&base, &tally, me, r, f);
                        out.push((value, Move::card_play(card, action, Some((r, f)))));
                    }
                }
            });
        }
        out.sort_by(|a, b| b.0.total_cmp(&a.0));
        cut
    }

    /// The value of a position where the mover holds the last card of the game.
    ///
    /// A card move is followed by passes to the end, so it either makes the
    /// mover the sole winner (+1; nobody else can have played last) or loses
    /// (-1). The last-card rule's judge settles every card move without
    /// playing each game out ([`lastcard::might_win`] first proves most
    /// positions hopeless at once); the pass is searched as usual.
    fn last_card(
        &mut self,
        s: &State,
        alpha: i8,
        beta: i8,
        depth: usize,
    ) -> Result<i8, OutOfBudget> {
        let card = s.hands[s.player as usize]
            .iter()
            .position(|&n| n > 0)
            .expect("one card") as u8;
        if lastcard::might_win(s) {
            let mut wins = false;
            Judge::default().card_moves(s, card, |_, win| {
                wins |= win;
                !win
            });
            if wins {
                return Ok(1);
            }
        }
        let mut after = *s;
        rules::play(&mut after, &Move::PASS);
        Ok(-self.negamax(&after, -beta, -alpha, depth + 1)?)
    }

    /// The value of `s` for its mover, searched within (alpha, beta).
    fn negamax(&mut self, s: &State, alpha: i8, beta: i8, depth: usize) -> Result<i8, OutOfBudget> {
        if s.is_over() {
            return Ok(terminal_value_for(s, s.player as usize));
        }
        self.nodes += 1;
        if self.nodes > self.node_limit
            || (self.nodes & 255 == 0 && self.deadline.is_some_and(|d| Instant::now() > d))
        {
            return Err(OutOfBudget);
        }
        if let Some(value) = decided(s) {
            return Ok(value);
        }
        // Values lie in -1..=1: a window reaching past them would only stop
        // a won position from cutting at its first win.
        let (mut alpha, mut beta) = (alpha.max(-1), beta.min(1));
        let me = s.player as usize;
        let mine = s.hands[me].iter().any(|&n| n > 0);
        if !mine {
            if s.hands[1 - me].iter().all(|&n| n == 0) {
                // Nobody holds a card: every struggle left resolves in turn.
                let mut end = *s;
                while !end.is_over() {
                    rules::resolve(&mut end);
                }
                return Ok(terminal_value_for(&end, me));
            }
            // No card left: the only move is a pass.
            let mut after = *s;
            rules::play(&mut after, &Move::PASS);
            return Ok(-self.negamax(&after, -beta, -alpha, depth + 1)?);
        }
        let theirs = s.hands[1 - me].iter().any(|&n| n > 0);
        if wins_by_passing(s) {
            return Ok(1);
        }
        let key = Key::of(s);
        let mut first = None;
        if let Some(entry) = self.table.get(&key) {
            match entry.bound {
                Bound::Exact => return Ok(entry.value),
                Bound::Lower => alpha = alpha.max(entry.value),
                Bound::Upper => beta = beta.min(entry.value),
            }
            if alpha >= beta {
                return Ok(entry.value);
            }
            first = entry.best;
        }
        if !theirs && s.cards_left(me) == 1 {
            // The last card of the game: judged, then remembered like any other node.
            let value = self.last_card(s, alpha, beta, depth)?;
            let bound = Bound::of(value, alpha, beta);
            self.table.insert(
                key,
                Entry {
                    value,
                    bound,
                    best: None,
                },
            );
            return Ok(value);
        }
        self.buffers(depth);
        let original_alpha = alpha;
        let mut best = -2;
        let mut best_move = None;
        // The move that decided this position before, else the one that last cut at this depth,
        // is searched before the others are listed: when it cuts, they never are.
        let mut searched = None;
        if let Some(mv) = first
            .or(self.killers[depth])
            .filter(|m| is_legal_here(s, m))
        {
            let mut after = *s;
            rules::play(&mut after, &mv);
            best = -self.negamax(&after, -beta, -alpha, depth + 1)?;
            best_move = Some(mv);
            alpha = alpha.max(best);
            searched = Some(Key::of(&after));
        }
        if alpha < beta {
            let mut children = std::mem::take(&mut self.children[depth]);
            let cut = self.list_children(s, depth, searched, beta, &mut children);
            if let Some((value, mv)) = cut {
                best = value;
                best_move = Some(mv);
                alpha = value;
                children.clear();
            }
            let mut result = Ok(());
            for &(_, mv) in &children {
                let mut after = *s;
                rules::play(&mut after, &mv);
                let value = match self.negamax(&after, -beta, -alpha, depth + 1) {
                    Ok(v) => -v,
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                };
                if value > best {
                    best = value;
                    best_move = Some(mv);
                    if best > alpha {
                        alpha = best;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
            self.children[depth] = children;
            result?;
        }
        if alpha >= beta {
            self.killers[depth] = best_move;
        }
        let bound = Bound::of(best, original_alpha, beta);
        self.table.insert(
            key,
            Entry {
                value: best,
                bound,
                best: best_move,
            },
        );
        Ok(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playout::play_random;
    use crate::rng::SplitMix64;
    use crate::setup::new_game;

    /// Plain minimax over every legal move: no pruning, no table, no shortcut.
    /// None past `budget` positions.
    fn minimax(s: &State, budget: &mut u64) -> Option<i8> {
        if s.is_over() {
            return Some(terminal_value_for(s, s.player as usize));
        }
        *budget = budget.checked_sub(1)?;
        let mut moves = Vec::new();
        rules::legal_moves(s, &mut moves);
        let mut best = -2;
        for m in &moves {
            let mut after = *s;
            rules::play(&mut after, m);
            best = best.max(-minimax(&after, budget)?);
        }
        // The solver's shortcut agrees wherever it speaks.
        if let Some(value) = decided(s) {
            assert_eq!(value, best, "decided() is wrong on {s:?}");
        }
        if wins_by_passing(s) {
            assert_eq!(best, 1, "wins_by_passing() is wrong on {s:?}");
        }
        Some(best)
    }

    /// A 2-player position with at most `cards` cards in all hands, from a
    /// random game whose players pass often (so that struggles get resolved
    /// and the endgames stay small enough for plain minimax).
    fn endgame(seed: u64, mine: u8, theirs: u8) -> Option<State> {
        // The first edition, its Mordred variant, the second edition, with all its options.
        let mut s = crate::setup::test_game(2, (seed % 4) as u8, seed, (seed / 4 % 2) as u8);
        let mut rng = SplitMix64::new(seed.wrapping_mul(31) + 7);
        let pass_rate = 0.3 + 0.6 * rng.unit();
        while !s.is_over() && s.cards_in_hands() > mine + theirs {
            let p = s.player as usize;
            let over_quota = s.cards_left(p) > mine.max(theirs);
            if !over_quota && rng.unit() < pass_rate {
                rules::play(&mut s, &Move::PASS);
            } else {
                play_random(&mut s, &mut rng);
            }
        }
        let (a, b) = (
            s.cards_left(s.player as usize),
            s.cards_left(1 - s.player as usize),
        );
        (!s.is_over() && a + b == mine + theirs && a.max(b) == mine.max(theirs)).then_some(s)
    }

    /// A quarter of `n` in a debug build (plain minimax is slow there); `cargo test --release` runs all.
    fn scaled(n: usize) -> usize {
        if cfg!(debug_assertions) {
            n.div_ceil(4)
        } else {
            n
        }
    }

    fn check_against_minimax(mine: u8, theirs: u8, wanted: usize, budget: u64) {
        let mut checked = 0;
        let mut values = [0; 3];
        for seed in 0..4000 {
            let Some(s) = endgame(seed, mine, theirs) else {
                continue;
            };
            let mut left = budget;
            let Some(truth) = minimax(&s, &mut left) else {
                continue;
            };
            let solution = solve(&s, u64::MAX, None).expect("no limits");
            assert_eq!(solution.value, truth, "seed {seed}: {s:?}");
            let mut after = s;
            rules::play(&mut after, &solution.mv);
            let mut left = u64::MAX;
            assert_eq!(
                -minimax(&after, &mut left).unwrap(),
                truth,
                "seed {seed}: the move does not achieve the value"
            );
            values[(truth + 1) as usize] += 1;
            checked += 1;
            if checked == wanted {
                break;
            }
        }
        assert_eq!(checked, wanted, "too few small endgames found");
        // Both wins and losses were among them.
        assert!(values[0] > 0 && values[2] > 0, "{values:?}");
    }

    #[test]
    fn one_card_each_matches_plain_minimax() {
        check_against_minimax(1, 1, scaled(20), 100_000);
    }

    #[test]
    fn two_cards_against_one_match_plain_minimax() {
        check_against_minimax(2, 1, scaled(8), 150_000);
    }

    #[test]
    fn keys_leave_out_only_what_decides_nothing() {
        let mut s = new_game(2, false, 5, 0).unwrap();
        let mut rng = SplitMix64::new(5);
        for _ in 0..6 {
            play_random(&mut s, &mut rng);
        }
        let key = Key::of(&s);
        let mut t = s;
        t.tops = [3, 2, -1, -1];
        t.plays += 10;
        t.last_play = t.last_play.map(|n| if n > 0 { n + 10 } else { 0 });
        assert_eq!(Key::of(&t), key);
        for change in 0..5 {
            let mut u = s;
            match change {
                0 => u.board[u.order[u.resolved as usize] as usize][3] += 1,
                1 => u.courts[1][2] += 1,
                2 => u.player = 1 - u.player,
                3 => u.passes += 1,
                _ => u.stock[0] += 1,
            }
            assert_ne!(Key::of(&u), key, "change {change}");
        }
    }

    /// Positions of random 2-player games, all stages.
    fn positions() -> Vec<State> {
        let mut out = Vec::new();
        for seed in 0..16 {
            let mut s = crate::setup::test_game(2, (seed % 4) as u8, seed, 0);
            let mut rng = SplitMix64::new(seed);
            while !s.is_over() {
                out.push(s);
                play_random(&mut s, &mut rng);
            }
        }
        out
    }

    #[test]
    fn child_keys_are_derived_exactly() {
        for s in positions().into_iter().step_by(5) {
            let me = s.player as usize;
            assert_eq!(
                Key::of(&s).with_turn_passed().with_turn_passed(),
                Key::of(&s)
            );
            for card in 0..NUM_CARDS as u8 {
                if s.hands[me][card as usize] == 0 {
                    continue;
                }
                rules::for_each_action(&s, card, |action| {
                    let mut base = s;
                    rules::play_card(&mut base, card, action);
                    let key = Key::of(&base);
                    for (r, f) in rules::court_options(&base.board, base.open) {
                        let mut child = base;
                        rules::finish_turn(&mut child, Some((r, f)));
                        assert_eq!(key.after_call(me, r, f), Key::of(&child));
                    }
                    let mut child = base;
                    rules::finish_turn(&mut child, None);
                    assert_eq!(key.with_turn_passed(), Key::of(&child));
                });
            }
        }
    }

    #[test]
    fn the_quick_legality_check_agrees_with_the_rules() {
        let all = positions();
        let mut moves = Vec::new();
        let mut rng = SplitMix64::new(11);
        for (i, s) in all.iter().enumerate().step_by(3) {
            // Moves of this position (legal) and of a later one (often not).
            for t in [s, &all[(i + 7) % all.len()]] {
                rules::legal_moves(t, &mut moves);
                for _ in 0..40 {
                    let m = moves[rng.index(moves.len())];
                    assert_eq!(
                        is_legal_here(s, &m),
                        rules::is_legal(s, &m),
                        "{m:?} in {s:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn limits_give_up() {
        let mut s = new_game(2, false, 2, 0).unwrap();
        let mut rng = SplitMix64::new(2);
        while s.cards_in_hands() > 8 {
            play_random(&mut s, &mut rng);
        }
        assert_eq!(solve(&s, 1_000, None), None);
        assert_eq!(solve(&s, u64::MAX, Some(0.0)), None);
    }
}
