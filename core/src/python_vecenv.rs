//! The Python binding of the batched environment ([`crate::vecenv`]):
//! `kingisdead._core.VecEnv`, driven by `kingisdead/interfaces/vector.py`.
//!
//! The caller allocates the NumPy buffers once and passes them to every call;
//! they are filled in place (C-contiguous, the dtypes below), so a step builds
//! no Python object per game. A child of `python.rs`, for its state converter.

use numpy::{PyReadonlyArray1, PyReadwriteArray1, PyReadwriteArray2};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;

use super::{edition_from_py, state_to_py};
use crate::board;
use crate::encoding::{ADVANCED_OBSERVATION_SIZE, OBSERVATION_SIZE};
use crate::stepping::{ADVANCED_NUM_ACTIONS, NUM_ACTIONS};
use crate::vecenv::{Autoreset, Outputs, StepOutputs, VecEnv};

fn contiguous<'a, T>(
    slice: Result<&'a mut [T], numpy::NotContiguousError>,
    name: &str,
    len: usize,
) -> PyResult<&'a mut [T]> {
    let slice = slice
        .map_err(|_| PyValueError::new_err(format!("{name}: the buffer must be C-contiguous")))?;
    if slice.len() != len {
        return Err(PyValueError::new_err(format!(
            "{name}: the buffer holds {} values, expected {len}",
            slice.len()
        )));
    }
    Ok(slice)
}

fn input<'a, T>(array: &'a PyReadonlyArray1<'_, T>, name: &str, len: usize) -> PyResult<&'a [T]>
where
    T: numpy::Element,
{
    let slice = array
        .as_slice()
        .map_err(|_| PyValueError::new_err(format!("{name}: the array must be contiguous")))?;
    if slice.len() != len {
        return Err(PyValueError::new_err(format!(
            "{name}: expected one per game ({len}), got {}",
            slice.len()
        )));
    }
    Ok(slice)
}

/// N games of one configuration stepped together (see `kingisdead.interfaces.vector`).
#[pyclass(name = "VecEnv", module = "kingisdead._core")]
struct PyVecEnv {
    env: VecEnv,
}

#[pymethods]
impl PyVecEnv {
    /// `len(seeds)` games set up as `new_game(players, mordred, seed, first_player, edition)`
    /// (a `kingisdead.edition.Edition`, the first edition when None; its mode "advanced"
    /// plays the advanced game); `same_step` replaces a finished game in the step that
    /// ends it, else at the next step.
    #[new]
    #[pyo3(signature = (players, mordred, first_player, seeds, same_step=false, edition=None))]
    fn new(
        players: u8,
        mordred: bool,
        first_player: u8,
        seeds: PyReadonlyArray1<'_, u64>,
        same_step: bool,
        edition: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let seeds = seeds
            .as_slice()
            .map_err(|_| PyValueError::new_err("seeds: the array must be contiguous"))?;
        let autoreset = if same_step {
            Autoreset::SameStep
        } else {
            Autoreset::NextStep
        };
        let rules = match edition {
            Some(e) => edition_from_py(e)?,
            None => (board::FIRST_EDITION, board::FIRST.default_options(), 0),
        };
        let env = VecEnv::new(rules, players, mordred, first_player, seeds, autoreset)
            .map_err(PyValueError::new_err)?;
        Ok(PyVecEnv { env })
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.env.num_envs()
    }

    /// The length of an observation row: 456, or 770 in the advanced game.
    #[getter]
    fn observation_size(&self) -> usize {
        self.env.observation_size()
    }

    /// The length of a mask row: 21, or 37 in the advanced game.
    #[getter]
    fn num_actions(&self) -> usize {
        self.env.num_actions()
    }

    /// Every game set up anew; fills observations (N, observation_size) float32,
    /// masks (N, num_actions) int8 and seats (N,) int8.
    fn reset(
        &mut self,
        seeds: PyReadonlyArray1<'_, u64>,
        first_player: u8,
        mut observations: PyReadwriteArray2<'_, f32>,
        mut masks: PyReadwriteArray2<'_, i8>,
        mut seats: PyReadwriteArray1<'_, i8>,
    ) -> PyResult<()> {
        let n = self.env.num_envs();
        let (width, actions) = (self.env.observation_size(), self.env.num_actions());
        let seeds = input(&seeds, "seeds", n)?;
        let out = Outputs {
            observations: contiguous(observations.as_slice_mut(), "observations", n * width)?,
            masks: contiguous(masks.as_slice_mut(), "masks", n * actions)?,
            seats: contiguous(seats.as_slice_mut(), "seats", n)?,
        };
        self.env
            .reset(seeds, first_player, out)
            .map_err(PyValueError::new_err)
    }

