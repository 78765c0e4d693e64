//! Setting up a game from a seed, draw for draw the same as
//! `kingisdead/setup.py` (`SetupDraws` driven by `pick`), so that one seed
//! gives a bit-identical game in both engines.
//!
//! The sequence: two followers from the bag for each player's court (with the
//! court redraw, the first edition's rule and a second-edition option, players
//! who drew a pair of the same faction as another player return theirs and
//! draw again, until no such clash remains), then followers for each region in
//! turn until it holds four, then a Fisher-Yates shuffle of the region cards;
//! in the advanced game, last, three Cunning cards dealt to each player in
//! seat order. A follower draw picks `below(bag total)` and walks the factions
//! in order, each weighted by its count in the bag; a shuffle step picks
//! `below(i + 1)`; a deal picks `below(cards not yet dealt)` among them in
//! card order (Python's draw kind `DEAL`).

use crate::board::{
    ADVANCED, ALL_MODE_BITS, ALL_OPTIONS, COURT_REDRAW, CUNNING_DEALT, EDITIONS, FACTION_CARD,
    FIRST_EDITION, NUM_CUNNING, SECOND_EDITION, SPY_NEGOTIATE_ALWAYS, SPY_NEGOTIATE_NO_EFFECT,
    TIE_ALWAYS_NEXT_FACTION, TIE_STRICT,
};
use crate::board::{
    CARD_COPIES, COURT_START_SIZE, FOLLOWERS_PER_FACTION, HOMES, LOYALISTS, LOYALISTS_TOTAL,
    MORDRED_START, NUM_FACTIONS, NUM_KINDS, NUM_REGIONS, REGION_START_SIZE, REMOVED_TWO_PLAYER,
    START_IN_HOME, UNRESOLVED,
};
use crate::rng::SplitMix64;
use crate::state::{State, MAX_PLAYERS};

/// The error for a setup the game does not have, worded as Python's
/// `check_setup_arguments` (the variant is a flag here, so it cannot be wrong).
pub fn check_setup_arguments(players: u8, first_player: u8) -> Result<(), String> {
    if !(2..=4).contains(&players) {
        return Err(format!(
            "The King Is Dead is for 2, 3 or 4 players, not {players}"
        ));
    }
    if first_player >= players {
        return Err(format!(
            "first player must be a seat from 0 to {}",
            players - 1
        ));
    }
    Ok(())
}

/// The first-edition game that `seed` sets up: every draw comes from
/// `SplitMix64::new(seed)` in the order of Python's `setup_from_seed`.
pub fn new_game(players: u8, mordred: bool, seed: u64, first_player: u8) -> Result<State, String> {
    new_game_in(
        FIRST_EDITION,
        EDITIONS[FIRST_EDITION as usize].default_options(),
        players,
        mordred,
        seed,
        first_player,
    )
}

/// Whether an edition (an index into [`EDITIONS`]) is played with these
/// option bits, mode bits and the variant: the first edition's options are
/// fixed; the second edition has no Mordred variant; only the second has the
/// advanced game, whose options need its mode.
pub fn check_edition(edition: u8, options: u8, mode: u16, mordred: bool) -> Result<(), String> {
    let Some(e) = EDITIONS.get(edition as usize) else {
        return Err(format!("unknown edition {edition}"));
    };
    if options & !ALL_OPTIONS != 0 {
        return Err(format!("unknown option bits {options:#x}"));
    }
    if options & TIE_STRICT != 0 && options & TIE_ALWAYS_NEXT_FACTION != 0 {
        return Err("tie_faction is either \"strict\" or \"always\", not both".into());
    }
    if edition == FIRST_EDITION && options != e.default_options() {
        return Err(
            "the first edition has no options: its rulebook and rulings settle every point".into(),
        );
    }
    if mordred && !e.mordred {
        return Err(format!("the {} edition has no Mordred variant", e.name));
    }
    if mode & !ALL_MODE_BITS != 0 || (mode != 0 && mode & ADVANCED == 0) {
        return Err("the advanced game's options need mode 'advanced'".into());
    }
    if mode != 0 && edition != SECOND_EDITION {
        return Err(format!(
            "the {} edition has no advanced game (the second edition's Cunning cards)",
            e.name
        ));
    }
    if mode & SPY_NEGOTIATE_NO_EFFECT != 0 && mode & SPY_NEGOTIATE_ALWAYS != 0 {
        return Err("spy_negotiate is either \"no_effect\" or \"always\", not both".into());
    }
    Ok(())
}

