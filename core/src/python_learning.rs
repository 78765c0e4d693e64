//! The Python bindings of the learning code: position features and the
//! building steps of moves ([`crate::features`]). A child of `python.rs`, so
//! it reads states and moves with the same private converters.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

use super::{move_from_py, state_from_py, PyMove};
use crate::board::{NUM_KINDS, NUM_REGIONS};
use crate::features::{self as feats, FEATURES, MAX_STEPS};
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
fn features(state: &Bound<'_, PyTuple>, seat: u8) -> PyResult<Vec<f32>> {
    let s = state_from_py(state)?;
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
    states: Vec<Bound<'py, PyTuple>>,
    seats: Vec<u8>,
) -> PyResult<Bound<'py, PyBytes>> {
    if states.len() != seats.len() {
        return Err(PyValueError::new_err(
            "features_batch: one seat per state is needed",
        ));
    }
    let mut out = vec![0.0f32; states.len() * FEATURES];
    for ((state, &seat), row) in states.iter().zip(&seats).zip(out.chunks_mut(FEATURES)) {
        let s = state_from_py(state)?;
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

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("FEATURES", FEATURES)?;
    m.add_function(wrap_pyfunction!(features, m)?)?;
    m.add_function(wrap_pyfunction!(features_batch, m)?)?;
    m.add_function(wrap_pyfunction!(move_steps, m)?)?;
    Ok(())
}
