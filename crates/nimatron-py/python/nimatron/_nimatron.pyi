"""Type stubs of the compiled module `nimatron._nimatron` (re-exported by
`nimatron`)."""

from typing import Any, Callable, Dict, Hashable, Iterable, List, Literal, Optional, Protocol, Sequence, Union, overload

import numpy as np
import numpy.typing as npt

__version__: str
DEFAULT_MAX_STATES: int
DEFAULT_MAX_SECONDS: float

HeapPosition = Union[Sequence[int], npt.NDArray[np.integer[Any]]]
"""Heap sizes: a list or tuple of ints, or a one-dimensional NumPy array."""

PositionLike = Union[HeapPosition, str]
"""Heap sizes, or the position's text in the game's notation."""

Outcome = Literal["N", "P"]
Level = Literal["perfect", "hard", "medium", "easy"]

class NimatronError(Exception):
    """Base class of every error Nimatron raises."""

class SpecError(NimatronError, ValueError):
    """A game spec that does not parse (an unknown game, bad parameters)."""

class PositionError(NimatronError, ValueError):
    """A position that does not parse or does not fit the game."""

class IllegalMoveError(NimatronError, ValueError):
    """A move that does not parse or is not legal; the position is unchanged."""

class ConventionError(NimatronError, ValueError):
    """The game is not played under the convention asked for."""

class LimitError(NimatronError, RuntimeError):
    """A solver stopped at a limit; the message names the keyword that raises it."""

class SequenceError(NimatronError, ValueError):
    """A Grundy sequence that cannot be computed as asked."""

