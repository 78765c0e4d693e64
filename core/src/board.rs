//! The fixed data of the game, the same as `kingisdead/board.py`: regions,
//! borders, homes, Mordred flags, cards and counts. Regions, factions and cards
//! are small integers numbered exactly as in Python.

/// Regions, north to south: Caledonia, Din Eidyn, Eboracum, Deva, Caerleon,
/// Ratae, Londinium, Aquae Sulis.
pub const NUM_REGIONS: usize = 8;
pub const CALEDONIA: usize = 0;
pub const DIN_EIDYN: usize = 1;
pub const EBORACUM: usize = 2;
pub const DEVA: usize = 3;
pub const CAERLEON: usize = 4;
pub const RATAE: usize = 5;
pub const LONDINIUM: usize = 6;
pub const AQUAE_SULIS: usize = 7;
/// Bitmask of all eight regions.
pub const ALL_REGIONS: u8 = 0xff;

/// The three factions that can be called to court.
pub const NUM_FACTIONS: usize = 3;
/// Follower kinds on the board: the three factions and the Loyalists.
pub const NUM_KINDS: usize = 4;
pub const SCOTS: usize = 0;
pub const WELSH: usize = 1;
pub const ROMANO_BRITISH: usize = 2;
pub const LOYALISTS: usize = 3;
/// Control value of a region that fell to the Saxons.
pub const SAXONS: i8 = 4;
/// Control value of a region whose struggle is still to come.
pub const UNRESOLVED: i8 = -1;

/// Kinds of action card.
pub const NUM_CARDS: usize = 7;
pub const CROWN: u8 = 0;
pub const GARRISON: u8 = 1;
pub const AMBASSADOR: u8 = 2;
pub const SETTLEMENTS: u8 = 3;
/// The three faction cards are `FACTION_CARD + faction`.
pub const FACTION_CARD: u8 = 4;

