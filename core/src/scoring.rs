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
//! In the advanced game the Cunning card Plot, never played, is revealed at
//! scoring and counts as one follower of a faction its holder chooses
//! ([`plot_holder`]; the options `plot_coronation`, `plot_team`,
//! `plot_tiebreak` and `plot_empty_hand`): every choice is scored and the
//! best for the holder kept, its decisions steps too.
//!
//! [`explain`] also returns each comparison as a [`Step`]; [`score`], which the
//! search calls at every ending, records none.

use crate::board::{
    NUM_CARDS, NUM_FACTIONS, PLOT_ANY_FACTION, PLOT_BIT, PLOT_HOLDER_FIRST, PLOT_NEVER_EMPTY,
    PLOT_TEAM_ONCE, TIE_ALWAYS_NEXT_FACTION, TIE_LOWEST_SEAT, TIE_STRICT,
};
use crate::state::{Ending, Outcome, State, MAX_PLAYERS};

/// Followers at each player's court, by faction (`State::courts`, or with Plot counted).
type Courts = [[u8; NUM_FACTIONS]; MAX_PLAYERS];

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
    /// Plot revealed: the seat whose court counts it as one follower of the step's faction, and 1.
    Plot,
    /// Players still tied, 1 for Plot's holder (`plot_tiebreak = "holder_first"`); the holder stays.
    PlotTiebreak,
    /// Plot's holder, whose hand holds Plot alone: the play emptying it, or -1; everyone stays.
    PlotHand,
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
            StepKind::Plot => "plot",
            StepKind::PlotTiebreak => "plot_tiebreak",
            StepKind::PlotHand => "plot_hand",
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
    fn recording(&self) -> bool {
        self.0.is_some()
    }

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
    match plot_holder(s) {
        None => verdict(s, ending, &s.courts, None, log),
        Some(holder) => with_plot(s, ending, holder, log),
    }
}

/// Score `ending` over `courts` (`s.courts`, or with Plot's followers counted),
/// Plot's `holder` (None: no Plot) breaking ties as the options say.
fn verdict(
    s: &State,
    ending: Ending,
    courts: &Courts,
    holder: Option<usize>,
    log: &mut Log,
) -> Outcome {
    match ending {
        Ending::Invasion => invasion(s, courts, holder, log),
        _ => coronation(s, ending, courts, holder, log),
    }
}

/// The seat holding Plot in an advanced game (it is never played, so its
/// holder keeps it to the end), or None: a standard game, or Plot went back
/// to the box unseen (2 or 3 players).
pub fn plot_holder(s: &State) -> Option<usize> {
    if !s.advanced() {
        return None;
    }
    (0..s.players as usize).find(|&p| s.cunning[p] & PLOT_BIT != 0)
}

/// One way Plot may count: the `(seat, faction)` followers it adds (one, or
/// at a 4-player invasion with `plot_team = "each"` one per partner).
type Choice = ([(usize, usize); 2], usize);

/// Each way Plot may count, lowest faction numbers first (Python `_plot_choices`):
/// at a coronation for its holder alone, as the top faction (`plot_coronation =
/// "top_only"`) or any; at an invasion as any faction, with 4 players and
/// `plot_team = "each"` once for each partner, the holder's own first.
fn plot_choices(s: &State, ending: Ending, holder: usize) -> Vec<Choice> {
    if ending == Ending::Invasion {
        let partner = (holder + 2) % 4;
        if s.players == 4 && !s.mode(PLOT_TEAM_ONCE) {
            let mut choices = Vec::with_capacity(9);
            for f in 0..NUM_FACTIONS {
                for g in 0..NUM_FACTIONS {
                    choices.push(([(holder, f), (partner, g)], 2));
                }
            }
            return choices;
        }
        return (0..NUM_FACTIONS).map(|f| ([(holder, f); 2], 1)).collect();
    }
    if s.mode(PLOT_ANY_FACTION) {
        return (0..NUM_FACTIONS).map(|f| ([(holder, f); 2], 1)).collect();
    }
    // The top faction: the first compared (with at most 2 of 8 regions unstable a faction rules).
    let (ranking, _, _) = faction_ranking(s);
    vec![([(holder, ranking[0] as usize); 2], 1)]
}

/// How good `winners` are for Plot's holder (with 4 players their team): 2 a
/// win of theirs alone, 1 a shared win, 0 a loss.
fn plot_outcome(s: &State, holder: usize, winners: u8) -> u8 {
    let team = team(s, holder);
    if winners & team == 0 {
        0
    } else if winners & !team == 0 {
        2
    } else {
        1
    }
}