    /// One step in every game (see `VecEnv::step`); besides the reset's
    /// buffers it fills rewards (N,) float32, seat_rewards (N, players)
    /// float32, terminated (N,) bool and reset (N,) bool, and with same-step
    /// autoreset final_observations (N, observation_size) float32 for the games that ended.
    /// ValueError (nothing changed) when a running game is not offered its integer.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (actions, seeds, observations, masks, seats, rewards, seat_rewards, terminated, reset, final_observations=None))]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: PyReadonlyArray1<'_, i64>,
        seeds: PyReadonlyArray1<'_, u64>,
        mut observations: PyReadwriteArray2<'_, f32>,
        mut masks: PyReadwriteArray2<'_, i8>,
        mut seats: PyReadwriteArray1<'_, i8>,
        mut rewards: PyReadwriteArray1<'_, f32>,
        mut seat_rewards: PyReadwriteArray2<'_, f32>,
        mut terminated: PyReadwriteArray1<'_, bool>,
        mut reset: PyReadwriteArray1<'_, bool>,
        mut final_observations: Option<PyReadwriteArray2<'_, f32>>,
    ) -> PyResult<()> {
        let n = self.env.num_envs();
        let players = self.env.players() as usize;
        let (width, num_actions) = (self.env.observation_size(), self.env.num_actions());
        let actions = input(&actions, "actions", n)?;
        let seeds = input(&seeds, "seeds", n)?;
        let out = Outputs {
            observations: contiguous(observations.as_slice_mut(), "observations", n * width)?,
            masks: contiguous(masks.as_slice_mut(), "masks", n * num_actions)?,
            seats: contiguous(seats.as_slice_mut(), "seats", n)?,
        };
        let step = StepOutputs {
            rewards: contiguous(rewards.as_slice_mut(), "rewards", n)?,
            seat_rewards: contiguous(seat_rewards.as_slice_mut(), "seat_rewards", n * players)?,
            terminated: contiguous(terminated.as_slice_mut(), "terminated", n)?,
            reset: contiguous(reset.as_slice_mut(), "reset", n)?,
            final_observations: match final_observations.as_mut() {
                Some(buffer) => Some(contiguous(
                    buffer.as_slice_mut(),
                    "final_observations",
                    n * width,
                )?),
                None => None,
            },
        };
        let env = &mut self.env;
        py.detach(|| env.step(actions, seeds, out, step))
            .map_err(PyValueError::new_err)
    }

    /// Game `index`'s state, a `kingisdead.state.GameState`.
    fn state<'py>(&self, py: Python<'py>, index: usize) -> PyResult<Bound<'py, PyAny>> {
        state_to_py(py, &self.game(index)?.state, None)
    }

    /// The integers chosen so far in game `index`'s move under way.
    fn steps(&self, index: usize) -> PyResult<Vec<u16>> {
        Ok(self
            .game(index)?
            .steps()
            .iter()
            .map(|&a| a as u16)
            .collect())
    }
}

impl PyVecEnv {
    fn game(&self, index: usize) -> PyResult<&crate::stepping::SteppedGame> {
        if index >= self.env.num_envs() {
            return Err(PyIndexError::new_err(format!(
                "game {index} does not exist: there are {}",
                self.env.num_envs()
            )));
        }
        Ok(self.env.game(index))
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVecEnv>()?;
    m.add("OBSERVATION_SIZE", OBSERVATION_SIZE)?;
    m.add("NUM_ACTIONS", NUM_ACTIONS)?;
    m.add("ADVANCED_OBSERVATION_SIZE", ADVANCED_OBSERVATION_SIZE)?;
    m.add("ADVANCED_NUM_ACTIONS", ADVANCED_NUM_ACTIONS)?;
    Ok(())
}
