//! The Python bindings of the learning code: position features and the
//! building steps of moves ([`crate::features`]). A child of `python.rs`, so
//! it reads states and moves with the same private converters.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use super::{move_from_py, search_config, standard_state_from_py, state_to_py, PyConfig, PyMove};
use crate::board::{NUM_KINDS, NUM_REGIONS};
use crate::features::{self as feats, FEATURES, MAX_STEPS};
use crate::selfplay::{self, SelfPlayConfig};
use crate::state::State;

fn checked_seat(s: &State, seat: u8) -> PyResult<()> {
    if seat >= s.players {
        return Err(PyValueError::new_err(format!(
            "seat {seat} is not in a {}-player game",
            s.players
        )));
    }
    Ok(())
}

/// The feature vector of `state` seen from `seat` (FEATURES floats).
#[pyfunction]
fn features(state: &Bound<'_, PyAny>, seat: u8) -> PyResult<Vec<f32>> {
    let s = standard_state_from_py(state)?;
    checked_seat(&s, seat)?;
    let mut out = vec![0.0; FEATURES];
    feats::features(&s, seat, &mut out);
    Ok(out)
}

/// The features of many states, each from its own seat: little-endian
/// float32 bytes of shape (len(states), FEATURES), row by row.
#[pyfunction]
fn features_batch<'py>(
    py: Python<'py>,
    states: Vec<Bound<'py, PyAny>>,
    seats: Vec<u8>,
) -> PyResult<Bound<'py, PyBytes>> {
    if states.len() != seats.len() {
        return Err(PyValueError::new_err(
            "features_batch: one seat per state is needed",
        ));
    }
    let mut out = vec![0.0f32; states.len() * FEATURES];
    for ((state, &seat), row) in states.iter().zip(&seats).zip(out.chunks_mut(FEATURES)) {
        let s = standard_state_from_py(state)?;
        checked_seat(&s, seat)?;
        feats::features(&s, seat, row);
    }
    let bytes: Vec<u8> = out.iter().flat_map(|x| x.to_le_bytes()).collect();
    Ok(PyBytes::new(py, &bytes))
}

/// The action integers that build a move (`encoding.move_to_actions`).
#[pyfunction]
fn move_steps(mv: PyMove) -> PyResult<Vec<u16>> {
    let m = move_from_py(mv)?;
    let court_ok = m
        .court()
        .is_none_or(|(r, f)| r < NUM_REGIONS && f < NUM_KINDS);
    if !court_ok
        || m.action()
            .iter()
            .any(|&v| !(-1..NUM_REGIONS as i8).contains(&v))
    {
        return Err(PyValueError::new_err("not a move"));
    }
    let mut steps = [0u8; MAX_STEPS];
    let len = feats::move_steps(&m, &mut steps);
    Ok(steps[..len].iter().map(|&a| u16::from(a)).collect())
}

/// Little-endian bytes of numbers, for `numpy.frombuffer`.
fn le_bytes<'py, T: Copy, const N: usize>(
    py: Python<'py>,
    values: impl Iterator<Item = T>,
    to_bytes: fn(T) -> [u8; N],
) -> Bound<'py, PyBytes> {
    let bytes: Vec<u8> = values.flat_map(to_bytes).collect();
    PyBytes::new(py, &bytes)
}

