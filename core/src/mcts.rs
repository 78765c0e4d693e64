//! Monte Carlo tree search for 2, 3 and 4 players, the algorithm of
//! `kingisdead/bots/mcts.py` (and the root-parallel pooling of
//! `kingisdead/bots/levels.py`).
//!
//! What the game offers, and how the search uses it:
//!
//! - After the setup there is no chance and, for a player who remembers every
//!   public move, no hidden information: the tree stores exact states.
//! - Every player maximises their own result: max-n backups (Luckhardt and
//!   Irani, "An algorithmic solution of N-person games", AAAI 1986), a node
//!   keeps one total per player and the player to move picks by their own. In
//!   the 4-player game partners share a result, which the evaluation and the
//!   final result already give them.
//! - Moves are large (~19,000 at a 2-player start). A node ranks a short list
//!   of candidates ([`crate::candidates`]) and lets the search see more of it as
//!   the node is visited more, best-ranked first: progressive widening
//!   (Coulom, "Computing Elo ratings of move patterns in the game of Go", 2007;
//!   Chaslot et al., "Progressive strategies for Monte-Carlo tree search", 2008),
//!   `1 + widening * sqrt(visits)` children.
//! - Selection is UCB1 (Kocsis and Szepesvári, "Bandit based Monte-Carlo
//!   planning", 2006) plus a progressive-bias term `prior / (visits + 1)`
//!   (Chaslot et al. 2008) from the heuristic's value of the child.
//! - Leaves are judged by the heuristic after an optional short random rollout:
//!   random games say little about a position here.
//!
//! Nodes live in one arena (`Vec<Node>`, children by index) and store their
//! state; candidate lists and child lists live in two more arenas, so an
//! iteration allocates nothing but amortised arena growth.

use std::collections::HashMap;
use std::time::Instant;

use crate::candidates::CandidateBuilder;
use crate::eval::{evaluate_for, rewards};
use crate::guide::Guide;
use crate::network::POLICY;
use crate::playout::play_random;
use crate::rng::SplitMix64;
use crate::rules;
use crate::state::{Move, State, MAX_PLAYERS};

/// The knobs of the search; the defaults are the tuned ones of Python's `SearchConfig`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// UCB constant; rewards lie in [0, 1].
    pub exploration: f64,
    /// Progressive widening: a node may have `1 + widening * sqrt(visits)` children.
    pub widening: f64,
    /// The same at the root.
    pub root_widening: f64,
    /// Actions drawn for each card in hand when a node's candidates are built.
    pub per_card: usize,
    /// The same at the root.
    pub root_per_card: usize,
    /// Random moves played from a new leaf before it is judged (0: judge it as it is).
    pub rollout_moves: usize,
    /// Weight of the heuristic's value of a child, fading as the child gets visits.
    pub prior_weight: f64,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            exploration: 0.3,
            widening: 1.0,
            root_widening: 2.0,
            per_card: 3,
            root_per_card: 24,
            rollout_moves: 0,
            prior_weight: 1.0,
        }
    }
}

/// How long a search may run: seconds, iterations, or both (whichever ends
/// first), as Python's `Budget`. Iteration budgets make searches repeatable.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    pub seconds: Option<f64>,
    pub iterations: Option<u64>,
}

impl Budget {
    pub fn seconds(seconds: f64) -> Budget {
        Budget {
            seconds: Some(seconds),
            iterations: None,
        }
    }

    pub fn iterations(iterations: u64) -> Budget {
        Budget {
            seconds: None,
            iterations: Some(iterations),
        }
    }
}

/// What the search learnt about one move at the root.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveStats {
    pub mv: Move,
    pub visits: u64,
    /// Mean reward of the mover after this move, in [0, 1] (a win chance estimate).
    pub value: f64,
    /// The heuristic's value of the move alone, rescaled to [0, 1].
    pub prior: f64,
}

/// The root moves the search looked at, most visited first (ties: higher value first).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub moves: Vec<MoveStats>,
    pub iterations: u64,
    pub seconds: f64,
}

