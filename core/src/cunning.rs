//! The advanced game's Cunning cards (second edition): every legal action of
//! each and what it does, action for action the same as `kingisdead/cunning.py`.
//!
//! An action is a slice of small integers, spelled as Python's tuple:
//!
//! - Spy `(seat, card, *copied)`: the top `card` of `seat`'s pile carried out
//!   as if the spy had played it, with that card's own action (a copied
//!   Negotiate whose disc the spy no longer holds: `(a, b, -1)`);
//! - Aid `(faction, region)`; Ambush `(region, returned)`;
//! - Dispute `(a, f, b, g)` a < b; Influence `(b, g1, g2, a, English)`, or
//!   `(a, f, b, g)`; Edict `(a, S, S, b, g1, g2)`, or `(x, f1, f2, y, g)`, or
//!   `(a, f, b, g)`; March `(a, f1, f2, b)`, or `(a, f, b)`;
//! - Resist, Muster, Quell `(region, *placed)`; Suppress `(region, returned,
//!   placed)`, -1 for a part that cannot happen; Plot: never played.
//!
//! Every card is carried out as fully as it can be: of all the ways to carry
//! it out only those moving the most followers are legal, listed in ascending
//! order (Python sorts its tuples; slices compare alike), and the empty action
//! when none moves any. The no-reversal ban is applied before the fullest
//! effect is judged. Listing goes through `&mut dyn FnMut` so that a Spy's copy,
//! which lists another card's actions through `rules::for_each_action`, does
//! not instantiate the listing without end.

use crate::board::{
    AID, AMBUSH, CROWN, CUNNING_BAN_SAME_EFFECT, DISPUTE, EDICT, EXACT_REVERSAL, FIRST_CUNNING,
    INFLUENCE, MARCH, MUSTER, NEIGHBOURS, NUM_FACTIONS, PLOT, QUELL, RESIST, SPY, SPY_BAN_FREE,
    SPY_NEGOTIATE_ALWAYS, SPY_NEGOTIATE_NO_EFFECT, SPY_PILE_FULLEST, SPY_SPY_ALLOWED, SUPPRESS,
};
use crate::rng::SplitMix64;
use crate::rules::{self, active_ban, ban_after, crown_actions, faction_targets, Bits};
use crate::state::{State, MAX_ACTION, NONE};

const SCOTTISH: usize = 0;
const WELSH: usize = 1;
const ENGLISH: usize = 2;
/// The follower kinds of the second edition (it has no Loyalists).
const FACTIONS: [usize; NUM_FACTIONS] = [SCOTTISH, WELSH, ENGLISH];

/// Calls `emit` with every legal action of Cunning `card` for the player to
/// move, in Python's order: the empty action when nothing can happen, none for
/// Plot, which is never played, and none in the standard game.
pub fn for_each_action(s: &State, card: u8, emit: &mut dyn FnMut(&[i8])) {
    if s.advanced() && card != PLOT {
        ways(s, card).emit(emit);
    }
}

/// A legal action of Cunning `card` (not Plot) drawn uniformly, as an array
/// and its length: the random games' draw, which needs no sorted list.
pub fn random_action(s: &State, card: u8, rng: &mut SplitMix64) -> ([i8; MAX_ACTION], usize) {
    ways(s, card).pick(rng)
}

/// The ways of carrying `card` out that its effect keeps (Python's lists: each
/// sorted as its tuples would be, but the Spy's, listed pile by pile).
fn ways(s: &State, card: u8) -> Fullest {
    match card {
        SPY => spy_ways(s),
        AID => aid_ways(s),
        AMBUSH => ambush_ways(s),
        DISPUTE => dispute_ways(s),
        INFLUENCE => influence_ways(s),
        EDICT => edict_ways(s),
        MARCH => march_ways(s),
        RESIST => resist_ways(s),
        MUSTER => rally_ways(s, SCOTTISH),
        QUELL => rally_ways(s, WELSH),
        SUPPRESS => suppress_ways(s),
        _ => Fullest::default(),
    }
}

