//! The rules, move for move the same as `kingisdead/rules.py`: the legal
//! actions of each card (in Python's order, so move lists match index for
//! index), legality, what a move does, and the end of a power struggle.
//!
//! Enumeration goes through callbacks ([`for_each_action`],
//! [`for_each_card_move`]) so that listing, counting and judging moves share
//! one definition of what is legal and allocate nothing on the way.

use crate::board::EXACT_REVERSAL;
use crate::board::{AMBASSADOR, CROWN, FIRST_CUNNING, GARRISON, NUM_CUNNING, SETTLEMENTS};
use crate::board::{DISPUTE, EDICT, INFLUENCE, MARCH, MUSTER, QUELL, RESIST, SPY};
use crate::board::{
    FACTION_CARD, HOMES, LOYALISTS, MORDRED_FLAGS, NEIGHBOURS, NUM_CARDS, NUM_KINDS, NUM_REGIONS,
    REACH, SAXONS, UNRESOLVED,
};
use crate::cunning;
use crate::lastcard;
use crate::scoring::score;
use crate::state::{Ban, Ending, Move, State, MAX_ACTION, NONE, PASS_CARD};

/// Followers of each kind in each region, as `State::board`.
pub type Board = [[u8; NUM_KINDS]; NUM_REGIONS];

/// The set bits of a mask, lowest first (regions of a region mask, cells of a court mask).
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub u32);

impl Iterator for Bits {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(bit)
    }
}

/// Bitmask of the kinds of follower present in a region.
#[inline]
fn kinds(board: &Board, region: usize) -> u32 {
    let r = &board[region];
    (r[0] > 0) as u32
        | ((r[1] > 0) as u32) << 1
        | ((r[2] > 0) as u32) << 2
        | ((r[3] > 0) as u32) << 3
}

/// Bitmask of the regions above `region` (for pairs a < b).
#[inline]
fn above(region: usize) -> u32 {
    !((2u32 << region) - 1)
}

// -- the no-immediate-undo rule, judged by effect or literally -----------------------

/// What an exchange does to its two regions: `(from, to, delta)`, region `from`
/// changing by `delta` (by kind, Loyalists included) and `to` by `-delta`.
///
/// Canonical as Python's `exchange_effect`: for a 2-for-1,
/// `from` is the region giving two (delta sums to -1); for a 1-for-1, `from` is
/// the lower region; for the advanced game's Edict 2-for-2, the region whose
/// first changed kind drops. Every spelling of one change has one effect. None
/// for the empty action.
pub fn exchange_effect(action: &[i8]) -> Option<(usize, usize, [i8; NUM_KINDS])> {
    let mut d = [0i8; NUM_KINDS];
    match *action {
        [a, f1, f2, b, g1, g2] => {
            d[f1 as usize] -= 1;
            d[f2 as usize] -= 1;
            d[g1 as usize] += 1;
            d[g2 as usize] += 1;
            if d.iter().find(|&&x| x != 0).is_some_and(|&x| x > 0) {
                Some((b as usize, a as usize, d.map(|x| -x)))
            } else {
                Some((a as usize, b as usize, d))
            }
        }
        [a, f1, f2, b, g] => {
            d[f1 as usize] -= 1;
            d[f2 as usize] -= 1;
            d[g as usize] += 1;
            Some((a as usize, b as usize, d))
        }
        [a, f, b, g] => {
            d[f as usize] -= 1;
            d[g as usize] += 1;
            if a < b {
                Some((a as usize, b as usize, d))
            } else {
                Some((b as usize, a as usize, d.map(|x| -x)))
            }
        }
        _ => None,
    }
}

/// The exchange that would undo `action`, literally (Python's
/// `reverse_exchange`; a swap within one faction is its own reverse): a 1-for-1
/// `(a, f, b, g)` becomes `(a, g, b, f)`, a 2-for-1 `(a, f1, f2, b, g)`
/// becomes `(b, f1, f2, a, g)`, an Edict's `(a, f1, f2, b, g1, g2)`
/// `(b, f1, f2, a, g1, g2)`, spelled canonically (the two leaving kinds
/// in order, a 1-for-1's lower region first). None for the empty action.
pub fn reverse_exchange(action: &[i8]) -> Option<([i8; 6], u8)> {
    match *action {
        [a, f1, f2, b, g1, g2] => Some(([b, f1, f2, a, g1, g2], 6)),
        [a, f1, f2, b, g] => Some(([b, f1.min(f2), f1.max(f2), a, g, 0], 5)),
        [a, f, b, g] if a > b => Some(([b, f, a, g, 0, 0], 4)),
        [a, f, b, g] => Some(([a, g, b, f, 0, 0], 4)),
        _ => None,
    }
}

/// One spelling of an exchange with exactly this (non-zero) effect, as
/// Python's `spell_effect`: `(from, f1, f2, to, g)` for a 2-for-1 (the
/// arriving follower of a leaving kind when only one net follower leaves),
/// `(from, f, to, g)` for a 1-for-1, `(from, f1, f2, to, g1, g2)` for the
/// advanced game's Edict. None for an effect no exchange has.
pub fn spell_effect(from: usize, to: usize, delta: [i8; NUM_KINDS]) -> Option<([i8; 6], u8)> {
    let mut leaving = [0i8; 4];
    let mut arriving = [0i8; 4];
    let (mut nl, mut na) = (0, 0);
    for (k, &d) in delta.iter().enumerate() {
        for _ in 0..(-d).max(0) {
            if nl < 4 {
                leaving[nl] = k as i8;
            }
            nl += 1;
        }
        for _ in 0..d.max(0) {
            if na < 4 {
                arriving[na] = k as i8;
            }
            na += 1;
        }
    }
    let (a, b) = (from as i8, to as i8);
    let (l, r) = (leaving, arriving);
    match (nl, na) {
        (2, 2) => Some(([a, l[0], l[1], b, r[0], r[1]], 6)),
        (2, 1) => Some(([a, l[0], l[1], b, r[0], 0], 5)),
        (1, 0) => Some(([a, l[0], l[0], b, l[0], 0], 5)),
        (1, 1) => Some(([a, l[0], b, r[0], 0, 0], 4)),
        _ => None,
    }
}

