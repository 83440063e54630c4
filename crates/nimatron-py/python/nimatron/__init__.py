"""Nimatron: perfect play, explanations and Sprague–Grundy values for Nim
and its family of impartial games, from Python.

>>> import nimatron
>>> a = nimatron.analyze([3, 4, 5])
>>> a.outcome, a.nim_sum
('N', 2)
>>> [m.text for m in a.winning_moves]
['Take 2 from heap A (3 → 1)']
>>> seq = nimatron.grundy_sequence("kayles", 1000)
>>> seq.period, seq.preperiod, seq.proven
(12, 71, True)
>>> [g["name"] for g in nimatron.games() if g["grundy_sequence"]][:3]
['subtraction', 'modular', 'octal']

The full guide is docs/python.md in the Nimatron repository.
"""

# NumPy first: the sequences' values are NumPy arrays, and importing it
# here (where a scientific package's import cost is expected) spares the
# first call the 60 ms or more of importing it then.
import numpy as _numpy  # noqa: F401

from ._nimatron import (
    DEFAULT_MAX_SECONDS,
    DEFAULT_MAX_STATES,
    Analysis,
    ConventionError,
    Game,
    GrundySequence,
    IllegalMoveError,
    LimitError,
    MisereQuotient,
    Move,
    NimatronError,
    PositionError,
    SequenceError,
    SpecError,
    UserGame,
    __version__,
    analyze,
    census,
    games,
    grundy_sequence,
    misere_quotient,
)

__all__ = [
    "DEFAULT_MAX_SECONDS",
    "DEFAULT_MAX_STATES",
    "Analysis",
    "ConventionError",
    "Game",
    "GrundySequence",
    "IllegalMoveError",
    "LimitError",
    "MisereQuotient",
    "Move",
    "NimatronError",
    "PositionError",
    "SequenceError",
    "SpecError",
    "UserGame",
    "__version__",
    "analyze",
    "census",
    "games",
    "grundy_sequence",
    "misere_quotient",
]
