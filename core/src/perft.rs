//! Perft: how many move sequences of a given length a position has, and how
//! many distinct positions they reach (as in chess, where perft pins a move
//! generator down). The table in `tests/perft/perft.json` is checked against
//! these counts as well as the Python reference's.

use std::collections::HashSet;

use crate::rules;
use crate::state::State;

/// `(leaves, distinct)` at `depth` plies: the move sequences of that length
/// (a finished game has no moves) and the distinct positions they end in.
///
/// Positions are told apart as `GameState.key()` tells them apart in Python:
/// the tie-breaks need only the order of the players' latest card plays, so
/// the play numbers themselves are replaced by their ranks.
///
/// Panics if `depth` is 0.
pub fn perft(s: &State, depth: u32) -> (u64, usize) {
    assert!(depth > 0, "perft needs a depth of at least 1");
    let mut distinct = HashSet::new();
    let leaves = walk(s, depth, &mut distinct);
    (leaves, distinct.len())
}

fn walk(s: &State, depth: u32, distinct: &mut HashSet<State>) -> u64 {
    let mut moves = Vec::new();
    rules::legal_moves(s, &mut moves);
    let mut leaves = 0;
    for m in &moves {
        let mut after = *s;
        rules::play(&mut after, m);
        if depth == 1 {
            distinct.insert(position_key(&after));
            leaves += 1;
        } else {
            leaves += walk(&after, depth - 1, distinct);
        }
    }
    leaves
}

/// The state with what Python's `GameState.key()` leaves out normalised away.
pub fn position_key(s: &State) -> State {
    let mut key = *s;
    let n = s.players as usize;
    for p in 0..n {
        let mine = s.last_play[p];
        key.last_play[p] = if mine == 0 {
            0
        } else {
            1 + s.last_play[..n]
                .iter()
                .filter(|&&other| other != 0 && other < mine)
                .count() as u8
        };
    }
    key.plays = 0;
    key.outcome = None;
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::new_game;

    #[test]
    fn depth_one_counts_every_legal_move() {
        let s = new_game(2, false, 1, 0).unwrap();
        let (moves, distinct) = perft(&s, 1);
        assert_eq!(moves, 19_213);
        assert!(distinct <= moves as usize);
    }

    #[test]
    fn the_second_editions_starts_match_its_table() {
        use crate::board::{COURT_REDRAW, EXACT_REVERSAL, SECOND_EDITION};
        use crate::setup::new_game_in;
        // The first entries of tests/perft/perft-second.json: (players, seed, options, counts).
        let table = [
            (2, 1, 0, (19_091, 15_773)),
            (3, 4, 0, (14_831, 12_383)),
            (4, 3, 0, (22_994, 18_362)),
            (3, 5, EXACT_REVERSAL | COURT_REDRAW, (16_036, 14_692)),
        ];
        for (players, seed, options, counts) in table {
            let s = new_game_in(SECOND_EDITION, options, players, false, seed, 0).unwrap();
            assert_eq!(perft(&s, 1), counts, "{players}p seed {seed}");
        }
    }

    #[test]
    fn ranks_replace_play_numbers() {
        let mut s = new_game(3, false, 1, 0).unwrap();
        s.last_play = [7, 0, 3, 0];
        s.plays = 7;
        let key = position_key(&s);
        assert_eq!(key.last_play, [2, 0, 1, 0]);
        assert_eq!(key.plays, 0);
    }
}
