//! The Python bindings: the private extension module `kingisdead._core`.
//!
//! Python keeps `GameState` as flat integer lists; a state crosses the boundary
//! as that `GameState` itself, read and built field by field by name (the
//! names of [`State`]'s fields; `kingisdead/core.py` is the only caller), a move
//! as the `(card, action, court)` triple that `kingisdead.moves.Move` already is.
//! Its edition is the `kingisdead.edition.Edition` object on `state.edition`:
//! the core reads its name and options into `State::edition` and
//! `State::options`, and gives the states it builds the same object back.
//! The search and the solver release the GIL while they think.

use pyo3::conversion::FromPyObjectOwned;
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};

use crate::board::{NUM_CARDS, NUM_CUNNING, NUM_FACTIONS, NUM_KINDS, NUM_REGIONS};
use crate::rng::SplitMix64;
use crate::state::{Ban, Ending, Move, Outcome, State, MAX_ACTION, MAX_PLAYERS};
use crate::{
    batch, board, candidates, eval, lastcard, mcts, perft, playout, rules, scoring, setup, solver,
};

#[path = "python_batch.rs"]
mod batch_py;
#[path = "python_learning.rs"]
mod learning;
#[path = "python_network.rs"]
mod network_py;
#[path = "python_vecenv.rs"]
mod vecenv;

