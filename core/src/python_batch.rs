//! The Python binding of [`crate::batch`]: `kingisdead._core.random_outcomes`,
//! which `kingisdead.core.random_outcomes` wraps for `kingisdead simulate`.
//! A child of `python.rs`, for its state converter.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::state_from_py;
use crate::batch::{self, Start};

type PyOutcomes<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
);

/// Random games `first .. first + games` of a simulation with seed `seed`,
/// each set up as `start` was (its players, variant and rules) from seed
/// `seed + index`: `(endings, winners, rulers, moves)`, one byte per game
/// (ending code, winners bitmask, ruler seat or 255) and moves as native
/// unsigned 16-bit integers. Releases the GIL while it plays.
#[pyfunction]
fn random_outcomes<'py>(
    py: Python<'py>,
    start: &Bound<'py, PyAny>,
    seed: u64,
    first: u64,
    games: usize,
) -> PyResult<PyOutcomes<'py>> {
    let start = Start::of(&state_from_py(start)?);
    let out = py
        .detach(|| batch::random_games(start, seed, first, games))
        .map_err(PyValueError::new_err)?;
    let moves: Vec<u8> = out.moves.iter().flat_map(|m| m.to_ne_bytes()).collect();
    Ok((
        PyBytes::new(py, &out.endings),
        PyBytes::new(py, &out.winners),
        PyBytes::new(py, &out.rulers),
        PyBytes::new(py, &moves),
    ))
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(random_outcomes, m)?)?;
    Ok(())
}