impl SearchResult {
    /// The most visited move (Python's `SearchResult.best`).
    pub fn best(&self) -> Move {
        self.moves[0].mv
    }
}

/// No node / not built yet.
const NIL: u32 = u32::MAX;

/// A position in the tree, with its visit count and each player's total reward.
#[derive(Clone, Debug)]
struct Node {
    state: State,
    mv: Move,
    prior: f64,
    visits: u32,
    totals: [f64; MAX_PLAYERS],
    /// This node's candidates are `candidates[cand_start..cand_start + cand_len]`
    /// (`cand_start == NIL`: not built yet). Its children are the first
    /// `next` of them, at `child_ids[cand_start..cand_start + next]`.
    cand_start: u32,
    cand_len: u32,
    next: u32,
}

impl Node {
    fn new(state: State, mv: Move, prior: f64) -> Node {
        Node {
            state,
            mv,
            prior,
            visits: 0,
            totals: [0.0; MAX_PLAYERS],
            cand_start: NIL,
            cand_len: 0,
            next: 0,
        }
    }

    fn mean(&self, player: usize) -> f64 {
        if self.visits > 0 {
            self.totals[player] / f64::from(self.visits)
        } else {
            0.0
        }
    }
}

/// One search from a root position.
struct Mcts {
    config: SearchConfig,
    rng: SplitMix64,
    nodes: Vec<Node>,
    /// Every node's ranked candidates, back to back.
    candidates: Vec<(f64, Move)>,
    /// Parallel to `candidates`: the node made from each candidate, or `NIL`.
    child_ids: Vec<u32>,
    builder: CandidateBuilder,
    path: Vec<u32>,
    /// The learned network's leaf values and candidate order ([`crate::guide`]), if any.
    guide: Option<Guide>,
    /// Policy logits of guided leaves, by node, until the node's candidates are built.
    logits: HashMap<u32, [f32; POLICY]>,
}

impl Mcts {
    fn new(
        state: &State,
        seed: u64,
        config: SearchConfig,
        include: &[Move],
        guide: Option<Guide>,
    ) -> Mcts {
        let mut search = Mcts {
            config,
            rng: SplitMix64::new(seed),
            nodes: vec![Node::new(*state, Move::PASS, 0.5)],
            candidates: Vec::new(),
            child_ids: Vec::new(),
            builder: CandidateBuilder::new(),
            path: Vec::new(),
            guide,
            logits: HashMap::new(),
        };
        search.root_candidates(include);
        search
    }

    /// Appends the candidates of `s` to `self.candidates`, ranked; with a
    /// guide they are reranked by its policy (`known`: the logits of `s` if
    /// already evaluated) and, where it draws, drawn by its step policy.
    fn build_candidates(&mut self, s: &State, per_card: usize, known: Option<[f32; POLICY]>) {
        let start = self.candidates.len();
        match &mut self.guide {
            Some(guide) if guide.draws() => {
                let logits = guide.evaluate(s).logits;
                {
                    let mut score = |m: &Move| guide.draw_score(m);
                    self.builder.build_drawn(
                        s,
                        &mut self.rng,
                        per_card,
                        &mut self.candidates,
                        Some(&mut score),
                    );
                }
                guide.rerank_evaluated(&mut self.candidates[start..], logits);
            }
            Some(guide) => {
                self.builder
                    .build(s, &mut self.rng, per_card, &mut self.candidates);
                guide.rerank_with(s, &mut self.candidates[start..], known);
            }
            None => self
                .builder
                .build(s, &mut self.rng, per_card, &mut self.candidates),
        }
    }