type PyMove = (Option<u8>, Vec<i8>, Option<(usize, usize)>);
/// Moves of one card and action: (card or -1 for the pass, action, court calls).
type MoveGroup<'py> = (i8, Bound<'py, PyTuple>, Vec<i8>);
/// A scoring step: (kind, faction or None, (seat, value) pairs, kept seats).
type PyStep = (&'static str, Option<u8>, Vec<(u8, i16)>, Vec<u16>);
type PyOutcome = Option<(&'static str, Vec<u16>, Option<u8>, Vec<u16>, Vec<PyStep>)>;

fn ending_name(ending: Ending) -> &'static str {
    match ending {
        Ending::Coronation => "coronation",
        Ending::Invasion => "invasion",
        Ending::Mordred => "mordred",
    }
}

fn ending_from(name: &str) -> PyResult<Ending> {
    match name {
        "coronation" => Ok(Ending::Coronation),
        "invasion" => Ok(Ending::Invasion),
        "mordred" => Ok(Ending::Mordred),
        _ => Err(PyValueError::new_err(format!("unknown ending {name:?}"))),
    }
}

/// The state of a game still running, or ValueError (nothing to choose in a finished game).
fn running(state: &Bound<'_, PyAny>) -> PyResult<State> {
    let s = state_from_py(state)?;
    if s.is_over() {
        return Err(PyValueError::new_err(
            "the game is over: there is no move to make",
        ));
    }
    Ok(s)
}

fn bad(what: &str) -> PyErr {
    PyValueError::new_err(format!("core state: {what}"))
}

fn fill<T: Copy, const N: usize>(out: &mut [T; N], values: &[T], what: &str) -> PyResult<()> {
    if values.len() != N {
        return Err(bad(what));
    }
    out.copy_from_slice(values);
    Ok(())
}

/// The undo ban as Python keeps it: `(player, reverse)`, the reverse exchange
/// as an action tuple (spelled from its effect, or literal with the option
/// `reversal = "exact"`, when a same-faction swap may ban itself); in the
/// advanced game `(player, reverse, card)`, `card` the card that made the
/// exchange (in the standard game the top of `player`'s pile).
fn ban_from_py(s: &State, ban: &Bound<'_, PyAny>) -> Option<Ban> {
    let (player, reverse, card): (u8, Vec<i8>, u8) = if s.advanced() {
        ban.extract().ok()?
    } else {
        let (player, reverse): (u8, Vec<i8>) = ban.extract().ok()?;
        // The top of the pile (-1 for none yet becomes 255: a card number that binds nothing).
        (player, reverse, *s.tops.get(player as usize)? as u8)
    };
    let region = |r: i8| (0..NUM_REGIONS as i8).contains(&r);
    let kind = |k: i8| (0..NUM_KINDS as i8).contains(&k);
    let (a, b) = match reverse.len() {
        6 => (reverse[0], reverse[3]),
        4 | 5 => (reverse[0], reverse[reverse.len() - 2]),
        _ => return None,
    };
    let kinds = match reverse.len() {
        4 => [1, 3].as_slice(),
        5 => &[1, 2, 4],
        _ => &[1, 2, 4, 5],
    };
    let well_formed = kinds.iter().all(|&i| kind(reverse[i]));
    if !(well_formed && region(a) && region(b) && a != b) || player >= s.players {
        return None;
    }
    rules::ban_on(player, &reverse, s.option(board::EXACT_REVERSAL), card)
}

/// The index into `board::EDITIONS`, the effective option bits and the mode
/// bits (`State::mode`) of a `kingisdead.edition.Edition` (ValueError for what
/// the core does not know).
pub(crate) fn edition_from_py(edition: &Bound<'_, PyAny>) -> PyResult<(u8, u8, u16)> {
    let py = edition.py();
    let name: String = field(edition, intern!(py, "name"))?;
    let index = board::edition_index(&name)
        .ok_or_else(|| PyValueError::new_err(format!("unknown edition {name:?}")))?;
    let mode = mode_from_py(edition)?;
    if index == board::FIRST_EDITION {
        return Ok((index, board::FIRST.default_options(), mode));
    }
    let reversal: String = field(edition, intern!(py, "reversal"))?;
    let court_redraw: bool = field(edition, intern!(py, "court_redraw"))?;
    let tie_faction: String = field(edition, intern!(py, "tie_faction"))?;
    let tie_hands: String = field(edition, intern!(py, "tie_hands"))?;
    let last_card: String = field(edition, intern!(py, "last_card"))?;
    let bit = |value: &str, set: &str, unset: &str, bit: u8| match value {
        v if v == set => Ok(bit),
        v if v == unset => Ok(0),
        v => Err(PyValueError::new_err(format!(
            "edition option: {v:?} is neither {set:?} nor {unset:?}"
        ))),
    };
    let tie_faction = match tie_faction.as_str() {
        "second" => 0,
        "strict" => board::TIE_STRICT,
        "always" => board::TIE_ALWAYS_NEXT_FACTION,
        v => {
            return Err(PyValueError::new_err(format!(
                "edition option: tie_faction {v:?} is none of \"second\", \"strict\", \"always\""
            )))
        }
    };
    let options = bit(&reversal, "exact", "effect", board::EXACT_REVERSAL)?
        | if court_redraw { board::COURT_REDRAW } else { 0 }
        | tie_faction
        | bit(
            &tie_hands,
            "lowest_seat",
            "earliest",
            board::TIE_LOWEST_SEAT,
        )?
        | bit(&last_card, "must_win", "free", board::LAST_CARD_MUST_WIN)?;
    Ok((index, options, mode))
}

/// Each advanced option's values, the default first, with the mode bit of
/// each value (0 for the default), as `kingisdead.edition.ADVANCED_OPTIONS`.
const ADVANCED_OPTIONS: [(&str, &[(&str, u16)]); 11] = [
    (
        "spy_spy",
        &[("forbidden", 0), ("allowed", board::SPY_SPY_ALLOWED)],
    ),
    (
        "spy_negotiate",
        &[
            ("own_disc", 0),
            ("no_effect", board::SPY_NEGOTIATE_NO_EFFECT),
            ("always", board::SPY_NEGOTIATE_ALWAYS),
        ],
    ),
    ("spy_ban", &[("as_card", 0), ("free", board::SPY_BAN_FREE)]),
    (
        "spy_pile",
        &[("any", 0), ("fullest", board::SPY_PILE_FULLEST)],
    ),
    ("aid_tie", &[("choose", 0), ("none", board::AID_TIE_NONE)]),
    ("partial_rank", &[("most_followers", 0)]),
    (
        "plot_coronation",
        &[("top_only", 0), ("any_faction", board::PLOT_ANY_FACTION)],
    ),
    ("plot_team", &[("each", 0), ("once", board::PLOT_TEAM_ONCE)]),
    (
        "plot_tiebreak",
        &[("none", 0), ("holder_first", board::PLOT_HOLDER_FIRST)],
    ),
    (
        "plot_empty_hand",
        &[("empty", 0), ("never", board::PLOT_NEVER_EMPTY)],
    ),
    (
        "cunning_ban",
        &[("none", 0), ("same_effect", board::CUNNING_BAN_SAME_EFFECT)],
    ),
];

/// The mode bits of an `Edition`: 0 for the standard game, else
/// [`board::ADVANCED`] with the bits of its advanced options.
fn mode_from_py(edition: &Bound<'_, PyAny>) -> PyResult<u16> {
    let py = edition.py();
    let mode: String = field(edition, intern!(py, "mode"))?;
    match mode.as_str() {
        "standard" => return Ok(0),
        "advanced" => {}
        _ => return Err(PyValueError::new_err(format!("unknown mode {mode:?}"))),
    }
    let mut bits = board::ADVANCED;
    for (option, values) in ADVANCED_OPTIONS {
        let value: String = field(edition, &PyString::new(py, option))?;
        let bit = values.iter().find(|(v, _)| *v == value).ok_or_else(|| {
            PyValueError::new_err(format!("edition option: {option} cannot be {value:?}"))
        })?;
        bits |= bit.1;
    }
    Ok(bits)
}

/// The `kingisdead.edition.Edition` of a core state, for states made without
/// one to hand back (the batched environment, self-play): the named edition
/// with the state's options.
fn edition_to_py<'py>(py: Python<'py>, s: &State) -> PyResult<Bound<'py, PyAny>> {
    static GET_EDITION: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let get = GET_EDITION
        .get_or_try_init(py, || {
            py.import("kingisdead.edition")?
                .getattr("get_edition")
                .map(Bound::unbind)
        })?
        .bind(py);
    let options = PyDict::new(py);
    if s.edition != board::FIRST_EDITION {
        let o = |bit: u8| s.option(bit);
        options.set_item(
            "reversal",
            if o(board::EXACT_REVERSAL) {
                "exact"
            } else {
                "effect"
            },
        )?;
        options.set_item("court_redraw", o(board::COURT_REDRAW))?;
        options.set_item(
            "tie_faction",
            if o(board::TIE_ALWAYS_NEXT_FACTION) {
                "always"
            } else if o(board::TIE_STRICT) {
                "strict"
            } else {
                "second"
            },
        )?;
        options.set_item(
            "last_card",
            if o(board::LAST_CARD_MUST_WIN) {
                "must_win"
            } else {
                "free"
            },
        )?;
        options.set_item(
            "tie_hands",
            if o(board::TIE_LOWEST_SEAT) {
                "lowest_seat"
            } else {
                "earliest"
            },
        )?;
    }
    if !s.advanced() {
        return get.call((s.rules().name,), Some(&options));
    }
    for (option, values) in ADVANCED_OPTIONS {
        let set = values
            .iter()
            .rev()
            .find(|(_, bit)| s.mode(*bit) || *bit == 0);
        options.set_item(option, set.map_or(values[0].0, |(value, _)| *value))?;
    }
    get.call((s.rules().name, "advanced"), Some(&options))
}