/// Score with Plot revealed and counted as its holder's best choice (Python
/// `_with_plot`): a win of the holder's (team's) alone, then a shared win,
/// then a loss; among equally good choices the first (the lowest faction
/// numbers). The "plot" steps that say what it counted as come first.
fn with_plot(s: &State, ending: Ending, holder: usize, log: &mut Log) -> Outcome {
    let mut best: Option<(u8, Choice, Outcome, Vec<Step>)> = None;
    for choice in plot_choices(s, ending, holder) {
        let mut courts = s.courts;
        for &(seat, faction) in &choice.0[..choice.1] {
            courts[seat][faction] += 1;
        }
        let mut steps = Vec::new();
        let mut choice_log = Log(log.recording().then_some(&mut steps));
        let outcome = verdict(s, ending, &courts, Some(holder), &mut choice_log);
        let value = plot_outcome(s, holder, outcome.winners);
        if best.as_ref().is_none_or(|(most, ..)| value > *most) {
            best = Some((value, choice, outcome, steps));
        }
    }
    let (_, (counted, n), outcome, steps) = best.expect("Plot counts in at least one way");
    if let Some(out) = log.0.as_mut() {
        let everyone = (1u8 << s.players) - 1;
        for &(seat, faction) in &counted[..n] {
            out.push(Step {
                kind: StepKind::Plot,
                faction: Some(faction as u8),
                values: vec![(seat as u8, 1)],
                kept: everyone,
            });
        }
        out.extend(steps);
    }
    outcome
}

/// The cards `player` holds as the hands tie-break counts them (Python
/// `_left`): every card, Cunning cards included, but Plot not with
/// `plot_empty_hand = "empty"` (a hand holding Plot alone counts as emptied at
/// its latest card play, the one that played its other last card).
fn left(s: &State, player: usize) -> u8 {
    let mut held = s.cunning[player];
    if s.advanced() && !s.mode(PLOT_NEVER_EMPTY) {
        held &= !PLOT_BIT;
    }
    s.hands[player].iter().sum::<u8>() + held.count_ones() as u8
}

