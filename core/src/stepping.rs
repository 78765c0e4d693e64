//! A game played one encoded step at a time: the move-building steps of
//! `kingisdead/building.py` (`MoveBuilder`) and `kingisdead/interfaces/stepping.py`
//! (`SteppedGame`) on the compact state, for the batched environment.
//!
//! A move is built as a short sequence of integers of one `Discrete` space (see
//! `kingisdead/interfaces/encoding.py`): the card (or pass), each part its
//! action needs (a region, a faction, none; in the advanced game also a seat
//! and a copied card), then the court call. The standard game has 21
//! integers, the advanced game 37 (the Cunning cards, then the seats). After
//! every step the integers offered next are exactly those `MoveBuilder.options()`
//! offers, so the same sequence of integers builds the same move in both engines.

use crate::board::{
    Edition, AID, AMBASSADOR, AMBUSH, CROWN, CUNNING_CARDS, DISPUTE, EDICT, FACTION_CARD,
    FIRST_CUNNING, GARRISON, INFLUENCE, MARCH, MUSTER, NUM_CARDS, NUM_CUNNING, NUM_KINDS, PLOT,
    QUELL, RESIST, SETTLEMENTS, SPY, SUPPRESS,
};
use crate::lastcard;
use crate::rules::{self, Bits};
use crate::state::{Move, State, MAX_ACTION, MAX_PLAYERS, NONE};

/// The pass (the whole move).
pub const PASS_ACTION: u8 = 0;
/// `CARD_BASE + card` plays that card.
pub const CARD_BASE: u8 = 1;
/// `REGION_BASE + region` chooses a region.
pub const REGION_BASE: u8 = CARD_BASE + NUM_CARDS as u8;
/// `FACTION_BASE + kind` chooses a faction (or the Loyalists).
pub const FACTION_BASE: u8 = REGION_BASE + 8;
/// A Settlements follower whose faction has none left in stock (and a part of
/// a Cunning card's action that cannot happen).
pub const NONE_ACTION: u8 = FACTION_BASE + NUM_KINDS as u8;
/// Size of the standard game's action space.
pub const NUM_ACTIONS: usize = NONE_ACTION as usize + 1;
/// `CUNNING_BASE + i` plays Cunning card `FIRST_CUNNING + i` (or, after a Spy
/// and its seat, copies it): the advanced game only.
pub const CUNNING_BASE: u8 = NUM_ACTIONS as u8;
/// `PLAYER_BASE + seat` chooses a seat, absolute (the pile a Spy copies).
pub const PLAYER_BASE: u8 = CUNNING_BASE + NUM_CUNNING as u8;
/// Size of the advanced game's action space (37).
pub const ADVANCED_NUM_ACTIONS: usize = PLAYER_BASE as usize + MAX_PLAYERS;
/// The longest move: a card, a 2-for-1 Garrison (5 choices) and a court call (2).
pub const MAX_STEPS: usize = 8;
/// The most steps a move under way in the advanced game has taken (Python's
/// `ADVANCED_MAX_STEPS`, the rows of the observation's `partial_move`): one
/// fewer than its longest move, a Spy, its seat and copied card, a copied
/// 2-for-2 Edict (6) and a court call, whose last step plays it.
pub const ADVANCED_MAX_STEPS: usize = 10;
/// The steps of the longest move: the card, an action's parts, a court call.
const LONGEST_MOVE: usize = 1 + MAX_ACTION + 2;

/// The number of integers of `s`'s game: [`NUM_ACTIONS`] or [`ADVANCED_NUM_ACTIONS`].
pub fn num_actions(s: &State) -> usize {
    if s.advanced() {
        ADVANCED_NUM_ACTIONS
    } else {
        NUM_ACTIONS
    }
}