/// The standard game that `seed` sets up in an edition with its effective
/// option bits (see [`check_edition`]); the court redraw happens only with
/// [`COURT_REDRAW`].
pub fn new_game_in(
    edition: u8,
    options: u8,
    players: u8,
    mordred: bool,
    seed: u64,
    first_player: u8,
) -> Result<State, String> {
    new_game_in_mode(edition, options, 0, players, mordred, seed, first_player)
}

/// [`new_game_in`] in a mode (`State::mode`: 0 the standard game, else the
/// advanced game's bits), whose Cunning cards are dealt last.
pub fn new_game_in_mode(
    edition: u8,
    options: u8,
    mode: u16,
    players: u8,
    mordred: bool,
    seed: u64,
    first_player: u8,
) -> Result<State, String> {
    check_setup_arguments(players, first_player)?;
    check_edition(edition, options, mode, mordred)?;
    let n = players as usize;
    let removed = if players == 2 { REMOVED_TWO_PLAYER } else { 0 };
    let mut bag = [FOLLOWERS_PER_FACTION - removed - START_IN_HOME; NUM_FACTIONS];
    let mut board = [[0u8; NUM_KINDS]; NUM_REGIONS];
    for (faction, &home) in HOMES.iter().enumerate() {
        board[home][faction] = START_IN_HOME;
    }
    if mordred {
        for &region in &MORDRED_START {
            board[region][LOYALISTS] = 1;
        }
    }
    let mut rng = SplitMix64::new(seed);

    // Courts: everyone draws two; clashing players return theirs and redraw, in seat order.
    let mut drawn = [[0u8; COURT_START_SIZE]; MAX_PLAYERS];
    let mut drawing: Vec<usize> = (0..n).collect();
    loop {
        for &p in &drawing {
            for slot in drawn[p].iter_mut() {
                *slot = draw_follower(&mut rng, &mut bag);
            }
        }
        if options & COURT_REDRAW == 0 {
            break;
        }
        drawing = court_clashes(&drawn[..n]);
        if drawing.is_empty() {
            break;
        }
        for &p in &drawing {
            for &faction in &drawn[p] {
                bag[faction as usize] += 1;
            }
        }
    }

    // Regions in order, each filled to four (Loyalists count towards the four).
    for region in board.iter_mut() {
        while region.iter().sum::<u8>() < REGION_START_SIZE {
            region[draw_follower(&mut rng, &mut bag) as usize] += 1;
        }
    }

    // Fisher-Yates over the region cards, from the last position down.
    let mut order: [u8; NUM_REGIONS] = [0, 1, 2, 3, 4, 5, 6, 7];
    for i in (1..NUM_REGIONS).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        order.swap(i, j);
    }

    // The advanced game: the Support cards go back in the box, and each player
    // is dealt three Cunning cards in seat order.
    let mut copies = CARD_COPIES;
    let mut cunning = [0u16; MAX_PLAYERS];
    if mode & ADVANCED != 0 {
        copies[FACTION_CARD as usize..].fill(0);
        let mut dealt = 0u16;
        for held in cunning[..n].iter_mut() {
            for _ in 0..CUNNING_DEALT {
                let left = NUM_CUNNING as u64 - u64::from(dealt.count_ones());
                let pick = rng.below(left) as usize;
                let card = (0..NUM_CUNNING)
                    .filter(|&i| dealt >> i & 1 == 0)
                    .nth(pick)
                    .expect("a pick below the cards left falls on one of them");
                dealt |= 1 << card;
                *held |= 1 << card;
            }
        }
    }
    let mut courts = [[0u8; NUM_FACTIONS]; MAX_PLAYERS];
    let mut hands = [[0u8; CARD_COPIES.len()]; MAX_PLAYERS];
    for p in 0..n {
        for &faction in &drawn[p] {
            courts[p][faction as usize] += 1;
        }
        hands[p] = copies;
    }
    let loyalists = if mordred {
        LOYALISTS_TOTAL - MORDRED_START.len() as u8
    } else {
        0
    };
    Ok(State {
        edition,
        options,
        players,
        mordred,
        board,
        stock: [bag[0], bag[1], bag[2], loyalists],
        courts,
        hands,
        order,
        crowns: [-1; NUM_REGIONS],
        control: [UNRESOLVED; NUM_REGIONS],
        open: 0xff,
        resolved: 0,
        saxons: 0,
        player: first_player,
        passes: 0,
        tops: [-1; MAX_PLAYERS],
        last_play: [0; MAX_PLAYERS],
        plays: 0,
        mode,
        cunning,
        cunning_played: [0; MAX_PLAYERS],
        undo_ban: None,
        outcome: None,
    })
}

