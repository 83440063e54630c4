"""Type stubs of the compiled module `nimatron._nimatron` (re-exported by
`nimatron`)."""

from typing import (
    Any,
    Callable,
    Dict,
    Generic,
    Hashable,
    Iterable,
    List,
    Literal,
    Optional,
    Protocol,
    Tuple,
    TypedDict,
    TypeVar,
    Union,
    overload,
)

import numpy as np
import numpy.typing as npt

__version__: str
DEFAULT_MAX_STATES: int
DEFAULT_MAX_SECONDS: float

HeapPosition = Union[Iterable[int], npt.NDArray[np.integer[Any]]]
"""Heap sizes: any iterable of ints (a list, tuple, range, generator,
iterator), or a one-dimensional NumPy array of integers. Always copied;
bytes, bytearray, sets and dicts raise TypeError (at run time: they are
iterables of ints that are not heap sizes in order)."""

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

    def _repr_html_(self) -> str: ...
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
    def winning_moves_unlisted(self) -> int: ...
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
    max_states: int = 5000000,
    max_seconds: Optional[float] = 120.0,
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
        max_states: int = 5000000,
        max_seconds: Optional[float] = 120.0,
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
    def _repr_html_(self) -> str: ...

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
    def _repr_html_(self) -> str: ...

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

class MisereQuotient:
    """The misère quotient of the sums of heaps 1..=to of a heap game."""

    @property
    def game(self) -> str: ...
    @property
    def to(self) -> int: ...
    @property
    def computed_to(self) -> int: ...
    @property
    def order(self) -> int: ...
    @property
    def tame(self) -> bool: ...
    @property
    def presentation(self) -> str: ...
    @property
    def generators(self) -> List[Tuple[str, int]]: ...
    @property
    def relations(self) -> List[str]: ...
    @property
    def elements(self) -> List[str]: ...
    @property
    def p_portion(self) -> List[str]: ...
    @property
    def images(self) -> List[str]: ...
    @property
    def growth(self) -> List[Tuple[int, int]]: ...
    @property
    def stable_from(self) -> int: ...
    @property
    def period(self) -> Optional[int]: ...
    @property
    def preperiod(self) -> Optional[int]: ...
    @property
    def proven(self) -> bool: ...
    def image(self, n: int) -> str: ...
    def image_of(self, heaps: HeapPosition) -> str: ...
    def outcome(self, heaps: HeapPosition) -> Outcome: ...
    def is_p_position(self, heaps: HeapPosition) -> bool: ...
    def product(self, *elements: str) -> str: ...
    def in_p_portion(self, element: str) -> bool: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def __len__(self) -> int: ...
    def _repr_html_(self) -> str: ...

def misere_quotient(
    spec: str,
    to: int,
    *,
    max_order: int = 10000,
    max_states: int = 5000000,
    max_seconds: Optional[float] = 120.0,
) -> MisereQuotient:
    """The misère quotient of a heap game ("nim", "kayles", "octal:0.137", ...)."""

P = TypeVar("P", bound=Hashable)
"""A user game's positions: any hashable type."""

class _Rules(Protocol[P]):
    def moves(self, position: P, /) -> Iterable[P]: ...

class UserGame(Generic[P]):
    """An impartial game defined in Python, solved by Nimatron's solvers.

    Generic in its positions: `UserGame(rules)` with `rules.moves(n: int)
    -> list[int]` is a `UserGame[int]`, and `winning_moves` gives ints."""

    def __init__(
        self,
        rules: Union[_Rules[P], Callable[[P], Iterable[P]]],
        *,
        components: Optional[Callable[[P], Iterable[P]]] = None,
        max_states: int = 5000000,
        max_seconds: Optional[float] = 120.0,
    ) -> None: ...
    def grundy(self, position: P) -> int: ...
    def outcome(self, position: P, misere: bool = False) -> Outcome: ...
    def winning_moves(self, position: P, misere: bool = False) -> List[P]: ...
    @property
    def positions_seen(self) -> int: ...
    def clear(self) -> None: ...
    def _repr_html_(self) -> str: ...

class _GameInfo(TypedDict):
    """One game of the catalogue, as `games()` gives it."""

    name: str
    title: str
    syntax: str
    parameters: Optional[str]
    parameters_optional: bool
    example: str
    summary: str
    conventions: List[Literal["normal", "misere"]]
    position_syntax: str
    move_syntax: str
    start: Optional[str]
    grundy_sequence: bool

def games() -> List[_GameInfo]:
    """Every game of the catalogue: names, parameters, conventions, and
    whether `grundy_sequence` computes its values."""