/// A readable name of an action in `edition`'s words (as Python's `encoding.action_name`).
pub fn action_name(action: u8, edition: &Edition) -> String {
    let value = step_value(action) as usize;
    match action {
        PASS_ACTION => "pass".into(),
        NONE_ACTION => "none".into(),
        a if a < REGION_BASE => edition.cards[value].into(),
        a if a < FACTION_BASE => format!("region {}", edition.regions[value]),
        a if a < NONE_ACTION => format!("faction {}", edition.factions[value]),
        a if a < PLAYER_BASE => CUNNING_CARDS[value - FIRST_CUNNING as usize].into(),
        _ => format!("player {}", value + 1),
    }
}

/// The integer that plays (or for a Spy copies) `card`.
#[inline]
fn card_action(card: u8) -> u8 {
    if card >= FIRST_CUNNING {
        CUNNING_BASE + card - FIRST_CUNNING
    } else {
        CARD_BASE + card
    }
}

/// What part `k` of `card`'s `action` chooses: r a region, f a faction, x a
/// region or none, y a faction or none, p a seat, c a card (Python
/// `building.action_kinds`, one part: only the spellings still open are asked).
fn part_kind(card: u8, action: &[i8], k: usize) -> u8 {
    let n = action.len();
    let kinds: &[u8] = match card {
        // The seat, the copied card, then that card's own parts.
        SPY => {
            return match k {
                0 => b'p',
                1 => b'c',
                _ => part_kind(action[1] as u8, &action[2..], k - 2),
            }
        }
        CROWN if n == 3 && action[2] == NONE => b"rrx", // a spied Negotiate: the swap alone
        CROWN => b"rrr",
        GARRISON | AMBASSADOR if n == 5 => b"rffrf",
        GARRISON | AMBASSADOR => b"rfrf",
        SETTLEMENTS => b"xxx",
        DISPUTE | INFLUENCE | EDICT if n == 4 => b"rfrf",
        MARCH if n == 3 => b"rfr",
        AID => b"fr",
        AMBUSH => b"rf",
        SUPPRESS => b"ryy",
        INFLUENCE => b"rffrf",
        EDICT => b"rffrff",
        MARCH => b"rffr",
        RESIST | MUSTER | QUELL => b"rff", // a region, then the kinds placed
        _ => b"rr",                        // a faction card's regions
    };
    kinds[k]
}

/// The value a step stands for: a card, a region, a faction, a seat or [`NONE`].
#[inline]
fn step_value(action: u8) -> i8 {
    (match action {
        NONE_ACTION => return NONE,
        a if a >= PLAYER_BASE => a - PLAYER_BASE,
        a if a >= CUNNING_BASE => a - CUNNING_BASE + FIRST_CUNNING,
        a if a >= FACTION_BASE => a - FACTION_BASE,
        a if a >= REGION_BASE => a - REGION_BASE,
        a => a - CARD_BASE,
    }) as i8
}

/// The integer of an action part of the given kind (see [`part_kind`]).
#[inline]
fn step_action(kind: u8, value: i8) -> u8 {
    match kind {
        b'x' | b'y' if value == NONE => NONE_ACTION,
        b'r' | b'x' => REGION_BASE + value as u8,
        b'f' | b'y' => FACTION_BASE + value as u8,
        b'p' => PLAYER_BASE + value as u8,
        _ => card_action(value as u8),
    }
}

/// Calls `emit` with an action and its other spellings (unordered parts in the
/// other order), as Python `building._mirrors`; a Spy's copied action is
/// mirrored as the copied card's.
fn mirrors(card: u8, action: &[i8], emit: &mut impl FnMut(&[i8])) {
    let n = action.len();
    if card != SPY || n <= 2 {
        return card_mirrors(card, action, emit);
    }
    let mut spelt = [0i8; MAX_ACTION];
    spelt[..2].copy_from_slice(&action[..2]);
    // The copied card is not a Spy: a spied Spy copies nothing.
    card_mirrors(action[1] as u8, &action[2..], &mut |copied: &[i8]| {
        copy_parts(&mut spelt[2..], copied);
        emit(&spelt[..2 + copied.len()]);
    });
}

