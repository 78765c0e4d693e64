//! The compact game state and the move value, mirroring `kingisdead/state.py`
//! and `kingisdead/moves.py`.
//!
//! A [`State`] is a plain `Copy` value of about 130 bytes: copying one is a
//! memcpy, so search and playouts copy freely. Fields are indexed by the same
//! small integers as the Python lists (`board[region][kind]`, and so on).

use crate::board::{
    Edition, ADVANCED, EDITIONS, NUM_CARDS, NUM_FACTIONS, NUM_KINDS, NUM_REGIONS, PLOT_BIT,
};

/// The most players a game has.
pub const MAX_PLAYERS: usize = 4;
/// `Move::card` of a pass.
pub const PASS_CARD: i8 = -1;
/// A Settlements placement skipped because the stock had none of that faction
/// (and a part of a Cunning card's action that cannot happen).
pub const NONE: i8 = -1;
/// The most parts an action has: a Spy's two (the pile's seat and its top
/// card) and the copied card's, at most an Edict's six.
pub const MAX_ACTION: usize = 8;

/// One turn: a pass, or a card with its action and court call.
///
/// `action[..len]` holds the card's choices exactly as the Python `Move.action`
/// tuple, in the same canonical spelling:
/// - Crown `(a, b, crowned)` with a < b; empty when fewer than two cards can swap;
/// - Garrison `(a, f1, f2, b, g)` with f1 <= f2 (f1 and f2 leave a, g leaves b),
///   or the 1-for-1 fallback `(a, f, b, g)` with a < b; empty for no exchange;
/// - Ambassador `(a, f, b, g)` with a < b; empty for no exchange;
/// - Settlements `(rS, rW, rR)`, [`NONE`] for a faction skipped;
/// - Scots / Welsh / Romano-British: the sorted regions receiving a follower (0-2);
///   in an edition with `support_together` the one region twice `(r, r)`, `(r,)` or empty;
/// - the advanced game's Cunning cards (7-18): as `kingisdead.cunning` spells them (see `cunning`).
///
/// `court` is `region * 4 + faction`, or -1 when no follower could be called.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub card: i8,
    pub len: u8,
    pub action: [i8; MAX_ACTION],
    pub court: i8,
}

impl Move {
    pub const PASS: Move = Move {
        card: PASS_CARD,
        len: 0,
        action: [0; MAX_ACTION],
        court: -1,
    };

    /// A card play; `action` is taken as given (canonical spelling expected).
    pub fn card_play(card: u8, action: &[i8], court: Option<(usize, usize)>) -> Move {
        let mut parts = [0i8; MAX_ACTION];
        parts[..action.len()].copy_from_slice(action);
        Move {
            card: card as i8,
            len: action.len() as u8,
            action: parts,
            court: court.map_or(-1, |(r, f)| (r * NUM_KINDS + f) as i8),
        }
    }

    pub fn is_pass(&self) -> bool {
        self.card == PASS_CARD
    }

    pub fn action(&self) -> &[i8] {
        &self.action[..self.len as usize]
    }

    /// The court call as `(region, faction)`.
    pub fn court(&self) -> Option<(usize, usize)> {
        (self.court >= 0).then_some((
            self.court as usize / NUM_KINDS,
            self.court as usize % NUM_KINDS,
        ))
    }
}

/// The no-immediate-undo rule: `player` made the last exchange, and while the
/// ban stands no other player may make its reverse.
///
/// The fields of Python's `undo_ban` `(player, reverse)` (the advanced game's
/// `(player, reverse, card)`), and always the card that made the exchange
/// (in the standard game the top of `player`'s pile while the ban stands):
/// `reverse[..len]` is the reverse exchange as an action, with the option
/// `reversal = "effect"` spelled from its effect (`rules::spell_effect`), so
/// that equal effects make equal bans, and every exchange with that effect
/// (`rules::exchange_effect`) is banned however it is spelled; with "exact" the
/// literal reverse, the only action then banned. The effect is worked out from
/// the reverse once per listing of a card's actions, or per random exchange
/// drawn (`rules::active_ban`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ban {
    pub player: u8,
    /// Up to six parts: the advanced game's Edict exchanges two for two.
    pub reverse: [i8; 6],
    pub len: u8,
    /// The card that made the exchange, the only one the ban binds in an
    /// edition with `ban_binds_card` (a Spy's copy makes it as the copied card).
    pub card: u8,
}

