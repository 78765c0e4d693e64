//! The compiled core of kingisdead: the rules of The King Is Dead on a compact
//! state, random playouts, the heuristic evaluation, the Monte Carlo tree
//! search and the 2-player endgame solver.
//!
//! The Python package (`src/kingisdead/`) keeps the readable reference engine;
//! this crate mirrors it move for move and the test suite checks the two
//! against each other. The Python bindings live in [`python`] behind the
//! `python` feature, so `cargo test` needs no Python.

pub mod batch;
pub mod board;
pub mod candidates;
pub mod cunning;
pub mod encoding;
pub mod eval;
pub mod features;
pub mod guide;
pub mod lastcard;
pub mod mcts;
pub mod network;
pub mod perft;
pub mod playout;
pub mod rng;
pub mod rules;
pub mod scoring;
pub mod selfplay;
pub mod setup;
pub mod solver;
pub mod state;
pub mod stepping;
pub mod vecenv;

#[cfg(feature = "python")]
mod python;
