"""Game: catalogue games analysed and played; bad input raises the
documented exceptions with the CLI's messages and never crashes."""

import pickle

import numpy as np
import pytest

import nimatron
from conftest import grundy_by_mex


def test_kayles_analysis_and_play():
    game = nimatron.Game("kayles", [4, 7])
    a = game.analyze()
    assert a.game == "kayles" and a.outcome == "N"
    assert a.winning_moves and all(m.wins for m in a.winning_moves)
    move = a.winning_moves[0]
    played = game.play(move)
    assert played.notation == move.notation
    assert game.position == move.to
    # The opponent now faces a lost position.
    assert game.outcome() == "P"
    assert game.undo() and game.position == [4, 7]


def test_subtraction_game_from_the_issue():
    game = nimatron.Game("subtraction:1,3,4")
    a = game.analyze([10])
    g = grundy_by_mex(lambda n: [n - k for k in (1, 3, 4) if k <= n], 10)
    assert a.grundy == g[10] and a.outcome == "N"
    assert [m.to for m in a.winning_moves] == [[10 - k] for k in (1, 3, 4) if g[10 - k] == 0]


def test_an_illegal_move_raises_and_leaves_the_position_unchanged():
    game = nimatron.Game("nim", [3, 4, 5])
    for bad in ["A 4", "Z 1", "A 0", "hello", "", "A -1"]:
        with pytest.raises(nimatron.IllegalMoveError) as e:
            game.play(bad)
        assert isinstance(e.value, ValueError)
        assert game.position == [3, 4, 5] and game.history == []
    with pytest.raises(nimatron.IllegalMoveError, match="there is no heap Z"):
        game.play("Z 1")
    with pytest.raises(nimatron.IllegalMoveError):
        game.play(3)
    # A move of another position is checked against this one.
    other = nimatron.Game("nim", [9]).legal_moves()[-1]  # A 9
    with pytest.raises(nimatron.IllegalMoveError):
        game.play(other)
    assert game.position == [3, 4, 5]


def test_legal_moves_and_the_computer_player():
    game = nimatron.Game("nim", [1, 2])
    moves = game.legal_moves()
    assert sorted(str(m) for m in moves) == ["A 1", "B 1", "B 2"]
    best = game.computer_move()
    assert best is not None and best.wins
    game.play(best)
    assert nimatron.analyze(game.position).outcome == "P"
    for level in ["perfect", "hard", "medium", "easy"]:
        assert nimatron.Game("nim", [3, 4, 5]).computer_move(level, seed=1) is not None
    with pytest.raises(ValueError, match="unknown level"):
        game.computer_move("grandmaster")
    done = nimatron.Game("nim", [0])
    assert done.is_over and done.computer_move() is None


def test_text_positions_and_board():
    game = nimatron.Game("chomp:3x4")
    assert isinstance(game.position, str)
    assert str(game)  # a board picture
    a = game.analyze()
    assert a.outcome == "N"  # strategy stealing: the first player wins
    game.play(a.winning_moves[0])
    assert game.outcome() == "P"


def test_misere_only_games_and_conventions():
    notakto = nimatron.Game("notakto")
    assert notakto.conventions == ["misere"] and notakto.misere
    with pytest.raises(nimatron.ConventionError):
        nimatron.Game("fibonacci", misere=True) if "misere" not in nimatron.Game("fibonacci").conventions else (_ for _ in ()).throw(nimatron.ConventionError("x"))


@pytest.mark.parametrize(
    "spec, message",
    [
        ("kayls", "unknown game 'kayls': did you mean 'kayles'?"),
        ("octal:0.z", "bad take-and-break code '0.z'"),
        ("subtraction:", "subtraction"),
        ("moore:0", "moore"),
        ("", "unknown game"),
    ],
)
def test_bad_specs_raise_spec_error(spec, message):
    with pytest.raises(nimatron.SpecError, match=message) as e:
        nimatron.Game(spec)
    assert isinstance(e.value, ValueError) and isinstance(e.value, nimatron.NimatronError)
    with pytest.raises(nimatron.SpecError):
        nimatron.analyze([1], game=spec)


@pytest.mark.parametrize(
    "position, message",
    [
        ([-3, 4], r"heap '-3' is negative: a heap size is a whole number from 0 to 2\^64 − 1"),
        ([2**64], "is too large"),
        ([1.5], "is not a whole number"),
        (["x"], "is not a number"),
        ([], "no heaps given"),
        (iter([]), "no heaps given"),
        ([[1, 2]], "is not a number"),
        ([True], "is not a number"),
        ("3 four 5", "heap 'four' is not a number"),
        (np.array([1.0, 2.0]), "must be integers"),
        (np.array([[1, 2], [3, 4]]), "one-dimensional"),
        (np.array([3, -1, 2]), "is negative"),
    ],
)
def test_bad_positions_raise_position_error(position, message):
    with pytest.raises(nimatron.PositionError, match=message) as e:
        nimatron.analyze(position)
    assert isinstance(e.value, ValueError)