/// The advanced game's twelve Cunning cards, card numbers after the seven
/// kinds (Python `board.Cunning`), one copy of each in the game.
pub const SPY: u8 = 7;
pub const AID: u8 = 8;
pub const AMBUSH: u8 = 9;
pub const DISPUTE: u8 = 10;
pub const INFLUENCE: u8 = 11;
pub const EDICT: u8 = 12;
pub const MARCH: u8 = 13;
pub const RESIST: u8 = 14;
pub const MUSTER: u8 = 15;
pub const QUELL: u8 = 16;
pub const SUPPRESS: u8 = 17;
pub const PLOT: u8 = 18;
/// The card number of the first Cunning card.
pub const FIRST_CUNNING: u8 = SPY;
pub const NUM_CUNNING: usize = 12;
/// Cunning cards dealt to each player in the advanced game.
pub const CUNNING_DEALT: usize = 3;
/// Plot's bit in a mask of Cunning cards (`State::cunning`): it is never played.
pub const PLOT_BIT: u16 = 1 << (PLOT - FIRST_CUNNING);
/// The Cunning cards' names, Spy to Plot (Python `edition.CUNNING_CARDS`; the
/// same in every edition).
pub const CUNNING_CARDS: [&str; NUM_CUNNING] = [
    "Spy",
    "Aid",
    "Ambush",
    "Dispute",
    "Influence",
    "Edict",
    "March",
    "Resist",
    "Muster",
    "Quell",
    "Suppress",
    "Plot",
];
/// An edition of the game: its board, its cards, its ending constants and its
/// rule switches (`kingisdead.edition.Edition`, field for field). Both editions
/// share the map graph, the homes and the card kinds' numbers, so the constants
/// below (the first edition's) serve both; what differs, the rules read from
/// [`EDITIONS`] through `State::edition` and the option bits of `State::options`.
pub struct Edition {
    pub name: &'static str,
    pub regions: [&'static str; NUM_REGIONS],
    pub region_codes: [&'static str; NUM_REGIONS],
    /// The pairs of bordering regions (undirected).
    pub borders: [(usize, usize); 13],
    /// Each faction's home region.
    pub homes: [usize; NUM_FACTIONS],
    /// The follower kinds: the three factions, then the Loyalists.
    pub factions: [&'static str; NUM_KINDS],
    pub faction_codes: [&'static str; NUM_KINDS],
    pub cards: [&'static str; NUM_CARDS],
    /// The word naming each card in the move notation.
    pub card_words: [&'static str; NUM_CARDS],
    /// How many of each card a player starts with.
    pub card_copies: [u8; NUM_CARDS],
    /// Who takes a region that a struggle leaves without a ruler.
    pub invaders: &'static str,
    /// Their tokens (Saxon tokens, instability discs) that end the game at once.
    pub invasion: u8,
    /// The Mordred variant exists.
    pub mordred: bool,
    /// A faction card places its followers into one region (the action `(r, r)`).
    pub support_together: bool,
    /// A struggle's resolution does not lift the undo ban.
    pub ban_outlives_struggle: bool,
    /// The undo ban binds only a card of the kind that made the exchange.
    pub ban_binds_card: bool,
    /// At a coronation, hands part players still tied after the factions.
    pub hands_break_ties: bool,
    /// The options' default values, spelled as in Python.
    pub reversal: &'static str,
    pub court_redraw: bool,
    pub tie_faction: &'static str,
    pub tie_hands: &'static str,
    pub last_card: &'static str,
    /// The mode ("standard"; "advanced" is chosen per game: `State::mode`) and the
    /// advanced game's options' default values, spelled as in Python.
    pub mode: &'static str,
    pub spy_spy: &'static str,
    pub spy_negotiate: &'static str,
    pub spy_ban: &'static str,
    pub spy_pile: &'static str,
    pub aid_tie: &'static str,
    pub partial_rank: &'static str,
    pub plot_coronation: &'static str,
    pub plot_team: &'static str,
    pub plot_tiebreak: &'static str,
    pub plot_empty_hand: &'static str,
    pub cunning_ban: &'static str,
}

impl Edition {
    /// The option bits of this edition's defaults (see [`EXACT_REVERSAL`] and the others).
    pub const fn default_options(&self) -> u8 {
        (if self.court_redraw { COURT_REDRAW } else { 0 })
            | (if matches!(self.reversal.as_bytes(), b"exact") {
                EXACT_REVERSAL
            } else {
                0
            })
            | match self.tie_faction.as_bytes() {
                b"strict" => TIE_STRICT,
                b"always" => TIE_ALWAYS_NEXT_FACTION,
                _ => 0,
            }
            | (if matches!(self.last_card.as_bytes(), b"must_win") {
                LAST_CARD_MUST_WIN
            } else {
                0
            })
    }
}

/// Option bit: only the literal reverse exchange is banned (`reversal = "exact"`).
pub const EXACT_REVERSAL: u8 = 1;
/// Option bit: clashing court pairs are redrawn at setup (`court_redraw = True`).
pub const COURT_REDRAW: u8 = 2;
/// Option bit: a coronation tie compares every faction (`tie_faction = "always"`).
pub const TIE_ALWAYS_NEXT_FACTION: u8 = 4;
/// Option bit: where no tied player emptied their hand, the hands' tie-break goes
/// to the lowest seat (`tie_hands = "lowest_seat"`).
pub const TIE_LOWEST_SEAT: u8 = 8;
/// Option bit: a coronation tie compares every next faction while the ranking
/// is strict (`tie_faction = "strict"`, the first edition's rule). With neither
/// this nor [`TIE_ALWAYS_NEXT_FACTION`], the top and second factions only
/// (`tie_faction = "second"`, the second edition's default).
pub const TIE_STRICT: u8 = 16;
/// Option bit: with 3 players the last card may only be played to win
/// (`last_card = "must_win"`, the first edition's rule; see `lastcard`).
pub const LAST_CARD_MUST_WIN: u8 = 32;
/// Every option bit.
pub const ALL_OPTIONS: u8 = EXACT_REVERSAL
    | COURT_REDRAW
    | TIE_ALWAYS_NEXT_FACTION
    | TIE_LOWEST_SEAT
    | TIE_STRICT
    | LAST_CARD_MUST_WIN;

/// Mode bit (`State::mode`): the advanced game, the second edition's secret
/// Cunning cards (Python `Edition.mode == "advanced"`). The bits below are its
/// options away from their defaults (`kingisdead.edition.ADVANCED_OPTIONS`);
/// the standard game's mode is 0.
pub const ADVANCED: u16 = 1;
/// `spy_spy = "allowed"`: a pile topped by Spy may be spied (copying nothing further).
pub const SPY_SPY_ALLOWED: u16 = 2;
/// `spy_negotiate = "no_effect"`: a copied Negotiate without the spy's disc does nothing.
pub const SPY_NEGOTIATE_NO_EFFECT: u16 = 4;
/// `spy_negotiate = "always"`: a copied Negotiate places a disc regardless.
pub const SPY_NEGOTIATE_ALWAYS: u16 = 8;
/// `spy_ban = "free"`: a copied exchange is neither bound by nor sets the no-reversal ban.
pub const SPY_BAN_FREE: u16 = 16;
/// `spy_pile = "fullest"`: only piles whose copied card has an effect, where any has.
pub const SPY_PILE_FULLEST: u16 = 32;
/// `aid_tie = "none"`: a tie for the most followers in the stock makes Aid do nothing.
pub const AID_TIE_NONE: u16 = 64;
/// `plot_coronation = "any_faction"`: Plot counts as a follower of the faction best for its holder.
pub const PLOT_ANY_FACTION: u16 = 128;
/// `plot_team = "once"`: at a 4-player invasion Plot counts for its holder only.
pub const PLOT_TEAM_ONCE: u16 = 256;
/// `plot_tiebreak = "holder_first"`: a tie left after the counts goes to Plot's holder.
pub const PLOT_HOLDER_FIRST: u16 = 512;
/// `plot_empty_hand = "never"`: a hand holding Plot alone is never emptied.
pub const PLOT_NEVER_EMPTY: u16 = 1024;
/// `cunning_ban = "same_effect"`: Dispute, Influence and Edict set and obey the no-reversal ban.
pub const CUNNING_BAN_SAME_EFFECT: u16 = 2048;
/// Every mode and advanced option bit.
pub const ALL_MODE_BITS: u16 = 4095;

/// The first edition, as `kingisdead.edition.FIRST`.
pub const FIRST: Edition = Edition {
    name: "first",
    regions: [
        "Caledonia",
        "Din Eidyn",
        "Eboracum",
        "Deva",
        "Caerleon",
        "Ratae",
        "Londinium",
        "Aquae Sulis",
    ],
    region_codes: ["Cal", "Din", "Ebo", "Dev", "Cae", "Rat", "Lon", "Aqu"],
    borders: [
        (CALEDONIA, DIN_EIDYN),
        (DIN_EIDYN, DEVA),
        (DIN_EIDYN, EBORACUM),
        (DEVA, EBORACUM),
        (DEVA, CAERLEON),
        (DEVA, RATAE),
        (EBORACUM, RATAE),
        (EBORACUM, LONDINIUM),
        (CAERLEON, RATAE),
        (CAERLEON, AQUAE_SULIS),
        (RATAE, LONDINIUM),
        (RATAE, AQUAE_SULIS),
        (LONDINIUM, AQUAE_SULIS),
    ],
    homes: [CALEDONIA, CAERLEON, LONDINIUM],
    factions: ["Scots", "Welsh", "Romano-British", "Loyalists"],
    faction_codes: ["S", "W", "R", "L"],
    cards: [
        "Crown",
        "Garrison",
        "Ambassador",
        "Settlements",
        "Scots",
        "Welsh",
        "Romano-British",
    ],
    card_words: [
        "Crown",
        "Garrison",
        "Ambassador",
        "Settlements",
        "Scots",
        "Welsh",
        "Romano-British",
    ],
    card_copies: [1, 1, 1, 2, 1, 1, 1],
    invaders: "Saxons",
    invasion: 4,
    mordred: true,
    support_together: false,
    ban_outlives_struggle: false,
    ban_binds_card: false,
    hands_break_ties: false,
    reversal: "effect",
    court_redraw: true,
    tie_faction: "strict",
    tie_hands: "earliest",
    last_card: "must_win",
    mode: "standard",
    spy_spy: "forbidden",
    spy_negotiate: "own_disc",
    spy_ban: "as_card",
    spy_pile: "any",
    aid_tie: "choose",
    partial_rank: "most_followers",
    plot_coronation: "top_only",
    plot_team: "each",
    plot_tiebreak: "none",
    plot_empty_hand: "empty",
    cunning_ban: "none",
};

/// The second edition (2020), as `kingisdead.edition.SECOND` with its default options:
/// the same map graph and homes under other names, instability discs for the Saxons.
pub const SECOND: Edition = Edition {
    name: "second",
    regions: [
        "Moray",
        "Strathclyde",
        "Northumbria",
        "Lancaster",
        "Gwynedd",
        "Warwick",
        "Essex",
        "Devon",
    ],
    region_codes: ["Mor", "Str", "Nor", "Lan", "Gwy", "War", "Ess", "Dev"],
    borders: FIRST.borders,
    homes: FIRST.homes,
    factions: ["Scottish", "Welsh", "English", "Loyalists"],
    faction_codes: ["S", "W", "E", "L"],
    cards: [
        "Negotiate",
        "Outmanoeuvre",
        "Manoeuvre",
        "Assemble",
        "Scottish Support",
        "Welsh Support",
        "English Support",
    ],
    card_words: [
        "Negotiate",
        "Outmanoeuvre",
        "Manoeuvre",
        "Assemble",
        "Scottish",
        "Welsh",
        "English",
    ],
    card_copies: FIRST.card_copies,
    invaders: "instability",
    invasion: 3,
    mordred: false,
    support_together: true,
    ban_outlives_struggle: true,
    ban_binds_card: true,
    hands_break_ties: true,
    reversal: "effect",
    court_redraw: false,
    tie_faction: "second",
    tie_hands: "earliest",
    last_card: "free",
    // The mode and the advanced game's defaults, the same as the first edition's.
    ..FIRST
};

/// The editions by `State::edition`: 0 the first, 1 the second.
pub const EDITIONS: [&Edition; 2] = [&FIRST, &SECOND];
pub const FIRST_EDITION: u8 = 0;
pub const SECOND_EDITION: u8 = 1;

/// The index into [`EDITIONS`] of the edition called `name`.
pub fn edition_index(name: &str) -> Option<u8> {
    EDITIONS
        .iter()
        .position(|e| e.name == name)
        .map(|i| i as u8)
}

/// How many of each card a player starts with (Settlements twice).
pub const CARD_COPIES: [u8; NUM_CARDS] = FIRST.card_copies;
pub const HAND_SIZE: u8 = 8;

/// The 13 borders of the map (undirected).
pub const BORDERS: [(usize, usize); 13] = FIRST.borders;

/// Bitmask of the regions bordering each region.
pub const NEIGHBOURS: [u8; NUM_REGIONS] = neighbours();

const fn neighbours() -> [u8; NUM_REGIONS] {
    let mut out = [0u8; NUM_REGIONS];
    let mut i = 0;
    while i < BORDERS.len() {
        let (a, b) = BORDERS[i];
        out[a] |= 1 << b;
        out[b] |= 1 << a;
        i += 1;
    }
    out
}

/// Bitmask of the regions bordering any region of each mask.
pub const REACH: [u8; 256] = reach();

const fn reach() -> [u8; 256] {
    let mut out = [0u8; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut r = 0;
        while r < NUM_REGIONS {
            if mask >> r & 1 == 1 {
                out[mask] |= NEIGHBOURS[r];
            }
            r += 1;
        }
        mask += 1;
    }
    out
}

/// Home region of each faction.
pub const HOMES: [usize; NUM_FACTIONS] = FIRST.homes;

/// Where a Loyalist is added after resolving each region (Mordred variant).
pub const MORDRED_FLAGS: [usize; NUM_REGIONS] = [
    AQUAE_SULIS, // Caledonia
    AQUAE_SULIS, // Din Eidyn
    DIN_EIDYN,   // Eboracum
    AQUAE_SULIS, // Deva
    DIN_EIDYN,   // Caerleon
    AQUAE_SULIS, // Ratae
    DIN_EIDYN,   // Londinium
    DIN_EIDYN,   // Aquae Sulis
];
/// Regions that start with one Loyalist in the Mordred variant.
pub const MORDRED_START: [usize; 2] = [DIN_EIDYN, AQUAE_SULIS];

pub const FOLLOWERS_PER_FACTION: u8 = 18;
pub const LOYALISTS_TOTAL: u8 = 9;
/// Followers of each faction taken out of a 2-player game before setup.
pub const REMOVED_TWO_PLAYER: u8 = 2;
pub const START_IN_HOME: u8 = 2;
pub const REGION_START_SIZE: u8 = 4;
pub const COURT_START_SIZE: usize = 2;

/// Whether two regions share a border.
pub fn borders(a: usize, b: usize) -> bool {
    NEIGHBOURS[a] >> b & 1 == 1
}

/// The regions of a bitmask, lowest first.
pub fn regions_of(mask: u8) -> impl Iterator<Item = usize> {
    (0..NUM_REGIONS).filter(move |r| mask >> r & 1 == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn borders_are_symmetric_and_match_the_rulings() {
        assert_eq!(BORDERS.len(), 13);
        for a in 0..NUM_REGIONS {
            assert!(!borders(a, a));
            for b in 0..NUM_REGIONS {
                assert_eq!(borders(a, b), borders(b, a));
            }
        }
        assert!(borders(CALEDONIA, DIN_EIDYN));
        assert!(!borders(CALEDONIA, EBORACUM));
        assert_eq!(NEIGHBOURS[RATAE].count_ones(), 5);
    }

    #[test]
    fn the_second_edition_renames_the_first_and_switches_its_rules() {
        assert_eq!(SECOND.borders, FIRST.borders);
        assert_eq!(SECOND.homes, FIRST.homes);
        assert_eq!(SECOND.regions[CALEDONIA], "Moray");
        assert_eq!(SECOND.regions[AQUAE_SULIS], "Devon");
        assert_eq!((FIRST.invasion, SECOND.invasion), (4, 3));
        assert_eq!(
            FIRST.default_options(),
            COURT_REDRAW | TIE_STRICT | LAST_CARD_MUST_WIN
        );
        assert_eq!(SECOND.default_options(), 0);
        assert_eq!(edition_index("second"), Some(SECOND_EDITION));
        assert_eq!(EDITIONS[FIRST_EDITION as usize].name, "first");
        assert_eq!(edition_index("third"), None);
    }

    #[test]
    fn reach_is_the_union_of_neighbours() {
        assert_eq!(REACH[0], 0);
        assert_eq!(REACH[1 << CALEDONIA], 1 << DIN_EIDYN);
        let both = (1 << CALEDONIA) | (1 << LONDINIUM);
        assert_eq!(REACH[both], NEIGHBOURS[CALEDONIA] | NEIGHBOURS[LONDINIUM]);
    }
}