/// One attribute of a `GameState`, by name.
fn field<'py, T>(state: &Bound<'py, PyAny>, name: &Bound<'py, PyString>) -> PyResult<T>
where
    T: FromPyObjectOwned<'py>,
{
    state.getattr(name)?.extract().map_err(Into::into)
}

/// A state from a `kingisdead.state.GameState`, its attributes read by name
/// (the same names as [`State`]'s fields; `_result` gives the ending).
fn state_from_py(state: &Bound<'_, PyAny>) -> PyResult<State> {
    let py = state.py();
    let players: u8 = field(state, intern!(py, "players"))?;
    if !(2..=MAX_PLAYERS as u8).contains(&players) {
        return Err(bad("players must be 2, 3 or 4"));
    }
    let n = players as usize;
    let board: Vec<u8> = field(state, intern!(py, "board"))?;
    let courts: Vec<u8> = field(state, intern!(py, "courts"))?;
    let hands: Vec<u8> = field(state, intern!(py, "hands"))?;
    let tops: Vec<i8> = field(state, intern!(py, "tops"))?;
    let last_play: Vec<u8> = field(state, intern!(py, "last_play"))?;
    let cunning: Vec<u16> = field(state, intern!(py, "cunning"))?;
    let cunning_played: Vec<u16> = field(state, intern!(py, "cunning_played"))?;
    if board.len() != NUM_REGIONS * NUM_KINDS
        || courts.len() != n * NUM_FACTIONS
        || hands.len() != n * NUM_CARDS
        || tops.len() != n
        || last_play.len() != n
        || cunning.len() != n
        || cunning_played.len() != n
    {
        return Err(bad("list lengths do not match the number of players"));
    }
    let (edition, options, mode) = edition_from_py(&state.getattr(intern!(py, "edition"))?)?;
    // The Cunning cards: twelve bits each, none in the standard game.
    let cards = if mode == 0 {
        0
    } else {
        (1u16 << NUM_CUNNING) - 1
    };
    if cunning
        .iter()
        .chain(&cunning_played)
        .any(|&m| m & !cards != 0)
    {
        return Err(bad("a mask of Cunning cards is out of range"));
    }
    let mordred: bool = field(state, intern!(py, "mordred"))?;
    if mordred && !board::EDITIONS[edition as usize].mordred {
        return Err(bad("this edition has no Mordred variant"));
    }
    let mut s = State {
        edition,
        options,
        players,
        mordred,
        board: [[0; NUM_KINDS]; NUM_REGIONS],
        stock: [0; NUM_KINDS],
        courts: [[0; NUM_FACTIONS]; MAX_PLAYERS],
        hands: [[0; NUM_CARDS]; MAX_PLAYERS],
        order: [0; NUM_REGIONS],
        crowns: [-1; NUM_REGIONS],
        control: [-1; NUM_REGIONS],
        open: 0,
        resolved: field(state, intern!(py, "resolved"))?,
        saxons: field(state, intern!(py, "saxons"))?,
        player: field(state, intern!(py, "player"))?,
        passes: field(state, intern!(py, "passes"))?,
        tops: [-1; MAX_PLAYERS],
        last_play: [0; MAX_PLAYERS],
        plays: field(state, intern!(py, "plays"))?,
        mode,
        cunning: [0; MAX_PLAYERS],
        cunning_played: [0; MAX_PLAYERS],
        undo_ban: None,
        outcome: None,
    };
    for (r, row) in s.board.iter_mut().enumerate() {
        row.copy_from_slice(&board[r * NUM_KINDS..(r + 1) * NUM_KINDS]);
    }
    for p in 0..n {
        s.courts[p].copy_from_slice(&courts[p * NUM_FACTIONS..(p + 1) * NUM_FACTIONS]);
        s.hands[p].copy_from_slice(&hands[p * NUM_CARDS..(p + 1) * NUM_CARDS]);
        s.tops[p] = tops[p];
        s.last_play[p] = last_play[p];
        s.cunning[p] = cunning[p];
        s.cunning_played[p] = cunning_played[p];
    }
    fill(
        &mut s.stock,
        &field::<Vec<u8>>(state, intern!(py, "stock"))?,
        "stock",
    )?;
    fill(
        &mut s.order,
        &field::<Vec<u8>>(state, intern!(py, "order"))?,
        "order",
    )?;
    fill(
        &mut s.crowns,
        &field::<Vec<i8>>(state, intern!(py, "crowns"))?,
        "crowns",
    )?;
    fill(
        &mut s.control,
        &field::<Vec<i8>>(state, intern!(py, "control"))?,
        "control",
    )?;
    let mut seen = 0u8;
    s.order
        .iter()
        .for_each(|&r| seen |= 1u8.checked_shl(r as u32).unwrap_or(0));
    if s.player >= players || seen != 0xff {
        return Err(bad("the seat to move or the region cards are out of range"));
    }
    let seat = |p: i8| (-1..players as i8).contains(&p);
    let cards = if mode == 0 {
        NUM_CARDS
    } else {
        NUM_CARDS + NUM_CUNNING
    };
    if !s.crowns.iter().all(|&p| seat(p))
        || !s.control.iter().all(|&c| (-1..=4).contains(&c))
        || !s.tops.iter().all(|&c| (-1..cards as i8).contains(&c))
        || s.resolved as usize > NUM_REGIONS
    {
        return Err(bad(
            "a crown, control, top card or resolved count is out of range",
        ));
    }
    s.open = (0..NUM_REGIONS)
        .filter(|&r| s.control[r] < 0)
        .fold(0, |mask, r| mask | 1 << r);
    let ban = state.getattr(intern!(py, "undo_ban"))?;
    if !ban.is_none() {
        s.undo_ban = Some(
            ban_from_py(&s, &ban)
                .ok_or_else(|| bad("undo_ban is not an exchange that can be banned"))?,
        );
    }
    let result = state.getattr(intern!(py, "_result"))?;
    if !result.is_none() {
        let ending: String = field(&result, intern!(py, "ending"))?;
        s.outcome = Some(scoring::score(&s, ending_from(&ending)?));
    }
    Ok(s)
}

