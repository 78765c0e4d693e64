//! Endings and tie-breaks, the same winners, ruler, ranking and steps as
//! `kingisdead/scoring.py` (the sentence explaining the result is rendered in
//! Python from the steps).
//!
//! "Last played" is `State::last_play`: the number of a player's latest card
//! play, 0 for none, so the largest number is the player who played last, and
//! for a player with an empty hand the play that emptied it.
//!
//! The editions differ after the factions: the first drops the tied player who
//! played last, repeatedly; the second (`hands_break_ties`) looks at hands
//! ([`hands_decide`]). Which factions a tie compares is the option
//! `tie_faction` (bits [`TIE_STRICT`] and [`TIE_ALWAYS_NEXT_FACTION`], neither
//! for `"second"`); `tie_hands = "lowest_seat"` is [`TIE_LOWEST_SEAT`].
//!
//! [`explain`] also returns each comparison as a [`Step`]; [`score`], which the
//! search calls at every ending, records none.

use crate::board::{NUM_FACTIONS, TIE_ALWAYS_NEXT_FACTION, TIE_LOWEST_SEAT, TIE_STRICT};
use crate::state::{Ending, Outcome, State};

/// What a [`Step`] compares (Python `scoring.STEP_KINDS`, where each is described).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// Followers of the step's faction at court; the most stay.
    Faction,
    /// Followers at court in total (the Mordred ending); the most stay.
    Total,
    /// Latest card plays; the most recent drops out (a first-edition coronation).
    LatestPlayOut,
    /// Latest card plays; the most recent wins (an invasion, the Mordred ending).
    LatestPlay,
    /// The play that emptied both hands of a player's team, -1 if not; the earliest stay.
    EmptiedTeam,
    /// The play that emptied a player's hand, -1 if not; the earliest stay.
    EmptiedHand,
    /// Latest card plays when no tied hand is empty; the earliest stay.
    EarliestPlay,
    /// The seats, when no tied hand is empty (`tie_hands = "lowest_seat"`); the lowest stays.
    LowestSeat,
    /// Complete sets (4 players: per team, keyed by its lower seat); the most stay.
    Sets,
}

impl StepKind {
    /// The kind's name in Python (`scoring.Step.kind`).
    pub fn name(self) -> &'static str {
        match self {
            StepKind::Faction => "faction",
            StepKind::Total => "total",
            StepKind::LatestPlayOut => "latest_play_out",
            StepKind::LatestPlay => "latest_play",
            StepKind::EmptiedTeam => "emptied_team",
            StepKind::EmptiedHand => "emptied_hand",
            StepKind::EarliestPlay => "earliest_play",
            StepKind::LowestSeat => "lowest_seat",
            StepKind::Sets => "sets",
        }
    }
}

/// One comparison of the scoring (Python `scoring.Step`): the faction compared
/// (kind `Faction` only), the `(seat, value)` pairs compared by seat, and the
/// seats still in contention after it (a bitmask).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub kind: StepKind,
    pub faction: Option<u8>,
    pub values: Vec<(u8, i16)>,
    pub kept: u8,
}

/// Where the steps go: nowhere for [`score`], a list for [`explain`].
struct Log<'a>(Option<&'a mut Vec<Step>>);

impl Log<'_> {
    /// Records a step comparing `value` of the players in `compared` (a bitmask).
    fn add(
        &mut self,
        kind: StepKind,
        faction: Option<u8>,
        compared: u8,
        value: impl Fn(usize) -> i16,
        kept: u8,
    ) {
        if let Some(steps) = self.0.as_mut() {
            let values = (0..8)
                .filter(|&p| compared >> p & 1 == 1)
                .map(|p| (p as u8, value(p)))
                .collect();
            steps.push(Step {
                kind,
                faction,
                values,
                kept,
            });
        }
    }
}

/// The result of a game that has just ended by `ending`.
pub fn score(s: &State, ending: Ending) -> Outcome {
    scored(s, ending, &mut Log(None))
}