/// [`mirrors`] of a card's own action (not a Spy's copy).
fn card_mirrors(card: u8, action: &[i8], emit: &mut impl FnMut(&[i8])) {
    emit(action);
    let n = action.len();
    let differ = |i: usize, j: usize| action[i] != action[j];
    let (i, j) = match (card, n) {
        (GARRISON | AMBASSADOR | DISPUTE | INFLUENCE | EDICT, 4) => {
            return emit(&[action[2], action[3], action[0], action[1]]);
        }
        (CROWN, 3) => (0, 1),
        (GARRISON | INFLUENCE | EDICT, 5) | (MARCH, 4) | (RESIST | MUSTER | QUELL, 3)
            if differ(1, 2) =>
        {
            (1, 2)
        }
        (EDICT, 6) if differ(4, 5) => (4, 5),
        (FACTION_CARD..SPY, 2) if differ(0, 1) => (0, 1),
        _ => return,
    };
    let mut other = [0i8; MAX_ACTION];
    copy_parts(&mut other, action);
    other.swap(i, j);
    emit(&other[..n]);
}

/// `to[..from.len()] = from`, the rest 0, in a loop of fixed length (actions
/// are a few parts: the call to `memcpy` a copy of any length compiles to
/// cost more than the copy).
#[inline]
fn copy_parts(to: &mut [i8], from: &[i8]) {
    for (i, slot) in to.iter_mut().enumerate().take(MAX_ACTION) {
        *slot = from.get(i).copied().unwrap_or(0);
    }
}

/// One spelling of a legal action of the chosen card.
#[derive(Clone, Copy, Debug)]
struct Spelling {
    /// The parts: regions, factions, seats, cards, [`NONE`].
    values: [i8; MAX_ACTION],
    len: u8,
}

impl Spelling {
    fn values(&self) -> &[i8] {
        &self.values[..self.len as usize]
    }
}

/// A game with the move under way built step by step by the player to move.
#[derive(Clone, Debug)]
pub struct SteppedGame {
    pub state: State,
    steps: [u8; LONGEST_MOVE],
    taken: usize,
    /// Bit a set when integer a is offered next (0 once the game is over).
    offered: u64,
    /// Whether the 3-player last-card rule binds the player to move.
    last_card: bool,
    /// Under the last-card rule: the winning card moves, in legal-move order.
    winning: Vec<Move>,
    /// Every spelling of every legal action of the chosen card that the steps
    /// so far begin, in Python's order (those complete before the last step kept).
    spellings: Vec<Spelling>,
    /// The action the steps chose, once they make a whole one.
    chosen: Option<Spelling>,
    /// The court calls left once the action is complete, as `region * 4 + faction` bits.
    courts: u32,
}

impl SteppedGame {
    pub fn new(state: State) -> SteppedGame {
        let mut game = SteppedGame {
            state,
            steps: [0; LONGEST_MOVE],
            taken: 0,
            offered: 0,
            last_card: false,
            winning: Vec::new(),
            spellings: Vec::new(),
            chosen: None,
            courts: 0,
        };
        game.begin_move();
        game
    }

    /// Starts over on `state` with no step taken (keeps the buffers: no allocation).
    pub fn restart(&mut self, state: State) {
        self.state = state;
        self.begin_move();
    }

    /// The integers offered next as a bitmask (bit a for integer a).
    pub fn offered(&self) -> u64 {
        self.offered
    }

    /// The integers chosen so far for the move under way.
    pub fn steps(&self) -> &[u8] {
        &self.steps[..self.taken]
    }

    pub fn is_over(&self) -> bool {
        self.state.is_over()
    }

    /// Whether the 3-player last-card rule binds the player to move.
    pub fn last_card(&self) -> bool {
        self.last_card
    }