/// A state of the standard game, for the tools that know no Cunning card (the
/// search, the solver, the candidates, the features): ValueError for an
/// advanced game, which only the rules and the random games play.
fn standard_state_from_py(state: &Bound<'_, PyAny>) -> PyResult<State> {
    let s = state_from_py(state)?;
    if s.advanced() {
        return Err(PyValueError::new_err(
            "the core's search, solver, candidates and features play the standard game, \
             not the advanced one",
        ));
    }
    Ok(s)
}

/// A new `kingisdead.state.GameState` with the fields of `s`, set by name, and
/// `edition` (the object read with the state, or when None one made from its
/// name and options); a finished game gets its `Result` (with the sentence)
/// from `kingisdead.scoring.score`.
fn state_to_py<'py>(
    py: Python<'py>,
    s: &State,
    edition: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    static GAME_STATE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    static BUILD_RESULT: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let n = s.players as usize;
    // Lists of ints, not bytes: PyO3 turns a Vec<u8> into `bytes`.
    let ints = |values: &[u8]| values.iter().map(|&v| v as u16).collect::<Vec<u16>>();
    let board: Vec<u16> = s.board.iter().flatten().map(|&v| v as u16).collect();
    let courts: Vec<u16> = s.courts[..n].iter().flatten().map(|&v| v as u16).collect();
    let hands: Vec<u16> = s.hands[..n].iter().flatten().map(|&v| v as u16).collect();
    // The reverse as a tuple, as Python keeps it (a Vec would become a list);
    // the advanced game's ban names its card.
    let ban = match s.undo_ban {
        Some(ban) if s.advanced() => (ban.player, PyTuple::new(py, ban.reverse())?, ban.card)
            .into_pyobject(py)?
            .into_any(),
        Some(ban) => (ban.player, PyTuple::new(py, ban.reverse())?)
            .into_pyobject(py)?
            .into_any(),
        None => py.None().into_bound(py),
    };
    let state = GAME_STATE
        .import(py, "kingisdead.state", "GameState")?
        .call0()?;
    match edition {
        Some(e) => state.setattr(intern!(py, "edition"), e)?,
        None => state.setattr(intern!(py, "edition"), edition_to_py(py, s)?)?,
    }
    state.setattr(intern!(py, "players"), s.players)?;
    state.setattr(intern!(py, "mordred"), s.mordred)?;
    state.setattr(intern!(py, "board"), board)?;
    state.setattr(intern!(py, "stock"), ints(&s.stock))?;
    state.setattr(intern!(py, "courts"), courts)?;
    state.setattr(intern!(py, "hands"), hands)?;
    state.setattr(intern!(py, "order"), ints(&s.order))?;
    state.setattr(intern!(py, "crowns"), s.crowns.to_vec())?;
    state.setattr(intern!(py, "control"), s.control.to_vec())?;
    state.setattr(intern!(py, "open"), s.open)?;
    state.setattr(intern!(py, "resolved"), s.resolved)?;
    state.setattr(intern!(py, "saxons"), s.saxons)?;
    state.setattr(intern!(py, "player"), s.player)?;
    state.setattr(intern!(py, "passes"), s.passes)?;
    state.setattr(intern!(py, "tops"), s.tops[..n].to_vec())?;
    state.setattr(intern!(py, "last_play"), ints(&s.last_play[..n]))?;
    state.setattr(intern!(py, "plays"), s.plays)?;
    state.setattr(intern!(py, "cunning"), s.cunning[..n].to_vec())?;
    state.setattr(
        intern!(py, "cunning_played"),
        s.cunning_played[..n].to_vec(),
    )?;
    state.setattr(intern!(py, "undo_ban"), ban)?;
    let result = match s.outcome {
        Some(o) => {
            let (_, winners, ruler, ranking, steps) = outcome_to_py(&s, &o);
            BUILD_RESULT
                .get_or_try_init(py, || {
                    py.import("kingisdead.scoring")?
                        .getattr("build_result")
                        .map(Bound::unbind)
                })?
                .bind(py)
                .call1((
                    &state,
                    ending_name(o.ending),
                    winners,
                    ruler,
                    ranking,
                    steps,
                ))?
        }
        None => py.None().into_bound(py),
    };
    state.setattr(intern!(py, "_result"), result)?;
    Ok(state)
}