/// Whether `player`'s hand holds Plot and no other card.
fn only_plot(s: &State, player: usize) -> bool {
    s.cunning[player] == PLOT_BIT && s.hands[player] == [0; NUM_CARDS]
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
fn coronation(
    s: &State,
    ending: Ending,
    courts: &Courts,
    holder: Option<usize>,
    log: &mut Log,
) -> Outcome {
    let (ranking, groups, regions) = faction_ranking(s);
    let mut candidates = (1u8 << s.players) - 1;
    let mut compared = compared_factions(s, &groups, &regions, &ranking);
    if ending == Ending::Mordred {
        // Mordred compares the factions that hold regions, then the totals (RULINGS.md).
        compared = compared.min(regions.iter().filter(|&&n| n > 0).count());
    }
    for &f in &ranking[..compared] {
        let court = |p: usize| i16::from(courts[p][f as usize]);
        candidates = most(log, StepKind::Faction, Some(f), candidates, court);
        if candidates.count_ones() == 1 {
            break;
        }
    }
    if let Some(h) = holder.filter(|&h| {
        candidates.count_ones() > 1 && candidates >> h & 1 == 1 && s.mode(PLOT_HOLDER_FIRST)
    }) {
        let is_holder = |p: usize| i16::from(p == h);
        log.add(StepKind::PlotTiebreak, None, candidates, is_holder, 1 << h);
        candidates = 1 << h;
    }
    if candidates.count_ones() > 1 && ending == Ending::Mordred {
        let total = |p: usize| courts[p].iter().map(|&n| i16::from(n)).sum::<i16>();
        candidates = most(log, StepKind::Total, None, candidates, total);
        if candidates.count_ones() > 1 {
            if let Some(last) = last_player(s, candidates) {
                let play = |p: usize| i16::from(s.last_play[p]);
                log.add(StepKind::LatestPlay, None, candidates, play, 1 << last);
                candidates = 1 << last;
            }
        }
    } else if candidates.count_ones() > 1 && s.rules().hands_break_ties {
        candidates = hands_decide(s, candidates, holder, log);
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
/// A hand holding Plot alone is emptied or not as `plot_empty_hand` says
/// ([`left`]); where Plot's holder's is so judged, a `PlotHand` step says so.
fn hands_decide(s: &State, mut candidates: u8, holder: Option<usize>, log: &mut Log) -> u8 {
    if let Some(h) = holder.filter(|&h| only_plot(s, h) && team(s, h) & candidates != 0) {
        let emptied = if left(s, h) == 0 {
            i16::from(s.last_play[h])
        } else {
            -1
        };
        log.add(StepKind::PlotHand, None, 1 << h, |_| emptied, candidates);
    }
    let holds = |p: usize| left(s, p) > 0;
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
fn sets(s: &State, courts: &Courts, side: u8) -> u8 {
    (0..NUM_FACTIONS)
        .map(|f| {
            (0..s.players as usize)
                .filter(|&p| side >> p & 1 == 1)
                .map(|p| courts[p][f])
                .sum::<u8>()
        })
        .min()
        .unwrap_or(0)
}

/// The Saxons invade: most complete sets wins; a tie goes to Plot's holder
/// (`plot_tiebreak = "holder_first"`), else to whoever played last (Python
/// `_invasion`; 4 players compare teams).
fn invasion(s: &State, courts: &Courts, holder: Option<usize>, log: &mut Log) -> Outcome {
    let sides: Vec<u8> = if s.players == 4 {
        vec![0b0101, 0b1010]
    } else {
        (0..s.players).map(|p| 1 << p).collect()
    };
    let counts: Vec<u8> = sides.iter().map(|&side| sets(s, courts, side)).collect();
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
    let plot_first = holder.filter(|&h| tied >> h & 1 == 1 && s.mode(PLOT_HOLDER_FIRST));
    let (winners, ruler) = if leaders.len() == 1 {
        (leaders[0], only(leaders[0]).map_or(-1, |p| p as i8))
    } else if let Some(h) = plot_first {
        let side = leaders.iter().copied().find(|side| side >> h & 1 == 1);
        let side = side.unwrap_or(0);
        let is_holder = |p: usize| i16::from(p == h);
        log.add(StepKind::PlotTiebreak, None, tied, is_holder, side);
        (side, if s.players == 4 { -1 } else { h as i8 })
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

    /// An ended advanced game (3 players) in which seat `holder` holds Plot alone.
    fn ended_with_plot(control: &[i8], mode: u16, holder: usize) -> State {
        let mut s = ended_second(3, control, 0);
        s.mode = crate::board::ADVANCED | mode;
        s.hands = [[0; 7]; 4];
        s.cunning[holder] = PLOT_BIT;
        s
    }

    #[test]
    fn plot_counts_for_its_holder_and_may_break_a_tie() {
        // The Scots rule; seat 1 holds Plot: one more Scot breaks the tie with seat 0.
        let control = [0, 0, 0, 1, 1, 2, 0, 1];
        let mut s = ended_with_plot(&control, 0, 1);
        s.courts = [[2, 1, 0], [1, 3, 0], [0, 0, 4], [0; 3]];
        s.last_play = [3, 5, 4, 0];
        let (o, steps) = explain(&s, Ending::Coronation);
        assert_eq!(
            o.winners, 0b010,
            "tied on the Scots after Plot; seat 1 leads the Welsh"
        );
        assert_eq!(
            (steps[0].kind, steps[0].faction, &steps[0].values),
            (StepKind::Plot, Some(0), &vec![(1, 1)])
        );
        // Plot for the top faction only: tied on Scots and Welsh, then the hands;
        // the holder's hand (Plot alone) counts as emptied at its latest play.
        s.courts = [[2, 3, 0], [1, 3, 0], [0, 0, 4], [0; 3]];
        let (o, steps) = explain(&s, Ending::Coronation);
        let kinds: Vec<StepKind> = steps.iter().map(|st| st.kind).collect();
        assert!(kinds.contains(&StepKind::PlotHand));
        assert_eq!(
            o.winners, 0b001,
            "seat 0 emptied its hand at play 3, the holder at 5"
        );
        s.mode |= PLOT_NEVER_EMPTY;
        assert_eq!(score(&s, Ending::Coronation).winners, 0b001);
        // holder_first: the tie goes to the holder before the hands.
        s.mode |= PLOT_HOLDER_FIRST;
        let (o, steps) = explain(&s, Ending::Coronation);
        assert_eq!(o.winners, 0b010);
        assert_eq!(steps.last().unwrap().kind, StepKind::PlotTiebreak);
        // Without Plot in play (the box has it) the standard scoring.
        s.cunning[1] = 0;
        assert_eq!(plot_holder(&s), None);
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