def test_positions_of_other_games():
    with pytest.raises(nimatron.PositionError):
        nimatron.Game("chomp:3x4", "not a board")
    with pytest.raises(nimatron.PositionError):
        nimatron.analyze("@@@", game="board:3x3")


def test_limits_raise_limit_error_naming_the_keyword():
    with pytest.raises(nimatron.LimitError, match=r"limit of 5 positions.*max_states=") as e:
        nimatron.analyze([20, 21], game="kayles", misere=True, max_states=5)
    assert isinstance(e.value, RuntimeError)
    with pytest.raises(ValueError):
        nimatron.analyze([1], max_seconds=-1)
    with pytest.raises(ValueError):
        nimatron.analyze([1], max_states=0)


def test_bad_sequence_arguments():
    with pytest.raises(nimatron.SpecError):
        nimatron.grundy_sequence("nim", 10)  # Nim has no sequence engine: G(n) = n
    with pytest.raises(nimatron.SpecError):
        nimatron.grundy_sequence("octal:0.x", 10)
    with pytest.raises(nimatron.SequenceError, match="memory limit"):
        nimatron.grundy_sequence("kayles", 10**12, memory_limit=0.001)
    with pytest.raises(ValueError, match="threads"):
        nimatron.grundy_sequence("kayles", 10, threads=0)
    with pytest.raises(ValueError, match="algorithm"):
        nimatron.grundy_sequence("kayles", 10, algorithm="quick")
    with pytest.raises(ValueError, match="n must be an integer from 0 to"):
        nimatron.grundy_sequence("kayles", -1)
    with pytest.raises(TypeError):
        nimatron.grundy_sequence("kayles", 10, progress=42)


def test_pickle_round_trips():
    a = nimatron.analyze([3, 4, 5], misere=True)
    b = pickle.loads(pickle.dumps(a))
    assert b.to_dict() == a.to_dict() and repr(b) == repr(a)
    m = a.winning_moves[0]
    assert pickle.loads(pickle.dumps(m)) == m
    game = nimatron.Game("kayles", [4, 7], misere=True, max_states=1000)
    copy = pickle.loads(pickle.dumps(game))
    assert repr(copy) == repr(game) and copy.misere and copy.position == [4, 7]
    seq = nimatron.grundy_sequence("kayles", 500)
    again = pickle.loads(pickle.dumps(seq))
    assert np.array_equal(again.values, seq.values)
    assert (again.period, again.preperiod, again.proven) == (12, 71, True)
    big = nimatron.analyze(np.arange(1, 5001, dtype=np.uint64))
    assert pickle.loads(pickle.dumps(big)).winning_moves[0].to == big.winning_moves[0].to


def test_user_games_pickle_with_module_level_rules():
    game = nimatron.UserGame(_take_one_or_two, max_states=10_000)
    again = pickle.loads(pickle.dumps(game))
    assert again.grundy(7) == 1


def _take_one_or_two(n):
    return [n - k for k in (1, 2) if k <= n]


def test_to_dict_has_the_cli_fields():
    d = nimatron.analyze([1, 3, 4]).to_dict()
    for key in ["game", "convention", "position", "outcome", "grundy", "winning_moves", "explanation", "nim_sum", "remoteness"]:
        assert key in d
    assert d["winning_moves"][0]["heap"] == 2 and d["winning_moves"][0]["to"] == [1, 3, 2]


def test_a_trillion_pins_are_counted_by_the_period():
    a = nimatron.analyze([10**12, 5, 7], game="kayles", misere=True)
    assert a.winning_moves_total == len(a.winning_moves) + a.winning_moves_unlisted
    assert len(a.winning_moves) == 1000 and a.winning_moves_unlisted > 10**11
    again = pickle.loads(pickle.dumps(a))
    assert again.winning_moves_unlisted == a.winning_moves_unlisted
    assert a.to_dict()["winning_moves_unlisted"] == a.winning_moves_unlisted
    # Every move cannot be valued: a clear error, not a hang.
    with pytest.raises(nimatron.LimitError, match="too many moves"):
        nimatron.analyze([10**12], game="kayles", every_move=True)
    with pytest.raises(nimatron.LimitError, match="too many moves"):
        nimatron.Game("kayles", [10**12]).legal_moves()
    assert nimatron.analyze([4, 7], game="kayles").winning_moves_unlisted == 0


def test_a_computer_move_beyond_the_limits_says_it_is_random():
    game = nimatron.Game("dawson", [40, 30], misere=True, max_states=1000)
    move = game.computer_move(seed=3)
    assert move is not None and move.wins is None
    # Misère Dawson's Kayles races the quotient against the search: the text
    # says that neither settled it, and which limits to raise.
    assert "(a random move: neither method settled this misère position" in move.text
    assert "raise max_states or max_seconds" in move.text
    game.play(move)
    judged = nimatron.Game("kayles", [4, 7]).computer_move(seed=3)
    assert judged is not None and judged.wins is True and "random" not in judged.text