    /// Whether `action` may be chosen now.
    pub fn offers(&self, action: i64) -> bool {
        (0..num_actions(&self.state) as i64).contains(&action) && self.offered >> action & 1 == 1
    }

    /// Take one step; the move once the steps complete one (it is then played).
    /// An integer that is not offered is an error and changes nothing.
    pub fn step(&mut self, action: i64) -> Result<Option<Move>, String> {
        if self.is_over() {
            return Err("the game is over".into());
        }
        if !self.offers(action) {
            return Err(self.refusal(action));
        }
        let action = action as u8;
        // The part of the action this step chooses, and its value.
        let (k, value) = (self.taken.saturating_sub(1), step_value(action));
        self.steps[self.taken] = action;
        self.taken += 1;
        if self.taken == 1 && action != PASS_ACTION {
            self.choose_card(step_value(action) as u8);
        } else if self.taken >= 2 && self.chosen.is_none() {
            // Keep the spellings that go on with this choice (and those already complete).
            self.spellings
                .retain(|spelling| spelling.len as usize <= k || spelling.values[k] == value);
        }
        self.offered = self.options();
        if self.offered != 0 {
            return Ok(None);
        }
        let m = self.finished_move();
        rules::play(&mut self.state, &m);
        self.begin_move();
        Ok(Some(m))
    }

    /// Why `action` is refused, with the choices offered (Python `SteppedGame.step`'s message).
    pub fn refusal(&self, action: i64) -> String {
        let limit = num_actions(&self.state);
        if !(0..limit as i64).contains(&action) {
            return format!(
                "action must be an integer from 0 to {}, got {action}",
                limit - 1
            );
        }
        let edition = self.state.rules();
        let choices: Vec<String> = (0..limit as u8)
            .filter(|&a| self.offered >> a & 1 == 1)
            .map(|a| format!("{a} ({})", action_name(a, edition)))
            .collect();
        format!(
            "action {action} ({}) is not offered; the choices are: {}",
            action_name(action as u8, edition),
            choices.join(", ")
        )
    }

    fn begin_move(&mut self) {
        self.taken = 0;
        self.spellings.clear();
        self.winning.clear();
        self.chosen = None;
        self.courts = 0;
        self.last_card = !self.is_over() && lastcard::last_card_applies(&self.state);
        if self.last_card {
            lastcard::winning_moves(&self.state, &mut self.winning);
        }
        self.offered = self.options();
    }

    /// The spellings of the chosen card's actions (Python `MoveBuilder._card_actions`).
    fn choose_card(&mut self, card: u8) {
        let spellings = &mut self.spellings;
        let mut add = |action: &[i8]| {
            let mut values = [0i8; MAX_ACTION];
            copy_parts(&mut values, action);
            spellings.push(Spelling {
                values,
                len: action.len() as u8,
            });
        };
        if self.last_card {
            let mut seen: Vec<Move> = Vec::new();
            for m in self.winning.iter().filter(|m| m.card == card as i8) {
                let plain = Move { court: -1, ..*m };
                if !seen.contains(&plain) {
                    seen.push(plain);
                    mirrors(card, m.action(), &mut add);
                }
            }
        } else {
            rules::for_each_action(&self.state, card, |action| mirrors(card, action, &mut add));
        }
    }