impl Ban {
    /// The banned reverse exchange as an action.
    pub fn reverse(&self) -> &[i8] {
        &self.reverse[..self.len as usize]
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    Coronation,
    Invasion,
    Mordred,
}

/// The end of a game, as `kingisdead.scoring.Result` minus the sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub ending: Ending,
    /// Bit p set when seat p wins (a 4-player team wins together).
    pub winners: u8,
    /// The single player crowned or leading the resistance, or -1 (see Python `Result.ruler`).
    pub ruler: i8,
    /// Factions from most to least powerful (coronation and Mordred endings), `ranking[..ranked]`.
    pub ranking: [u8; NUM_FACTIONS],
    pub ranked: u8,
}

/// A position of The King Is Dead, with the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The edition, an index into [`EDITIONS`] (0 the first, 1 the second).
    pub edition: u8,
    /// The edition's effective option bits (`board::EXACT_REVERSAL` and the
    /// others; the first edition always has `COURT_REDRAW`).
    pub options: u8,
    pub players: u8,
    pub mordred: bool,
    /// Followers of each kind (3: Loyalists) in each region.
    pub board: [[u8; NUM_KINDS]; NUM_REGIONS],
    /// The common stock; `stock[3]` is the Loyalist supply.
    pub stock: [u8; NUM_KINDS],
    pub courts: [[u8; NUM_FACTIONS]; MAX_PLAYERS],
    /// Cards of each kind left in each hand.
    pub hands: [[u8; NUM_CARDS]; MAX_PLAYERS],
    /// Regions by region-card position (position 1 is `order[0]`).
    pub order: [u8; NUM_REGIONS],
    /// The seat whose Crown token lies on each region's card, or -1.
    pub crowns: [i8; NUM_REGIONS],
    /// -1 unresolved, 0-2 a faction, 3 Loyalists, 4 Saxons.
    pub control: [i8; NUM_REGIONS],
    /// Bitmask of unresolved regions.
    pub open: u8,
    /// Struggles resolved; the contested card is `order[resolved]`.
    pub resolved: u8,
    pub saxons: u8,
    pub player: u8,
    /// Consecutive passes in the current struggle.
    pub passes: u8,
    /// Top card of each played pile, or -1.
    pub tops: [i8; MAX_PLAYERS],
    /// Number of each player's latest card play (0: none yet).
    pub last_play: [u8; MAX_PLAYERS],
    /// Card plays so far.
    pub plays: u8,
    /// The mode: 0 the standard game; the advanced game's [`ADVANCED`] bit with
    /// its options' bits (`board::SPY_SPY_ALLOWED` and the others).
    pub mode: u16,
    /// The Cunning cards in each hand, a bit mask (bit i: card 7 + i); 0 in the standard game.
    pub cunning: [u16; MAX_PLAYERS],
    /// The Cunning cards each player has played, a bit mask.
    pub cunning_played: [u16; MAX_PLAYERS],
    pub undo_ban: Option<Ban>,
    pub outcome: Option<Outcome>,
}

impl State {
    /// The edition this game is played in.
    #[inline]
    pub fn rules(&self) -> &'static Edition {
        EDITIONS[self.edition as usize]
    }

    /// Whether an option bit is set.
    #[inline]
    pub fn option(&self, bit: u8) -> bool {
        self.options & bit != 0
    }

    /// Whether a mode bit (`board::ADVANCED` or an advanced option) is set.
    #[inline]
    pub fn mode(&self, bit: u16) -> bool {
        self.mode & bit != 0
    }

    /// Whether this is the advanced game (secret Cunning cards).
    #[inline]
    pub fn advanced(&self) -> bool {
        self.mode(ADVANCED)
    }

    /// Invaders' tokens that end the game at once.
    #[inline]
    pub fn invasion(&self) -> u8 {
        self.rules().invasion
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Cards left in a player's hand, Cunning cards included.
    pub fn cards_left(&self, player: usize) -> u8 {
        self.hands[player].iter().sum::<u8>() + self.cunning[player].count_ones() as u8
    }

    /// The cards a player can still play: those left but Plot, which is never played.
    pub fn playable(&self, player: usize) -> u8 {
        self.hands[player].iter().sum::<u8>()
            + (self.cunning[player] & !PLOT_BIT).count_ones() as u8
    }

    /// Cards left in all hands together.
    pub fn cards_in_hands(&self) -> u8 {
        (0..self.players as usize).map(|p| self.cards_left(p)).sum()
    }

    /// Followers of every kind in a region.
    pub fn region_total(&self, region: usize) -> u8 {
        self.board[region].iter().sum()
    }
}
