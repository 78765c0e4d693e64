//! N games stepped at once, one encoded step per game per call: the engine of
//! `kingisdead/interfaces/vector.py`, which gives it NumPy buffers to fill.
//!
//! Every output goes into caller-owned flat slices (row i for game i), so a
//! step allocates nothing per game. A game that ends is set up anew, from the
//! seed the caller passes for it, at the next call or at once ([`Autoreset`]).
//! The games are of the standard game or all of the advanced game (secret
//! Cunning cards), whose observations are the seat to act's view alone and
//! whose rows are wider ([`VecEnv::observation_size`], [`VecEnv::num_actions`]).

use crate::encoding::{observe, returns, ADVANCED_OBSERVATION_SIZE, OBSERVATION_SIZE};
use crate::setup::{check_setup_arguments, new_game_in_mode};
use crate::state::State;
use crate::state::MAX_PLAYERS;
use crate::stepping::{SteppedGame, ADVANCED_NUM_ACTIONS, NUM_ACTIONS};

/// Where one call writes, each a flat row-major buffer with one row per game.
pub struct Outputs<'a> {
    /// `num_envs * observation_size`: the observation of the seat to act.
    pub observations: &'a mut [f32],
    /// `num_envs * num_actions`: 1 for each integer offered now (all 0 once over).
    pub masks: &'a mut [i8],
    /// `num_envs`: the seat to act (the observer of the row).
    pub seats: &'a mut [i8],
}

/// What a step returns besides the observations.
pub struct StepOutputs<'a> {
    /// `num_envs`: the reward of the seat that took the step.
    pub rewards: &'a mut [f32],
    /// `num_envs * players`: every seat's reward from this step.
    pub seat_rewards: &'a mut [f32],
    /// `num_envs`: the game ended with this step.
    pub terminated: &'a mut [bool],
    /// `num_envs`: the game was set up anew by this step.
    pub reset: &'a mut [bool],
    /// `num_envs * observation_size`, same-step autoreset only: the last
    /// observation of each game that ended with this step (other rows untouched).
    pub final_observations: Option<&'a mut [f32]>,
}

/// When a finished game is set up anew (Gymnasium's autoreset modes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Autoreset {
    /// At the next step, which ignores that game's action and pays nothing.
    NextStep,
    /// In the step that ended it: the step returns the new game's first
    /// observation, and the last one goes to `final_observations`.
    SameStep,
}

/// A batch of games of one configuration.
pub struct VecEnv {
    /// The edition (index into `board::EDITIONS`), its option bits and the
    /// mode (`State::mode`: 0 the standard game, else the advanced game's bits).
    edition: u8,
    options: u8,
    mode: u16,
    players: u8,
    mordred: bool,
    first_player: u8,
    autoreset: Autoreset,
    games: Vec<SteppedGame>,
}