    /// The integers that can follow the steps so far (Python `MoveBuilder.options`).
    fn options(&mut self) -> u64 {
        let s = &self.state;
        if s.is_over() {
            return 0;
        }
        if self.taken == 0 {
            let mut mask = 1 << PASS_ACTION;
            // Plot is never played; under the last-card rule only the cards with a winning move.
            for card in rules::held_cards(s).filter(|&card| card != PLOT) {
                if !self.last_card || self.winning.iter().any(|m| m.card == card as i8) {
                    mask |= 1 << card_action(card);
                }
            }
            return mask;
        }
        if self.steps[0] == PASS_ACTION {
            return 0;
        }
        let card = step_value(self.steps[0]) as u8;
        let chosen = match self.chosen {
            Some(chosen) => chosen,
            None => {
                let n = self.taken - 1;
                // Only a Spy's parts differ in kind between spellings of one length.
                let mut kind_of_length = (usize::MAX, 0);
                let longer = self
                    .spellings
                    .iter()
                    .filter(|spelling| spelling.len as usize > n)
                    .fold(0, |mask, spelling| {
                        let values = spelling.values();
                        if card == SPY || values.len() != kind_of_length.0 {
                            kind_of_length = (values.len(), part_kind(card, values, n));
                        }
                        mask | 1 << step_action(kind_of_length.1, values[n])
                    });
                if longer != 0 {
                    return longer;
                }
                let chosen = *self
                    .spellings
                    .iter()
                    .find(|spelling| spelling.len as usize <= n)
                    .expect("the steps offered begin a legal action");
                self.courts = self.court_calls(card, chosen.values());
                self.chosen = Some(chosen);
                chosen
            }
        };
        let length = chosen.len as usize;
        match self.taken - 1 - length {
            0 => Bits(self.courts).fold(0, |m, cell| {
                m | 1 << (REGION_BASE as usize + cell / NUM_KINDS)
            }),
            1 => {
                let region = step_value(self.steps[1 + length]) as usize;
                let row = self.courts >> (region * NUM_KINDS) & 0b1111;
                Bits(row).fold(0, |m, f| m | 1 << (FACTION_BASE as usize + f))
            }
            _ => 0,
        }
    }

    /// The court calls open after the card's action (Python `MoveBuilder._courts`).
    fn court_calls(&self, card: u8, action: &[i8]) -> u32 {
        let play = rules::canonical(&Move::card_play(card, action, None));
        if self.last_card {
            return self
                .winning
                .iter()
                .filter(|m| m.card == play.card && m.action() == play.action() && m.court >= 0)
                .fold(0, |mask, m| mask | 1 << m.court);
        }
        let s = &self.state;
        rules::calls_after(s, card, play.action(), rules::court_mask(&s.board, s.open))
    }

