"""Your own impartial game, solved by Nimatron's solvers.

Run: python examples/user_game.py
"""

from typing import List, Tuple

import nimatron


class Staircase:
    """Staircase Nim on a tuple of step sizes: move any number of coins from
    a step to the step below; coins on step 0 are out of play."""

    def moves(self, steps: Tuple[int, ...]) -> List[Tuple[int, ...]]:
        out = []
        for i in range(1, len(steps)):
            for k in range(1, steps[i] + 1):
                after = list(steps)
                after[i] -= k
                after[i - 1] += k
                out.append(tuple(after))
        return out


def take_one_two_or_half(n: int) -> List[int]:
    """A one-heap game: take 1 or 2, or halve the heap."""
    return [n - k for k in (1, 2) if k <= n] + ([n // 2] if n >= 2 else [])


def main() -> None:
    game = nimatron.UserGame(Staircase())
    start = (0, 3, 1, 4)
    # Staircase Nim is Nim on the odd steps: 3 ^ 4 = 7, a first-player win.
    print(game.outcome(start), game.grundy(start))
    print("winning moves:", game.winning_moves(start))
    print("misère:", game.outcome(start, misere=True))

    heaps = nimatron.UserGame(take_one_two_or_half)
    values = [heaps.grundy(n) for n in range(20)]
    print(values, heaps.positions_seen)


if __name__ == "__main__":
    main()
