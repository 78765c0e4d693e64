//! A game played one encoded step at a time: the move-building steps of
//! `kingisdead/building.py` (`MoveBuilder`) and `kingisdead/interfaces/stepping.py`
//! (`SteppedGame`) on the compact state, for the batched environment.
//!
//! A move is built as a short sequence of integers of one `Discrete(21)` space
//! (see `kingisdead/interfaces/encoding.py`): the card (or pass), each region
//! and faction its action needs, then the court call. After every step the
//! integers offered next are exactly those `MoveBuilder.options()` offers, so
//! the same sequence of integers builds the same move in both engines.

use crate::board::{AMBASSADOR, CROWN, FACTION_CARD, GARRISON, NUM_CARDS, NUM_KINDS, SETTLEMENTS};
use crate::lastcard;
use crate::rules::{self, Bits};
use crate::state::{Move, State, NONE};

/// The pass (the whole move).
pub const PASS_ACTION: u8 = 0;
/// `CARD_BASE + card` plays that card.
pub const CARD_BASE: u8 = 1;
/// `REGION_BASE + region` chooses a region.
pub const REGION_BASE: u8 = CARD_BASE + NUM_CARDS as u8;
/// `FACTION_BASE + kind` chooses a faction (or the Loyalists).
pub const FACTION_BASE: u8 = REGION_BASE + 8;
/// A Settlements follower whose faction has none left in stock.
pub const NONE_ACTION: u8 = FACTION_BASE + NUM_KINDS as u8;
/// Size of the action space.
pub const NUM_ACTIONS: usize = NONE_ACTION as usize + 1;
/// The longest move: a card, a 2-for-1 Garrison (5 choices) and a court call (2).
pub const MAX_STEPS: usize = 8;

/// A readable name of an action (as Python's `encoding.action_name`).
pub fn action_name(action: u8) -> String {
    let edition = &crate::board::FIRST;
    match action {
        PASS_ACTION => "pass".into(),
        NONE_ACTION => "none".into(),
        a if a < REGION_BASE => edition.cards[(a - CARD_BASE) as usize].into(),
        a if a < FACTION_BASE => format!("region {}", edition.regions[(a - REGION_BASE) as usize]),
        a if a < NONE_ACTION => {
            format!("faction {}", edition.factions[(a - FACTION_BASE) as usize])
        }
        a => format!("{a}"),
    }
}

/// What each action step of a card chooses: r = region, f = faction, x = region or none
/// (Python `building._step_kinds`).
fn step_kinds(card: u8, length: usize) -> &'static [u8] {
    match card {
        CROWN => b"rrr",
        GARRISON | AMBASSADOR if length == 5 => b"rffrf",
        GARRISON | AMBASSADOR => b"rfrf",
        SETTLEMENTS => b"xxx",
        _ => &b"rr"[..length.min(2)],
    }
}

/// Calls `emit` with an action and its other spellings (unordered parts in the
/// other order), as Python `building._mirrors`.
fn mirrors(card: u8, action: &[i8], emit: &mut impl FnMut(&[i8])) {
    emit(action);
    match *action {
        [a, b, c] if card == CROWN => emit(&[b, a, c]),
        [a, f, b, g] if card == GARRISON || card == AMBASSADOR => emit(&[b, g, a, f]),
        [a, f1, f2, b, g] if card == GARRISON && f1 != f2 => emit(&[a, f2, f1, b, g]),
        [a, b] if card >= FACTION_CARD && a != b => emit(&[b, a]),
        _ => {}
    }
}

/// The value a step stands for: a region, a faction or [`NONE`].
#[inline]
fn step_value(action: u8) -> i8 {
    match action {
        NONE_ACTION => NONE,
        a if a >= FACTION_BASE => (a - FACTION_BASE) as i8,
        a => (a - REGION_BASE) as i8,
    }
}

/// The integer of an action step of the given kind.
#[inline]
fn step_action(kind: u8, value: i8) -> u8 {
    match (kind, value) {
        (b'x', NONE) => NONE_ACTION,
        (b'f', v) => FACTION_BASE + v as u8,
        (_, v) => REGION_BASE + v as u8,
    }
}

/// A game with the move under way built step by step by the player to move.
#[derive(Clone, Debug)]
pub struct SteppedGame {
    pub state: State,
    steps: [u8; MAX_STEPS],
    taken: usize,
    /// Bit a set when integer a is offered next (0 once the game is over).
    offered: u32,
    /// Whether the 3-player last-card rule binds the player to move.
    last_card: bool,
    /// Under the last-card rule: the winning card moves, in legal-move order.
    winning: Vec<Move>,
    /// Every spelling of every legal action of the chosen card that the
    /// action steps so far begin.
    spellings: Vec<[i8; 5]>,
    /// The number of choices in each of those actions.
    length: usize,
    /// The court calls left once the action is complete, as `region * 4 + faction` bits.
    courts: u32,
}