/// One self-play game (`core/src/selfplay.rs`), as a dict of little-endian
/// byte arrays (P positions, M root moves, K step prefixes; steps padded with
/// 255): `features` f32 (P, FEATURES), `player`, `forced` u8 (P), `played`,
/// `move_count`, `target_count` u32 (P), `move_steps` u8 (M, 8), `move_len` u8
/// (M), `move_visits` u32 (M), `move_value` f32 (M), `target_prefix` u8 (K,
/// 8), `target_len` u8 (K), `target` f32 (K, NUM_ACTIONS), `target_legal`
/// u32 (K, bit a: action a offered after the prefix); and `result`
/// (list per seat), `end` (the final `GameState`). Releases the GIL.
#[pyfunction]
#[pyo3(signature = (players, mordred, setup_seed, seed, iterations, explore_plies, temperature, config))]
#[allow(clippy::too_many_arguments)]
fn selfplay_game<'py>(
    py: Python<'py>,
    players: u8,
    mordred: bool,
    setup_seed: u64,
    seed: u64,
    iterations: u64,
    explore_plies: u32,
    temperature: f64,
    config: PyConfig,
) -> PyResult<Bound<'py, PyDict>> {
    if iterations == 0 {
        return Err(PyValueError::new_err(
            "self-play needs at least 1 iteration a move",
        ));
    }
    if !(temperature > 0.0 && temperature.is_finite()) {
        return Err(PyValueError::new_err(
            "the temperature must be a positive number",
        ));
    }
    let config = SelfPlayConfig {
        iterations,
        explore_plies,
        temperature,
        search: search_config(config),
    };
    let game = py
        .detach(|| selfplay::play_game(players, mordred, setup_seed, seed, &config))
        .map_err(PyValueError::new_err)?;
    let pos = &game.positions;
    let moves = || pos.iter().flat_map(|p| p.moves.iter());
    let targets = || pos.iter().flat_map(|p| p.targets.iter());
    let padded = |steps: [u8; MAX_STEPS], len: u8| {
        let mut out = [255u8; MAX_STEPS];
        out[..len as usize].copy_from_slice(&steps[..len as usize]);
        out
    };
    let d = PyDict::new(py);
    d.set_item(
        "features",
        le_bytes(py, pos.iter().flat_map(|p| p.features), f32::to_le_bytes),
    )?;
    d.set_item(
        "player",
        le_bytes(py, pos.iter().map(|p| p.state.player), u8::to_le_bytes),
    )?;
    d.set_item(
        "forced",
        le_bytes(py, pos.iter().map(|p| u8::from(p.forced)), u8::to_le_bytes),
    )?;
    d.set_item(
        "played",
        le_bytes(py, pos.iter().map(|p| p.played as u32), u32::to_le_bytes),
    )?;
    d.set_item(
        "move_count",
        le_bytes(
            py,
            pos.iter().map(|p| p.moves.len() as u32),
            u32::to_le_bytes,
        ),
    )?;
    d.set_item(
        "target_count",
        le_bytes(
            py,
            pos.iter().map(|p| p.targets.len() as u32),
            u32::to_le_bytes,
        ),
    )?;
    d.set_item(
        "move_steps",
        le_bytes(
            py,
            moves().flat_map(|m| padded(m.steps, m.len)),
            u8::to_le_bytes,
        ),
    )?;
    d.set_item(
        "move_len",
        le_bytes(py, moves().map(|m| m.len), u8::to_le_bytes),
    )?;
    d.set_item(
        "move_visits",
        le_bytes(py, moves().map(|m| m.visits), u32::to_le_bytes),
    )?;
    d.set_item(
        "move_value",
        le_bytes(py, moves().map(|m| m.value), f32::to_le_bytes),
    )?;
    d.set_item(
        "target_prefix",
        le_bytes(
            py,
            targets().flat_map(|t| padded(t.prefix, t.len)),
            u8::to_le_bytes,
        ),
    )?;
    d.set_item(
        "target_len",
        le_bytes(py, targets().map(|t| t.len), u8::to_le_bytes),
    )?;
    d.set_item(
        "target",
        le_bytes(py, targets().flat_map(|t| t.target), f32::to_le_bytes),
    )?;
    d.set_item(
        "target_legal",
        le_bytes(py, targets().map(|t| t.legal), u32::to_le_bytes),
    )?;
    d.set_item("result", game.result[..players as usize].to_vec())?;
    d.set_item("end", state_to_py(py, &game.end, None)?)?;
    Ok(d)
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("FEATURES", FEATURES)?;
    m.add_function(wrap_pyfunction!(features, m)?)?;
    m.add_function(wrap_pyfunction!(features_batch, m)?)?;
    m.add_function(wrap_pyfunction!(move_steps, m)?)?;
    m.add_function(wrap_pyfunction!(selfplay_game, m)?)?;
    Ok(())
}
