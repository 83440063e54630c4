"""Shared helpers: the repository's published tables, and plain reference
solvers written in Python (independent of the Rust code under test)."""

from __future__ import annotations

import functools
import pathlib
from typing import Callable, Dict, Hashable, Iterable, List, Sequence, Tuple

REPO = pathlib.Path(__file__).resolve().parents[3]
DATA = REPO / "tests" / "data"


def published_values(name: str) -> List[int]:
    """The values of a table in tests/data (comments start with '#')."""
    numbers: List[int] = []
    offset = 0
    for line in (DATA / name).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("offset:"):
            offset = int(line.split(":", 1)[1])
            continue
        numbers.extend(int(w) for w in line.replace(",", " ").split())
    assert offset == 0, f"{name}: offset {offset} not handled"
    return numbers


def mex(values: Iterable[int]) -> int:
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


def nim_options(heaps: Tuple[int, ...]) -> List[Tuple[int, Tuple[int, ...]]]:
    """Every Nim move as (heap index, take) with the resulting heaps."""
    out = []
    for i, h in enumerate(heaps):
        for take in range(1, h + 1):
            after = heaps[:i] + (h - take,) + heaps[i + 1 :]
            out.append(((i, take), after))
    return out  # type: ignore[return-value]


@functools.lru_cache(maxsize=None)
def nim_minimax(heaps: Tuple[int, ...], misere: bool) -> Tuple[bool, int]:
    """Exhaustive minimax: (player to move wins, remoteness).

    Remoteness: the winner plays to end the game as soon as possible, the
    loser to make it last; a terminal position has remoteness 0.
    """
    options = [after for _, after in nim_options(heaps)]
    if not options:
        # No move: under normal play the player to move has lost; under
        # misère play the previous player took the last object and lost.
        return (misere, 0)
    results = [nim_minimax(o, misere) for o in options]
    losing_for_opponent = [r for (wins, r) in results if not wins]
    if losing_for_opponent:
        return (True, 1 + min(losing_for_opponent))
    return (False, 1 + max(r for (_, r) in results))


def grundy_by_mex(moves: Callable[[int], Sequence[int]], n: int) -> List[int]:
    """G(0..=n) of a one-heap game whose options are single heaps."""
    g: List[int] = []
    for k in range(n + 1):
        g.append(mex(g[o] for o in moves(k)))
    return g


def octal_values(code: str, n: int) -> List[int]:
    """G(0..=n) of an octal game by the plain definition (digits d_1 d_2 ...
    after the point: bit 1 take the whole heap of k, bit 2 leave one heap,
    bit 4 leave two non-empty heaps)."""
    digits = [int(c) for c in code.split(".", 1)[1]]
    g: List[int] = []
    for heap in range(n + 1):
        options = set()
        for k, d in enumerate(digits, start=1):
            rest = heap - k
            if rest < 0:
                continue
            if d & 1 and rest == 0:
                options.add(0)
            if d & 2 and rest > 0:
                options.add(g[rest])
            if d & 4 and rest > 1:
                for a in range(1, rest // 2 + 1):
                    options.add(g[a] ^ g[rest - a])
        g.append(mex(options))
    return g


def grundy_game_values(n: int) -> List[int]:
    """Grundy's game: split a heap into two unequal non-empty heaps."""
    g: List[int] = []
    for heap in range(n + 1):
        g.append(mex(g[a] ^ g[heap - a] for a in range(1, (heap + 1) // 2) if a != heap - a))
    return g


def outcome_minimax(
    moves: Callable[[Hashable], Iterable[Hashable]], misere: bool
) -> Callable[[Hashable], bool]:
    """Whether the player to move wins, by plain memoised minimax."""
    memo: Dict[Hashable, bool] = {}

    def wins(p: Hashable) -> bool:
        if p not in memo:
            options = list(moves(p))
            memo[p] = misere if not options else any(not wins(o) for o in options)
        return memo[p]

    return wins