/// The ban an exchange by `player` with `card` leaves: its reverse, spelled
/// from its effect, or with `exact` (the option `reversal = "exact"`) the
/// literal reverse. By effect, an exchange that changed nothing (same faction
/// both ways) leaves none; the literal reverse of such a swap is the swap
/// itself. None for no exchange.
pub fn ban_after(player: u8, action: &[i8], exact: bool, card: u8) -> Option<Ban> {
    let (reverse, len) = reverse_exchange(action)?;
    ban_on(player, &reverse[..len as usize], exact, card)
}

/// The ban that keeps the others from making the exchange `reverse` (which
/// undoes `player`'s last one, made with `card`), judged by effect or, with
/// `exact`, literally; None when judged by effect and `reverse` changes nothing.
pub fn ban_on(player: u8, reverse: &[i8], exact: bool, card: u8) -> Option<Ban> {
    let (from, to, delta) = exchange_effect(reverse)?;
    let (reverse, len) = if exact {
        let mut parts = [0i8; 6];
        parts[..reverse.len()].copy_from_slice(reverse);
        (parts, reverse.len() as u8)
    } else {
        spell_effect(from, to, delta)?
    };
    Some(Ban {
        player,
        reverse,
        len,
        card,
    })
}

/// The ban binding the player to move, with how it is judged.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Binding {
    ban: Ban,
    /// Only the literal reverse is banned (else any exchange with its effect).
    exact: bool,
    /// The reverse's effect (`exchange_effect`): region `from` changes by
    /// `delta`, `to` by `-delta`.
    from: u8,
    to: u8,
    delta: [i8; NUM_KINDS],
}

impl Binding {
    /// Whether an exchange (canonically spelled) breaks the ban.
    #[inline]
    pub(crate) fn forbids(&self, action: &[i8]) -> bool {
        if self.exact {
            action == self.ban.reverse()
        } else {
            self.same_effect(action)
        }
    }

    /// Whether an exchange has exactly the change that the ban forbids.
    #[inline]
    fn same_effect(&self, action: &[i8]) -> bool {
        // The second region: before the last part, or an Edict's fourth of six.
        let second = if action.len() == 6 {
            3
        } else {
            action.len() - 2
        };
        let (a, b) = (action[0] as u8, action[second] as u8);
        if !((a == self.from && b == self.to) || (a == self.to && b == self.from)) {
            return false;
        }
        match exchange_effect(action) {
            Some((from, to, delta)) => {
                (from as u8 == self.from && to as u8 == self.to && delta == self.delta)
                    || (from as u8 == self.to
                        && to as u8 == self.from
                        && delta == self.delta.map(|x| -x))
            }
            None => false,
        }
    }
}

/// The ban that binds the player to move playing `card`: a player may undo
/// their own exchange; judged by effect, a ban on no change binds nobody; in
/// an edition whose ban binds only the same card, another exchange card is free.
#[inline]
pub(crate) fn active_ban(s: &State, card: u8) -> Option<Binding> {
    let exact = s.option(EXACT_REVERSAL);
    let ban = s.undo_ban?;
    if ban.player == s.player || (s.rules().ban_binds_card && ban.card != card) {
        return None;
    }
    let (from, to, delta) = exchange_effect(ban.reverse())?;
    (exact || delta != [0; NUM_KINDS]).then_some(Binding {
        ban,
        exact,
        from: from as u8,
        to: to as u8,
        delta,
    })
}

/// Whether the player to move may not make this exchange with `card` (it undoes the last one).
pub fn is_banned(s: &State, card: u8, action: &[i8]) -> bool {
    action.len() >= 4 && active_ban(s, card).is_some_and(|ban| ban.forbids(action))
}

// -- legal actions ----------------------------------------------------------------

/// Regions whose card is face up and carries no Crown token.
pub fn swappable_cards(s: &State) -> u8 {
    (0..NUM_REGIONS)
        .filter(|&r| s.control[r] == UNRESOLVED && s.crowns[r] < 0)
        .fold(0, |m, r| m | 1 << r)
}

/// Unresolved regions bordering a region the faction controls (its home counts while unresolved).
pub fn faction_targets(s: &State, faction: usize) -> u8 {
    let mut controlled = (0..NUM_REGIONS)
        .filter(|&r| s.control[r] == faction as i8)
        .fold(0u8, |m, r| m | 1 << r);
    let home = HOMES[faction];
    if s.control[home] == UNRESOLVED {
        controlled |= 1 << home;
    }
    REACH[controlled as usize] & s.open
}

/// Calls `emit` with every legal action of `card` for the player to move, in
/// the order of Python's `card_actions` (the empty action where Python gives `()`;
/// the Cunning cards': `cunning::for_each_action`).
pub fn for_each_action(s: &State, card: u8, mut emit: impl FnMut(&[i8])) {
    match card {
        CROWN => crown_actions(s, &mut emit),
        GARRISON => garrison_actions(s, &mut emit),
        AMBASSADOR => ambassador_actions(s, &mut emit),
        SETTLEMENTS => settlements_actions(s, &mut emit),
        FIRST_CUNNING.. => cunning::for_each_action(s, card, &mut emit),
        _ => faction_card_actions(s, (card - FACTION_CARD) as usize, &mut emit),
    }
}

/// Swap two swappable cards and crown one; nothing when fewer than two can swap.
pub(crate) fn crown_actions(s: &State, emit: &mut impl FnMut(&[i8])) {
    let free = swappable_cards(s) as u32;
    if free.count_ones() < 2 {
        return emit(&[]);
    }
    for a in Bits(free) {
        for b in Bits(free & above(a)) {
            emit(&[a as i8, b as i8, a as i8]);
            emit(&[a as i8, b as i8, b as i8]);
        }
    }
}