fn move_to_py(m: &Move) -> PyMove {
    if m.is_pass() {
        return (None, Vec::new(), None);
    }
    (Some(m.card as u8), m.action().to_vec(), m.court())
}

fn move_from_py(m: PyMove) -> PyResult<Move> {
    let (card, action, court) = m;
    match card {
        None if action.is_empty() && court.is_none() => Ok(Move::PASS),
        None => Err(PyValueError::new_err(
            "a pass has no action and no court call",
        )),
        Some(card) if (card as usize) < NUM_CARDS + NUM_CUNNING && action.len() <= MAX_ACTION => {
            Ok(Move::card_play(card, &action, court))
        }
        Some(_) => Err(PyValueError::new_err("not a move")),
    }
}

/// A finished game's verdict and its scoring steps, as Python reads them
/// (`kingisdead.scoring.build_result`).
fn outcome_to_py(
    s: &State,
    o: &Outcome,
) -> (&'static str, Vec<u16>, Option<u8>, Vec<u16>, Vec<PyStep>) {
    let seats = |mask: u8| {
        (0..MAX_PLAYERS as u16)
            .filter(|p| mask >> p & 1 == 1)
            .collect::<Vec<u16>>()
    };
    let ruler = (o.ruler >= 0).then_some(o.ruler as u8);
    let ranking = o.ranking[..o.ranked as usize]
        .iter()
        .map(|&f| f as u16)
        .collect();
    let (_, steps) = scoring::explain(s, o.ending);
    let steps = steps
        .into_iter()
        .map(|step| {
            (
                step.kind.name(),
                step.faction,
                step.values,
                seats(step.kept),
            )
        })
        .collect();
    (
        ending_name(o.ending),
        seats(o.winners),
        ruler,
        ranking,
        steps,
    )
}

/// An edition the core plays (`board::EDITIONS`, by name, with its default
/// options), as a dict with the fields of `kingisdead.edition.Edition` (lists
/// where Python has tuples). ValueError for an unknown name.
#[pyfunction]
#[pyo3(signature = (name="first"))]
fn edition<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyDict>> {
    let e = board::edition_index(name)
        .map(|i| board::EDITIONS[i as usize])
        .ok_or_else(|| PyValueError::new_err(format!("unknown edition {name:?}")))?;
    let d = PyDict::new(py);
    d.set_item("name", e.name)?;
    d.set_item("regions", e.regions.to_vec())?;
    d.set_item("region_codes", e.region_codes.to_vec())?;
    d.set_item("borders", e.borders.to_vec())?;
    d.set_item("homes", e.homes.to_vec())?;
    d.set_item("factions", e.factions.to_vec())?;
    d.set_item("faction_codes", e.faction_codes.to_vec())?;
    d.set_item("cards", e.cards.to_vec())?;
    d.set_item("card_words", e.card_words.to_vec())?;
    // Ints, not bytes: PyO3 turns a Vec<u8> into `bytes`.
    let copies: Vec<u16> = e.card_copies.iter().map(|&c| c as u16).collect();
    d.set_item("card_copies", copies)?;
    d.set_item("invaders", e.invaders)?;
    d.set_item("invasion", e.invasion)?;
    d.set_item("mordred", e.mordred)?;
    d.set_item("support_together", e.support_together)?;
    d.set_item("ban_outlives_struggle", e.ban_outlives_struggle)?;
    d.set_item("ban_binds_card", e.ban_binds_card)?;
    d.set_item("hands_break_ties", e.hands_break_ties)?;
    d.set_item("reversal", e.reversal)?;
    d.set_item("court_redraw", e.court_redraw)?;
    d.set_item("tie_faction", e.tie_faction)?;
    d.set_item("tie_hands", e.tie_hands)?;
    d.set_item("last_card", e.last_card)?;
    d.set_item("mode", e.mode)?;
    d.set_item("spy_spy", e.spy_spy)?;
    d.set_item("spy_negotiate", e.spy_negotiate)?;
    d.set_item("spy_ban", e.spy_ban)?;
    d.set_item("spy_pile", e.spy_pile)?;
    d.set_item("aid_tie", e.aid_tie)?;
    d.set_item("partial_rank", e.partial_rank)?;
    d.set_item("plot_coronation", e.plot_coronation)?;
    d.set_item("plot_team", e.plot_team)?;
    d.set_item("plot_tiebreak", e.plot_tiebreak)?;
    d.set_item("plot_empty_hand", e.plot_empty_hand)?;
    d.set_item("cunning_ban", e.cunning_ban)?;
    Ok(d)
}

