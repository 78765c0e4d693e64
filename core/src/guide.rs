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
//! - **Within a card.** A network with a step policy (format version 2) also
//!   ranks a card's candidates against each other: a candidate's later steps
//!   get a log-likelihood from the step policy (each step softmaxed over the
//!   steps of its kind: regions, or factions and "none"), and its policy term
//!   is multiplied by `exp(step_weight * (loglik - best loglik of the card))`,
//!   so the card's likeliest candidate keeps its card's share and the others
//!   fall behind it. The kinds stand in for the rules' offers, which would
//!   cost a move builder per candidate.
//! - **Drawing.** With `draw_weight` above 0 the step policy also chooses
//!   which of a card's actions become candidates (the plain search draws
//!   them uniformly): `per_card` actions are drawn without replacement with
//!   chances proportional to `exp(draw_weight * loglik)`, by the Gumbel-top-k
//!   trick (Kool, van Hoof and Welling, "Stochastic Beams and Where to Find
//!   Them", 2019), so the same seed still draws the same candidates.
//!
//! Each search thread owns its [`Guide`] (its scratch memory); the network is
//! shared read-only.

use std::sync::Arc;

use crate::features::{features, FEATURES};
use crate::features::{move_steps, FACTION_BASE, MAX_STEPS, REGION_BASE};
use crate::network::{masked_softmax, Network, Output, Scratch, POLICY, STEP_CARDS, STEP_DEPTHS};
use crate::state::{Move, State, MAX_PLAYERS};

/// How much the search trusts the network; both weights lie in [0, 1].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GuideConfig {
    /// Share of the network in a leaf's rewards (the heuristic has the rest).
    pub value_weight: f64,
    /// Share of the policy in a candidate's rank and prior (the heuristic has the rest).
    pub policy_weight: f64,
    /// How sharply the step policy ranks a card's candidates (0: not at all,
    /// 1: by their likelihood); unused by a network without a step policy.
    pub step_weight: f64,
    /// How sharply the step policy draws a card's actions (0: uniformly, as
    /// the plain search; 1: in proportion to their likelihood); unused by a
    /// network without a step policy.
    pub draw_weight: f64,
}

