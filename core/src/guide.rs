//! The network inside the search: leaf values and the order in which a node's
//! candidates are opened.
//!
//! - **Leaves.** A new leaf's rewards are `value_weight` times the network's
//!   win chances plus the rest times the heuristic's rescaled values
//!   ([`crate::eval::rewards`]); finished games keep their exact result.
//! - **Ordering and widening.** A node's candidates come ranked by the
//!   heuristic; with a guide each candidate's key becomes
//!   `(1 - policy_weight) * heuristic + policy_weight * p(first step)`, where
//!   `p` is the policy head's softmax over the first building steps the
//!   candidates start with (the pass and the cards in hand). Progressive
//!   widening opens candidates in key order, so the policy decides which
//!   cards the search looks at first and which it reaches only when a node is
//!   visited often; the key is also the candidate's prior in selection.
//!
//! Each search thread owns its [`Guide`] (its scratch memory); the network is
//! shared read-only.

use std::sync::Arc;

use crate::features::{features, FEATURES};
use crate::network::{masked_softmax, Network, Output, Scratch, POLICY};
use crate::state::{Move, State, MAX_PLAYERS};

/// How much the search trusts the network; both weights lie in [0, 1].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GuideConfig {
    /// Share of the network in a leaf's rewards (the heuristic has the rest).
    pub value_weight: f64,
    /// Share of the policy in a candidate's rank and prior (the heuristic has the rest).
    pub policy_weight: f64,
}

impl Default for GuideConfig {
    fn default() -> Self {
        GuideConfig {
            value_weight: 0.5,
            policy_weight: 0.5,
        }
    }
}

/// A network and its working memory, for one search thread.
#[derive(Clone, Debug)]
pub struct Guide {
    network: Arc<Network>,
    config: GuideConfig,
    scratch: Scratch,
    input: Vec<f32>,
}

impl Guide {
    /// An error if the network does not read [`FEATURES`] inputs or a weight is outside [0, 1].
    pub fn new(network: Arc<Network>, config: GuideConfig) -> Result<Guide, String> {
        if network.inputs() != FEATURES {
            return Err(format!(
                "the network reads {} features, the core makes {FEATURES}: it was trained on other features",
                network.inputs()
            ));
        }
        for (name, w) in [
            ("value_weight", config.value_weight),
            ("policy_weight", config.policy_weight),
        ] {
            if !(0.0..=1.0).contains(&w) {
                return Err(format!("{name} must lie in [0, 1], got {w}"));
            }
        }
        Ok(Guide {
            scratch: network.scratch(),
            input: vec![0.0; FEATURES],
            network,
            config,
        })
    }

    pub fn config(&self) -> GuideConfig {
        self.config
    }

    /// The network's output for `s` seen by its player to move.
    pub fn evaluate(&mut self, s: &State) -> Output {
        features(s, s.player, &mut self.input);
        self.network.evaluate(&self.input, &mut self.scratch)
    }

    /// Each player's win chance by the network, absolute seats (seats beyond the game: 0).
    pub fn win_chances(&mut self, s: &State) -> [f64; MAX_PLAYERS] {
        let out = self.evaluate(s);
        let players = s.players as usize;
        let mut chances = [0.0; MAX_PLAYERS];
        for (relative, &v) in out.values.iter().enumerate().take(players) {
            chances[(s.player as usize + relative) % players] = f64::from(v);
        }
        chances
    }

    /// A leaf's rewards: the heuristic's `rewards` mixed with the network's
    /// win chances (a finished game keeps its result).
    pub fn leaf(&mut self, s: &State, heuristic: [f64; MAX_PLAYERS]) -> [f64; MAX_PLAYERS] {
        self.leaf_and_logits(s, heuristic).0
    }

    /// [`Guide::leaf`] and the policy logits of the same evaluation, kept by
    /// the search for the node's candidates (None: the network was not asked).
    pub fn leaf_and_logits(
        &mut self,
        s: &State,
        heuristic: [f64; MAX_PLAYERS],
    ) -> ([f64; MAX_PLAYERS], Option<[f32; POLICY]>) {
        let w = self.config.value_weight;
        if s.is_over() || (w == 0.0 && self.config.policy_weight == 0.0) {
            return (heuristic, None);
        }
        let out = self.evaluate(s);
        let players = s.players as usize;
        let mut mixed = heuristic;
        for (relative, &v) in out.values.iter().enumerate().take(players) {
            let p = (s.player as usize + relative) % players;
            mixed[p] = (1.0 - w) * heuristic[p] + w * f64::from(v);
        }
        (mixed, Some(out.logits))
    }