/// A game for tests by variant: 0 the first edition, 1 its Mordred variant,
/// 2 the second edition, 3 the second with every option away from its default
/// (`tie_faction = "always"`), 4 the second with the first edition's coronation
/// tie and last card, 5 the second with only `last_card = "must_win"`.
#[cfg(test)]
pub(crate) fn test_game(players: u8, variant: u8, seed: u64, first_player: u8) -> State {
    use crate::board::SECOND_EDITION;
    match variant {
        0 | 1 => new_game(players, variant == 1, seed, first_player),
        2 => new_game_in(SECOND_EDITION, 0, players, false, seed, first_player),
        3 => new_game_in(
            SECOND_EDITION,
            ALL_OPTIONS & !crate::board::TIE_STRICT,
            players,
            false,
            seed,
            first_player,
        ),
        4 => new_game_in(
            SECOND_EDITION,
            crate::board::TIE_STRICT | crate::board::LAST_CARD_MUST_WIN,
            players,
            false,
            seed,
            first_player,
        ),
        _ => new_game_in(
            SECOND_EDITION,
            crate::board::LAST_CARD_MUST_WIN,
            players,
            false,
            seed,
            first_player,
        ),
    }
    .unwrap()
}

/// One follower from the bag, each faction weighted by its count (as `SetupDraws.pick`).
fn draw_follower(rng: &mut SplitMix64, bag: &mut [u8; NUM_FACTIONS]) -> u8 {
    let total: u64 = bag.iter().map(|&n| n as u64).sum();
    let mut pick = rng.below(total);
    for (faction, count) in bag.iter_mut().enumerate() {
        if pick < *count as u64 {
            *count -= 1;
            return faction as u8;
        }
        pick -= *count as u64;
    }
    unreachable!("a pick below the bag total falls on some faction")
}

