from kingisdead import GameState


def test_new_game_has_moves():
    assert GameState.new(2, seed=1).legal_moves()