    /// The root's candidates, with `include`'s moves added and judged first.
    fn root_candidates(&mut self, include: &[Move]) {
        let s = self.nodes[0].state;
        let mover = s.player as usize;
        self.build_candidates(&s, self.config.root_per_card, None);
        // Any spelling of an included move is accepted; the candidates use the canonical one.
        let include: Vec<Move> = include.iter().map(rules::canonical).collect();
        for mv in &include {
            assert!(
                rules::is_legal(&s, mv),
                "search: the included move {mv:?} is not legal"
            );
            if !self.candidates.iter().any(|(_, m)| m == mv) {
                let mut after = s;
                rules::play(&mut after, mv);
                self.candidates.push((evaluate_for(&after, mover), *mv));
            }
        }
        if !include.is_empty() {
            // Judge the requested moves first, so that they surely get visits.
            self.candidates.sort_by(|a, b| {
                (!include.contains(&a.1))
                    .cmp(&!include.contains(&b.1))
                    .then(b.0.total_cmp(&a.0))
            });
        }
        self.nodes[0].cand_start = 0;
        self.nodes[0].cand_len = self.candidates.len() as u32;
        self.child_ids.resize(self.candidates.len(), NIL);
    }

    fn run(&mut self, budget: Budget, start: Instant) -> SearchResult {
        let limit = budget.iterations.unwrap_or(u64::MAX);
        let mut iterations = 0;
        while iterations < limit
            && (iterations == 0
                || budget
                    .seconds
                    .is_none_or(|s| start.elapsed().as_secs_f64() < s))
        {
            self.iterate();
            iterations += 1;
        }
        self.result(iterations, start.elapsed().as_secs_f64())
    }

    fn result(&self, iterations: u64, seconds: f64) -> SearchResult {
        let root = &self.nodes[0];
        let mover = root.state.player as usize;
        let start = root.cand_start as usize;
        let mut moves: Vec<MoveStats> = self.child_ids[start..start + root.next as usize]
            .iter()
            .map(|&id| {
                let child = &self.nodes[id as usize];
                MoveStats {
                    mv: child.mv,
                    visits: u64::from(child.visits),
                    value: child.mean(mover),
                    prior: child.prior,
                }
            })
            .collect();
        moves.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.value.total_cmp(&a.value)));
        SearchResult {
            moves,
            iterations,
            seconds,
        }
    }

    /// Selection down to a node that widens (or a finished game), one new
    /// child, its judgement, and the backup along the path.
    fn iterate(&mut self) {
        let mut node = 0u32;
        self.path.clear();
        self.path.push(node);
        while !self.nodes[node as usize].state.is_over() {
            if let Some(child) = self.expand(node) {
                self.path.push(child);
                node = child;
                break;
            }
            node = self.select(node);
            self.path.push(node);
        }
        let values = self.judge(node);
        let players = self.nodes[0].state.players as usize;
        for &id in &self.path {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            for (total, value) in n.totals.iter_mut().zip(&values).take(players) {
                *total += value;
            }
        }
    }

    /// A new child if the node may widen (its candidates are built on its first widening).
    fn expand(&mut self, id: u32) -> Option<u32> {
        let i = id as usize;
        if self.nodes[i].cand_start == NIL {
            let start = self.candidates.len();
            let state = self.nodes[i].state;
            let known = self.logits.remove(&id);
            self.build_candidates(&state, self.config.per_card, known);
            self.child_ids.resize(self.candidates.len(), NIL);
            self.nodes[i].cand_start = start as u32;
            self.nodes[i].cand_len = (self.candidates.len() - start) as u32;
        }
        let node = &self.nodes[i];
        let widening = if id == 0 {
            self.config.root_widening
        } else {
            self.config.widening
        };
        let allowed = 1 + (widening * f64::from(node.visits).sqrt()) as u32;
        if node.next >= allowed || node.next >= node.cand_len {
            return None;
        }
        let slot = (node.cand_start + node.next) as usize;
        let (value, mv) = self.candidates[slot];
        let mut after = node.state;
        rules::play(&mut after, &mv);
        let child = self.nodes.len() as u32;
        self.nodes.push(Node::new(after, mv, (value + 1.0) * 0.5));
        self.child_ids[slot] = child;
        self.nodes[i].next += 1;
        Some(child)
    }

    /// UCB1 with a fading prior by the mover's own total (max-n); an unvisited child first.
    fn select(&self, id: u32) -> u32 {
        let node = &self.nodes[id as usize];
        let mover = node.state.player as usize;
        let c = &self.config;
        let log_n = f64::from(node.visits + 1).ln();
        let start = node.cand_start as usize;
        let children = &self.child_ids[start..start + node.next as usize];
        let mut best = children[0];
        let mut best_score = f64::NEG_INFINITY;
        for &child_id in children {
            let child = &self.nodes[child_id as usize];
            if child.visits == 0 {
                return child_id;
            }
            let n = f64::from(child.visits);
            let score = child.totals[mover] / n
                + c.exploration * (log_n / n).sqrt()
                + c.prior_weight * child.prior / (n + 1.0);
            if score > best_score {
                best = child_id;
                best_score = score;
            }
        }
        best
    }

    fn judge(&mut self, id: u32) -> [f64; MAX_PLAYERS] {
        let mut state = self.nodes[id as usize].state;
        if !state.is_over() {
            for _ in 0..self.config.rollout_moves {
                play_random(&mut state, &mut self.rng);
                if state.is_over() {
                    break;
                }
            }
        }
        let heuristic = rewards(&state);
        let Some(guide) = &mut self.guide else {
            return heuristic;
        };
        if self.config.rollout_moves > 0 {
            return guide.leaf(&state, heuristic);
        }
        // The node's own position: its policy serves when the node's candidates are built.
        let (values, logits) = guide.leaf_and_logits(&state, heuristic);
        if let Some(logits) = logits {
            self.logits.insert(id, logits);
        }
        values
    }
}