impl SteppedGame {
    pub fn new(state: State) -> SteppedGame {
        let mut game = SteppedGame {
            state,
            steps: [0; MAX_STEPS],
            taken: 0,
            offered: 0,
            last_card: false,
            winning: Vec::new(),
            spellings: Vec::new(),
            length: 0,
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
    pub fn offered(&self) -> u32 {
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
        (0..NUM_ACTIONS as i64).contains(&action) && self.offered >> action & 1 == 1
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
        self.steps[self.taken] = action;
        self.taken += 1;
        if self.taken == 1 && action != PASS_ACTION {
            self.choose_card(action - CARD_BASE);
        } else if self.taken >= 2 && self.taken - 2 < self.length {
            // Keep only the spellings that go on from this choice.
            let (k, value) = (self.taken - 2, step_value(action));
            self.spellings.retain(|spelling| spelling[k] == value);
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
        if !(0..NUM_ACTIONS as i64).contains(&action) {
            return format!(
                "action must be an integer from 0 to {}, got {action}",
                NUM_ACTIONS - 1
            );
        }
        let choices: Vec<String> = Bits(self.offered)
            .map(|a| format!("{a} ({})", action_name(a as u8)))
            .collect();
        format!(
            "action {action} ({}) is not offered; the choices are: {}",
            action_name(action as u8),
            choices.join(", ")
        )
    }

    fn begin_move(&mut self) {
        self.taken = 0;
        self.spellings.clear();
        self.winning.clear();
        self.length = 0;
        self.courts = 0;
        self.last_card = !self.is_over() && lastcard::last_card_applies(&self.state);
        if self.last_card {
            lastcard::winning_moves(&self.state, &mut self.winning);
        }
        self.offered = self.options();
    }

    /// The spellings of the chosen card's actions (Python `MoveBuilder._card_actions`).
    fn choose_card(&mut self, card: u8) {
        let (spellings, length) = (&mut self.spellings, &mut self.length);
        let mut add = |action: &[i8]| {
            let mut parts = [0i8; 5];
            parts[..action.len()].copy_from_slice(action);
            spellings.push(parts);
            *length = action.len();
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
    fn options(&mut self) -> u32 {
        let s = &self.state;
        if s.is_over() {
            return 0;
        }
        if self.taken == 0 {
            let hand = s.hands[s.player as usize];
            let mut mask = 1 << PASS_ACTION;
            for card in 0..NUM_CARDS as u8 {
                let playable = !self.last_card || self.winning.iter().any(|m| m.card == card as i8);
                if hand[card as usize] > 0 && playable {
                    mask |= 1 << (CARD_BASE + card);
                }
            }
            return mask;
        }
        if self.steps[0] == PASS_ACTION {
            return 0;
        }
        let card = self.steps[0] - CARD_BASE;
        let length = self.length;
        let chosen_len = (self.taken - 1).min(length);
        if chosen_len < length {
            let kind = step_kinds(card, length)[chosen_len];
            return self.spellings.iter().fold(0, |mask, spelling| {
                mask | 1 << step_action(kind, spelling[chosen_len])
            });
        }
        let called = self.taken - 1 - length;
        if called == 0 {
            let mut chosen = [0i8; 5];
            for (value, &action) in chosen.iter_mut().zip(&self.steps[1..1 + length]) {
                *value = step_value(action);
            }
            self.courts = self.court_calls(card, &chosen[..length]);
        }
        match called {
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
        let mut board = self.state.board;
        rules::apply_to_board(&mut board, card, play.action());
        rules::court_mask(&board, self.state.open)
    }

    /// The move the steps make, canonical (Python `MoveBuilder.move`).
    fn finished_move(&self) -> Move {
        if self.steps[0] == PASS_ACTION {
            return Move::PASS;
        }
        let card = self.steps[0] - CARD_BASE;
        let length = self.length;
        let values: Vec<i8> = self.steps[1..self.taken]
            .iter()
            .map(|&a| step_value(a))
            .collect();
        let court =
            (values.len() > length).then(|| (values[length] as usize, values[length + 1] as usize));
        rules::canonical(&Move::card_play(card, &values[..length], court))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use crate::setup::{new_game, test_game};

    /// Plays random offered integers to the end; checks every move is legal.
    fn random_game(players: u8, variant: u8, seed: u64) -> (SteppedGame, usize) {
        let mut game = SteppedGame::new(test_game(players, variant, seed, 0));
        let mut rng = SplitMix64::new(seed ^ 0x5eed);
        let mut steps = 0;
        while !game.is_over() {
            let offered = game.offered();
            assert_ne!(offered, 0, "a running game always offers a step");
            let pick = Bits(offered)
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
                    let (game, steps) = random_game(players, variant, seed);
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
            for a in Bits(game.offered()) {
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
        assert!(game.step(-1).is_err());
        assert_eq!((game.state, game.offered()), before);
        assert!(game.steps().is_empty());
    }
}
