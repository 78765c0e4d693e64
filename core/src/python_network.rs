//! The Python bindings of the learned network ([`crate::network`]) and of the
//! search it guides ([`crate::guide`], [`crate::mcts::guided_search`]). A child
//! of `python.rs`, so it reads states and moves with the same converters.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::{
    move_to_py, search_config, search_inputs, standard_state_from_py, PyConfig, PyMove, PySearch,
};
use crate::features::{features, FEATURES};
use crate::guide::{Guide, GuideConfig};
use crate::mcts;
use crate::network::{Network, STEP_CARDS, STEP_DEPTHS};

/// A network file loaded into the core: shared, immutable, usable from any thread.
#[pyclass(name = "Network", module = "kingisdead._core", frozen)]
pub struct PyNetwork {
    inner: Arc<Network>,
}

#[pymethods]
impl PyNetwork {
    /// Load a network file (ValueError naming what is wrong; OSError if unreadable).
    #[new]
    fn load(path: PathBuf) -> PyResult<PyNetwork> {
        let bytes = std::fs::read(&path)?;
        let net = Network::from_bytes(&bytes)
            .map_err(|e| PyValueError::new_err(format!("{}: {e}", path.display())))?;
        Ok(PyNetwork {
            inner: Arc::new(net),
        })
    }

    #[getter]
    fn inputs(&self) -> usize {
        self.inner.inputs()
    }

    #[getter]
    fn widths(&self) -> Vec<usize> {
        self.inner.widths()
    }

    /// Whether the file has the policy over later building steps (format version 2).
    #[getter]
    fn has_steps(&self) -> bool {
        self.inner.has_steps()
    }

    /// The step policy's logits[21] for building step `step` (1-7) of a move
    /// of `card` (0-6) in the position of `features`; ValueError without a
    /// step policy or for a card or step out of range.
    fn step_logits(&self, features: Vec<f32>, card: usize, step: usize) -> PyResult<Vec<f32>> {
        if !self.inner.has_steps() {
            return Err(PyValueError::new_err("this network has no step policy"));
        }
        if card >= STEP_CARDS || !(1..=STEP_DEPTHS).contains(&step) {
            return Err(PyValueError::new_err(format!(
                "card must lie in 0..{STEP_CARDS} and step in 1..={STEP_DEPTHS}, got {card} and {step}"
            )));
        }
        if features.len() != self.inner.inputs() {
            return Err(PyValueError::new_err(format!(
                "the network reads {} features, got {}",
                self.inner.inputs(),
                features.len()
            )));
        }
        let mut scratch = self.inner.scratch();
        self.inner.evaluate(&features, &mut scratch);
        let logits = self.inner.step_logits(&scratch, card, step);
        Ok(logits.map(|l| l.to_vec()).unwrap_or_default())
    }

    /// (values[4], logits[21]) of one feature vector.
    fn evaluate(&self, features: Vec<f32>) -> PyResult<(Vec<f32>, Vec<f32>)> {
        if features.len() != self.inner.inputs() {
            return Err(PyValueError::new_err(format!(
                "the network reads {} features, got {}",
                self.inner.inputs(),
                features.len()
            )));
        }
        let out = self.inner.evaluate(&features, &mut self.inner.scratch());
        Ok((out.values.to_vec(), out.logits.to_vec()))
    }

    /// (values[4], logits[21]) of a position seen by its player to move, the
    /// features made in the core (as the search does).
    fn evaluate_state(&self, state: &Bound<'_, PyAny>) -> PyResult<(Vec<f32>, Vec<f32>)> {
        let s = standard_state_from_py(state)?;
        let mut input = vec![0.0; FEATURES];
        features(&s, s.player, &mut input);
        self.evaluate(input)
    }

    /// Seconds per evaluation of `state`'s features (the mean of `repeats`),
    /// with the GIL released: the cost inside the search, for the benchmark.
    fn time_evaluation(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        repeats: u32,
    ) -> PyResult<f64> {
        let s = standard_state_from_py(state)?;
        let net = self.inner.clone();
        let repeats = repeats.max(1);
        Ok(py.detach(move || {
            let mut input = vec![0.0; FEATURES];
            let mut scratch = net.scratch();
            let start = std::time::Instant::now();
            let mut sink = 0.0f32;
            for _ in 0..repeats {
                features(&s, s.player, &mut input);
                sink += net
                    .evaluate(std::hint::black_box(&input), &mut scratch)
                    .values[0];
            }
            std::hint::black_box(sink);
            start.elapsed().as_secs_f64() / f64::from(repeats)
        }))
    }
}

/// The search of `python.rs`'s `search` guided by `network`: `guide` is
/// (value_weight, policy_weight, step_weight, draw_weight), each in [0, 1]. Releases the GIL.
#[pyfunction]
#[pyo3(signature = (state, seconds, iterations, seed, config, include, threads, network, guide))]
#[allow(clippy::too_many_arguments)]
fn guided_search(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    seconds: Option<f64>,
    iterations: Option<u64>,
    seed: u64,
    config: PyConfig,
    include: Vec<PyMove>,
    threads: usize,
    network: &PyNetwork,
    guide: (f64, f64, f64, f64),
) -> PyResult<PySearch> {
    let (s, include) = search_inputs(state, include)?;
    if seconds.is_none() && iterations.is_none() || iterations == Some(0) {
        return Err(PyValueError::new_err(
            "search: a budget needs seconds or at least one iteration",
        ));
    }
    let guide = Guide::new(
        network.inner.clone(),
        GuideConfig {
            value_weight: guide.0,
            policy_weight: guide.1,
            step_weight: guide.2,
            draw_weight: guide.3,
        },
    )
    .map_err(PyValueError::new_err)?;
    let config = search_config(config);
    let budget = mcts::Budget {
        seconds,
        iterations,
    };
    let result = py
        .detach(|| mcts::guided_search(&s, budget, seed, &config, &include, threads, Some(&guide)));
    let moves = result
        .moves
        .iter()
        .map(|m| (move_to_py(&m.mv), m.visits, m.value, m.prior))
        .collect();
    Ok((moves, result.iterations, result.seconds))
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyNetwork>()?;
    m.add_function(wrap_pyfunction!(guided_search, m)?)?;
    Ok(())
}