/// Carry out the legal `action` of Cunning `card` for the player to move, in
/// place: the board and the stock (and for a spied Negotiate the region cards
/// and discs), and `s.undo_ban`, which a card play always replaces: the ban
/// on the reverse where the card made an exchange that bans it, else none.
pub fn carry_out(s: &mut State, card: u8, action: &[i8]) {
    if card == SPY {
        return spy(s, action);
    }
    s.undo_ban = None;
    if action.is_empty() {
        return;
    }
    match card {
        AID => aid(s, action),
        AMBUSH => ambush(s, action),
        DISPUTE | INFLUENCE | EDICT => swap(s, action),
        MARCH => march(s, action),
        RESIST => place_all(s, action[0], &action[1..]),
        MUSTER => rally(s, SCOTTISH, action),
        QUELL => rally(s, WELSH, action),
        SUPPRESS => suppress(s, action),
        _ => {}
    }
    if matches!(card, DISPUTE | INFLUENCE | EDICT) && s.mode(CUNNING_BAN_SAME_EFFECT) {
        s.undo_ban = ban_after(s.player, action, s.option(EXACT_REVERSAL), card);
    }
}

// -- the fullest effect ------------------------------------------------------------------

/// An action as one integer that sorts as Python sorts its tuples: each part
/// plus 2 in one byte (-1 becomes 1), the first part in the highest byte and
/// the unused low bytes 0, so that a tuple comes before the longer ones it
/// begins.
fn sort_key(action: &[i8]) -> u64 {
    let mut key = 0u64;
    for (i, &x) in action.iter().enumerate() {
        key |= u64::from((x + 2) as u8) << (8 * (MAX_ACTION - 1 - i));
    }
    key
}

/// The action a [`sort_key`] stands for, and its number of parts.
fn from_sort_key(key: u64) -> ([i8; MAX_ACTION], usize) {
    let mut action = [0i8; MAX_ACTION];
    let mut len = 0;
    while len < MAX_ACTION {
        let byte = (key >> (8 * (MAX_ACTION - 1 - len))) as u8;
        if byte == 0 {
            break;
        }
        action[len] = byte as i8 - 2;
        len += 1;
    }
    (action, len)
}

/// The ways offered that move the most followers (Python `_fullest`), kept as
/// [`sort_key`]s; with a ban, those that undo the last exchange are left out
/// first. A card whose every way is legal (Spy, Aid) offers each as moving one.
#[derive(Default)]
struct Fullest {
    most: u8,
    ways: Vec<u64>,
    ban: Option<rules::Binding>,
    /// The ways are offered in their list's order, which is not sorted: a
    /// Spy's, by seat, then in the copied card's own order.
    listed: bool,
}

impl Fullest {
    /// The ways of an exchanging card: with `cunning_ban = "same_effect"`, a
    /// way that undoes the last exchange made with this card is left out.
    fn unbanned(s: &State, card: u8) -> Fullest {
        let ban = if s.mode(CUNNING_BAN_SAME_EFFECT) {
            active_ban(s, card)
        } else {
            None
        };
        Fullest {
            ban,
            ..Fullest::default()
        }
    }

    /// A way of carrying the card out that moves `moved` followers.
    fn offer(&mut self, moved: u8, action: &[i8]) {
        if self.ban.is_some_and(|ban| ban.forbids(action)) {
            return;
        }
        if moved > self.most {
            self.most = moved;
            self.ways.clear();
        }
        if moved == self.most {
            self.ways.push(sort_key(action));
        }
    }

    /// The kept ways in ascending order, or the empty action when none moves any.
    fn emit(mut self, emit: &mut dyn FnMut(&[i8])) {
        if self.most == 0 {
            return emit(&[]);
        }
        if !self.listed {
            self.ways.sort_unstable();
        }
        for &way in &self.ways {
            let (action, len) = from_sort_key(way);
            emit(&action[..len]);
        }
    }

    /// One of the kept ways drawn uniformly (the empty action when none moves any).
    fn pick(&self, rng: &mut SplitMix64) -> ([i8; MAX_ACTION], usize) {
        if self.most == 0 {
            return ([0; MAX_ACTION], 0);
        }
        from_sort_key(self.ways[rng.index(self.ways.len())])
    }
}

/// A region's followers of the three factions.
fn region(s: &State, r: usize) -> [u8; NUM_FACTIONS] {
    let here = s.board[r];
    [here[0], here[1], here[2]]
}

/// The stock's followers of the three factions.
fn stock(s: &State) -> [u8; NUM_FACTIONS] {
    [s.stock[0], s.stock[1], s.stock[2]]
}