impl Default for GuideConfig {
    fn default() -> Self {
        GuideConfig {
            value_weight: 0.5,
            policy_weight: 0.5,
            step_weight: 0.0,
            draw_weight: 0.0,
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
    /// Log-probabilities of each step by kind for the latest evaluation, by card and step number - 1.
    step_logp: [[Option<[f32; POLICY]>; STEP_DEPTHS]; STEP_CARDS],
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
            ("step_weight", config.step_weight),
            ("draw_weight", config.draw_weight),
        ] {
            if !(0.0..=1.0).contains(&w) {
                return Err(format!("{name} must lie in [0, 1], got {w}"));
            }
        }
        Ok(Guide {
            scratch: network.scratch(),
            input: vec![0.0; FEATURES],
            step_logp: [[None; STEP_DEPTHS]; STEP_CARDS],
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
        self.step_logp = [[None; STEP_DEPTHS]; STEP_CARDS];
        self.network.evaluate(&self.input, &mut self.scratch)
    }

    /// Whether the step policy draws the candidates' actions (a step policy and `draw_weight` above 0).
    pub fn draws(&self) -> bool {
        self.config.draw_weight > 0.0 && self.network.has_steps()
    }

    /// The step policy's log-likelihood of the later steps of `m` (a card play,
    /// with or without its court call) in the latest position evaluated; each
    /// step is softmaxed over the steps of its kind.
    pub fn loglik(&mut self, m: &Move) -> f64 {
        let card = m.card as usize;
        let mut steps = [0u8; MAX_STEPS];
        let len = move_steps(m, &mut steps);
        let mut loglik = 0.0;
        for (k, &action) in steps[..len].iter().enumerate().skip(1) {
            let logp = self.step_logp[card][k - 1].get_or_insert_with(|| {
                let logits = self.network.step_logits(&self.scratch, card, k);
                log_softmax_by_kind(&logits.expect("a network with a step policy"))
            });
            loglik += f64::from(logp[action as usize]);
        }
        loglik
    }

    /// The key of an action of a card when the step policy draws them: its
    /// weighted log-likelihood (add Gumbel noise to draw).
    pub fn draw_score(&mut self, action: &Move) -> f64 {
        self.config.draw_weight * self.loglik(action)
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
        let steps = self.config.step_weight > 0.0 && self.network.has_steps();
        let logits = match known {
            // The step policy reads the trunk of this position: evaluate it again.
            Some(logits) if !steps => logits,
            _ => self.evaluate(s).logits,
        };
        self.rerank_evaluated(candidates, logits);
    }

    /// [`Guide::rerank`] of the candidates of the latest position evaluated, whose logits are `logits`.
    pub fn rerank_evaluated(&mut self, candidates: &mut [(f64, Move)], logits: [f32; POLICY]) {
        let w = self.config.policy_weight;
        if w == 0.0 || candidates.is_empty() {
            return;
        }
        let steps = self.config.step_weight > 0.0 && self.network.has_steps();
        let mut offered = [false; POLICY];
        for (_, m) in candidates.iter() {
            offered[first_step(m)] = true;
        }
        let p = masked_softmax(&logits, &offered);
        let mut within = vec![1.0; candidates.len()];
        if steps {
            self.within_card(candidates, &mut within);
        }
        for ((value, m), share) in candidates.iter_mut().zip(within) {
            let key = (1.0 - w) * (*value + 1.0) * 0.5 + w * f64::from(p[first_step(m)]) * share;
            *value = 2.0 * key - 1.0;
        }
        candidates.sort_by(|a, b| b.0.total_cmp(&a.0));
    }

    /// Each candidate's factor from the step policy, `exp(step_weight *
    /// (loglik - best loglik among the candidates of its card))`, written to
    /// `within`; the position must be the latest one evaluated.
    fn within_card(&mut self, candidates: &[(f64, Move)], within: &mut [f64]) {
        let mut best = [f64::NEG_INFINITY; STEP_CARDS];
        for ((_, m), slot) in candidates.iter().zip(within.iter_mut()) {
            if m.is_pass() {
                continue;
            }
            *slot = self.loglik(m);
            best[m.card as usize] = best[m.card as usize].max(*slot);
        }
        for ((_, m), slot) in candidates.iter().zip(within.iter_mut()) {
            if !m.is_pass() {
                *slot = (self.config.step_weight * (*slot - best[m.card as usize])).exp();
            }
        }
    }
}

/// Log-softmax of `logits` within each kind of later step: the regions, and
/// the factions with "none" (other entries are left at 0: never read).
fn log_softmax_by_kind(logits: &[f32; POLICY]) -> [f32; POLICY] {
    let mut out = [0.0; POLICY];
    for (start, end) in [
        (REGION_BASE as usize, FACTION_BASE as usize),
        (FACTION_BASE as usize, POLICY),
    ] {
        let kind = &logits[start..end];
        let top = kind.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let log_sum = kind.iter().map(|&l| (l - top).exp()).sum::<f32>().ln();
        for (o, &l) in out[start..end].iter_mut().zip(kind) {
            *o = l - top - log_sum;
        }
    }
    out
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
                step_weight: 0.0,
                draw_weight: 0.0,
            });
            assert_eq!(only_heuristic.leaf(&s, h), h);
            let mut only_net = guide(GuideConfig {
                value_weight: 1.0,
                policy_weight: 0.0,
                step_weight: 0.0,
                draw_weight: 0.0,
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
            step_weight: 0.0,
            draw_weight: 0.0,
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

#[cfg(test)]
mod step_tests {
    use super::*;
    use crate::candidates::CandidateBuilder;
    use crate::network::tests::{random_file, random_file_with_steps};
    use crate::rng::SplitMix64;
    use crate::setup::new_game;

    fn ranked(step_weight: f64, seed: u64) -> (Vec<(f64, Move)>, Guide) {
        let net = Network::from_bytes(&random_file_with_steps(FEATURES, &[16], 5)).unwrap();
        let config = GuideConfig {
            value_weight: 0.5,
            policy_weight: 1.0,
            step_weight,
            draw_weight: 0.0,
        };
        let mut g = Guide::new(Arc::new(net), config).unwrap();
        let s = new_game(2, false, seed, 0).unwrap();
        let mut cands = Vec::new();
        CandidateBuilder::new().build(&s, &mut SplitMix64::new(seed), 4, &mut cands);
        g.rerank(&s, &mut cands);
        (cands, g)
    }

    /// The step policy's log-likelihood of a move's later steps, written out plainly.
    fn loglik(g: &mut Guide, s: &State, m: &Move) -> f64 {
        g.evaluate(s);
        let mut steps = [0u8; MAX_STEPS];
        let len = move_steps(m, &mut steps);
        (1..len)
            .map(|k| {
                let logits = g
                    .network
                    .step_logits(&g.scratch, m.card as usize, k)
                    .unwrap();
                let a = steps[k] as usize;
                let kind: Vec<usize> = if a < FACTION_BASE as usize {
                    (REGION_BASE as usize..FACTION_BASE as usize).collect()
                } else {
                    (FACTION_BASE as usize..POLICY).collect()
                };
                let total: f64 = kind.iter().map(|&b| f64::from(logits[b]).exp()).sum();
                f64::from(logits[a]) - total.ln()
            })
            .sum()
    }

    #[test]
    fn the_step_policy_orders_a_cards_candidates_by_their_likelihood() {
        for seed in 1..4 {
            let s = new_game(2, false, seed, 0).unwrap();
            let (plain, _) = ranked(0.0, seed);
            let (stepped, mut g) = ranked(1.0, seed);
            assert_eq!(plain.len(), stepped.len());
            // Without the step weight a card's candidates share its key; with it they follow their likelihood.
            for card in 0..STEP_CARDS {
                let of_card: Vec<&(f64, Move)> = stepped
                    .iter()
                    .filter(|(_, m)| !m.is_pass() && m.card as usize == card)
                    .collect();
                if of_card.len() < 2 {
                    continue;
                }
                let liks: Vec<f64> = of_card.iter().map(|(_, m)| loglik(&mut g, &s, m)).collect();
                for pair in liks.windows(2) {
                    assert!(pair[0] >= pair[1] - 1e-9, "card {card}: {liks:?}");
                }
                let keys: Vec<f64> = plain
                    .iter()
                    .filter(|(_, m)| !m.is_pass() && m.card as usize == card)
                    .map(|c| c.0)
                    .collect();
                assert!(keys.windows(2).all(|k| (k[0] - k[1]).abs() < 1e-12));
            }
        }
    }

    #[test]
    fn a_network_without_a_step_policy_ignores_the_step_weight() {
        let net = Arc::new(Network::from_bytes(&random_file(FEATURES, &[16], 3)).unwrap());
        let s = new_game(3, true, 2, 0).unwrap();
        let mut cands = Vec::new();
        CandidateBuilder::new().build(&s, &mut SplitMix64::new(2), 3, &mut cands);
        let mut orders = Vec::new();
        for step_weight in [0.0, 1.0] {
            let config = GuideConfig {
                step_weight,
                ..GuideConfig::default()
            };
            let mut g = Guide::new(net.clone(), config).unwrap();
            let mut c = cands.clone();
            g.rerank(&s, &mut c);
            orders.push(c);
        }
        assert_eq!(orders[0], orders[1]);
    }

    #[test]
    fn drawn_candidates_are_legal_repeat_and_favour_likely_actions() {
        let net =
            Arc::new(Network::from_bytes(&random_file_with_steps(FEATURES, &[16], 5)).unwrap());
        let config = GuideConfig {
            draw_weight: 1.0,
            ..GuideConfig::default()
        };
        let mut g = Guide::new(net, config).unwrap();
        assert!(g.draws());
        let s = new_game(2, false, 4, 0).unwrap();
        let draw = |g: &mut Guide, seed: u64| {
            g.evaluate(&s);
            let mut out = Vec::new();
            let mut score = |m: &Move| g.draw_score(m);
            CandidateBuilder::new().build_drawn(
                &s,
                &mut SplitMix64::new(seed),
                3,
                &mut out,
                Some(&mut score),
            );
            out
        };
        let a = draw(&mut g, 1);
        assert_eq!(a, draw(&mut g, 1));
        assert!(a.iter().all(|(_, m)| crate::rules::is_legal(&s, m)));
        // Over many draws, the drawn actions are likelier under the step policy than uniform ones.
        let (mut drawn, mut uniform) = (0.0, 0.0);
        for seed in 0..40 {
            let d = draw(&mut g, seed);
            let mut u = Vec::new();
            CandidateBuilder::new().build(&s, &mut SplitMix64::new(seed), 3, &mut u);
            g.evaluate(&s);
            let mean = |g: &mut Guide, c: &[(f64, Move)]| {
                let plays: Vec<Move> = c
                    .iter()
                    .filter(|(_, m)| !m.is_pass())
                    .map(|c| c.1)
                    .collect();
                plays.iter().map(|m| g.loglik(m)).sum::<f64>() / plays.len() as f64
            };
            drawn += mean(&mut g, &d);
            uniform += mean(&mut g, &u);
        }
        assert!(drawn > uniform, "drawn {drawn} uniform {uniform}");
    }
}