/// 2-for-1 exchanges if any is allowed, else 1-for-1 ones between bordering
/// regions, else no exchange (the "as much as possible" rule, after the ban).
fn garrison_actions(s: &State, emit: &mut impl FnMut(&[i8])) {
    let (board, open, ban) = (&s.board, s.open as u32, active_ban(s, GARRISON));
    let mut made = 0;
    for a in Bits(open) {
        let here = board[a];
        for f1 in 0..NUM_KINDS {
            if here[f1] == 0 {
                continue;
            }
            for (f2, &n) in here.iter().enumerate().skip(f1) {
                if n < 1 + (f1 == f2) as u8 {
                    continue;
                }
                for b in Bits(NEIGHBOURS[a] as u32 & open) {
                    for g in Bits(kinds(board, b)) {
                        let action = [a as i8, f1 as i8, f2 as i8, b as i8, g as i8];
                        if ban.is_some_and(|ban| ban.forbids(&action)) {
                            continue;
                        }
                        emit(&action);
                        made += 1;
                    }
                }
            }
        }
    }
    if made > 0 {
        return;
    }
    for a in Bits(open) {
        for b in Bits(NEIGHBOURS[a] as u32 & open & above(a)) {
            made += one_for_one(board, a, b, ban, emit);
        }
    }
    if made == 0 {
        emit(&[]);
    }
}

/// The 1-for-1 exchanges between regions a < b that the ban allows; how many.
#[inline]
fn one_for_one(
    board: &Board,
    a: usize,
    b: usize,
    ban: Option<Binding>,
    emit: &mut impl FnMut(&[i8]),
) -> usize {
    let mut made = 0;
    for f in Bits(kinds(board, a)) {
        for g in Bits(kinds(board, b)) {
            let action = [a as i8, f as i8, b as i8, g as i8];
            if ban.is_some_and(|ban| ban.forbids(&action)) {
                continue;
            }
            emit(&action);
            made += 1;
        }
    }
    made
}

fn ambassador_actions(s: &State, emit: &mut impl FnMut(&[i8])) {
    let (board, open, ban) = (&s.board, s.open as u32, active_ban(s, AMBASSADOR));
    let mut made = 0;
    for a in Bits(open) {
        for b in Bits(open & above(a)) {
            made += one_for_one(board, a, b, ban, emit);
        }
    }
    if made == 0 {
        emit(&[]);
    }
}

/// One follower of each faction in stock, each to any unresolved region
/// (`itertools.product` order: the Scots' region varies slowest).
fn settlements_actions(s: &State, emit: &mut impl FnMut(&[i8])) {
    let choices = |f: usize| if s.stock[f] > 0 { s.open as u32 } else { 0 };
    let regions = |mask: u32| -> ([i8; NUM_REGIONS], usize) {
        let mut out = [NONE; NUM_REGIONS];
        let mut n = 0;
        for r in Bits(mask) {
            out[n] = r as i8;
            n += 1;
        }
        (out, n.max(1))
    };
    let (rs, ns) = regions(choices(0));
    let (rw, nw) = regions(choices(1));
    let (rr, nr) = regions(choices(2));
    for &x in &rs[..ns] {
        for &y in &rw[..nw] {
            for &z in &rr[..nr] {
                emit(&[x, y, z]);
            }
        }
    }
}

/// Up to two followers (as many as the stock holds) into the faction's target
/// regions: one each into any two (or the same one), or with `support_together`
/// both into one region.
fn faction_card_actions(s: &State, faction: usize, emit: &mut impl FnMut(&[i8])) {
    let targets = faction_targets(s, faction) as u32;
    let count = if targets == 0 {
        0
    } else {
        s.stock[faction].min(2)
    };
    match count {
        0 => emit(&[]),
        1 => Bits(targets).for_each(|r| emit(&[r as i8])),
        _ if s.rules().support_together => Bits(targets).for_each(|r| emit(&[r as i8, r as i8])),
        _ => {
            for a in Bits(targets) {
                for b in Bits(targets & !((1u32 << a) - 1)) {
                    emit(&[a as i8, b as i8]);
                }
            }
        }
    }
}

/// Every legal action of a card as Moves with no court call (`court = -1`),
/// appended to `out` in the order of Python's `card_actions`.
pub fn card_actions(s: &State, card: u8, out: &mut Vec<Move>) {
    for_each_action(s, card, |action| {
        out.push(Move::card_play(card, action, None))
    });
}

// -- court calls ----------------------------------------------------------------

/// The court calls open on a board as a mask of cells `region * 4 + faction`
/// (the same code as `Move::court`): any faction follower in an unresolved region.
#[inline]
pub fn court_mask(board: &Board, open: u8) -> u32 {
    let mut mask = 0;
    for r in Bits(open as u32) {
        let here = board[r];
        mask |= ((here[0] > 0) as u32 | ((here[1] > 0) as u32) << 1 | ((here[2] > 0) as u32) << 2)
            << (r * NUM_KINDS);
    }
    mask
}

/// The court calls open on a board, as `(region, faction)`, in Python's order
/// (regions ascending, then factions; never Loyalists).
pub fn court_options(board: &Board, open: u8) -> impl Iterator<Item = (usize, usize)> {
    Bits(court_mask(board, open)).map(|cell| (cell / NUM_KINDS, cell % NUM_KINDS))
}

// -- legal moves -------------------------------------------------------------------

/// The court calls open once `card`'s action has moved followers (`before`:
/// those open now, which a Crown leaves as they are).
pub(crate) fn calls_after(s: &State, card: u8, action: &[i8], before: u32) -> u32 {
    if card == CROWN {
        return before;
    }
    court_mask(&board_after(s, card, action), s.open)
}

/// The board once `card`'s action has moved its followers (a Cunning card is
/// carried out on a copy of the state).
pub(crate) fn board_after(s: &State, card: u8, action: &[i8]) -> Board {
    if card >= FIRST_CUNNING {
        let mut after = *s;
        cunning::carry_out(&mut after, card, action);
        return after.board;
    }
    let mut board = s.board;
    apply_to_board(&mut board, card, action);
    board
}

/// The cards the player to move holds, each kind once, in legal-move order:
/// the seven kinds, then the Cunning cards held (Plot, never played, among them:
/// it has no action).
pub(crate) fn held_cards(s: &State) -> impl Iterator<Item = u8> + '_ {
    let p = s.player as usize;
    let cunning = u32::from(s.cunning[p]);
    (0..NUM_CARDS as u8)
        .filter(move |&card| s.hands[p][card as usize] > 0)
        .chain(Bits(cunning).map(|i| FIRST_CUNNING + i as u8))
}