/// The action `(region, *kinds)` (kinds: at most two).
fn with_region(r: usize, kinds: &[i8]) -> ([i8; 3], usize) {
    let mut action = [r as i8, 0, 0];
    action[1..1 + kinds.len()].copy_from_slice(kinds);
    (action, 1 + kinds.len())
}

/// The kinds among `kinds` that `counts` has one of (Python `_present`).
fn present(counts: [u8; NUM_FACTIONS], kinds: &[usize]) -> impl Iterator<Item = usize> + '_ {
    kinds.iter().copied().filter(move |&f| counts[f] > 0)
}

/// The distinct pairs `(f1, f2)`, f1 <= f2, of kinds among `kinds` that `counts` can give.
fn pairs(counts: [u8; NUM_FACTIONS], kinds: &[usize]) -> impl Iterator<Item = (usize, usize)> + '_ {
    kinds.iter().enumerate().flat_map(move |(i, &f1)| {
        kinds[i..]
            .iter()
            .copied()
            .filter(move |&f2| counts[f1] > u8::from(f1 == f2) && counts[f2] > 0)
            .map(move |f2| (f1, f2))
    })
}

/// Calls `visit` with each way to take `n` (0 to 2) followers of `kinds` from `stock`.
fn placements(stock: [u8; NUM_FACTIONS], n: u8, kinds: &[usize], mut visit: impl FnMut(&[i8])) {
    match n {
        2 => pairs(stock, kinds).for_each(|(f1, f2)| visit(&[f1 as i8, f2 as i8])),
        1 => present(stock, kinds).for_each(|f| visit(&[f as i8])),
        _ => visit(&[]),
    }
}

fn place(s: &mut State, r: usize, f: usize) {
    s.stock[f] -= 1;
    s.board[r][f] += 1;
}

fn give_back(s: &mut State, r: usize, f: usize) {
    s.board[r][f] -= 1;
    s.stock[f] += 1;
}

fn place_all(s: &mut State, r: i8, kinds: &[i8]) {
    for &f in kinds {
        place(s, r as usize, f as usize);
    }
}

// -- Spy ------------------------------------------------------------------------------

fn spy_ways(s: &State) -> Fullest {
    let piles = (0..s.players as usize).filter(|&seat| {
        let card = s.tops[seat];
        seat != s.player as usize && card >= 0 && (card != SPY as i8 || s.mode(SPY_SPY_ALLOWED))
    });
    // With `spy_pile = "fullest"`, where any pile's copy has an effect, only those piles.
    let effective = |seat: usize| {
        let mut first = None;
        copy_actions(s, s.tops[seat] as u8, &mut |action| {
            first.get_or_insert(action.iter().any(|&x| x != NONE));
        });
        first == Some(true)
    };
    let only_effective = s.mode(SPY_PILE_FULLEST) && piles.clone().any(effective);
    let mut ways = Fullest {
        listed: true,
        ..Fullest::default()
    };
    for seat in piles {
        if only_effective && !effective(seat) {
            continue;
        }
        let card = s.tops[seat];
        copy_actions(s, card as u8, &mut |copied| {
            let mut action = [0i8; MAX_ACTION];
            action[0] = seat as i8;
            action[1] = card;
            action[2..2 + copied.len()].copy_from_slice(copied);
            ways.offer(1, &action[..2 + copied.len()]);
        });
    }
    ways
}

/// The actions of `card` carried out by the spy: a spied Spy copies nothing
/// further; Negotiate as `spy_negotiate` says; any other card as if the spy
/// played it, bound by the no-reversal ban as that card unless `spy_ban`
/// frees the copy.
fn copy_actions(s: &State, card: u8, emit: &mut dyn FnMut(&[i8])) {
    if card == SPY {
        return emit(&[]);
    }
    if card == CROWN {
        return negotiate_actions(s, emit);
    }
    if s.mode(SPY_BAN_FREE) && s.undo_ban.is_some() {
        let mut free = *s;
        free.undo_ban = None;
        return rules::for_each_action(&free, card, emit);
    }
    rules::for_each_action(s, card, emit)
}

