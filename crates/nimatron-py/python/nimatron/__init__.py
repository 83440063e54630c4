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

The full guide is docs/python.md in the Nimatron repository.
"""

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
    "grundy_sequence",
    "misere_quotient",
]