/// The game that `seed` sets up in `edition` (a `kingisdead.edition.Edition`,
/// stored on the state built; the same draws as `GameState.new`).
#[pyfunction]
fn new_game<'py>(
    py: Python<'py>,
    players: u8,
    mordred: bool,
    seed: u64,
    first_player: u8,
    edition: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let (index, options, mode) = edition_from_py(edition)?;
    let s = setup::new_game_in_mode(index, options, mode, players, mordred, seed, first_player)
        .map_err(PyValueError::new_err)?;
    state_to_py(py, &s, Some(edition))
}

/// Every legal move, pass first, in the reference engine's order, grouped by
/// card and action: `(card or -1 for the pass, action, court calls)`, each
/// court call `region * 4 + faction` or -1 for none. Grouping keeps the
/// objects built here few (`kingisdead.core.legal_moves` expands the groups).
#[pyfunction]
fn legal_moves<'py>(py: Python<'py>, state: &Bound<'py, PyAny>) -> PyResult<Vec<MoveGroup<'py>>> {
    let s = state_from_py(state)?;
    let mut moves = Vec::new();
    rules::legal_moves(&s, &mut moves);
    let mut groups: Vec<MoveGroup<'py>> = Vec::new();
    let mut last: Option<(i8, u8, [i8; MAX_ACTION])> = None;
    for m in &moves {
        let group = (m.card, m.len, m.action);
        if last != Some(group) {
            groups.push((m.card, PyTuple::new(py, m.action())?, Vec::new()));
            last = Some(group);
        }
        if let Some((_, _, courts)) = groups.last_mut() {
            courts.push(m.court);
        }
    }
    Ok(groups)
}

#[pyfunction]
fn count_legal_moves(state: &Bound<'_, PyAny>) -> PyResult<usize> {
    Ok(rules::count_legal_moves(&state_from_py(state)?))
}

/// Every legal action of a card, as moves without a court call.
#[pyfunction]
fn card_actions(state: &Bound<'_, PyAny>, card: u8) -> PyResult<Vec<Vec<i8>>> {
    let s = state_from_py(state)?;
    let cards = if s.advanced() {
        NUM_CARDS + NUM_CUNNING
    } else {
        NUM_CARDS
    };
    if card as usize >= cards {
        return Err(PyValueError::new_err(format!("unknown card {card}")));
    }
    let mut out = Vec::new();
    rules::card_actions(&s, card, &mut out);
    Ok(out.iter().map(|m| m.action().to_vec()).collect())
}

#[pyfunction]
fn is_legal(state: &Bound<'_, PyAny>, mv: PyMove) -> PyResult<bool> {
    let s = state_from_py(state)?;
    Ok(move_from_py(mv).is_ok_and(|m| rules::is_legal(&s, &m)))
}

/// The state after a legal move (ValueError for an illegal one: the
/// reference's `check_move` says which rule it breaks).
#[pyfunction]
fn play<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    mv: PyMove,
) -> PyResult<Bound<'py, PyAny>> {
    let mut s = state_from_py(state)?;
    let m = move_from_py(mv)?;
    if s.is_over() || !rules::is_legal(&s, &m) {
        return Err(PyValueError::new_err("play: the move is not legal here"));
    }
    rules::play(&mut s, &m);
    let edition = state.getattr(intern!(py, "edition"))?;
    state_to_py(py, &s, Some(&edition))
}