/// Search `s` within `budget`; `include` forces moves into the root's
/// candidates and judges them first. Deterministic for a seed under an
/// iteration budget; a time budget stops wherever the clock says (the root's
/// candidates count against it). At least one iteration runs.
///
/// Panics if the game is over, if the budget has neither seconds nor
/// iterations (or 0 iterations), or if an included move is not legal.
pub fn search(
    s: &State,
    budget: Budget,
    seed: u64,
    config: &SearchConfig,
    include: &[Move],
) -> SearchResult {
    let start = Instant::now();
    check(s, budget);
    Mcts::new(s, seed, *config, include, None).run(budget, start)
}

fn check(s: &State, budget: Budget) {
    assert!(
        !s.is_over(),
        "search: the game is over, there is no move to search"
    );
    assert!(
        budget.seconds.is_some() || budget.iterations.is_some(),
        "search: a budget needs seconds, iterations or both"
    );
    assert!(
        budget.iterations != Some(0),
        "search: a budget's iterations must be at least 1"
    );
}

/// Root-parallel search (Chaslot, Winands and van den Herik, "Parallel
/// Monte-Carlo tree search", 2008): `threads` independent searches of `s`, each
/// with its own seed drawn from `seed`, every one with the whole `budget`;
/// visits and value totals are pooled per root move, as Python's
/// `ParallelSearchBot` does. Deterministic for a seed under an iteration budget.
///
/// `iterations` is the sum over the searches, `seconds` the wall time.
/// Panics as [`search`] does.
pub fn parallel_search(
    s: &State,
    budget: Budget,
    seed: u64,
    config: &SearchConfig,
    include: &[Move],
    threads: usize,
) -> SearchResult {
    guided_search(s, budget, seed, config, include, threads, None)
}

/// [`parallel_search`] with the learned network guiding every thread (each
/// gets its own copy of `guide`'s working memory); `None` is the plain search.
/// With one thread and no guide it is [`search`] with the first derived seed.
/// Panics as [`search`] does.
pub fn guided_search(
    s: &State,
    budget: Budget,
    seed: u64,
    config: &SearchConfig,
    include: &[Move],
    threads: usize,
    guide: Option<&Guide>,
) -> SearchResult {
    let start = Instant::now();
    check(s, budget);
    let threads = threads.max(1);
    let mut seeds = SplitMix64::new(seed);
    let seeds: Vec<u64> = (0..threads).map(|_| seeds.next_u64()).collect();
    let results: Vec<SearchResult> = std::thread::scope(|scope| {
        let handles: Vec<_> = seeds[1..]
            .iter()
            .map(|&seed| {
                let guide = guide.cloned();
                scope.spawn(move || Mcts::new(s, seed, *config, include, guide).run(budget, start))
            })
            .collect();
        let mut results =
            vec![Mcts::new(s, seeds[0], *config, include, guide.cloned()).run(budget, start)];
        results.extend(
            handles
                .into_iter()
                .map(|h| h.join().expect("a search thread panicked")),
        );
        results
    });
    pool(&results, start.elapsed().as_secs_f64())
}

