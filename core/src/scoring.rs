//! Endings and tie-breaks, the same winners, ruler and ranking as
//! `kingisdead/scoring.py` (the sentence explaining the result stays in Python).
//!
//! "Last played" is `State::last_play`: the number of a player's latest card
//! play, 0 for none, so the largest number is the player who played last, and
//! for a player with an empty hand the play that emptied it.
//!
//! The editions differ after the factions: the first drops the tied player who
//! played last, repeatedly; the second (`hands_break_ties`) looks at hands
//! ([`hands_decide`]). Its options `tie_faction = "always"` and `tie_hands =
//! "lowest_seat"` are the bits [`TIE_ALWAYS_NEXT_FACTION`] and [`TIE_LOWEST_SEAT`].

use crate::board::{NUM_FACTIONS, TIE_ALWAYS_NEXT_FACTION, TIE_LOWEST_SEAT};
use crate::state::{Ending, Outcome, State};

/// The result of a game that has just ended by `ending`.
pub fn score(s: &State, ending: Ending) -> Outcome {
    match ending {
        Ending::Invasion => invasion(s),
        _ => coronation(s, ending),
    }
}

/// Factions in groups of equal rank, strongest first, as Python `faction_ranking`.
///
/// Most regions first; among equals, the faction that won a struggle most
/// recently (the later region-card position). Factions with no region form
/// one last group, tied with each other. Returns the flat ranking, the size
/// of each group (0 past the last group) and the regions of each faction.
fn faction_ranking(s: &State) -> ([u8; NUM_FACTIONS], [u8; NUM_FACTIONS], [u8; NUM_FACTIONS]) {
    let mut regions = [0u8; NUM_FACTIONS];
    let mut latest = [-1i8; NUM_FACTIONS];
    for position in 0..s.resolved as usize {
        let faction = s.control[s.order[position] as usize];
        if (0..NUM_FACTIONS as i8).contains(&faction) {
            regions[faction as usize] += 1;
            latest[faction as usize] = position as i8;
        }
    }
    let mut holders: Vec<u8> = (0..NUM_FACTIONS as u8)
        .filter(|&f| regions[f as usize] > 0)
        .collect();
    holders.sort_by_key(|&f| {
        (
            std::cmp::Reverse(regions[f as usize]),
            std::cmp::Reverse(latest[f as usize]),
        )
    });
    let mut ranking = [0u8; NUM_FACTIONS];
    let mut groups = [0u8; NUM_FACTIONS];
    let mut n = 0;
    for (i, &f) in holders.iter().enumerate() {
        ranking[i] = f;
        groups[i] = 1;
        n += 1;
    }
    let empty = NUM_FACTIONS - holders.len();
    if empty > 0 {
        groups[holders.len()] = empty as u8;
        for f in (0..NUM_FACTIONS as u8).filter(|&f| regions[f as usize] == 0) {
            ranking[n] = f;
            n += 1;
        }
    }
    (ranking, groups, regions)
}

/// Bitmask of the players of `candidates` (a bitmask) whose latest card play is
/// the most recent one; None when none of them played a card.
fn last_player(s: &State, candidates: u8) -> Option<usize> {
    (0..s.players as usize)
        .filter(|&p| candidates >> p & 1 == 1 && s.last_play[p] > 0)
        .max_by_key(|&p| s.last_play[p])
}

/// A player's team as a bitmask: partners sit opposite in the 4-player game.
fn team(s: &State, player: usize) -> u8 {
    if s.players == 4 {
        1 << player | 1 << ((player + 2) % 4)
    } else {
        1 << player
    }
}

fn winners_of(s: &State, candidates: u8) -> u8 {
    (0..s.players as usize)
        .filter(|&p| candidates >> p & 1 == 1)
        .fold(0, |w, p| w | team(s, p))
}

fn only(candidates: u8) -> Option<usize> {
    (candidates.count_ones() == 1).then(|| candidates.trailing_zeros() as usize)
}