/// Every legal move with the state after it.
#[pyfunction]
fn successors<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
) -> PyResult<Vec<(PyMove, Bound<'py, PyAny>)>> {
    let s = state_from_py(state)?;
    let edition = state.getattr(intern!(py, "edition"))?;
    let mut moves = Vec::new();
    rules::legal_moves(&s, &mut moves);
    moves
        .iter()
        .map(|m| {
            let mut after = s;
            rules::play(&mut after, m);
            Ok((move_to_py(m), state_to_py(py, &after, Some(&edition))?))
        })
        .collect()
}

/// Perft: (move sequences of `depth` plies, distinct positions they reach). Releases the GIL.
#[pyfunction(name = "perft")]
fn perft_counts(py: Python<'_>, state: &Bound<'_, PyAny>, depth: u32) -> PyResult<(u64, usize)> {
    let s = state_from_py(state)?;
    if depth == 0 {
        return Err(PyValueError::new_err("perft needs a depth of at least 1"));
    }
    Ok(py.detach(|| perft::perft(&s, depth)))
}

/// Ending, winners, ruler, faction ranking and scoring steps of a finished
/// game (each step `(kind, faction or None, [(seat, value)...], [kept seat...])`),
/// or None.
#[pyfunction]
fn outcome(state: &Bound<'_, PyAny>) -> PyResult<PyOutcome> {
    let s = state_from_py(state)?;
    Ok(s.outcome.as_ref().map(|o| outcome_to_py(&s, o)))
}

/// The result of `state` ended by `ending` (its name), scored now: ending,
/// winners, ruler, ranking and steps as [`outcome`] gives them.
#[pyfunction]
fn score(
    state: &Bound<'_, PyAny>,
    ending: &str,
) -> PyResult<(&'static str, Vec<u16>, Option<u8>, Vec<u16>, Vec<PyStep>)> {
    let s = state_from_py(state)?;
    let o = scoring::score(&s, ending_from(ending)?);
    Ok(outcome_to_py(&s, &o))
}

#[pyfunction]
fn last_card_applies(state: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(lastcard::last_card_applies(&state_from_py(state)?))
}

/// A random legal move (the fast sampler) and the state after it.
#[pyfunction]
fn play_random<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    seed: u64,
) -> PyResult<(PyMove, Bound<'py, PyAny>)> {
    let mut s = running(state)?;
    let m = playout::play_random(&mut s, &mut SplitMix64::new(seed));
    let edition = state.getattr(intern!(py, "edition"))?;
    Ok((move_to_py(&m), state_to_py(py, &s, Some(&edition))?))
}

/// Random moves to the end of the game: the moves and the final state.
#[pyfunction(name = "playout")]
fn random_playout<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    seed: u64,
) -> PyResult<(Vec<PyMove>, Bound<'py, PyAny>)> {
    let mut s = state_from_py(state)?;
    let mut rng = SplitMix64::new(seed);
    let mut moves = Vec::new();
    while !s.is_over() {
        moves.push(move_to_py(&playout::play_random(&mut s, &mut rng)));
    }
    let edition = state.getattr(intern!(py, "edition"))?;
    Ok((moves, state_to_py(py, &s, Some(&edition))?))
}

/// Play `games` random games from seeded setups in `edition` (an `Edition`,
/// None for the first): (games, moves played). Releases the GIL.
#[pyfunction]
#[pyo3(signature = (players, mordred, games, seed, edition=None))]
fn random_games(
    py: Python<'_>,
    players: u8,
    mordred: bool,
    games: u64,
    seed: u64,
    edition: Option<&Bound<'_, PyAny>>,
) -> PyResult<(u64, u64)> {
    let (index, options, mode) = match edition {
        Some(e) => edition_from_py(e)?,
        None => (board::FIRST_EDITION, board::FIRST.default_options(), 0),
    };
    let start = batch::Start {
        players,
        mordred,
        edition: index,
        options,
        mode,
    };
    start.game(seed).map_err(PyValueError::new_err)?;
    Ok(py.detach(|| playout::random_games_in(start, games, seed)))
}

/// The heuristic value of the position for each player, in [-1, 1].
#[pyfunction]
fn evaluate(state: &Bound<'_, PyAny>) -> PyResult<Vec<f64>> {
    let s = state_from_py(state)?;
    Ok(eval::evaluate(&s)[..s.players as usize].to_vec())
}

/// The moves a greedy player picks among: best value for the mover after the
/// move, ties within 1e-9 kept, scanned in legal-move order exactly as the
/// reference `GreedyBot` scans them (so both engines offer the same list).
#[pyfunction]
fn greedy_moves(state: &Bound<'_, PyAny>) -> PyResult<Vec<PyMove>> {
    let s = running(state)?;
    let me = s.player as usize;
    let mut moves = Vec::new();
    rules::legal_moves(&s, &mut moves);
    let mut best: Vec<Move> = Vec::new();
    let mut best_value = -2.0;
    for m in &moves {
        let mut after = s;
        rules::play(&mut after, m);
        let value = eval::evaluate(&after)[me];
        if value > best_value + 1e-9 {
            best.clear();
            best.push(*m);
            best_value = value;
        } else if value > best_value - 1e-9 {
            best.push(*m);
        }
    }
    Ok(best.iter().map(move_to_py).collect())
}

