"""Nim and the catalogue games from Python: analyse, explain, play.

Run: python examples/quickstart.py (after scripts/python-tests.sh, in
target/py-venv).
"""

from typing import List

import numpy as np

import nimatron


def main() -> None:
    # Bob and Alice's game from Wikipedia's Nim article: heaps 3, 4, 5.
    a = nimatron.analyze([3, 4, 5])
    print(a.explanation)
    best = a.winning_moves[0]
    print(f"{a.outcome}: {best.text}, leaving {best.to}, {best.value_text}")

    # Misère play changes only the endgame.
    m = nimatron.analyze([0, 2, 1], misere=True)
    print(m.regime, [move.notation for move in m.winning_moves])

    # A million heaps from NumPy: Bouton's scan, in place.
    heaps = np.random.default_rng(1).integers(0, 2**40, size=10**6, dtype=np.uint64)
    big = nimatron.analyze(heaps)
    print(big.nim_sum, big.winning_moves_total)

    # Any catalogue game; positions as lists of heaps, or text.
    game = nimatron.Game("kayles", [4, 7])
    print(game)
    while not game.is_over:
        move = game.computer_move(level="perfect")
        assert move is not None
        game.play(move)
    history: List[str] = game.history
    print("moves played:", ", ".join(history))

    try:
        nimatron.Game("nim", [3, 4, 5]).play("A 9")
    except nimatron.IllegalMoveError as e:
        print("refused:", e)


if __name__ == "__main__":
    main()