/// Coronation, and the Mordred ending scored like it (Python `_coronation`).
fn coronation(s: &State, ending: Ending) -> Outcome {
    let (ranking, groups, regions) = faction_ranking(s);
    let all = (1u8 << s.players) - 1;
    let mut candidates = all;
    if s.option(TIE_ALWAYS_NEXT_FACTION) {
        // Every faction in ranking order (those without regions last, in faction order).
        for &f in &ranking {
            candidates = most_of(s, candidates, f as usize);
            if candidates.count_ones() == 1 {
                break;
            }
        }
    } else {
        let mut start = 0;
        for (rank, &size) in groups.iter().enumerate() {
            if size == 0 {
                break;
            }
            let f = ranking[start] as usize;
            // The ranking is no longer strict (or no faction holds a region).
            if size > 1 || (rank == 0 && regions[f] == 0) {
                break;
            }
            start += size as usize;
            candidates = most_of(s, candidates, f);
            if candidates.count_ones() == 1 {
                break;
            }
        }
    }
    if candidates.count_ones() > 1 && ending == Ending::Mordred {
        let total = |p: usize| s.courts[p].iter().map(|&n| n as u32).sum::<u32>();
        let best = (0..s.players as usize)
            .filter(|&p| candidates >> p & 1 == 1)
            .map(total)
            .max()
            .unwrap_or(0);
        candidates &= (0..s.players as usize)
            .filter(|&p| total(p) == best)
            .fold(0, |m, p| m | 1 << p);
        if candidates.count_ones() > 1 {
            if let Some(last) = last_player(s, candidates) {
                candidates = 1 << last;
            }
        }
    }
    if candidates.count_ones() > 1 && ending != Ending::Mordred {
        if s.rules().hands_break_ties {
            candidates = hands_decide(s, candidates);
        } else {
            while candidates.count_ones() > 1 {
                match last_player(s, candidates) {
                    Some(last) => candidates &= !(1 << last),
                    None => break,
                }
            }
        }
    }
    Outcome {
        ending,
        winners: winners_of(s, candidates),
        ruler: only(candidates).map_or(-1, |p| p as i8),
        ranking,
        ranked: NUM_FACTIONS as u8,
    }
}

/// The players of `candidates` with the most followers of faction `f` at court.
fn most_of(s: &State, candidates: u8, f: usize) -> u8 {
    let best = (0..s.players as usize)
        .filter(|&p| candidates >> p & 1 == 1)
        .map(|p| s.courts[p][f])
        .max()
        .unwrap_or(0);
    candidates
        & (0..s.players as usize)
            .filter(|&p| s.courts[p][f] == best)
            .fold(0, |m, p| m | 1 << p)
}

/// The second edition's coronation tie after the factions (`candidates`, two
/// or more; Python `_by_hands`): a tied player who emptied their hand beats
/// one who did not, the earlier emptier the later; with no hand emptied, the
/// earliest last card play wins (a player who never played counts as
/// earliest). With 4 players a team whose two hands are both empty comes
/// first, the one that emptied them earlier first; when no tied player's team
/// did, the players are compared one by one as above. Players still
/// equal share the win. With `tie_hands = "lowest_seat"`, the lowest tied seat.
fn hands_decide(s: &State, candidates: u8) -> u8 {
    if s.option(TIE_LOWEST_SEAT) {
        return 1 << candidates.trailing_zeros();
    }
    let holds = |p: usize| s.cards_left(p) > 0;
    let key = |p: usize| -> (bool, u8, bool, u8) {
        if s.players == 4 {
            let partner = (p + 2) % 4;
            if !holds(p) && !holds(partner) {
                let emptied = s.last_play[p].max(s.last_play[partner]);
                return (false, emptied, false, s.last_play[p]);
            }
            return (true, 0, holds(p), s.last_play[p]);
        }
        (false, 0, holds(p), s.last_play[p])
    };
    let tied = (0..s.players as usize).filter(|&p| candidates >> p & 1 == 1);
    let best = tied.clone().map(key).min();
    tied.filter(|&p| Some(key(p)) == best)
        .fold(0, |m, p| m | 1 << p)
}

/// Complete sets of a side (a bitmask of players pooling their courts).
fn sets(s: &State, side: u8) -> u8 {
    (0..NUM_FACTIONS)
        .map(|f| {
            (0..s.players as usize)
                .filter(|&p| side >> p & 1 == 1)
                .map(|p| s.courts[p][f])
                .sum::<u8>()
        })
        .min()
        .unwrap_or(0)
}