/// A spied Negotiate: while the spy's own disc is not on the board (or with
/// `spy_negotiate = "always"`) as the card; once it is, nothing
/// (`"no_effect"`) or the swap alone, `(a, b, -1)` (`"own_disc"`).
fn negotiate_actions(s: &State, emit: &mut dyn FnMut(&[i8])) {
    let placed = s.crowns.contains(&(s.player as i8));
    if !placed || s.mode(SPY_NEGOTIATE_ALWAYS) {
        return crown_actions(s, &mut &mut *emit);
    }
    let mut any = false;
    let mut swaps = Vec::new();
    crown_actions(s, &mut |action| {
        any |= !action.is_empty();
        if let &[a, b, crowned] = action {
            if crowned == a {
                swaps.push([a, b, NONE]);
            }
        }
    });
    if !any || s.mode(SPY_NEGOTIATE_NO_EFFECT) {
        return emit(&[]);
    }
    swaps.iter().for_each(|swap| emit(swap));
}

fn spy(s: &mut State, action: &[i8]) {
    s.undo_ban = None;
    if action.len() < 3 {
        return; // nothing to spy, a spied Spy, or a copy without effect
    }
    let (card, copied) = (action[1] as u8, &action[2..]);
    if card == CROWN {
        if let &[a, b, crowned] = copied {
            rules::negotiate(s, s.player as usize, [a, b, crowned]);
        }
    } else if card >= FIRST_CUNNING {
        carry_out(s, card, copied);
    } else {
        rules::move_followers(s, card, copied);
        if matches!(card, crate::board::GARRISON | crate::board::AMBASSADOR) {
            s.undo_ban = ban_after(s.player, copied, s.option(EXACT_REVERSAL), card);
        }
    }
    if s.mode(SPY_BAN_FREE) {
        s.undo_ban = None;
    }
}

// -- placing from the stock -------------------------------------------------------------

fn aid_ways(s: &State) -> Fullest {
    let most = FACTIONS.iter().map(|&f| s.stock[f]).max().unwrap_or(0);
    let leaders = FACTIONS.iter().filter(|&&f| s.stock[f] == most).count();
    let mut ways = Fullest::default();
    if most == 0 || (leaders > 1 && s.mode(crate::board::AID_TIE_NONE)) {
        return ways;
    }
    for f in FACTIONS.iter().filter(|&&f| s.stock[f] == most) {
        for r in Bits(u32::from(s.open)) {
            ways.offer(1, &[*f as i8, r as i8]);
        }
    }
    ways
}

fn aid(s: &mut State, action: &[i8]) {
    let (f, r) = (action[0] as usize, action[1] as usize);
    for _ in 0..s.stock[f].min(2) {
        place(s, r, f);
    }
}

fn ambush_ways(s: &State) -> Fullest {
    let placed = s.stock[SCOTTISH].min(2);
    let mut ways = Fullest::default();
    for r in Bits(u32::from(s.open)) {
        let mut counts = region(s, r);
        counts[SCOTTISH] += placed;
        for k in present(counts, &FACTIONS) {
            ways.offer(placed + 1, &[r as i8, k as i8]);
        }
    }
    ways
}

fn ambush(s: &mut State, action: &[i8]) {
    let (r, returned) = (action[0] as usize, action[1] as usize);
    for _ in 0..s.stock[SCOTTISH].min(2) {
        place(s, r, SCOTTISH);
    }
    give_back(s, r, returned);
}

fn resist_ways(s: &State) -> Fullest {
    let kinds = [WELSH, ENGLISH];
    let stock = stock(s);
    let n = (stock[WELSH] + stock[ENGLISH]).min(2);
    let mut ways = Fullest::default();
    for r in Bits(u32::from(faction_targets(s, SCOTTISH))) {
        placements(stock, n, &kinds, |placed| {
            let (action, len) = with_region(r, placed);
            ways.offer(n, &action[..len]);
        });
    }
    ways
}

/// Muster (Scottish) and Quell (Welsh): in a target region of `faction`'s
/// Support, one of its followers back to the stock where there is one, then
/// two followers of any kinds from the stock.
fn rally_ways(s: &State, faction: usize) -> Fullest {
    let mut ways = Fullest::default();
    for r in Bits(u32::from(faction_targets(s, faction))) {
        let back = u8::from(s.board[r][faction] > 0);
        let mut stock = stock(s);
        stock[faction] += back;
        let n = stock.iter().sum::<u8>().min(2);
        placements(stock, n, &FACTIONS, |placed| {
            let (action, len) = with_region(r, placed);
            ways.offer(back + n, &action[..len]);
        });
    }
    ways
}