/// Calls `emit` with every move of `card` for the player to move (each action,
/// then each court call on the board it leaves), in Python's order. It ignores
/// the 3-player last-card rule.
pub fn for_each_card_move(s: &State, card: u8, mut emit: impl FnMut(Move)) {
    let calls_before = court_mask(&s.board, s.open);
    for_each_action(s, card, |action| {
        let play = Move::card_play(card, action, None);
        let calls = calls_after(s, card, action, calls_before);
        if calls == 0 {
            emit(play);
        }
        for cell in Bits(calls) {
            emit(Move {
                court: cell as i8,
                ..play
            });
        }
    });
}

/// Every legal move, pass first, then by card, action and court call, exactly
/// as Python's `rules.legal_moves` (including the 3-player last-card filter).
/// Clears `out` first; empty once the game is over.
pub fn legal_moves(s: &State, out: &mut Vec<Move>) {
    out.clear();
    if s.is_over() {
        return;
    }
    out.push(Move::PASS);
    if lastcard::last_card_applies(s) {
        lastcard::push_winning_moves(s, out);
        return;
    }
    for card in held_cards(s) {
        for_each_card_move(s, card, |m| out.push(m));
    }
}

/// The number of legal moves, counted without building them (court calls by popcount).
pub fn count_legal_moves(s: &State) -> usize {
    if s.is_over() {
        return 0;
    }
    if lastcard::last_card_applies(s) {
        let mut out = Vec::new();
        lastcard::push_winning_moves(s, &mut out);
        return 1 + out.len();
    }
    let calls_before = court_mask(&s.board, s.open);
    let mut n = 1;
    for card in held_cards(s) {
        for_each_action(s, card, |action| {
            let calls = calls_after(s, card, action, calls_before);
            n += (calls.count_ones() as usize).max(1);
        });
    }
    n
}

/// The canonical spelling of a move (Python's `normalise`), unused action slots zeroed.
pub fn canonical(m: &Move) -> Move {
    let mut a = [0i8; MAX_ACTION];
    let len = (m.len as usize).min(MAX_ACTION);
    a[..len].copy_from_slice(&m.action[..len]);
    normalise(m.card, &mut a[..len]);
    Move {
        card: m.card,
        len: len as u8,
        action: a,
        court: m.court,
    }
}

/// Python's `moves.normalise` in place: two regions swapping cards or one
/// follower each lowest first, two kinds going together in faction order, an
/// Edict's two Scots before the two followers they swap with; a Spy's copied
/// action as that card's.
fn normalise(card: i8, a: &mut [i8]) {
    const SCOTS: i8 = 0;
    let is = |cards: &[u8]| cards.iter().any(|&c| c as i8 == card);
    let one_for_one = [GARRISON, AMBASSADOR, DISPUTE, INFLUENCE, EDICT];
    match a.len() {
        n if card == SPY as i8
            && n >= 2
            && (0..(FIRST_CUNNING as usize + NUM_CUNNING) as i8).contains(&a[1]) =>
        {
            normalise(a[1], &mut a[2..]);
        }
        3 if card == CROWN as i8 && a[0] > a[1] => a.swap(0, 1),
        4 if is(&one_for_one) && a[0] > a[2] => {
            let [x, f, y, g] = [a[0], a[1], a[2], a[3]];
            a.copy_from_slice(&[y, g, x, f]);
        }
        5 if is(&[GARRISON, INFLUENCE, EDICT]) && a[1] > a[2] => a.swap(1, 2),
        4 if card == MARCH as i8 && a[1] > a[2] => a.swap(1, 2),
        3 if is(&[RESIST, MUSTER, QUELL]) && a[1] > a[2] => a.swap(1, 2),
        2 if (FACTION_CARD as i8..FIRST_CUNNING as i8).contains(&card) && a[0] > a[1] => {
            a.swap(0, 1)
        }
        6 if card == EDICT as i8 => {
            if a[4] == SCOTS && a[5] == SCOTS && !(a[1] == SCOTS && a[2] == SCOTS) {
                let [x, f1, f2, y, g1, g2] = [a[0], a[1], a[2], a[3], a[4], a[5]];
                a.copy_from_slice(&[y, g1, g2, x, f1, f2]);
            }
            if a[1] > a[2] {
                a.swap(1, 2);
            }
            if a[4] > a[5] {
                a.swap(4, 5);
            }
        }
        _ => {}
    }
}

/// Whether `m` is legal for the player to move. Any spelling of an action is
/// accepted (it is normalised first, as Python's `check_move` does).
pub fn is_legal(s: &State, m: &Move) -> bool {
    if s.is_over() {
        return false;
    }
    if m.card == PASS_CARD {
        return m.len == 0 && m.court == -1;
    }
    if !(0..(FIRST_CUNNING as usize + NUM_CUNNING) as i8).contains(&m.card)
        || m.len as usize > MAX_ACTION
    {
        return false;
    }
    let card = m.card as u8;
    if !held_cards(s).any(|held| held == card) {
        return false;
    }
    let m = canonical(m);
    let mut found = false;
    for_each_action(s, card, |action| found |= action == m.action());
    if !found {
        return false;
    }
    let calls = court_mask(&board_after(s, card, m.action()), s.open);
    let court_ok = if calls == 0 {
        m.court == -1
    } else {
        (0..32).contains(&m.court) && calls >> m.court & 1 == 1
    };
    court_ok && (!lastcard::last_card_applies(s) || lastcard::wins_outright(s, &m))
}

// -- applying a move ----------------------------------------------------------------

/// What a card's action does to the board (the Crown moves no follower; the
/// stock is [`play_card`]'s business).
#[inline]
pub fn apply_to_board(board: &mut Board, card: u8, action: &[i8]) {
    match (card, action) {
        (GARRISON | AMBASSADOR, &[a, f1, f2, b, g]) => {
            let (a, b) = (a as usize, b as usize);
            board[a][f1 as usize] -= 1;
            board[a][f2 as usize] -= 1;
            board[b][f1 as usize] += 1;
            board[b][f2 as usize] += 1;
            board[b][g as usize] -= 1;
            board[a][g as usize] += 1;
        }
        (GARRISON | AMBASSADOR, &[a, f, b, g]) => {
            let (a, b) = (a as usize, b as usize);
            board[a][f as usize] -= 1;
            board[b][f as usize] += 1;
            board[b][g as usize] -= 1;
            board[a][g as usize] += 1;
        }
        (SETTLEMENTS, _) => {
            for (f, &r) in action.iter().enumerate() {
                if r != NONE {
                    board[r as usize][f] += 1;
                }
            }
        }
        (CROWN | GARRISON | AMBASSADOR, _) => {}
        _ => {
            let f = (card - FACTION_CARD) as usize;
            for &r in action {
                board[r as usize][f] += 1;
            }
        }
    }
}