    /// The move the steps make, canonical (Python `MoveBuilder.move`).
    fn finished_move(&self) -> Move {
        if self.steps[0] == PASS_ACTION {
            return Move::PASS;
        }
        let card = step_value(self.steps[0]) as u8;
        let chosen = self.chosen.expect("a complete move has its action");
        let (values, length) = (chosen.values(), chosen.len as usize);
        let court = (self.taken - 1 > length).then(|| {
            (
                step_value(self.steps[1 + length]) as usize,
                step_value(self.steps[2 + length]) as usize,
            )
        });
        rules::canonical(&Move::card_play(card, values, court))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{ADVANCED, ALL_MODE_BITS, LAST_CARD_MUST_WIN, SECOND_EDITION};
    use crate::rng::SplitMix64;
    use crate::setup::{new_game, new_game_in_mode, test_game};

    /// The integers of a mask of offered ones, ascending.
    fn integers(mask: u64) -> impl Iterator<Item = u8> {
        (0..64u8).filter(move |&a| mask >> a & 1 == 1)
    }

    /// An advanced game; `variant` picks the options (defaults, every advanced
    /// option, the 3-player last card's `must_win`).
    fn advanced_game(players: u8, variant: u8, seed: u64) -> State {
        let (options, mode) = match variant {
            0 => (0, ADVANCED),
            1 => (0, ALL_MODE_BITS & !crate::board::SPY_NEGOTIATE_NO_EFFECT),
            _ => (LAST_CARD_MUST_WIN, ADVANCED),
        };
        new_game_in_mode(SECOND_EDITION, options, mode, players, false, seed, 0).unwrap()
    }

    /// Plays random offered integers to the end; checks every move is legal.
    fn random_game(s: State, seed: u64) -> (SteppedGame, usize) {
        let mut game = SteppedGame::new(s);
        let mut rng = SplitMix64::new(seed ^ 0x5eed);
        let mut steps = 0;
        while !game.is_over() {
            let offered = game.offered();
            assert_ne!(offered, 0, "a running game always offers a step");
            let pick = integers(offered)
                .nth(rng.index(offered.count_ones() as usize))
                .unwrap();
            let before = game.state;
            if let Some(m) = game.step(pick as i64).unwrap() {
                assert!(rules::is_legal(&before, &m), "built an illegal move {m:?}");
            }
            steps += 1;
        }
        (game, steps)
    }

    #[test]
    fn random_steps_build_legal_moves_to_the_end() {
        for players in 2..=4 {
            for variant in 0..4 {
                for seed in 0..10 {
                    let (game, steps) = random_game(test_game(players, variant, seed, 0), seed);
                    assert!(steps > 0);
                    assert_eq!(game.offered(), 0);
                }
            }
        }
    }

    /// Walks the building tree of `s`: the complete moves it reaches are
    /// exactly the legal moves, and every branch ends in a move.
    fn assert_builds_exactly_the_legal_moves(s: State) {
        let mut legal = Vec::new();
        rules::legal_moves(&s, &mut legal);
        let mut built = Vec::new();
        let mut stack = vec![SteppedGame::new(s)];
        while let Some(game) = stack.pop() {
            assert_ne!(game.offered(), 0, "a dead end after {:?}", game.steps());
            for a in integers(game.offered()) {
                let mut next = game.clone();
                match next.step(a as i64).unwrap() {
                    Some(m) => built.push(m),
                    None => stack.push(next),
                }
            }
        }
        let key = |m: &Move| (m.card, m.len, m.action, m.court);
        built.sort_by_key(key);
        built.dedup();
        legal.sort_by_key(key);
        assert_eq!(built, legal);
    }

    #[test]
    fn every_legal_move_can_be_built_by_its_offered_steps() {
        assert_builds_exactly_the_legal_moves(new_game(3, true, 11, 0).unwrap());
        // Positions along random games: late ones (empty stocks, few swappable
        // cards, exchanges banned, the 3-player last card) included.
        let mut last_card = 0;
        for players in 2..=4 {
            for variant in 0..4 {
                let seed = 40 + players as u64 * 2 + variant as u64 % 2;
                let mut s = test_game(players, variant, seed, 0);
                let mut rng = SplitMix64::new(seed);
                let mut ply = 0;
                while !s.is_over() {
                    let binds = lastcard::last_card_applies(&s);
                    if ply % 9 == 0 || binds {
                        last_card += binds as usize;
                        assert_builds_exactly_the_legal_moves(s);
                    }
                    crate::playout::play_random(&mut s, &mut rng);
                    ply += 1;
                }
            }
        }
        assert!(last_card > 0, "a last-card position was walked");
    }

    #[test]
    fn an_integer_not_offered_is_refused_and_changes_nothing() {
        let mut game = SteppedGame::new(new_game(2, false, 3, 0).unwrap());
        let before = (game.state, game.offered());
        let not_offered = (0..NUM_ACTIONS as i64).find(|&a| !game.offers(a)).unwrap();
        let error = game.step(not_offered).unwrap_err();
        assert!(error.contains("is not offered"), "{error}");
        assert!(game.step(21).unwrap_err().contains("from 0 to 20"));
        let advanced = SteppedGame::new(advanced_game(2, 0, 3));
        let error = advanced.refusal(37);
        assert!(error.contains("from 0 to 36"), "{error}");
        let held = integers(advanced.offered())
            .find(|&a| a >= CUNNING_BASE)
            .unwrap();
        let error = advanced.refusal(PLAYER_BASE as i64);
        assert!(
            error.contains("action 33 (player 1) is not offered"),
            "{error}"
        );
        let name = CUNNING_CARDS[(held - CUNNING_BASE) as usize];
        assert!(error.contains(&format!("{held} ({name})")), "{error}");
        assert!(game.step(-1).is_err());
        assert_eq!((game.state, game.offered()), before);
        assert!(game.steps().is_empty());
    }

    #[test]
    fn random_steps_build_legal_advanced_moves_to_the_end() {
        let mut cunning_moves = 0;
        for players in 2..=4 {
            for variant in 0..3 {
                for seed in 0..8 {
                    let mut game = SteppedGame::new(advanced_game(players, variant, seed));
                    let mut rng = SplitMix64::new(seed ^ 0xadd);
                    while !game.is_over() {
                        let offered = game.offered();
                        assert!(offered != 0 && offered >> ADVANCED_NUM_ACTIONS == 0);
                        let pick = integers(offered)
                            .nth(rng.index(offered.count_ones() as usize))
                            .unwrap();
                        let before = game.state;
                        if let Some(m) = game.step(pick as i64).unwrap() {
                            assert!(rules::is_legal(&before, &m), "built an illegal {m:?}");
                            cunning_moves += usize::from(m.card >= FIRST_CUNNING as i8);
                        }
                        assert!(game.steps().len() <= ADVANCED_MAX_STEPS);
                    }
                }
            }
        }
        assert!(
            cunning_moves > 100,
            "only {cunning_moves} Cunning cards played"
        );
    }

    #[test]
    fn every_legal_advanced_move_can_be_built_by_its_offered_steps() {
        // Positions along random games, the Cunning cards' (the Spy's copies) included.
        let mut walked = [0usize; NUM_CUNNING];
        for players in 2..=4 {
            for variant in 0..3 {
                let seed = 60 + players as u64 * 3 + variant as u64;
                let mut s = advanced_game(players, variant, seed);
                let mut rng = SplitMix64::new(seed);
                let mut ply = 0;
                while !s.is_over() {
                    if ply % 5 == 0 || lastcard::last_card_applies(&s) {
                        for i in Bits(u32::from(s.cunning[s.player as usize])) {
                            walked[i] += 1;
                        }
                        assert_builds_exactly_the_legal_moves(s);
                    }
                    crate::playout::play_random(&mut s, &mut rng);
                    ply += 1;
                }
            }
        }
        let spy = (SPY - FIRST_CUNNING) as usize;
        assert!(
            walked[spy] > 0 && walked.iter().filter(|&&n| n > 0).count() >= 8,
            "{walked:?}"
        );
    }

    #[test]
    fn a_spy_copy_is_built_seat_then_card_then_the_copied_parts() {
        // Seat 0 holds the Spy; seat 1's pile shows a Garrison.
        let mut s = advanced_game(2, 0, 5);
        s.cunning[0] = 1 << (SPY - FIRST_CUNNING);
        s.tops[1] = GARRISON as i8;
        let mut game = SteppedGame::new(s);
        let spy = card_action(SPY);
        assert!(game.offers(spy as i64));
        game.step(spy as i64).unwrap();
        assert_eq!(game.offered(), 1 << (PLAYER_BASE + 1), "only seat 1's pile");
        game.step(PLAYER_BASE as i64 + 1).unwrap();
        assert_eq!(game.offered(), 1 << card_action(GARRISON));
        game.step(card_action(GARRISON) as i64).unwrap();
        let regions = game.offered();
        assert!(
            regions != 0 && integers(regions).all(|a| (REGION_BASE..FACTION_BASE).contains(&a))
        );
        let mut built = None;
        let mut rng = SplitMix64::new(1);
        while built.is_none() {
            let offered = game.offered();
            let pick = integers(offered).nth(rng.index(offered.count_ones() as usize));
            built = game.step(pick.unwrap() as i64).unwrap();
        }
        let m = built.unwrap();
        assert_eq!(
            (m.card, m.action()[..2].to_vec()),
            (SPY as i8, vec![1, GARRISON as i8])
        );
    }
}