/// The Saxons invade: most complete sets wins; a tie goes to whoever played last
/// (Python `_invasion`; 4 players compare teams).
fn invasion(s: &State) -> Outcome {
    let sides: Vec<u8> = if s.players == 4 {
        vec![0b0101, 0b1010]
    } else {
        (0..s.players).map(|p| 1 << p).collect()
    };
    let counts: Vec<u8> = sides.iter().map(|&side| sets(s, side)).collect();
    let best = counts.iter().copied().max().unwrap_or(0);
    let leaders: Vec<u8> = sides
        .iter()
        .zip(&counts)
        .filter(|&(_, &n)| n == best)
        .map(|(&side, _)| side)
        .collect();
    let (winners, ruler) = if leaders.len() == 1 {
        (leaders[0], only(leaders[0]).map_or(-1, |p| p as i8))
    } else {
        // In the 4-player game both teams tie, so every player takes part.
        let tied = leaders.iter().fold(0, |m, &side| m | side);
        match last_player(s, tied) {
            None => (tied, -1),
            Some(last) => {
                let side = leaders.iter().copied().find(|side| side >> last & 1 == 1);
                let ruler = if s.players == 4 { -1 } else { last as i8 };
                (side.unwrap_or(0), ruler)
            }
        }
    };
    Outcome {
        ending: Ending::Invasion,
        winners,
        ruler,
        ranking: [0; NUM_FACTIONS],
        ranked: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{SAXONS, UNRESOLVED};
    use crate::setup::new_game;

    /// A 3-player game with the given control by region-card position (all resolved).
    fn ended(players: u8, control_by_position: &[i8]) -> State {
        let mut s = new_game(players, false, 3, 0).unwrap();
        s.order = [0, 1, 2, 3, 4, 5, 6, 7];
        for (pos, &c) in control_by_position.iter().enumerate() {
            s.control[pos] = c;
        }
        s.resolved = control_by_position
            .iter()
            .filter(|&&c| c != UNRESOLVED)
            .count() as u8;
        s
    }

    #[test]
    fn the_ruling_faction_decides_and_ties_go_down_the_ranking() {
        // Welsh 3 regions, Scots 3 (but the Welsh won last), Romano-British 2.
        let mut s = ended(3, &[0, 1, 0, 1, 2, 0, 2, 1]);
        s.courts = [[1, 3, 0], [5, 3, 1], [0, 2, 9], [0; 3]];
        let o = score(&s, Ending::Coronation);
        assert_eq!(o.ranking, [1, 0, 2]);
        assert_eq!((o.winners, o.ruler), (0b010, 1));
        // Tied on the Welsh and the Scots: the Romano-British decide.
        s.courts = [[5, 3, 2], [5, 3, 1], [9, 2, 9], [0; 3]];
        let o = score(&s, Ending::Coronation);
        assert_eq!((o.winners, o.ruler), (0b001, 0));
    }

    #[test]
    fn a_full_tie_drops_the_last_player_out() {
        let mut s = ended(3, &[0, 1, 0, 1, 2, 0, 2, 1]);
        s.courts = [[2, 3, 1], [2, 3, 1], [2, 3, 1], [0; 3]];
        s.last_play = [5, 7, 6, 0];
        let o = score(&s, Ending::Coronation);
        assert_eq!((o.winners, o.ruler), (0b001, 0));
        // Nobody played a card: they share the win.
        s.last_play = [0; 4];
        let o = score(&s, Ending::Coronation);
        assert_eq!((o.winners, o.ruler), (0b111, -1));
    }

    /// A second-edition game with the given control by position and option bits.
    fn ended_second(players: u8, control_by_position: &[i8], options: u8) -> State {
        let mut s = ended(players, control_by_position);
        s.edition = crate::board::SECOND_EDITION;
        s.options = options;
        s
    }

    #[test]
    fn second_edition_ties_go_to_who_emptied_their_hand_first() {
        let control = [0, 1, 0, 1, 2, 0, 2, 1];
        let mut s = ended_second(3, &control, 0);
        s.courts = [[2, 3, 1], [2, 3, 1], [2, 3, 1], [0; 3]];
        s.hands = [[0; 7]; 4];
        s.hands[0][3] = 1;
        // Players 1 and 2 emptied their hands (at plays 7 and 6): player 2 first.
        s.last_play = [5, 7, 6, 0];
        assert_eq!(score(&s, Ending::Coronation).ruler, 2);
        // Nobody emptied: the earliest last play (player 0) wins.
        s.hands[1][3] = 1;
        s.hands[2][3] = 1;
        assert_eq!(score(&s, Ending::Coronation).ruler, 0);
        // The first edition drops the last player (1), then the next last (2).
        let mut first = s;
        first.edition = crate::board::FIRST_EDITION;
        first.options = crate::board::COURT_REDRAW;
        assert_eq!(score(&first, Ending::Coronation).ruler, 0);
        first.last_play = [7, 5, 6, 0];
        assert_eq!(score(&first, Ending::Coronation).ruler, 1);
        s.last_play = [7, 5, 6, 0];
        assert_eq!(score(&s, Ending::Coronation).ruler, 1);
        // With tie_hands = "lowest_seat", the lowest tied seat.
        s.options = TIE_LOWEST_SEAT;
        s.courts[0] = [1, 3, 1];
        assert_eq!(score(&s, Ending::Coronation).ruler, 1);
    }

    #[test]
    fn tie_faction_always_compares_factions_past_a_tied_ranking() {
        // Only the Scots hold regions (two instability discs elsewhere end nothing here).
        let control = [0, 0, 0, 0, 0, 0, SAXONS, SAXONS];
        let mut s = ended_second(3, &control, 0);
        s.courts = [[2, 0, 3], [2, 1, 0], [1, 5, 5], [0; 3]];
        s.hands = [[0; 7]; 4];
        s.last_play = [5, 6, 7, 0];
        // Strict: the Scots alone rank, players 0 and 1 tie; player 0 emptied first.
        assert_eq!(score(&s, Ending::Coronation).ruler, 0);
        // Always: then the Welsh (faction order among those without regions): player 1.
        s.options = TIE_ALWAYS_NEXT_FACTION;
        let o = score(&s, Ending::Coronation);
        assert_eq!((o.ruler, o.ranking), (1, [0, 1, 2]));
    }

    #[test]
    fn second_edition_four_player_ties_go_to_the_team_that_exhausted_its_hands_first() {
        let control = [0, 1, 0, 1, 2, 0, 2, 1];
        let mut s = ended_second(4, &control, 0);
        // Players 1 and 2 (different teams) tie on every faction.
        s.courts = [[0, 1, 0], [2, 3, 1], [2, 3, 1], [1, 0, 0]];
        s.hands = [[0; 7]; 4];
        // Team 0-2 emptied both hands by play 9, team 1-3 by play 8.
        s.last_play = [9, 4, 3, 8];
        let o = score(&s, Ending::Coronation);
        assert_eq!((o.winners, o.ruler), (0b1010, 1));
        // Team 1-3 still holds a card: team 0-2 exhausted first.
        s.hands[3][0] = 1;
        assert_eq!(score(&s, Ending::Coronation).winners, 0b0101);
        // Neither team exhausted: one by one, the tied player who emptied their own
        // hand (1) beats one who did not (2).
        s.hands[0][0] = 1;
        assert_eq!(score(&s, Ending::Coronation).ruler, 1);
        s.hands[2][0] = 1;
        s.last_play = [5, 6, 4, 3];
        assert_eq!(score(&s, Ending::Coronation).ruler, 2);
        s.hands[2][0] = 0;
        // lowest_seat: the lowest tied seat (1).
        s.options = TIE_LOWEST_SEAT;
        assert_eq!(score(&s, Ending::Coronation).winners, 0b1010);
    }

    #[test]
    fn a_four_player_ruler_shares_the_win_with_the_partner() {
        let mut s = ended(4, &[0, 0, 0, 1, 1, 2, SAXONS, 2]);
        s.courts = [[1, 0, 0], [4, 0, 0], [2, 0, 0], [3, 0, 0]];
        let o = score(&s, Ending::Coronation);
        assert_eq!((o.winners, o.ruler), (0b1010, 1));
    }

    #[test]
    fn mordred_falls_back_on_totals_then_the_last_player_wins() {
        let mut s = ended(3, &[SAXONS, 3, -1, -1, -1, -1, -1, -1]);
        // No faction holds a region: players 1 and 2 tie on 4 followers, player 1 played last.
        s.courts = [[1, 1, 2], [2, 2, 0], [0, 0, 3], [0; 3]];
        s.last_play = [3, 1, 2, 0];
        let o = score(&s, Ending::Mordred);
        assert_eq!((o.winners, o.ruler, o.ranked), (0b001, 0, 3));
        s.courts[2] = [0, 0, 5];
        assert_eq!(score(&s, Ending::Mordred).ruler, 2);
        // A faction holding a region rules first.
        let mut s = ended(3, &[1, 3, -1, -1, -1, -1, -1, -1]);
        s.courts = [[0, 1, 9], [0, 2, 0], [0, 2, 3], [0; 3]];
        s.last_play = [3, 1, 2, 0];
        let o = score(&s, Ending::Mordred);
        assert_eq!(o.ranking, [1, 0, 2]);
        assert_eq!((o.winners, o.ruler), (0b100, 2));
    }

    #[test]
    fn invasion_counts_complete_sets_and_ties_go_to_the_last_player() {
        let mut s = ended(3, &[SAXONS; 4]);
        s.courts = [[2, 2, 5], [3, 3, 1], [2, 2, 2], [0; 3]];
        s.last_play = [3, 1, 2, 0];
        let o = score(&s, Ending::Invasion);
        assert_eq!((o.winners, o.ruler, o.ranked), (0b001, 0, 0));
        s.last_play = [1, 3, 2, 0];
        assert_eq!(score(&s, Ending::Invasion).ruler, 2);
    }

    #[test]
    fn four_player_invasion_pools_the_teams() {
        let mut s = ended(4, &[SAXONS; 4]);
        s.courts = [[3, 0, 0], [1, 1, 1], [0, 3, 3], [0, 0, 0]];
        let o = score(&s, Ending::Invasion);
        assert_eq!((o.winners, o.ruler), (0b0101, -1));
        s.courts = [[1, 0, 0], [1, 1, 1], [0, 1, 1], [0, 0, 0]];
        s.last_play = [0, 0, 0, 4];
        assert_eq!(score(&s, Ending::Invasion).winners, 0b1010);
        s.last_play = [0; 4];
        assert_eq!(score(&s, Ending::Invasion).winners, 0b1111);
    }
}