fn rally(s: &mut State, faction: usize, action: &[i8]) {
    let r = action[0] as usize;
    if s.board[r][faction] > 0 {
        give_back(s, r, faction);
    }
    place_all(s, action[0], &action[1..]);
}

/// In a target region of the English Support: an English follower back if
/// there is one, then another of any kind if one is left (independently of
/// the first), then one from the stock.
fn suppress_ways(s: &State) -> Fullest {
    let mut ways = Fullest::default();
    for r in Bits(u32::from(faction_targets(s, ENGLISH))) {
        let (mut counts, mut stock) = (region(s, r), stock(s));
        let first = u8::from(counts[ENGLISH] > 0);
        counts[ENGLISH] -= first;
        stock[ENGLISH] += first;
        let (returned, n) = kinds_or_none(counts);
        for &g in &returned[..n] {
            let mut after = stock;
            if g != NONE {
                after[g as usize] += 1;
            }
            let (placed, n) = kinds_or_none(after);
            for &f in &placed[..n] {
                let moved = first + u8::from(g != NONE) + u8::from(f != NONE);
                ways.offer(moved, &[r as i8, g, f]);
            }
        }
    }
    ways
}

/// The kinds `counts` has one of, or [`NONE`] alone when it has none: the
/// array and how many of it.
fn kinds_or_none(counts: [u8; NUM_FACTIONS]) -> ([i8; NUM_FACTIONS], usize) {
    let mut kinds = [NONE; NUM_FACTIONS];
    let mut n = 0;
    for f in present(counts, &FACTIONS) {
        kinds[n] = f as i8;
        n += 1;
    }
    (kinds, n.max(1))
}

fn suppress(s: &mut State, action: &[i8]) {
    let (r, returned, placed) = (action[0] as usize, action[1], action[2]);
    if s.board[r][ENGLISH] > 0 {
        give_back(s, r, ENGLISH);
    }
    if returned != NONE {
        give_back(s, r, returned as usize);
    }
    if placed != NONE {
        place(s, r, placed as usize);
    }
}

// -- moving followers on the board ----------------------------------------------------------

/// The 1-for-1 swaps `(a, f, b, g)`, a < b any two open regions, where exactly
/// one of f and g is of `faction` (Dispute: Welsh; Influence's fallback: English).
fn one_for_one(s: &State, faction: usize, ways: &mut Fullest) {
    let open = u32::from(s.open);
    for a in Bits(open) {
        for b in Bits(open & !((2u32 << a) - 1)) {
            for f in present(region(s, a), &FACTIONS) {
                for g in present(region(s, b), &FACTIONS) {
                    if (f == faction) != (g == faction) {
                        ways.offer(2, &[a as i8, f as i8, b as i8, g as i8]);
                    }
                }
            }
        }
    }
}

fn dispute_ways(s: &State) -> Fullest {
    let mut ways = Fullest::unbanned(s, DISPUTE);
    one_for_one(s, WELSH, &mut ways);
    ways
}

fn influence_ways(s: &State) -> Fullest {
    let mut ways = Fullest::unbanned(s, INFLUENCE);
    let open = u32::from(s.open);
    for b in Bits(open) {
        for (g1, g2) in pairs(region(s, b), &[SCOTTISH, WELSH]) {
            for a in Bits(open).filter(|&a| a != b && s.board[a][ENGLISH] > 0) {
                let action = [b as i8, g1 as i8, g2 as i8, a as i8, ENGLISH as i8];
                ways.offer(3, &action);
            }
        }
    }
    one_for_one(s, ENGLISH, &mut ways);
    ways
}

