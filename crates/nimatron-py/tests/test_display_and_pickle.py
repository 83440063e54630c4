"""Notebook display of every object, pickled misère quotients, and the
type stubs' generic UserGame."""

import html
import pickle
import subprocess
import sys
import textwrap

import pytest

import nimatron


def test_every_object_has_an_html_display():
    game = nimatron.Game("kayles", [4, 7])
    move = game.analyze().winning_moves[0]
    game.play(move)
    page = game._repr_html_()
    assert "<b>kayles</b>" in page and "normal play" in page
    assert html.escape(str(game)) in page  # the board
    assert f"<code>{html.escape(move.notation)}</code>" in page  # the move played

    m = move._repr_html_()
    assert html.escape(move.notation) in m and html.escape(move.text) in m
    assert html.escape(move.to_text) in m and "wins" in m

    seq = nimatron.grundy_sequence("kayles", 200)
    s = seq._repr_html_()
    assert "<b>kayles</b>" in s and "period 12 from heap 71, proven" in s
    # Rows of 12 (the period), the first row the values G(0..11).
    first_row = "".join(f"<td style=\"background: #f1f1f1\">{v}</td>" for v in seq.values[:12])
    assert first_row in s
    assert "and 81 more values" in s

    class Rules:
        def moves(self, n):
            return [n - k for k in (1, 2) if k <= n]

        def __repr__(self):
            return "<Rules & more>"

    user = nimatron.UserGame(Rules())
    user.grundy(10)
    u = user._repr_html_()
    assert "&lt;Rules &amp; more&gt;" in u and "<Rules" not in u
    assert f"{user.positions_seen} positions seen" in u

    over = nimatron.Game("nim", [0])
    assert "no move is left" in over._repr_html_()


def test_misere_quotients_pickle_as_values():
    for spec, to in [("kayles", 200), ("nim", 7), ("octal:0.137", 12), ("dawson", 20)]:
        q = nimatron.misere_quotient(spec, to)
        again = pickle.loads(pickle.dumps(q))
        assert again.to_dict() == q.to_dict()
        assert repr(again) == repr(q) and len(again) == len(q)
        for heaps in ([1], [2, 3], [5, 5, 7], [to, 1], [to + 1000, 3]):
            if q.proven or max(heaps) <= to:
                assert again.outcome(heaps) == q.outcome(heaps)
                assert again.image_of(heaps) == q.image_of(heaps)
            else:
                with pytest.raises(ValueError, match="beyond"):
                    again.outcome(heaps)
        if q.proven:
            assert again.image(10**12 + 7) == q.image(10**12 + 7)
        assert again.product(*q.elements[:3]) == q.product(*q.elements[:3])


def test_a_broken_pickle_state_raises_value_error():
    q = nimatron.misere_quotient("kayles", 30)
    f, (state,) = q.__reduce__()
    for key, value in [("products", b"\x00" * 3), ("images", [99] * 31), ("version", 2), ("period", (0, 0))]:
        bad = dict(state, **{key: value})
        with pytest.raises(ValueError, match="not the state of a pickled MisereQuotient"):
            f(bad)


def test_user_game_is_generic_in_the_stubs(tmp_path):
    # mypy infers the position type from the rules, so that a winning
    # move used as the wrong type is caught.
    program = tmp_path / "typed.py"
    program.write_text(
        textwrap.dedent(
            """
            from typing import List, Tuple
            import nimatron

            class Sub:
                def moves(self, n: int) -> List[int]:
                    return [n - k for k in (1, 3, 4) if k <= n]

            game = nimatron.UserGame(Sub())
            move: int = game.winning_moves(10)[0]
            wrong: str = game.winning_moves(10)[0]
            game.grundy("ten")

            pairs: nimatron.UserGame[Tuple[int, int]] = nimatron.UserGame(lambda p: [(p[0] - 1, p[1])])
            pairs.grundy((3, 4))
            """
        )
    )
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(program)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 2, run.stdout
    assert "typed.py:11:" in errors[0] and '"int"' in errors[0] and '"str"' in errors[0]
    assert "typed.py:12:" in errors[1]
    # At run time the subscript is allowed too, as for list[int].
    assert nimatron.UserGame[int] is not None


def test_the_first_calls_import_nothing():
    # The first grundy_sequence used to cost about 60 ms more than the
    # next: it imported NumPy (to make its array). `import nimatron` does
    # now, as the package's other NumPy-using calls need it too, so that no
    # call pays for an import.
    code = textwrap.dedent(
        """
        import sys, nimatron
        assert "numpy" in sys.modules
        before = set(sys.modules)
        nimatron.grundy_sequence("kayles", 100)
        nimatron.analyze([3, 4, 5])
        nimatron.misere_quotient("kayles", 10)
        print(sorted(set(sys.modules) - before))
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out