/// Play a card from the mover's hand and carry out its action: no court call,
/// and the player to move is not advanced (Python `rules.play_card`). Any card play
/// lifts the undo ban; an exchange sets a new one (see [`ban_after`]).
pub fn play_card(s: &mut State, card: u8, action: &[i8]) {
    let p = s.player as usize;
    if card >= FIRST_CUNNING {
        let bit = 1 << (card - FIRST_CUNNING);
        s.cunning[p] &= !bit;
        s.cunning_played[p] |= bit;
    } else {
        s.hands[p][card as usize] -= 1;
    }
    s.tops[p] = card as i8;
    s.plays += 1;
    s.last_play[p] = s.plays;
    s.passes = 0;
    s.undo_ban = None;
    match card {
        CROWN => {
            if let &[a, b, crowned] = action {
                negotiate(s, p, [a, b, crowned]);
            }
        }
        GARRISON | AMBASSADOR => {
            apply_to_board(&mut s.board, card, action);
            s.undo_ban = ban_after(p as u8, action, s.option(EXACT_REVERSAL), card);
        }
        FIRST_CUNNING.. => cunning::carry_out(s, card, action),
        _ => move_followers(s, card, action),
    }
}

/// What the action of a card that places followers (Settlements, a faction
/// card) does to the stock and the board (Python `move_followers`; an
/// exchange's is [`apply_to_board`]'s alone).
pub(crate) fn move_followers(s: &mut State, card: u8, action: &[i8]) {
    match card {
        SETTLEMENTS => {
            for (f, &r) in action.iter().enumerate() {
                if r != NONE {
                    s.stock[f] -= 1;
                }
            }
        }
        CROWN | GARRISON | AMBASSADOR => {}
        _ => s.stock[(card - FACTION_CARD) as usize] -= action.len() as u8,
    }
    apply_to_board(&mut s.board, card, action);
}

/// A Negotiate (Crown) action `(a, b, crowned)`: swap the region cards of a
/// and b and put `player`'s disc on `crowned` (none for [`NONE`]: a Spy's copy
/// without its disc).
pub(crate) fn negotiate(s: &mut State, player: usize, [a, b, crowned]: [i8; 3]) {
    let i = s.order.iter().position(|&r| r as i8 == a).unwrap_or(0);
    let j = s.order.iter().position(|&r| r as i8 == b).unwrap_or(0);
    s.order.swap(i, j);
    if crowned >= 0 {
        s.crowns[crowned as usize] = player as i8;
    }
}

/// End the mover's turn after [`play_card`]: the court call (if any), then the next player.
pub fn finish_turn(s: &mut State, court: Option<(usize, usize)>) {
    let p = s.player as usize;
    if let Some((r, f)) = court {
        s.board[r][f] -= 1;
        s.courts[p][f] += 1;
    }
    s.player = ((p + 1) % s.players as usize) as u8;
}

/// Apply a move known to be legal (no checks: see [`is_legal`]), as Python `play`.
pub fn play(s: &mut State, m: &Move) {
    if m.is_pass() {
        s.passes += 1;
        if s.passes >= s.players {
            s.passes = 0;
            resolve(s);
        }
        s.player = (s.player + 1) % s.players;
    } else {
        play_card(s, m.card as u8, m.action());
        finish_turn(s, m.court());
    }
}

/// Who wins a region with these followers: the one kind with strictly the most, else the Saxons.
#[inline]
pub fn struggle_winner(counts: [u8; NUM_KINDS]) -> i8 {
    let best = *counts.iter().max().unwrap_or(&0);
    if best == 0 || counts.iter().filter(|&&n| n == best).count() > 1 {
        return SAXONS;
    }
    counts
        .iter()
        .position(|&n| n == best)
        .map_or(SAXONS, |k| k as i8)
}

/// End the current struggle, as Python `resolve`: control or a Saxon token
/// (an instability disc), followers back to stock, the undo ban lifted (unless
/// the edition's ban outlives a struggle), then the ending if the game is
/// over (`s.outcome`), else a Loyalist to the flagged region in Mordred.
pub fn resolve(s: &mut State) {
    let region = s.order[s.resolved as usize] as usize;
    let counts = s.board[region];
    let winner = struggle_winner(counts);
    for (stock, n) in s.stock.iter_mut().zip(counts) {
        *stock += n;
    }
    s.board[region] = [0; NUM_KINDS];
    s.control[region] = winner;
    s.open &= !(1 << region);
    s.resolved += 1;
    if !s.rules().ban_outlives_struggle {
        s.undo_ban = None;
    }
    if winner == SAXONS {
        s.saxons += 1;
        if s.saxons >= s.invasion() {
            s.outcome = Some(score(s, Ending::Invasion));
            return;
        }
    } else if winner == LOYALISTS as i8 {
        s.outcome = Some(score(s, Ending::Mordred));
        return;
    }
    if s.resolved as usize == NUM_REGIONS {
        s.outcome = Some(score(s, Ending::Coronation));
        return;
    }
    if s.mordred {
        let flag = MORDRED_FLAGS[region];
        if s.open >> flag & 1 == 1 && s.stock[LOYALISTS] > 0 {
            s.stock[LOYALISTS] -= 1;
            s.board[flag][LOYALISTS] += 1;
        }
    }
}