/// Ranked candidate moves (value for the mover, move), best first.
#[pyfunction]
fn ranked_candidates(
    state: &Bound<'_, PyAny>,
    seed: u64,
    per_card: usize,
) -> PyResult<Vec<(f64, PyMove)>> {
    let s = running(state)?;
    standard_state_from_py(state)?;
    let mut rng = SplitMix64::new(seed);
    Ok(candidates::ranked_candidates(&s, &mut rng, per_card)
        .iter()
        .map(|(v, m)| (*v, move_to_py(m)))
        .collect())
}

type PySearch = (Vec<(PyMove, u64, f64, f64)>, u64, f64);

/// The search settings as Python passes them: (exploration, widening,
/// root_widening, per_card, root_per_card, rollout_moves, prior_weight).
type PyConfig = (f64, f64, f64, usize, usize, usize, f64);

fn search_config(c: PyConfig) -> mcts::SearchConfig {
    mcts::SearchConfig {
        exploration: c.0,
        widening: c.1,
        root_widening: c.2,
        per_card: c.3,
        root_per_card: c.4,
        rollout_moves: c.5,
        prior_weight: c.6,
    }
}

/// The position to search (not over) and the moves the search must include (legal there).
fn search_inputs(state: &Bound<'_, PyAny>, include: Vec<PyMove>) -> PyResult<(State, Vec<Move>)> {
    let s = standard_state_from_py(state)?;
    if s.is_over() {
        return Err(PyValueError::new_err(
            "the game is over: there is no move to search",
        ));
    }
    let include = include
        .into_iter()
        .map(move_from_py)
        .collect::<PyResult<Vec<_>>>()?;
    if include.iter().any(|m| !rules::is_legal(&s, m)) {
        return Err(PyValueError::new_err(
            "search: an included move is not legal here",
        ));
    }
    Ok((s, include))
}

/// Monte Carlo tree search; `config` is (exploration, widening, root_widening,
/// per_card, root_per_card, rollout_moves, prior_weight). Releases the GIL.
#[pyfunction]
#[pyo3(signature = (state, seconds, iterations, seed, config, include, threads=1))]
#[allow(clippy::too_many_arguments)]
fn search(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    seconds: Option<f64>,
    iterations: Option<u64>,
    seed: u64,
    config: PyConfig,
    include: Vec<PyMove>,
    threads: usize,
) -> PyResult<PySearch> {
    let (s, include) = search_inputs(state, include)?;
    let config = search_config(config);
    let budget = mcts::Budget {
        seconds,
        iterations,
    };
    let result = py.detach(|| {
        if threads > 1 {
            mcts::parallel_search(&s, budget, seed, &config, &include, threads)
        } else {
            mcts::search(&s, budget, seed, &config, &include)
        }
    });
    let moves = result
        .moves
        .iter()
        .map(|m| (move_to_py(&m.mv), m.visits, m.value, m.prior))
        .collect();
    Ok((moves, result.iterations, result.seconds))
}

/// The exact 2-player solver: (value, move, nodes), or None past its limits. Releases the GIL.
#[pyfunction]
#[pyo3(signature = (state, node_limit, seconds=None))]
fn solve(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    node_limit: u64,
    seconds: Option<f64>,
) -> PyResult<Option<(i8, PyMove, u64)>> {
    let s = standard_state_from_py(state)?;
    if s.players != 2 {
        return Err(PyValueError::new_err("the exact solver is for two players"));
    }
    if s.is_over() {
        return Err(PyValueError::new_err(
            "the game is over: there is nothing to solve",
        ));
    }
    let solution = py.detach(|| solver::solve(&s, node_limit, seconds));
    Ok(solution.map(|sol| (sol.value, move_to_py(&sol.mv), sol.nodes)))
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(edition, m)?)?;
    m.add_function(wrap_pyfunction!(new_game, m)?)?;
    m.add_function(wrap_pyfunction!(legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(count_legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(card_actions, m)?)?;
    m.add_function(wrap_pyfunction!(is_legal, m)?)?;
    m.add_function(wrap_pyfunction!(play, m)?)?;
    m.add_function(wrap_pyfunction!(successors, m)?)?;
    m.add_function(wrap_pyfunction!(perft_counts, m)?)?;
    m.add_function(wrap_pyfunction!(outcome, m)?)?;
    m.add_function(wrap_pyfunction!(score, m)?)?;
    m.add_function(wrap_pyfunction!(last_card_applies, m)?)?;
    m.add_function(wrap_pyfunction!(play_random, m)?)?;
    m.add_function(wrap_pyfunction!(random_playout, m)?)?;
    m.add_function(wrap_pyfunction!(random_games, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(ranked_candidates, m)?)?;
    m.add_function(wrap_pyfunction!(greedy_moves, m)?)?;
    m.add_function(wrap_pyfunction!(search, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    learning::register(m)?;
    vecenv::register(m)?;
    network_py::register(m)?;
    batch_py::register(m)?;
    Ok(())
}