    /// Re-rank `candidates` of the position `s` (values in [-1, 1] from the
    /// heuristic, as the candidate builder gives them): each value becomes
    /// `2 * key - 1` with the key of the module's notes, best first; ties keep
    /// the heuristic's order.
    pub fn rerank(&mut self, s: &State, candidates: &mut [(f64, Move)]) {
        self.rerank_with(s, candidates, None);
    }

    /// [`Guide::rerank`] with the logits of `s` if already known.
    pub fn rerank_with(
        &mut self,
        s: &State,
        candidates: &mut [(f64, Move)],
        known: Option<[f32; POLICY]>,
    ) {
        let w = self.config.policy_weight;
        if w == 0.0 || candidates.is_empty() {
            return;
        }
        let logits = match known {
            Some(logits) => logits,
            None => self.evaluate(s).logits,
        };
        let mut offered = [false; POLICY];
        for (_, m) in candidates.iter() {
            offered[first_step(m)] = true;
        }
        let p = masked_softmax(&logits, &offered);
        for (value, m) in candidates.iter_mut() {
            let key = (1.0 - w) * (*value + 1.0) * 0.5 + w * f64::from(p[first_step(m)]);
            *value = 2.0 * key - 1.0;
        }
        candidates.sort_by(|a, b| b.0.total_cmp(&a.0));
    }
}

/// The first building step of a move: 0 for the pass, 1 + card for a card play.
fn first_step(m: &Move) -> usize {
    if m.is_pass() {
        0
    } else {
        1 + m.card as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidates::CandidateBuilder;
    use crate::eval::rewards;
    use crate::network::tests::random_file;
    use crate::rng::SplitMix64;
    use crate::setup::new_game;

    fn guide(config: GuideConfig) -> Guide {
        let net = Network::from_bytes(&random_file(FEATURES, &[16], 3)).unwrap();
        Guide::new(Arc::new(net), config).unwrap()
    }

    #[test]
    fn a_network_for_other_features_or_bad_weights_are_refused() {
        let net = Arc::new(Network::from_bytes(&random_file(FEATURES + 1, &[4], 1)).unwrap());
        assert!(Guide::new(net, GuideConfig::default())
            .unwrap_err()
            .contains("features"));
        let net = Arc::new(Network::from_bytes(&random_file(FEATURES, &[4], 1)).unwrap());
        let bad = GuideConfig {
            value_weight: 1.5,
            ..GuideConfig::default()
        };
        assert!(Guide::new(net, bad).unwrap_err().contains("value_weight"));
    }

    #[test]
    fn leaves_mix_the_network_and_the_heuristic() {
        for players in 2..=4 {
            let s = new_game(players, players == 3, 5, 0).unwrap();
            let h = rewards(&s);
            let mut only_heuristic = guide(GuideConfig {
                value_weight: 0.0,
                policy_weight: 0.0,
            });
            assert_eq!(only_heuristic.leaf(&s, h), h);
            let mut only_net = guide(GuideConfig {
                value_weight: 1.0,
                policy_weight: 0.0,
            });
            let net = only_net.win_chances(&s);
            assert_eq!(only_net.leaf(&s, h), net);
            // The player to move gets relative seat 0's value.
            let out = only_net.evaluate(&s);
            assert_eq!(net[s.player as usize], f64::from(out.values[0]));
            let next = (s.player as usize + 1) % players as usize;
            assert_eq!(net[next], f64::from(out.values[1]));
            let mut half = guide(GuideConfig::default());
            for (p, m) in half.leaf(&s, h).iter().enumerate() {
                assert!((m - 0.5 * (h[p] + net[p])).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn reranking_keeps_the_candidates_and_follows_the_policy() {
        let s = new_game(2, false, 7, 0).unwrap();
        let mut cands = Vec::new();
        CandidateBuilder::new().build(&s, &mut SplitMix64::new(1), 3, &mut cands);
        let mut g = guide(GuideConfig {
            value_weight: 0.5,
            policy_weight: 1.0,
        });
        let mut ranked = cands.clone();
        g.rerank(&s, &mut ranked);
        let mut a: Vec<Move> = cands.iter().map(|c| c.1).collect();
        let mut b: Vec<Move> = ranked.iter().map(|c| c.1).collect();
        a.sort_by_key(|m| format!("{m:?}"));
        b.sort_by_key(|m| format!("{m:?}"));
        assert_eq!(a, b);
        // With the policy alone the first step of the best candidate is the likeliest offered one.
        let logits = g.evaluate(&s).logits;
        let best = ranked
            .iter()
            .map(|(_, m)| first_step(m))
            .max_by(|&x, &y| logits[x].total_cmp(&logits[y]))
            .unwrap();
        assert_eq!(first_step(&ranked[0].1), best);
        for w in ranked.windows(2) {
            assert!(w[0].0 >= w[1].0);
        }
        assert!(ranked.iter().all(|(v, _)| (-1.0..=1.0).contains(v)));
    }
}