/// Players who must redraw, in seat order: two or more drew a pair of the same single faction.
fn court_clashes(drawn: &[[u8; COURT_START_SIZE]]) -> Vec<usize> {
    let mut pairs = [0u8; NUM_FACTIONS];
    for d in drawn {
        if d[0] == d[1] {
            pairs[d[0] as usize] += 1;
        }
    }
    (0..drawn.len())
        .filter(|&p| drawn[p][0] == drawn[p][1] && pairs[drawn[p][0] as usize] > 1)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The board as Python's flat list, `board[region * 4 + kind]`.
    fn flat(s: &State) -> Vec<u8> {
        s.board.iter().flatten().copied().collect()
    }

    fn courts(s: &State) -> Vec<u8> {
        s.courts[..s.players as usize]
            .iter()
            .flatten()
            .copied()
            .collect()
    }

    // Expected values printed by `GameState.new(players, variant, seed, first_player)`.

    #[test]
    fn seed_1_two_players_matches_python() {
        let s = new_game(2, false, 1, 0).unwrap();
        assert_eq!(
            flat(&s),
            [
                2, 1, 1, 0, 3, 1, 0, 0, 1, 2, 1, 0, 0, 2, 2, 0, 0, 3, 1, 0, 2, 2, 0, 0, 1, 1, 2, 0,
                2, 1, 1, 0
            ]
        );
        assert_eq!(courts(&s), [1, 1, 0, 0, 0, 2]);
        assert_eq!(s.order, [0, 7, 2, 6, 5, 1, 3, 4]);
        assert_eq!(s.stock, [4, 2, 6, 0]);
        assert_eq!(s.hands[0], CARD_COPIES);
        assert_eq!(s.hands[2], [0; 7]);
        assert_eq!(s.player, 0);
    }

    #[test]
    fn mordred_three_players_matches_python() {
        let s = new_game(3, true, 7, 2).unwrap();
        assert_eq!(
            flat(&s),
            [
                2, 1, 1, 0, 1, 1, 1, 1, 1, 1, 2, 0, 1, 3, 0, 0, 0, 2, 2, 0, 2, 1, 1, 0, 2, 0, 2, 0,
                1, 1, 1, 1
            ]
        );
        assert_eq!(courts(&s), [1, 0, 1, 0, 1, 1, 0, 1, 1]);
        assert_eq!(s.order, [4, 2, 5, 1, 6, 7, 3, 0]);
        assert_eq!(s.stock, [7, 6, 5, 7]);
        assert_eq!(s.player, 2);
    }

    #[test]
    fn four_players_and_the_largest_seed_match_python() {
        let s = new_game(4, false, 12345, 1).unwrap();
        assert_eq!(
            flat(&s),
            [
                2, 1, 1, 0, 1, 0, 3, 0, 1, 1, 2, 0, 0, 4, 0, 0, 0, 3, 1, 0, 0, 2, 2, 0, 1, 0, 3, 0,
                1, 2, 1, 0
            ]
        );
        assert_eq!(courts(&s), [1, 0, 1, 1, 0, 1, 0, 0, 2, 1, 1, 0]);
        assert_eq!(s.order, [4, 7, 0, 1, 6, 5, 3, 2]);
        assert_eq!(s.stock, [9, 4, 1, 0]);
        let s = new_game(3, false, u64::MAX, 0).unwrap();
        assert_eq!(courts(&s), [2, 0, 0, 0, 2, 0, 0, 0, 2]);
        assert_eq!(s.order, [7, 2, 4, 5, 1, 3, 6, 0]);
        assert_eq!(s.stock, [5, 7, 4, 0]);
    }

    #[test]
    fn court_redraws_match_python() {
        // Seed 12 makes players redraw their courts with 3 and with 4 players.
        let s = new_game(3, false, 12, 0).unwrap();
        assert_eq!(
            flat(&s),
            [
                3, 1, 0, 0, 3, 1, 0, 0, 1, 1, 2, 0, 0, 2, 2, 0, 1, 3, 0, 0, 2, 1, 1, 0, 2, 0, 2, 0,
                0, 2, 2, 0
            ]
        );
        assert_eq!(courts(&s), [2, 0, 0, 1, 0, 1, 1, 1, 0]);
        assert_eq!(s.order, [7, 2, 6, 1, 5, 4, 3, 0]);
        assert_eq!(s.stock, [2, 6, 8, 0]);
        let s = new_game(4, false, 12, 0).unwrap();
        assert_eq!(
            flat(&s),
            [
                4, 0, 0, 0, 1, 1, 2, 0, 1, 1, 2, 0, 1, 3, 0, 0, 1, 2, 1, 0, 4, 0, 0, 0, 0, 0, 4, 0,
                1, 2, 1, 0
            ]
        );
        assert_eq!(courts(&s), [1, 0, 1, 1, 1, 0, 1, 1, 0, 0, 1, 1]);
        assert_eq!(s.order, [2, 0, 5, 1, 7, 3, 6, 4]);
    }

    #[test]
    fn no_two_players_keep_the_same_single_faction_pair() {
        for seed in 0..500 {
            for players in 2..=4u8 {
                let s = new_game(players, seed % 2 == 0, seed, 0).unwrap();
                let pairs: Vec<usize> = (0..players as usize)
                    .filter_map(|p| s.courts[p].iter().position(|&n| n == 2))
                    .collect();
                let mut unique = pairs.clone();
                unique.sort_unstable();
                unique.dedup();
                assert_eq!(unique.len(), pairs.len(), "seed {seed}");
                let on_board: u8 = s.board.iter().map(|r| r[..3].iter().sum::<u8>()).sum();
                let at_court: u8 = s.courts.iter().flatten().sum();
                let stock: u8 = s.stock[..3].iter().sum();
                let per_faction = if players == 2 { 16 } else { 18 };
                assert_eq!(on_board + at_court + stock, 3 * per_faction);
                assert!(s.board.iter().all(|r| r.iter().sum::<u8>() == 4));
            }
        }
    }

    #[test]
    fn the_second_edition_redraws_courts_only_with_the_option() {
        use crate::board::{SECOND_EDITION, TIE_LOWEST_SEAT};
        // Seed 12 makes players redraw their courts with 3 players in the first edition.
        let first = new_game(3, false, 12, 0).unwrap();
        let redrawn = new_game_in(SECOND_EDITION, COURT_REDRAW, 3, false, 12, 0).unwrap();
        assert_eq!((redrawn.board, redrawn.courts), (first.board, first.courts));
        assert_eq!(
            (redrawn.edition, redrawn.options),
            (SECOND_EDITION, COURT_REDRAW)
        );
        let plain = new_game_in(SECOND_EDITION, TIE_LOWEST_SEAT, 3, false, 12, 0).unwrap();
        assert_ne!(plain.courts, first.courts);
        // Without the redraw, two players may keep a pair of the same faction.
        let kept = (0..200).any(|seed| {
            let s = new_game_in(SECOND_EDITION, 0, 4, false, seed, 0).unwrap();
            let pairs: Vec<usize> = (0..4)
                .filter_map(|p| s.courts[p].iter().position(|&n| n == 2))
                .collect();
            (0..pairs.len()).any(|i| pairs[i + 1..].contains(&pairs[i]))
        });
        assert!(kept);
    }

    #[test]
    fn editions_refuse_what_they_do_not_have() {
        use crate::board::SECOND_EDITION;
        assert_eq!(
            new_game_in(SECOND_EDITION, 0, 3, true, 1, 0).unwrap_err(),
            "the second edition has no Mordred variant"
        );
        assert!(new_game_in(FIRST_EDITION, 0, 3, false, 1, 0).is_err());
        assert!(new_game_in(2, 0, 3, false, 1, 0).is_err());
        assert!(new_game_in(SECOND_EDITION, 64, 3, false, 1, 0).is_err());
        let both = TIE_STRICT | TIE_ALWAYS_NEXT_FACTION;
        assert!(new_game_in(SECOND_EDITION, both, 3, false, 1, 0).is_err());
    }

    #[test]
    fn bad_arguments_are_refused_with_python_wording() {
        assert_eq!(
            new_game(5, false, 0, 0).unwrap_err(),
            "The King Is Dead is for 2, 3 or 4 players, not 5"
        );
        assert_eq!(
            new_game(3, false, 0, 3).unwrap_err(),
            "first player must be a seat from 0 to 2"
        );
    }
}