/// Sanity of the follower counts: every faction's followers add up (used by tests).
#[cfg(test)]
pub(crate) fn followers_conserved(s: &State) -> bool {
    use crate::board::NUM_FACTIONS;
    let per_faction = if s.players == 2 { 16 } else { 18 };
    (0..NUM_FACTIONS).all(|f| {
        let board: u32 = s.board.iter().map(|r| r[f] as u32).sum();
        let courts: u32 = s.courts.iter().map(|c| c[f] as u32).sum();
        board + courts + s.stock[f] as u32 == per_faction
    }) && (!s.mordred
        || s.board.iter().map(|r| r[LOYALISTS] as u32).sum::<u32>() + s.stock[LOYALISTS] as u32
            == 9)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{CALEDONIA, DEVA, EBORACUM, LONDINIUM, SECOND_EDITION};
    use crate::setup::new_game;

    const S: i8 = 0;
    const W: i8 = 1;
    const R: i8 = 2;

    fn garrison(action: &[i8], court: Option<(usize, usize)>) -> Move {
        Move::card_play(GARRISON, action, court)
    }

    fn ambassador(action: &[i8], court: Option<(usize, usize)>) -> Move {
        Move::card_play(AMBASSADOR, action, court)
    }

    /// A 3-player game with Deva and Eboracum set for the undo examples.
    fn undo_position() -> State {
        let mut s = new_game(3, false, 1, 0).unwrap();
        s.board[DEVA] = [1, 2, 1, 0];
        s.board[EBORACUM] = [1, 1, 1, 0];
        s
    }

    #[test]
    fn the_two_player_start_of_seed_1_has_19213_moves() {
        let s = new_game(2, false, 1, 0).unwrap();
        let mut moves = Vec::new();
        legal_moves(&s, &mut moves);
        assert_eq!(moves.len(), 19_213);
        assert_eq!(count_legal_moves(&s), 19_213);
        assert_eq!(moves[0], Move::PASS);
        // The first card play is the Crown's first swap, with the first court call.
        assert_eq!(moves[1].card, CROWN as i8);
        assert_eq!(moves[1].action(), &[0, 1, 0]);
        assert_eq!(moves[1].court(), Some((0, 0)));
        assert!(moves.iter().all(|m| is_legal(&s, m)));
        let mut unique = moves.clone();
        unique.sort_by_key(|m| (m.card, m.len, m.action, m.court));
        unique.dedup();
        assert_eq!(unique.len(), moves.len());
    }

    #[test]
    fn is_legal_accepts_any_spelling_and_refuses_nonsense() {
        let s = undo_position();
        let m = garrison(&[DEVA as i8, W, S, EBORACUM as i8, R], Some((CALEDONIA, 0)));
        assert!(is_legal(&s, &m));
        assert_eq!(
            canonical(&m).action(),
            &[DEVA as i8, S, W, EBORACUM as i8, R]
        );
        let m = ambassador(
            &[LONDINIUM as i8, R, CALEDONIA as i8, S],
            Some((CALEDONIA, 0)),
        );
        assert!(is_legal(&s, &m));
        // A 1-for-1 Garrison while a 2-for-1 exists; a court call of a Loyalist; no court call.
        assert!(!is_legal(
            &s,
            &garrison(&[DEVA as i8, S, EBORACUM as i8, R], Some((CALEDONIA, 0)))
        ));
        assert!(!is_legal(
            &s,
            &Move::card_play(CROWN, &[0, 1, 0], Some((0, 3)))
        ));
        assert!(!is_legal(&s, &Move::card_play(CROWN, &[0, 1, 0], None)));
        assert!(!is_legal(
            &s,
            &Move {
                court: 0,
                ..Move::PASS
            }
        ));
        assert!(is_legal(&s, &Move::PASS));
    }

    #[test]
    fn an_undo_is_banned_by_effect_however_it_is_spelled() {
        let mut s = undo_position();
        // Player 1: Garrison Dev:SW>Ebo:S moves one Welsh follower from Deva to Eboracum.
        let first = garrison(&[DEVA as i8, S, W, EBORACUM as i8, S], Some((CALEDONIA, 0)));
        assert!(is_legal(&s, &first));
        play(&mut s, &first);
        let e = EBORACUM as i8;
        let d = DEVA as i8;
        let ban = s.undo_ban.unwrap();
        assert_eq!((ban.player, ban.reverse()), (0, &[e, W, W, d, W][..]));
        assert_eq!(
            exchange_effect(ban.reverse()),
            Some((EBORACUM, DEVA, [0, -1, 0, 0]))
        );
        let undos = [[e, S, W, d, S], [e, W, R, d, R], [e, W, W, d, W]];
        for undo in undos {
            assert!(!is_legal(&s, &garrison(&undo, Some((DEVA, 2)))), "{undo:?}");
        }
        // Other exchanges between the two regions stay legal.
        assert!(is_legal(&s, &garrison(&[e, S, W, d, W], Some((DEVA, 2)))));
        let mut options = Vec::new();
        card_actions(&s, GARRISON, &mut options);
        assert!(options.iter().all(|m| !is_banned(&s, GARRISON, m.action())));
        assert!(!options
            .iter()
            .any(|m| undos.iter().any(|u| m.action() == u)));
        // A pass does not lift it; the player who made the exchange may undo it.
        play(&mut s, &Move::PASS);
        assert!(!is_legal(&s, &garrison(&undos[1], Some((DEVA, 2)))));
        play(&mut s, &Move::PASS);
        assert_eq!(s.player, 0);
        s.hands[0][GARRISON as usize] = 1; // (a second Garrison, to show the ban does not bind its maker)
        assert!(is_legal(&s, &garrison(&undos[1], Some((DEVA, 2)))));
        // Any other card play lifts it.
        play(
            &mut s,
            &Move::card_play(SETTLEMENTS, &[0, 0, 0], Some((CALEDONIA, 0))),
        );
        assert_eq!(s.undo_ban, None);
        assert!(is_legal(&s, &garrison(&undos[1], Some((DEVA, 2)))));
    }

    #[test]
    fn an_ambassador_undo_and_a_resolution_lifting_the_ban() {
        let mut s = undo_position();
        let (c, l) = (CALEDONIA as i8, LONDINIUM as i8);
        play(&mut s, &ambassador(&[c, S, l, R], Some((DEVA, 0))));
        let ban = s.undo_ban.unwrap();
        assert_eq!(
            exchange_effect(ban.reverse()),
            Some((CALEDONIA, LONDINIUM, [1, 0, -1, 0]))
        );
        assert!(!is_legal(&s, &ambassador(&[l, S, c, R], Some((DEVA, 0)))));
        assert!(!is_legal(&s, &ambassador(&[c, R, l, S], Some((DEVA, 0)))));
        // Three passes end the struggle: the resolution lifts the ban.
        for _ in 0..3 {
            play(&mut s, &Move::PASS);
        }
        assert_eq!(s.resolved, 1);
        assert_eq!(s.undo_ban, None);
    }

    #[test]
    fn an_exchange_that_changes_nothing_sets_no_ban() {
        let mut s = undo_position();
        play(
            &mut s,
            &ambassador(&[DEVA as i8, W, EBORACUM as i8, W], Some((DEVA, 0))),
        );
        assert_eq!(s.undo_ban, None);
        // Dev:SS>Eb:S moved one Scot from Deva to Eboracum: Eboracum may not give one back.
        let ban = ban_after(1, &[DEVA as i8, S, S, EBORACUM as i8, S], false, GARRISON).unwrap();
        assert_eq!(ban.player, 1);
        assert_eq!(
            exchange_effect(ban.reverse()),
            Some((EBORACUM, DEVA, [-1, 0, 0, 0]))
        );
    }

    #[test]
    fn the_garrison_falls_back_on_one_for_one_only_when_every_two_for_one_is_banned() {
        let mut s = new_game(3, false, 1, 0).unwrap();
        // Only Deva and Eboracum are open.
        for r in 0..NUM_REGIONS {
            if r != DEVA && r != EBORACUM {
                s.board[r] = [0; NUM_KINDS];
                s.control[r] = 0;
            }
        }
        s.open = 1 << DEVA | 1 << EBORACUM;
        s.resolved = 6;
        s.order = [0, 1, 4, 5, 6, 7, DEVA as u8, EBORACUM as u8];
        s.board[DEVA] = [0, 2, 0, 0];
        s.board[EBORACUM] = [0, 1, 0, 0];
        play(
            &mut s,
            &garrison(&[DEVA as i8, W, W, EBORACUM as i8, W], None),
        );
        let mut options = Vec::new();
        card_actions(&s, GARRISON, &mut options);
        let actions: Vec<&[i8]> = options.iter().map(|m| m.action()).collect();
        assert_eq!(actions, [&[EBORACUM as i8, W, DEVA as i8, W][..]]);
        // Without the ban, the 2-for-1 is the only Garrison.
        s.undo_ban = None;
        options.clear();
        card_actions(&s, GARRISON, &mut options);
        assert_eq!(options.len(), 1);
        assert_eq!(options[0].action(), &[EBORACUM as i8, W, W, DEVA as i8, W]);
    }

    #[test]
    fn the_fourth_saxon_token_ends_the_game_not_the_third() {
        let mut s = new_game(2, false, 5, 0).unwrap();
        s.saxons = 2;
        let tie = |s: &mut State| {
            let region = s.order[s.resolved as usize] as usize;
            s.board[region] = [1, 1, 0, 0];
        };
        tie(&mut s);
        play(&mut s, &Move::PASS);
        play(&mut s, &Move::PASS);
        assert_eq!((s.saxons, s.resolved, s.outcome), (3, 1, None));
        tie(&mut s);
        play(&mut s, &Move::PASS);
        play(&mut s, &Move::PASS);
        assert_eq!(s.saxons, 4);
        assert_eq!(s.outcome.map(|o| o.ending), Some(Ending::Invasion));
        let mut moves = vec![Move::PASS];
        legal_moves(&s, &mut moves);
        assert!(moves.is_empty());
        assert!(!is_legal(&s, &Move::PASS));
    }

    #[test]
    fn mordred_adds_a_loyalist_to_the_flag_and_loyalists_can_win() {
        let mut s = new_game(2, true, 9, 0).unwrap();
        let region = s.order[0] as usize;
        s.board[region] = [2, 0, 1, 0];
        play(&mut s, &Move::PASS);
        play(&mut s, &Move::PASS);
        assert_eq!(s.control[region], 0);
        let flag = MORDRED_FLAGS[region];
        let before = new_game(2, true, 9, 0).unwrap().board[flag][LOYALISTS];
        assert_eq!(s.board[flag][LOYALISTS], before + 1);
        assert_eq!(s.stock[LOYALISTS], 6);
        let next = s.order[1] as usize;
        s.board[next] = [1, 0, 0, 2];
        play(&mut s, &Move::PASS);
        play(&mut s, &Move::PASS);
        assert_eq!(s.outcome.map(|o| o.ending), Some(Ending::Mordred));
    }

    // -- the second edition's switches ---------------------------------------------

    /// A second-edition game (3 players) with Deva and Eboracum set for the undo examples.
    fn second_undo_position(options: u8) -> State {
        let mut s = crate::setup::new_game_in(SECOND_EDITION, options, 3, false, 1, 0).unwrap();
        s.board[DEVA] = [1, 2, 1, 0];
        s.board[EBORACUM] = [1, 1, 1, 0];
        s
    }

    #[test]
    fn second_edition_support_places_both_followers_in_one_region() {
        let mut s = second_undo_position(0);
        let welsh = FACTION_CARD + 1;
        let mut options = Vec::new();
        card_actions(&s, welsh, &mut options);
        let targets = faction_targets(&s, 1);
        let expected: Vec<Vec<i8>> = Bits(targets as u32)
            .map(|r| vec![r as i8, r as i8])
            .collect();
        let actions: Vec<Vec<i8>> = options.iter().map(|m| m.action().to_vec()).collect();
        assert_eq!(actions, expected);
        let (a, b) = (actions[0][0], actions[1][0]);
        assert!(!is_legal(
            &s,
            &Move::card_play(welsh, &[a, b], Some((0, 0)))
        ));
        let before = s.board[a as usize][1];
        play(&mut s, &Move::card_play(welsh, &[a, a], Some((0, 0))));
        assert_eq!(s.board[a as usize][1], before + 2);
        // One follower left in the stock: one region; none: no action.
        let mut s = second_undo_position(0);
        s.stock[1] = 1;
        options.clear();
        card_actions(&s, welsh, &mut options);
        assert!(options.iter().all(|m| m.len == 1));
        s.stock[1] = 0;
        options.clear();
        card_actions(&s, welsh, &mut options);
        assert_eq!(options.len(), 1);
        assert_eq!(options[0].action(), &[] as &[i8]);
    }

    #[test]
    fn second_edition_ban_outlives_a_struggle_and_binds_only_the_same_card() {
        let mut s = second_undo_position(0);
        let (c, l) = (CALEDONIA as i8, LONDINIUM as i8);
        play(&mut s, &ambassador(&[c, S, l, R], Some((DEVA, 0))));
        let ban = s.undo_ban.unwrap();
        assert_eq!(ban.reverse(), &[c, R, l, S]);
        // A Manoeuvre may not reverse it; an Outmanoeuvre is not bound (Caledonia and
        // Londinium do not border, so no Outmanoeuvre could: the binding is judged alone).
        assert!(is_banned(&s, AMBASSADOR, &[c, R, l, S]));
        assert!(!is_banned(&s, GARRISON, &[c, R, l, S]));
        // Three passes resolve a struggle: the ban stands (only a card play lifts it).
        s.player = 1;
        for _ in 0..3 {
            play(&mut s, &Move::PASS);
        }
        assert_eq!(s.resolved, 1);
        assert_eq!(s.undo_ban, Some(ban));
        // The first edition lifts it there (see `an_ambassador_undo_and_a_resolution_lifting_the_ban`).
    }

    #[test]
    fn second_edition_outmanoeuvre_may_reverse_a_manoeuvre() {
        let (d, e) = (DEVA as i8, EBORACUM as i8);
        // Deva [1,2,1], Eboracum [1,1,1]: a Manoeuvre Ebo:R<>Dev:W, reversed by Ebo:W<>Dev:R.
        let mut s = second_undo_position(0);
        play(&mut s, &ambassador(&[e, R, d, W], Some((CALEDONIA, 0))));
        assert_eq!(s.undo_ban.unwrap().reverse(), &[e, W, d, R]);
        s.hands[1][AMBASSADOR as usize] = 1;
        assert!(!is_legal(
            &s,
            &ambassador(&[e, W, d, R], Some((CALEDONIA, 0)))
        ));
        assert!(!is_legal(
            &s,
            &ambassador(&[d, R, e, W], Some((CALEDONIA, 0)))
        ));
        assert!(is_banned(&s, AMBASSADOR, &[e, W, d, R]));
        assert!(!is_banned(&s, GARRISON, &[e, W, d, R]));
        // The first edition bans any exchange card from undoing it.
        let mut first = undo_position();
        play(&mut first, &ambassador(&[e, R, d, W], Some((CALEDONIA, 0))));
        assert!(is_banned(&first, GARRISON, &[e, W, d, R]));
    }

    #[test]
    fn exact_reversal_bans_only_the_literal_reverse_and_a_same_faction_swap_bans_itself() {
        let (d, e) = (DEVA as i8, EBORACUM as i8);
        for exact in [false, true] {
            let mut s = second_undo_position(if exact { EXACT_REVERSAL } else { 0 });
            // Outmanoeuvre Dev:SW>Ebo:S moves one Welsh follower from Deva to Eboracum.
            play(&mut s, &garrison(&[d, S, W, e, S], Some((CALEDONIA, 0))));
            let ban = s.undo_ban.unwrap();
            if exact {
                assert_eq!(ban.reverse(), &[e, S, W, d, S]);
            } else {
                assert_eq!(ban.reverse(), &[e, W, W, d, W]);
            }
            // The literal reverse is banned either way; another spelling of its effect only by effect.
            assert!(!is_legal(&s, &garrison(&[e, S, W, d, S], Some((DEVA, 2)))));
            let other = garrison(&[e, W, R, d, R], Some((DEVA, 2)));
            assert_eq!(is_legal(&s, &other), exact);
        }
        // A same-faction swap: no ban by effect, itself by the literal reading.
        for exact in [false, true] {
            let mut s = second_undo_position(if exact { EXACT_REVERSAL } else { 0 });
            play(&mut s, &ambassador(&[d, W, e, W], Some((CALEDONIA, 0))));
            assert_eq!(s.undo_ban.is_some(), exact);
            s.hands[1][AMBASSADOR as usize] = 1;
            assert_eq!(
                is_legal(&s, &ambassador(&[d, W, e, W], Some((CALEDONIA, 0)))),
                !exact
            );
        }
    }

    #[test]
    fn the_third_instability_disc_ends_the_second_edition() {
        let mut s = crate::setup::new_game_in(SECOND_EDITION, 0, 2, false, 5, 0).unwrap();
        s.saxons = 1;
        let tie = |s: &mut State| {
            let region = s.order[s.resolved as usize] as usize;
            s.board[region] = [1, 1, 0, 0];
        };
        tie(&mut s);
        play(&mut s, &Move::PASS);
        play(&mut s, &Move::PASS);
        assert_eq!((s.saxons, s.outcome), (2, None));
        tie(&mut s);
        play(&mut s, &Move::PASS);
        play(&mut s, &Move::PASS);
        assert_eq!(s.saxons, 3);
        assert_eq!(s.outcome.map(|o| o.ending), Some(Ending::Invasion));
    }

    /// Speed check: `cargo test --release -- --ignored --nocapture move_listing_speed`.
    #[test]
    #[ignore]
    fn move_listing_speed() {
        let starts: Vec<State> = (0..30)
            .map(|seed| new_game(2 + seed as u8 % 3, seed % 2 == 1, seed, 0).unwrap())
            .collect();
        let mut moves = Vec::new();
        let start = std::time::Instant::now();
        let mut listed = 0;
        for _ in 0..20 {
            for s in &starts {
                legal_moves(s, &mut moves);
                listed += moves.len();
            }
        }
        let listing = listed as f64 / start.elapsed().as_secs_f64();
        let start = std::time::Instant::now();
        let mut counted = 0;
        for _ in 0..20 {
            for s in &starts {
                counted += count_legal_moves(s);
            }
        }
        let counting = counted as f64 / start.elapsed().as_secs_f64();
        assert_eq!(listed, counted);
        println!(
            "listed {:.1} M moves/s, counted {:.1} M moves/s",
            listing / 1e6,
            counting / 1e6
        );
    }
}