/// Visits and value totals summed per move, in the order moves first appear.
fn pool(results: &[SearchResult], seconds: f64) -> SearchResult {
    let mut index: HashMap<Move, usize> = HashMap::new();
    // (move, visits, visits * value summed, prior)
    let mut pooled: Vec<(Move, u64, f64, f64)> = Vec::new();
    for stats in results.iter().flat_map(|r| &r.moves) {
        let i = *index.entry(stats.mv).or_insert_with(|| {
            pooled.push((stats.mv, 0, 0.0, stats.prior));
            pooled.len() - 1
        });
        pooled[i].1 += stats.visits;
        pooled[i].2 += stats.visits as f64 * stats.value;
    }
    pooled.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)));
    let moves = pooled
        .into_iter()
        .map(|(mv, visits, total, prior)| MoveStats {
            mv,
            visits,
            value: if visits > 0 {
                total / visits as f64
            } else {
                0.0
            },
            prior,
        })
        .collect();
    SearchResult {
        moves,
        iterations: results.iter().map(|r| r.iterations).sum(),
        seconds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::new_game;

    #[test]
    fn defaults_are_pythons() {
        let c = SearchConfig::default();
        assert_eq!(
            (c.exploration, c.widening, c.root_widening),
            (0.3, 1.0, 2.0)
        );
        assert_eq!(
            (c.per_card, c.root_per_card, c.rollout_moves, c.prior_weight),
            (3, 24, 0, 1.0)
        );
    }

    #[test]
    fn an_iteration_budget_is_repeatable_and_counted() {
        for players in 2..=4 {
            let s = new_game(players, false, 1, 0).unwrap();
            let config = SearchConfig::default();
            let a = search(&s, Budget::iterations(300), 5, &config, &[]);
            let b = search(&s, Budget::iterations(300), 5, &config, &[]);
            assert_eq!(a.moves, b.moves);
            assert_eq!(a.iterations, 300);
            // Every iteration passes through one root child.
            assert_eq!(a.moves.iter().map(|m| m.visits).sum::<u64>(), 300);
            for w in a.moves.windows(2) {
                assert!(w[0].visits >= w[1].visits);
            }
            for m in &a.moves {
                assert!(rules::is_legal(&s, &m.mv));
                assert!((0.0..=1.0).contains(&m.value) && (0.0..=1.0).contains(&m.prior));
            }
        }
    }

    #[test]
    fn widening_limits_the_root_children() {
        let s = new_game(2, false, 2, 0).unwrap();
        let r = search(
            &s,
            Budget::iterations(100),
            1,
            &SearchConfig::default(),
            &[],
        );
        // 1 + 2 * sqrt(visits) children at most, visits < 100.
        assert!(r.moves.len() <= 1 + (2.0 * 99f64.sqrt()) as usize);
        assert!(r.moves.len() >= 10);
    }

    #[test]
    fn included_moves_are_judged() {
        let s = new_game(2, false, 3, 0).unwrap();
        let mut legal = Vec::new();
        rules::legal_moves(&s, &mut legal);
        let wanted = [legal[legal.len() / 2], legal[legal.len() - 1]];
        let r = search(
            &s,
            Budget::iterations(50),
            1,
            &SearchConfig::default(),
            &wanted,
        );
        for mv in &wanted {
            assert!(r.moves.iter().any(|m| m.mv == *mv && m.visits > 0));
        }
        // Another spelling of a move (a Crown swap written b, a) counts as the move.
        let crown = *legal.iter().find(|m| m.card == 0 && m.len == 3).unwrap();
        let mut spelled = crown;
        spelled.action.swap(0, 1);
        let r = search(
            &s,
            Budget::iterations(5),
            1,
            &SearchConfig::default(),
            &[spelled],
        );
        assert!(r.moves.iter().any(|m| m.mv == crown));
        assert!(r.moves.iter().all(|m| m.mv != spelled));
    }

    #[test]
    fn a_time_budget_stops() {
        let s = new_game(3, true, 4, 0).unwrap();
        let r = search(&s, Budget::seconds(0.05), 1, &SearchConfig::default(), &[]);
        assert!(r.iterations >= 1);
        assert!(r.seconds < 1.0);
    }

    #[test]
    fn rollouts_and_a_finished_game_path() {
        let mut s = new_game(2, false, 6, 0).unwrap();
        let mut rng = SplitMix64::new(1);
        while s.cards_in_hands() > 2 {
            play_random(&mut s, &mut rng);
            assert!(!s.is_over() || s.cards_in_hands() <= 2);
        }
        if !s.is_over() {
            let config = SearchConfig {
                rollout_moves: 4,
                ..SearchConfig::default()
            };
            let r = search(&s, Budget::iterations(500), 2, &config, &[]);
            assert_eq!(r.iterations, 500);
        }
    }

    #[test]
    fn a_guided_search_repeats_plays_legal_moves_and_is_plain_with_zero_weights() {
        use crate::features::FEATURES;
        use crate::guide::{Guide, GuideConfig};
        use crate::network::{tests::random_file, Network};
        use std::sync::Arc;

        let net = Arc::new(Network::from_bytes(&random_file(FEATURES, &[32, 16], 4)).unwrap());
        let guide = Guide::new(net.clone(), GuideConfig::default()).unwrap();
        let config = SearchConfig::default();
        for (players, mordred) in [(2, false), (3, false), (3, true), (4, false)] {
            let s = new_game(players, mordred, 8, 0).unwrap();
            let budget = Budget::iterations(200);
            let a = guided_search(&s, budget, 3, &config, &[], 2, Some(&guide));
            let b = guided_search(&s, budget, 3, &config, &[], 2, Some(&guide));
            assert_eq!(a.moves, b.moves);
            assert_eq!(a.moves.iter().map(|m| m.visits).sum::<u64>(), 400);
            for m in &a.moves {
                assert!(rules::is_legal(&s, &m.mv));
                assert!((0.0..=1.0).contains(&m.value) && (0.0..=1.0).contains(&m.prior));
            }
            let off = Guide::new(
                net.clone(),
                GuideConfig {
                    value_weight: 0.0,
                    policy_weight: 0.0,
                    step_weight: 0.0,
                    draw_weight: 0.0,
                },
            )
            .unwrap();
            let plain = parallel_search(&s, budget, 3, &config, &[], 2);
            let zero = guided_search(&s, budget, 3, &config, &[], 2, Some(&off));
            assert_eq!(plain.moves, zero.moves);
            assert_ne!(plain.moves, a.moves);
        }
    }

    #[test]
    fn parallel_search_pools_and_repeats() {
        let s = new_game(2, false, 1, 0).unwrap();
        let config = SearchConfig::default();
        let a = parallel_search(&s, Budget::iterations(200), 7, &config, &[], 2);
        let b = parallel_search(&s, Budget::iterations(200), 7, &config, &[], 2);
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.iterations, 400);
        assert_eq!(a.moves.iter().map(|m| m.visits).sum::<u64>(), 400);
        // One thread pools to the plain search with the first derived seed.
        let one = parallel_search(&s, Budget::iterations(200), 7, &config, &[], 1);
        let plain = search(
            &s,
            Budget::iterations(200),
            SplitMix64::new(7).next_u64(),
            &config,
            &[],
        );
        assert_eq!(one.moves.len(), plain.moves.len());
        for (x, y) in one.moves.iter().zip(&plain.moves) {
            assert_eq!((x.mv, x.visits), (y.mv, y.visits));
            assert!((x.value - y.value).abs() < 1e-12);
        }
    }
}