/// Two Scots for two others between bordering regions; then three followers
/// moved (two Scots for one other, or two others for one Scot); then one Scot
/// for one other.
fn edict_ways(s: &State) -> Fullest {
    let others = [WELSH, ENGLISH];
    let (s_, open) = (SCOTTISH as i8, u32::from(s.open));
    let mut ways = Fullest::unbanned(s, EDICT);
    for a in Bits(open) {
        let here = region(s, a);
        for b in Bits(u32::from(NEIGHBOURS[a]) & open) {
            let there = region(s, b);
            let (x, y) = (a as i8, b as i8);
            if here[SCOTTISH] >= 2 {
                for (g1, g2) in pairs(there, &others) {
                    ways.offer(4, &[x, s_, s_, y, g1 as i8, g2 as i8]);
                }
                for g in present(there, &others) {
                    ways.offer(3, &[x, s_, s_, y, g as i8]);
                }
            }
            if there[SCOTTISH] > 0 {
                for (f1, f2) in pairs(here, &others) {
                    ways.offer(3, &[x, f1 as i8, f2 as i8, y, s_]);
                }
            }
            if a < b {
                for f in present(here, &FACTIONS) {
                    for g in present(there, &FACTIONS) {
                        if (f == SCOTTISH) != (g == SCOTTISH) {
                            ways.offer(2, &[x, f as i8, y, g as i8]);
                        }
                    }
                }
            }
        }
    }
    ways
}

/// Dispute, Influence and Edict: `(a, *leaving a, b, *leaving b)`, one or two followers each way.
fn swap(s: &mut State, action: &[i8]) {
    let split = if action.len() == 4 { 2 } else { 3 };
    let (a, b) = (action[0] as usize, action[split] as usize);
    for &f in &action[1..split] {
        s.board[a][f as usize] -= 1;
        s.board[b][f as usize] += 1;
    }
    for &g in &action[split + 1..] {
        s.board[b][g as usize] -= 1;
        s.board[a][g as usize] += 1;
    }
}

fn march_ways(s: &State) -> Fullest {
    let open = u32::from(s.open);
    let mut ways = Fullest::default();
    for a in Bits(open) {
        let here = region(s, a);
        for b in Bits(u32::from(NEIGHBOURS[a]) & open) {
            for (f1, f2) in pairs(here, &FACTIONS) {
                ways.offer(2, &[a as i8, f1 as i8, f2 as i8, b as i8]);
            }
            for f in present(here, &FACTIONS) {
                ways.offer(1, &[a as i8, f as i8, b as i8]);
            }
        }
    }
    ways
}