class Move:
    """A move: where it leads, in words, and what it is worth."""

    @property
    def heap(self) -> Optional[int]: ...
    @property
    def take(self) -> Optional[int]: ...
    @property
    def to(self) -> Union[List[int], str]: ...
    @property
    def to_text(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def notation(self) -> str: ...
    @property
    def wins(self) -> Optional[bool]: ...
    @property
    def remoteness(self) -> Optional[int]: ...
    @property
    def remoteness_exact(self) -> Optional[bool]: ...
    @property
    def value_text(self) -> Optional[str]: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def __eq__(self, other: object) -> bool: ...

class Analysis:
    """A solved position: who wins, the value, every winning move, and why."""

    @property
    def game(self) -> str: ...
    @property
    def convention(self) -> Literal["normal", "misere"]: ...
    @property
    def misere(self) -> bool: ...
    @property
    def position(self) -> Union[List[int], str]: ...
    @property
    def position_text(self) -> str: ...
    @property
    def outcome(self) -> Outcome: ...
    @property
    def to_move_wins(self) -> bool: ...
    @property
    def grundy(self) -> Optional[int]: ...
    @property
    def nim_sum(self) -> Optional[int]: ...
    @property
    def regime(self) -> Optional[Literal["bouton", "misere-endgame", "misere-ones-only"]]: ...
    @property
    def remoteness(self) -> Optional[int]: ...
    @property
    def remoteness_exact(self) -> Optional[bool]: ...
    @property
    def winning_moves(self) -> List[Move]: ...
    @property
    def winning_moves_total(self) -> int: ...
    @property
    def moves(self) -> Optional[List[Move]]: ...
    @property
    def explanation(self) -> str: ...
    @property
    def method(self) -> str: ...
    @property
    def states(self) -> Optional[int]: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...

def analyze(
    position: PositionLike,
    misere: bool = False,
    *,
    game: str = "nim",
    max_moves: Optional[int] = None,
    every_move: bool = False,
    max_states: int = ...,
    max_seconds: Optional[float] = ...,
) -> Analysis:
    """Analyse a position of any catalogue game (Nim by default)."""

class Game:
    """A catalogue game and a position in it, to analyse and play."""

    def __init__(
        self,
        spec: str = "nim",
        position: Optional[PositionLike] = None,
        *,
        misere: bool = False,
        max_states: int = ...,
        max_seconds: Optional[float] = ...,
    ) -> None: ...
    @property
    def spec(self) -> str: ...
    @property
    def position(self) -> Union[List[int], str]: ...
    @position.setter
    def position(self, position: PositionLike) -> None: ...
    @property
    def position_text(self) -> str: ...
    @property
    def misere(self) -> bool: ...
    @property
    def convention_name(self) -> Literal["normal", "misere"]: ...
    @property
    def conventions(self) -> List[Literal["normal", "misere"]]: ...
    @property
    def position_syntax(self) -> str: ...
    @property
    def move_syntax(self) -> str: ...
    @property
    def history(self) -> List[str]: ...
    @property
    def is_over(self) -> bool: ...
    def analyze(
        self,
        position: Optional[PositionLike] = None,
        *,
        max_moves: Optional[int] = None,
        every_move: bool = False,
    ) -> Analysis: ...
    def outcome(self, position: Optional[PositionLike] = None) -> Outcome: ...
    def legal_moves(self, position: Optional[PositionLike] = None) -> List[Move]: ...
    def play(self, move: Union[str, Move]) -> Move: ...
    def undo(self) -> bool: ...
    def computer_move(self, level: Level = "perfect", *, seed: Optional[int] = None) -> Optional[Move]: ...
    def copy(self) -> "Game": ...
    def __copy__(self) -> "Game": ...

class GrundySequence:
    """The Grundy values G(0..=n) of a heap game, and its period."""

    @property
    def game(self) -> str: ...
    @property
    def values(self) -> npt.NDArray[Union[np.uint16, np.uint32]]: ...
    @property
    def to(self) -> int: ...
    @property
    def period(self) -> Optional[int]: ...
    @property
    def preperiod(self) -> Optional[int]: ...
    @property
    def proven(self) -> bool: ...
    @property
    def max_value(self) -> int: ...
    @property
    def method(self) -> str: ...
    @property
    def simd(self) -> str: ...
    @property
    def values_to_prove(self) -> Optional[int]: ...
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> npt.NDArray[Union[np.uint16, np.uint32]]: ...

class _Bar(Protocol):
    """A progress bar such as tqdm's: `update(n)` adds n."""

    def update(self, n: int = ...) -> Any: ...

Progress = Union[None, bool, Callable[[int, int], object], _Bar]
"""None, True (a tqdm bar), a bar with update(n), or progress(done, total)."""

def grundy_sequence(
    spec: str,
    n: int,
    *,
    threads: Optional[int] = None,
    algorithm: Literal["auto", "naive", "sparse", "plain"] = "auto",
    simd: Literal["auto", "avx512", "avx2", "portable", "none"] = "auto",
    memory_limit: Optional[float] = None,
    progress: Progress = None,
) -> GrundySequence:
    """The Grundy values G(0..=n) of a single heap of a heap game."""

def census(
    digits: int,
    n: int,
    *,
    leading: int = 0,
    threads: Optional[int] = None,
    progress: Progress = None,
) -> List[Dict[str, Any]]:
    """A census of the octal codes of up to `digits` digits, by class."""

class _Rules(Protocol):
    def moves(self, position: Any, /) -> Iterable[Hashable]: ...

class UserGame:
    """An impartial game defined in Python, solved by Nimatron's solvers."""

    def __init__(
        self,
        rules: Union[_Rules, Callable[[Any], Iterable[Hashable]]],
        *,
        components: Optional[Callable[[Any], Iterable[Hashable]]] = None,
        max_states: int = ...,
        max_seconds: Optional[float] = ...,
    ) -> None: ...
    def grundy(self, position: Hashable) -> int: ...
    def outcome(self, position: Hashable, misere: bool = False) -> Outcome: ...
    def winning_moves(self, position: Hashable, misere: bool = False) -> List[Any]: ...
    @property
    def positions_seen(self) -> int: ...
    def clear(self) -> None: ...