/// The result of a game that has just ended by `ending`, with its steps.
pub fn explain(s: &State, ending: Ending) -> (Outcome, Vec<Step>) {
    let mut steps = Vec::new();
    let outcome = scored(s, ending, &mut Log(Some(&mut steps)));
    (outcome, steps)
}

fn scored(s: &State, ending: Ending, log: &mut Log) -> Outcome {
    match ending {
        Ending::Invasion => invasion(s, log),
        _ => coronation(s, ending, log),
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

/// The factions a coronation compares, in order (Python `compared_factions`):
/// `ranking[..n]` for the returned `n`.
fn compared_factions(
    s: &State,
    groups: &[u8; NUM_FACTIONS],
    regions: &[u8; NUM_FACTIONS],
    ranking: &[u8; NUM_FACTIONS],
) -> usize {
    if s.option(TIE_ALWAYS_NEXT_FACTION) {
        // Every faction (those without regions last, in faction order).
        return NUM_FACTIONS;
    }
    let mut n = 0;
    for (rank, &size) in groups.iter().enumerate() {
        // The ranking is no longer strict (or no faction holds a region).
        if size != 1 || (rank == 0 && regions[ranking[0] as usize] == 0) {
            break;
        }
        n += 1;
    }
    if s.option(TIE_STRICT) {
        n
    } else {
        n.min(2)
    }
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

/// The players of `candidates` whose `value` is the largest, recorded as a step.
fn most(
    log: &mut Log,
    kind: StepKind,
    faction: Option<u8>,
    candidates: u8,
    value: impl Fn(usize) -> i16,
) -> u8 {
    let seats = || (0..8).filter(move |&p| candidates >> p & 1 == 1);
    let best = seats().map(&value).max().unwrap_or(0);
    let kept = seats()
        .filter(|&p| value(p) == best)
        .fold(0, |m, p| m | 1 << p);
    log.add(kind, faction, candidates, value, kept);
    kept
}

/// The players of `candidates` whose `value` is the smallest of at least 0,
/// recorded as a step (some value must be at least 0).
fn earliest(log: &mut Log, kind: StepKind, candidates: u8, value: impl Fn(usize) -> i16) -> u8 {
    let seats = || (0..8).filter(move |&p| candidates >> p & 1 == 1);
    let best = seats().map(&value).filter(|&v| v >= 0).min().unwrap_or(0);
    let kept = seats()
        .filter(|&p| value(p) == best)
        .fold(0, |m, p| m | 1 << p);
    log.add(kind, None, candidates, value, kept);
    kept
}

/// Coronation, and the Mordred ending scored like it (Python `_coronation`).
fn coronation(s: &State, ending: Ending, log: &mut Log) -> Outcome {
    let (ranking, groups, regions) = faction_ranking(s);
    let mut candidates = (1u8 << s.players) - 1;
    let mut compared = compared_factions(s, &groups, &regions, &ranking);
    if ending == Ending::Mordred {
        // Mordred compares the factions that hold regions, then the totals (RULINGS.md).
        compared = compared.min(regions.iter().filter(|&&n| n > 0).count());
    }
    for &f in &ranking[..compared] {
        let court = |p: usize| i16::from(s.courts[p][f as usize]);
        candidates = most(log, StepKind::Faction, Some(f), candidates, court);
        if candidates.count_ones() == 1 {
            break;
        }
    }
    if candidates.count_ones() > 1 && ending == Ending::Mordred {
        let total = |p: usize| s.courts[p].iter().map(|&n| i16::from(n)).sum::<i16>();
        candidates = most(log, StepKind::Total, None, candidates, total);
        if candidates.count_ones() > 1 {
            if let Some(last) = last_player(s, candidates) {
                let play = |p: usize| i16::from(s.last_play[p]);
                log.add(StepKind::LatestPlay, None, candidates, play, 1 << last);
                candidates = 1 << last;
            }
        }
    } else if candidates.count_ones() > 1 && s.rules().hands_break_ties {
        candidates = hands_decide(s, candidates, log);
    } else {
        while candidates.count_ones() > 1 {
            let Some(last) = last_player(s, candidates) else {
                break;
            };
            let play = |p: usize| i16::from(s.last_play[p]);
            let kept = candidates & !(1 << last);
            log.add(StepKind::LatestPlayOut, None, candidates, play, kept);
            candidates = kept;
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

/// The second edition's coronation tie after the factions (`candidates`, two
/// or more; Python `_by_hands`): with 4 players a team whose two hands are
/// both empty comes first, the one that emptied them earlier first. Then a
/// tied player who emptied their hand beats one who did not, the earlier
/// emptier the later; with no tied hand emptied, the earliest last card play
/// wins (a player who never played counts as earliest), or with `tie_hands =
/// "lowest_seat"` the lowest tied seat. Players still equal share the win.
fn hands_decide(s: &State, mut candidates: u8, log: &mut Log) -> u8 {
    let holds = |p: usize| s.cards_left(p) > 0;
    let any = |candidates: u8, value: &dyn Fn(usize) -> i16| {
        (0..s.players as usize).any(|p| candidates >> p & 1 == 1 && value(p) >= 0)
    };
    if s.players == 4 {
        let team_emptied = |p: usize| {
            let partner = (p + 2) % 4;
            if holds(p) || holds(partner) {
                -1
            } else {
                i16::from(s.last_play[p].max(s.last_play[partner]))
            }
        };
        if any(candidates, &team_emptied) {
            candidates = earliest(log, StepKind::EmptiedTeam, candidates, team_emptied);
        }
        if candidates.count_ones() == 1 {
            return candidates;
        }
    }
    let emptied = |p: usize| {
        if holds(p) {
            -1
        } else {
            i16::from(s.last_play[p])
        }
    };
    if any(candidates, &emptied) {
        return earliest(log, StepKind::EmptiedHand, candidates, emptied);
    }
    if s.option(TIE_LOWEST_SEAT) {
        let lowest = 1 << candidates.trailing_zeros();
        log.add(StepKind::LowestSeat, None, candidates, |p| p as i16, lowest);
        return lowest;
    }
    let play = |p: usize| i16::from(s.last_play[p]);
    earliest(log, StepKind::EarliestPlay, candidates, play)
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
fn invasion(s: &State, log: &mut Log) -> Outcome {
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
    // In the 4-player game both teams tie, so every player takes part.
    let tied = leaders.iter().fold(0, |m, &side| m | side);
    // Each side's value under its lowest seat.
    let keys = sides
        .iter()
        .fold(0, |m, &side| m | 1 << side.trailing_zeros());
    let side_sets = |p: usize| {
        let i = sides
            .iter()
            .position(|&side| side.trailing_zeros() as usize == p);
        i.map_or(0, |i| i16::from(counts[i]))
    };
    log.add(StepKind::Sets, None, keys, side_sets, tied);
    let (winners, ruler) = if leaders.len() == 1 {
        (leaders[0], only(leaders[0]).map_or(-1, |p| p as i8))
    } else {
        match last_player(s, tied) {
            None => (tied, -1),
            Some(last) => {
                let side = leaders
                    .iter()
                    .copied()
                    .find(|side| side >> last & 1 == 1)
                    .unwrap_or(0);
                let play = |p: usize| i16::from(s.last_play[p]);
                log.add(StepKind::LatestPlay, None, tied, play, side);
                let ruler = if s.players == 4 { -1 } else { last as i8 };
                (side, ruler)
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
        first.options = crate::board::FIRST.default_options();
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
        // Neither team exhausted: the tied players one by one; both emptied their
        // hands, and 2 emptied theirs first.
        s.hands[0][0] = 1;
        assert_eq!(score(&s, Ending::Coronation).ruler, 2);
        // 1 emptied their hand and 2 did not: 1, though 2's last play came earlier.
        s.hands[2][0] = 1;
        s.last_play = [5, 6, 4, 3];
        assert_eq!(score(&s, Ending::Coronation).ruler, 1);
        s.hands[2][0] = 0;
        // lowest_seat decides only where no tied hand is empty: 2 emptied theirs first.
        s.options = TIE_LOWEST_SEAT;
        assert_eq!(score(&s, Ending::Coronation).winners, 0b0101);
        // Neither 1 nor 2 emptied their hand: the lowest tied seat (1).
        s.hands[1][0] = 1;
        s.hands[2][0] = 1;
        let (o, steps) = explain(&s, Ending::Coronation);
        assert_eq!(o.winners, 0b1010);
        let last = steps.last().unwrap();
        assert_eq!(
            (last.kind, &last.values, last.kept),
            (StepKind::LowestSeat, &vec![(1, 1), (2, 2)], 0b010)
        );
    }

    /// The position: tied on the top two factions, the third (holding no
    /// region) parts them under `strict`; `second` goes to the hands.
    #[test]
    fn tie_faction_second_compares_two_factions_then_the_hands() {
        let control = [0, 0, 0, 1, 1, 0, 1, 0];
        let mut s = ended_second(2, &control, TIE_STRICT);
        s.courts = [[2, 1, 2], [2, 1, 0], [0; 3], [0; 3]];
        s.hands = [[0; 7]; 4];
        s.last_play = [6, 5, 0, 0];
        let (o, steps) = explain(&s, Ending::Coronation);
        assert_eq!((o.winners, o.ruler), (0b01, 0));
        let kinds: Vec<_> = steps
            .iter()
            .map(|st| (st.kind, st.faction, st.kept))
            .collect();
        assert_eq!(
            kinds,
            [
                (StepKind::Faction, Some(0), 0b11),
                (StepKind::Faction, Some(1), 0b11),
                (StepKind::Faction, Some(2), 0b01)
            ]
        );
        s.options = 0;
        let (o, steps) = explain(&s, Ending::Coronation);
        assert_eq!((o.winners, o.ruler), (0b10, 1));
        let last = steps.last().unwrap();
        assert_eq!(steps.len(), 3);
        assert_eq!(
            (last.kind, &last.values, last.kept),
            (StepKind::EmptiedHand, &vec![(0, 6), (1, 5)], 0b10)
        );
        // The first edition compares the third faction too.
        s.edition = crate::board::FIRST_EDITION;
        s.options = crate::board::FIRST.default_options();
        assert_eq!(score(&s, Ending::Coronation).ruler, 0);
    }

    #[test]
    fn the_steps_of_an_invasion_and_of_a_first_edition_tie() {
        let mut s = ended(4, &[SAXONS; 4]);
        s.courts = [[1, 0, 0], [1, 1, 1], [0, 1, 1], [0, 0, 0]];
        s.last_play = [0, 0, 0, 4];
        let (o, steps) = explain(&s, Ending::Invasion);
        assert_eq!(o.winners, 0b1010);
        assert_eq!(steps[0].values, vec![(0, 1), (1, 1)]);
        assert_eq!(
            (steps[1].kind, steps[1].kept),
            (StepKind::LatestPlay, 0b1010)
        );
        let mut s = ended(3, &[0, 1, 0, 1, 2, 0, 2, 1]);
        s.courts = [[2, 3, 1], [2, 3, 1], [2, 3, 1], [0; 3]];
        s.last_play = [5, 7, 6, 0];
        let (_, steps) = explain(&s, Ending::Coronation);
        let out: Vec<_> = steps.iter().map(|st| (st.kind, st.kept)).collect();
        assert_eq!(
            out[3..],
            [
                (StepKind::LatestPlayOut, 0b101),
                (StepKind::LatestPlayOut, 0b001)
            ]
        );
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