fn march(s: &mut State, action: &[i8]) {
    let (a, b) = (action[0] as usize, action[action.len() - 1] as usize);
    for &f in &action[1..action.len() - 1] {
        s.board[a][f as usize] -= 1;
        s.board[b][f as usize] += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{
        ADVANCED, AID_TIE_NONE, CALEDONIA, DEVA, DIN_EIDYN, EBORACUM, LONDINIUM, PLOT,
        SECOND_EDITION, SPY_NEGOTIATE_NO_EFFECT,
    };
    use crate::playout::play_random;
    use crate::rng::SplitMix64;
    use crate::rules::{followers_conserved, is_legal, legal_moves, play};
    use crate::setup::new_game_in_mode;
    use crate::state::Move;

    const S: i8 = SCOTTISH as i8;
    const W: i8 = WELSH as i8;
    const E: i8 = ENGLISH as i8;

    /// A 3-player advanced game with `mode`'s options, seat 0 to move holding `card`.
    fn holding(card: u8, mode: u16) -> State {
        let mut s = new_game_in_mode(SECOND_EDITION, 0, ADVANCED | mode, 3, false, 4, 0).unwrap();
        s.cunning[0] = 1 << (card - FIRST_CUNNING);
        s
    }

    fn actions(s: &State, card: u8) -> Vec<Vec<i8>> {
        let mut out = Vec::new();
        for_each_action(s, card, &mut |a| out.push(a.to_vec()));
        out
    }

    #[test]
    fn aid_places_the_most_plentiful_faction_and_a_tie_may_do_nothing() {
        let mut s = holding(AID, 0);
        s.stock = [5, 5, 2, 0];
        s.open = 1 << CALEDONIA | 1 << DEVA;
        let listed = actions(&s, AID);
        assert_eq!(listed, [[S, 0], [S, 3], [W, 0], [W, 3]]);
        s.mode |= AID_TIE_NONE;
        assert_eq!(actions(&s, AID), [Vec::<i8>::new()]);
        s.stock = [5, 1, 2, 0];
        let before = s.board[DEVA][0];
        carry_out(&mut s, AID, &[S, DEVA as i8]);
        assert_eq!((s.board[DEVA][0], s.stock[0]), (before + 2, 3));
    }

    #[test]
    fn the_fullest_effect_rules_out_partial_swaps() {
        let mut s = holding(EDICT, 0);
        s.board[DIN_EIDYN] = [2, 1, 0, 0];
        s.board[DEVA] = [0, 1, 1, 0];
        s.board[CALEDONIA] = [0, 0, 0, 0];
        s.board[EBORACUM] = [0, 0, 0, 0];
        s.open = 1 << DIN_EIDYN | 1 << DEVA;
        // Din Eidyn's two Scots for Deva's Welsh and English, the only 2-for-2.
        let d = DIN_EIDYN as i8;
        let v = DEVA as i8;
        assert_eq!(actions(&s, EDICT), [[d, S, S, v, W, E]]);
        carry_out(&mut s, EDICT, &[d, S, S, v, W, E]);
        assert_eq!(
            (s.board[DIN_EIDYN], s.board[DEVA]),
            ([0, 2, 1, 0], [2, 0, 0, 0])
        );
        assert_eq!(s.undo_ban, None, "cunning_ban = \"none\": no ban");
        // With nothing to swap for two Scots, three followers moved, then one for one.
        s.board[DIN_EIDYN] = [1, 1, 0, 0];
        s.board[DEVA] = [0, 1, 1, 0];
        assert_eq!(actions(&s, EDICT), [[v, W, E, d, S]]);
        s.board[DIN_EIDYN] = [1, 0, 0, 0];
        s.board[DEVA] = [0, 0, 1, 0];
        assert_eq!(actions(&s, EDICT), [[d, S, v, E]]);
        s.board[DEVA] = [0; 4];
        assert_eq!(actions(&s, EDICT), [Vec::<i8>::new()]);
    }

    #[test]
    fn a_swap_bans_its_reverse_for_the_same_card_with_cunning_ban_same_effect() {
        let mut s = holding(DISPUTE, CUNNING_BAN_SAME_EFFECT);
        s.board[CALEDONIA] = [1, 1, 0, 0];
        s.board[LONDINIUM] = [0, 0, 2, 0];
        let (c, l) = (CALEDONIA as i8, LONDINIUM as i8);
        play(&mut s, &Move::card_play(DISPUTE, &[c, W, l, E], None));
        let ban = s.undo_ban.expect("a Dispute bans its reverse");
        assert_eq!((ban.card, ban.reverse()), (DISPUTE, &[c, E, l, W][..]));
        s.cunning[1] = 1 << (DISPUTE - FIRST_CUNNING) | 1 << (INFLUENCE - FIRST_CUNNING);
        assert!(!actions(&s, DISPUTE).contains(&vec![c, E, l, W]));
        assert!(active_ban(&s, DISPUTE).is_some() && active_ban(&s, INFLUENCE).is_none());
    }

    #[test]
    fn suppress_writes_what_cannot_happen_as_none() {
        let mut s = holding(SUPPRESS, 0);
        s.stock = [0, 0, 0, 0];
        for r in 0..8 {
            s.board[r] = [0; 4];
        }
        let target = faction_targets(&s, ENGLISH).trailing_zeros() as usize;
        s.board[target] = [0, 0, 1, 0];
        // The English follower goes back and is placed again: two moved, nothing else to return.
        assert_eq!(actions(&s, SUPPRESS), [[target as i8, NONE, E]]);
        carry_out(&mut s, SUPPRESS, &[target as i8, NONE, E]);
        assert_eq!((s.board[target], s.stock), ([0, 0, 1, 0], [0; 4]));
    }

    #[test]
    fn a_spied_negotiate_without_the_spys_disc_swaps_only_or_does_nothing() {
        let mut s = holding(SPY, 0);
        s.tops[1] = CROWN as i8;
        s.crowns[LONDINIUM] = 0;
        let listed = actions(&s, SPY);
        assert!(listed
            .iter()
            .all(|a| a.len() == 5 && a[..2] == [1, 0] && a[4] == NONE));
        assert!(!listed.is_empty());
        let mut after = s;
        carry_out(&mut after, SPY, &listed[0]);
        assert_eq!(after.crowns, s.crowns);
        assert_ne!(after.order, s.order);
        s.mode |= SPY_NEGOTIATE_NO_EFFECT;
        assert_eq!(actions(&s, SPY), [vec![1, CROWN as i8]]);
        // No pile to spy: nothing happens.
        s.tops = [-1; 4];
        assert_eq!(actions(&s, SPY), [Vec::<i8>::new()]);
    }

    #[test]
    fn plot_is_never_played_and_the_standard_game_has_no_cunning_cards() {
        let s = holding(PLOT, 0);
        assert!(actions(&s, PLOT).is_empty());
        let mut moves = Vec::new();
        legal_moves(&s, &mut moves);
        assert!(moves.iter().all(|m| m.card != PLOT as i8));
        let mut standard = s;
        standard.mode = 0;
        assert!(actions(&standard, MARCH).is_empty());
    }

    #[test]
    fn sort_keys_order_actions_as_python_orders_tuples() {
        let mut rng = SplitMix64::new(2);
        let actions: Vec<Vec<i8>> = (0..2000)
            .map(|_| {
                let len = rng.index(MAX_ACTION + 1);
                (0..len).map(|_| rng.index(20) as i8 - 1).collect()
            })
            .collect();
        for a in &actions {
            let (back, len) = from_sort_key(sort_key(a));
            assert_eq!(&back[..len], &a[..]);
        }
        for pair in actions.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            assert_eq!(sort_key(a).cmp(&sort_key(b)), a.cmp(b), "{a:?} {b:?}");
        }
    }

    #[test]
    fn the_random_draw_reaches_every_listed_action_and_no_other() {
        let mut rng = SplitMix64::new(8);
        let mut checked = 0;
        for game in 0..60u64 {
            let mode = MODES[game as usize % MODES.len()];
            let mut s = new_game_in_mode(SECOND_EDITION, 0, mode, 3, false, game, 0).unwrap();
            while !s.is_over() {
                for i in Bits(u32::from(
                    s.cunning[s.player as usize] & !crate::board::PLOT_BIT,
                )) {
                    let card = FIRST_CUNNING + i as u8;
                    let listed = actions(&s, card);
                    if listed.len() > 30 {
                        continue;
                    }
                    let drawn: std::collections::HashSet<Vec<i8>> = (0..40 * listed.len() + 40)
                        .map(|_| {
                            let (action, len) = random_action(&s, card, &mut rng);
                            action[..len].to_vec()
                        })
                        .collect();
                    assert_eq!(drawn, listed.iter().cloned().collect(), "card {card}");
                    checked += 1;
                }
                play_random(&mut s, &mut rng);
            }
        }
        assert!(checked > 200, "only {checked} checked");
    }

    /// Every option away from its default, in turn and all together.
    const MODES: [u16; 4] = [
        ADVANCED,
        crate::board::ALL_MODE_BITS & !SPY_NEGOTIATE_NO_EFFECT,
        ADVANCED | SPY_NEGOTIATE_NO_EFFECT | AID_TIE_NONE,
        ADVANCED | crate::board::SPY_NEGOTIATE_ALWAYS | CUNNING_BAN_SAME_EFFECT,
    ];

    #[test]
    fn random_advanced_games_play_only_listed_moves_and_conserve_followers() {
        let mut rng = SplitMix64::new(3);
        let mut moves = Vec::new();
        let mut cunning_plays = 0;
        for game in 0..240u64 {
            let mode = MODES[game as usize % MODES.len()];
            let players = 2 + (game % 3) as u8;
            let options = if game % 2 == 0 { 0 } else { EXACT_REVERSAL };
            let mut s =
                new_game_in_mode(SECOND_EDITION, options, mode, players, false, game, 0).unwrap();
            assert!((0..players as usize).all(|p| s.cunning[p].count_ones() == 3));
            while !s.is_over() {
                legal_moves(&s, &mut moves);
                let mut after = s;
                let m = play_random(&mut after, &mut rng);
                assert!(moves.contains(&m) && is_legal(&s, &m), "{m:?} in {s:?}");
                let mut replay = s;
                play(&mut replay, &m);
                assert_eq!(replay, after);
                assert!(followers_conserved(&after));
                cunning_plays += usize::from(m.card >= FIRST_CUNNING as i8);
                s = after;
            }
        }
        assert!(
            cunning_plays > 1000,
            "only {cunning_plays} Cunning cards played"
        );
    }
}