impl VecEnv {
    /// `num_envs` games of `players` (2-4) seats of `edition` with `options`
    /// in `mode` (as `State` holds them), set up from `seeds`; the errors are
    /// the setup's own messages.
    pub fn new(
        (edition, options, mode): (u8, u8, u16),
        players: u8,
        mordred: bool,
        first_player: u8,
        seeds: &[u64],
        autoreset: Autoreset,
    ) -> Result<VecEnv, String> {
        check_setup_arguments(players, first_player)?;
        if seeds.is_empty() {
            return Err("a vector environment needs at least one game".into());
        }
        let games = seeds
            .iter()
            .map(|&seed| {
                new_game_in_mode(edition, options, mode, players, mordred, seed, first_player)
                    .map(SteppedGame::new)
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(VecEnv {
            edition,
            options,
            mode,
            players,
            mordred,
            first_player,
            autoreset,
            games,
        })
    }

    /// What sets a game of this batch up from a seed (a copy, so that it can
    /// be used while the games are borrowed).
    fn setup(&self) -> impl Fn(u64, u8) -> Result<State, String> {
        let (edition, options, mode, players, mordred) = (
            self.edition,
            self.options,
            self.mode,
            self.players,
            self.mordred,
        );
        move |seed, first_player| {
            new_game_in_mode(edition, options, mode, players, mordred, seed, first_player)
        }
    }

    /// The length of one observation row: 456, or 770 in the advanced game.
    pub fn observation_size(&self) -> usize {
        if self.mode != 0 {
            ADVANCED_OBSERVATION_SIZE
        } else {
            OBSERVATION_SIZE
        }
    }

    /// The length of one mask row: 21, or 37 in the advanced game.
    pub fn num_actions(&self) -> usize {
        if self.mode != 0 {
            ADVANCED_NUM_ACTIONS
        } else {
            NUM_ACTIONS
        }
    }

    pub fn num_envs(&self) -> usize {
        self.games.len()
    }

    pub fn players(&self) -> u8 {
        self.players
    }

    pub fn game(&self, index: usize) -> &SteppedGame {
        &self.games[index]
    }

    /// Sets every game up anew from its seed, with `first_player` to start.
    pub fn reset(&mut self, seeds: &[u64], first_player: u8, out: Outputs) -> Result<(), String> {
        check_setup_arguments(self.players, first_player)?;
        self.check_len("seeds", seeds.len())?;
        self.first_player = first_player;
        let setup = self.setup();
        for (game, &seed) in self.games.iter_mut().zip(seeds) {
            game.restart(setup(seed, first_player)?);
        }
        self.write(out);
        Ok(())
    }

    /// Refuses the batch if any running game is not offered its integer
    /// (games already over are set up anew and ignore theirs).
    pub fn check(&self, actions: &[i64]) -> Result<(), String> {
        self.check_len("actions", actions.len())?;
        for (i, (game, &action)) in self.games.iter().zip(actions).enumerate() {
            if !game.is_over() && !game.offers(action) {
                return Err(format!(
                    "game {i} (player {} to act): {}",
                    game.state.player + 1,
                    game.refusal(action)
                ));
            }
        }
        Ok(())
    }

    /// One step in every game: the integer `actions[i]` for game i, or, for a
    /// game over since the last call, a new game from `seeds[i]` (with
    /// same-step autoreset a game that ends is replaced at once, from the same
    /// seed). Checked first ([`VecEnv::check`]): on an error no game has changed.
    pub fn step(
        &mut self,
        actions: &[i64],
        seeds: &[u64],
        out: Outputs,
        mut step: StepOutputs,
    ) -> Result<(), String> {
        self.check(actions)?;
        self.check_len("seeds", seeds.len())?;
        let n = self.players as usize;
        let width = self.observation_size();
        let mut seat_rewards = [0.0f32; MAX_PLAYERS];
        let setup = self.setup();
        for (i, game) in self.games.iter_mut().enumerate() {
            let row = &mut step.seat_rewards[i * n..(i + 1) * n];
            if game.is_over() {
                game.restart(setup(seeds[i], self.first_player)?);
                step.rewards[i] = 0.0;
                row.fill(0.0);
                step.terminated[i] = false;
                step.reset[i] = true;
                continue;
            }
            let actor = game.state.player as usize;
            game.step(actions[i])?;
            returns(&game.state, &mut seat_rewards);
            row.copy_from_slice(&seat_rewards[..n]);
            step.rewards[i] = seat_rewards[actor];
            step.terminated[i] = game.is_over();
            step.reset[i] = false;
            if game.is_over() && self.autoreset == Autoreset::SameStep {
                if let Some(finals) = step.final_observations.as_deref_mut() {
                    let obs = &mut finals[i * width..(i + 1) * width];
                    observe(&game.state, game.state.player as usize, game.steps(), obs);
                }
                game.restart(setup(seeds[i], self.first_player)?);
                step.reset[i] = true;
            }
        }
        self.write(out);
        Ok(())
    }

    /// The observation, mask and seat to act of every game.
    pub fn write(&self, out: Outputs) {
        let (width, actions) = (self.observation_size(), self.num_actions());
        for (i, game) in self.games.iter().enumerate() {
            let seat = game.state.player as usize;
            let obs = &mut out.observations[i * width..(i + 1) * width];
            observe(&game.state, seat, game.steps(), obs);
            let mask = &mut out.masks[i * actions..(i + 1) * actions];
            let offered = game.offered();
            for (a, slot) in mask.iter_mut().enumerate() {
                *slot = (offered >> a & 1) as i8;
            }
            out.seats[i] = seat as i8;
        }
    }

    fn check_len(&self, what: &str, len: usize) -> Result<(), String> {
        if len != self.games.len() {
            return Err(format!(
                "{what}: expected one per game ({}), got {len}",
                self.games.len()
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{ADVANCED, FIRST, FIRST_EDITION, SECOND_EDITION};
    use crate::rng::SplitMix64;
    use crate::setup::{new_game, new_game_in_mode};

    const FIRST_RULES: (u8, u8, u16) = (FIRST_EDITION, FIRST.default_options(), 0);
    const ADVANCED_RULES: (u8, u8, u16) = (SECOND_EDITION, 0, ADVANCED);

    struct Buffers {
        obs: Vec<f32>,
        masks: Vec<i8>,
        seats: Vec<i8>,
        rewards: Vec<f32>,
        seat_rewards: Vec<f32>,
        terminated: Vec<bool>,
        reset: Vec<bool>,
        finals: Vec<f32>,
    }

    impl Buffers {
        fn new(env: &VecEnv) -> Buffers {
            let (n, players) = (env.num_envs(), env.players() as usize);
            Buffers {
                obs: vec![0.0; n * env.observation_size()],
                masks: vec![0; n * env.num_actions()],
                seats: vec![0; n],
                rewards: vec![0.0; n],
                seat_rewards: vec![0.0; n * players],
                terminated: vec![false; n],
                reset: vec![false; n],
                finals: vec![0.0; n * env.observation_size()],
            }
        }

        fn step(&mut self, env: &mut VecEnv, actions: &[i64], seeds: &[u64]) -> Result<(), String> {
            let out = Outputs {
                observations: &mut self.obs,
                masks: &mut self.masks,
                seats: &mut self.seats,
            };
            let step = StepOutputs {
                rewards: &mut self.rewards,
                seat_rewards: &mut self.seat_rewards,
                terminated: &mut self.terminated,
                reset: &mut self.reset,
                final_observations: Some(&mut self.finals),
            };
            env.step(actions, seeds, out, step)
        }
    }

    fn random_actions(masks: &[i8], width: usize, rng: &mut SplitMix64) -> Vec<i64> {
        masks
            .chunks(width)
            .map(|row| {
                let offered: Vec<usize> = (0..width).filter(|&a| row[a] == 1).collect();
                if offered.is_empty() {
                    0
                } else {
                    offered[rng.index(offered.len())] as i64
                }
            })
            .collect()
    }

    #[test]
    fn games_end_pay_and_start_again_at_the_next_step() {
        let n = 4;
        let mut env =
            VecEnv::new(FIRST_RULES, 3, true, 0, &[1, 2, 3, 4], Autoreset::NextStep).unwrap();
        let mut b = Buffers::new(&env);
        let mut rng = SplitMix64::new(7);
        let mut ended = vec![0; n];
        let seeds = [10, 20, 30, 40];
        b.step(&mut env, &[0, 0, 0, 0], &seeds).unwrap(); // all pass: legal at the start
        for _ in 0..3000 {
            let was_over: Vec<bool> = env.games.iter().map(|g| g.is_over()).collect();
            let actions = random_actions(&b.masks, NUM_ACTIONS, &mut rng);
            b.step(&mut env, &actions, &seeds).unwrap();
            for i in 0..n {
                assert_eq!(b.reset[i], was_over[i]);
                let row = &b.seat_rewards[i * 3..(i + 1) * 3];
                if b.terminated[i] {
                    ended[i] += 1;
                    let all_zero = row.iter().all(|&r| r == 0.0);
                    assert!(
                        all_zero || (row.contains(&1.0) && row.contains(&-1.0)),
                        "{row:?}"
                    );
                    assert!(b.masks[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS]
                        .iter()
                        .all(|&m| m == 0));
                } else {
                    assert!(row.iter().all(|&r| r == 0.0));
                    assert!(b.masks[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS].contains(&1));
                }
            }
        }
        assert!(
            ended.iter().all(|&e| e >= 2),
            "every game ended and restarted: {ended:?}"
        );
    }

    #[test]
    fn with_same_step_autoreset_a_game_ends_and_restarts_in_one_step() {
        let mut env = VecEnv::new(FIRST_RULES, 2, false, 0, &[1, 2], Autoreset::SameStep).unwrap();
        let mut b = Buffers::new(&env);
        let mut rng = SplitMix64::new(3);
        env.write(Outputs {
            observations: &mut b.obs,
            masks: &mut b.masks,
            seats: &mut b.seats,
        });
        let mut ended = 0;
        while ended < 3 {
            let before = env.games.clone();
            let actions = random_actions(&b.masks, NUM_ACTIONS, &mut rng);
            b.step(&mut env, &actions, &[77, 78]).unwrap();
            for i in 0..2 {
                assert!(!env.games[i].is_over(), "never left over");
                assert_eq!(b.reset[i], b.terminated[i]);
                if b.terminated[i] {
                    ended += 1;
                    let mut replay = before[i].clone();
                    let actor = replay.state.player as usize;
                    replay.step(actions[i]).unwrap();
                    let finished = replay.state;
                    assert!(finished.is_over());
                    let mut expected = vec![0.0; OBSERVATION_SIZE];
                    observe(&finished, finished.player as usize, &[], &mut expected);
                    let row = &b.finals[i * OBSERVATION_SIZE..(i + 1) * OBSERVATION_SIZE];
                    assert_eq!(row, &expected[..]);
                    let mut paid = [0.0f32; MAX_PLAYERS];
                    returns(&finished, &mut paid);
                    assert_eq!(&b.seat_rewards[i * 2..i * 2 + 2], &paid[..2]);
                    assert_eq!(b.rewards[i], paid[actor]);
                    let fresh = new_game(2, false, 77 + i as u64, 0).unwrap();
                    assert_eq!(env.games[i].state, fresh);
                }
            }
        }
    }

    #[test]
    fn a_batch_with_one_refused_integer_changes_no_game() {
        let mut env = VecEnv::new(FIRST_RULES, 2, false, 0, &[5, 6], Autoreset::NextStep).unwrap();
        let mut b = Buffers::new(&env);
        let before: Vec<_> = env.games.iter().map(|g| g.state).collect();
        let error = b.step(&mut env, &[0, 8], &[0, 0]).unwrap_err();
        assert!(
            error.starts_with("game 1 (player 1 to act): action 8"),
            "{error}"
        );
        let after: Vec<_> = env.games.iter().map(|g| g.state).collect();
        assert_eq!(before, after);
        assert!(b
            .step(&mut env, &[0], &[0, 0])
            .unwrap_err()
            .contains("expected one per game (2), got 1"));
    }

    #[test]
    fn bad_configurations_are_refused() {
        assert!(VecEnv::new(FIRST_RULES, 5, false, 0, &[1], Autoreset::NextStep).is_err());
        assert!(VecEnv::new(FIRST_RULES, 2, false, 2, &[1], Autoreset::NextStep).is_err());
        assert!(VecEnv::new(FIRST_RULES, 2, false, 0, &[], Autoreset::NextStep).is_err());
    }

    #[test]
    fn advanced_games_step_as_single_stepped_games_seen_by_the_seat_to_act() {
        let seeds = [3, 4, 5];
        let mut env =
            VecEnv::new(ADVANCED_RULES, 3, false, 0, &seeds, Autoreset::SameStep).unwrap();
        assert_eq!((env.observation_size(), env.num_actions()), (770, 37));
        let mut b = Buffers::new(&env);
        let (width, actions_width) = (env.observation_size(), env.num_actions());
        env.write(Outputs {
            observations: &mut b.obs,
            masks: &mut b.masks,
            seats: &mut b.seats,
        });
        let setup = |seed| new_game_in_mode(SECOND_EDITION, 0, ADVANCED, 3, false, seed, 0);
        let mut twins: Vec<SteppedGame> = seeds
            .iter()
            .map(|&seed| SteppedGame::new(setup(seed).unwrap()))
            .collect();
        let mut rng = SplitMix64::new(5);
        let (mut ended, mut cunning_offered) = (0, 0);
        let mut expected = vec![0.0; width];
        while ended < 4 {
            let actions = random_actions(&b.masks, actions_width, &mut rng);
            b.step(&mut env, &actions, &[9, 10, 11]).unwrap();
            for (i, twin) in twins.iter_mut().enumerate() {
                twin.step(actions[i]).unwrap();
                if twin.is_over() {
                    assert!(b.terminated[i]);
                    let mut paid = [0.0f32; MAX_PLAYERS];
                    returns(&twin.state, &mut paid);
                    assert_eq!(&b.seat_rewards[i * 3..i * 3 + 3], &paid[..3]);
                    *twin = SteppedGame::new(setup(9 + i as u64).unwrap());
                    ended += 1;
                }
                assert_eq!(env.games[i].state, twin.state);
                let seat = twin.state.player as usize;
                observe(&twin.state, seat, twin.steps(), &mut expected);
                assert_eq!(&b.obs[i * width..(i + 1) * width], &expected[..]);
                let mask = &b.masks[i * actions_width..(i + 1) * actions_width];
                for (a, &m) in mask.iter().enumerate() {
                    assert_eq!(m == 1, twin.offers(a as i64));
                }
                cunning_offered +=
                    mask[crate::stepping::CUNNING_BASE as usize..].contains(&1) as usize;
            }
        }
        assert!(
            cunning_offered > 50,
            "Cunning cards were offered {cunning_offered} times"
        );
    }
}
