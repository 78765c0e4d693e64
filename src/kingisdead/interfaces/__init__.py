"""Research interfaces: the game for PettingZoo, Gymnasium and OpenSpiel.

:mod:`.encoding` (the fixed action and observation encodings) and
:mod:`.stepping` (a game played one encoded step at a time) need only the
standard library; the adapters (:mod:`.pettingzoo_env`, :mod:`.gym_env`,
:mod:`.openspiel_game`, and the batched :mod:`.vector` on the compiled core) need the ``rl`` extra: ``pip install kingisdead[rl]``.
See docs/rl.md.
"""
