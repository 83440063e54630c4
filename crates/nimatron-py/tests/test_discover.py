"""Finding one's way: the catalogue as data, errors that say what is
accepted, docstrings whose examples run, and the real defaults in help()."""

import inspect
import pydoc
import re

import pytest

import nimatron


def test_games_lists_the_catalogue_with_what_each_game_offers():
    games = nimatron.games()
    names = [g["name"] for g in games]
    # The same names as the spec parser's own list (its error message).
    with pytest.raises(nimatron.SpecError) as e:
        nimatron.Game("no-such-game")
    listed = str(e.value).split("expected one of ", 1)[1]
    assert names == [n.strip() for n in listed.split(",")]
    for g in games:
        game = nimatron.Game(g["example"]) if g["start"] is not None else None
        assert g["syntax"].startswith(g["name"])
        assert g["example"].split(":")[0] == g["name"]
        if game is not None:
            assert game.conventions == g["conventions"]
            assert game.position_syntax == g["position_syntax"]
            assert game.move_syntax == g["move_syntax"]
            assert game.position_text == g["start"]
        # Whether it has a Grundy sequence: exactly when grundy_sequence
        # computes one for its example spec.
        try:
            nimatron.grundy_sequence(g["example"], 10)
            computed = True
        except nimatron.SpecError:
            computed = False
        assert g["grundy_sequence"] == computed, g["name"]
    by_name = {g["name"]: g for g in games}
    assert by_name["kayles"]["grundy_sequence"] and not by_name["nim"]["grundy_sequence"]
    assert by_name["notakto"]["conventions"] == ["misere"]
    assert by_name["subtraction"]["parameters"] == "S" and not by_name["subtraction"]["parameters_optional"]
    assert by_name["chomp"]["parameters"] == "RxC" and by_name["chomp"]["parameters_optional"]
    assert by_name["wythoff"]["parameters"] is None


def test_grundy_sequence_of_nim_explains_and_lists_the_games_that_have_one():
    with pytest.raises(nimatron.SpecError) as e:
        nimatron.grundy_sequence("nim", 100)
    message = str(e.value)
    assert "G(n) = n" in message and "XOR" in message
    for g in nimatron.games():
        if g["grundy_sequence"]:
            assert g["syntax"] in message, g["syntax"]
    with pytest.raises(nimatron.SpecError, match="'wythoff' is a game of the catalogue .* not one played on a single heap"):
        nimatron.grundy_sequence("wythoff", 100)
    with pytest.raises(nimatron.SpecError, match="did you mean 'kayles'"):
        nimatron.grundy_sequence("kayels", 100)


def test_every_spec_in_misere_quotients_docstring_works():
    doc = nimatron.misere_quotient.__doc__
    assert doc is not None
    specs = re.findall(r'`"([^"]+)"`', doc)
    assert "octal:0.F" in specs and len(specs) >= 6
    for spec in specs:
        q = nimatron.misere_quotient(spec, 6)
        assert q.order >= 1


DEFAULTS = [
    (nimatron.analyze, {"misere": False, "game": "nim", "max_moves": None, "every_move": False,
                        "max_states": nimatron.DEFAULT_MAX_STATES, "max_seconds": nimatron.DEFAULT_MAX_SECONDS}),
    (nimatron.Game, {"spec": "nim", "position": None, "misere": False,
                     "max_states": nimatron.DEFAULT_MAX_STATES, "max_seconds": nimatron.DEFAULT_MAX_SECONDS}),
    (nimatron.UserGame, {"components": None, "max_states": nimatron.DEFAULT_MAX_STATES,
                         "max_seconds": nimatron.DEFAULT_MAX_SECONDS}),
    (nimatron.grundy_sequence, {"threads": None, "algorithm": "auto", "simd": "auto", "memory_limit": None,
                                "progress": None}),
    (nimatron.census, {"leading": 0, "threads": None, "progress": None}),
    (nimatron.misere_quotient, {"max_order": 10000, "max_states": 5000000, "max_seconds": 120.0}),
]


@pytest.mark.parametrize("f, defaults", DEFAULTS, ids=lambda x: getattr(x, "__name__", ""))
def test_help_shows_the_real_defaults(f, defaults):
    signature = inspect.signature(f)
    shown = {
        name: p.default for name, p in signature.parameters.items() if p.default is not inspect.Parameter.empty
    }
    assert shown == defaults
    assert "Ellipsis" not in pydoc.render_doc(f)
    assert "..." not in str(signature)


def test_the_defaults_shown_are_the_defaults_used():
    # Passing the defaults shown gives what leaving them out gives.
    game = nimatron.Game("kayles", [3, 5])
    shown = nimatron.Game("kayles", [3, 5], misere=False, max_states=5000000, max_seconds=120.0)
    assert repr(game) == repr(shown) and pickle_args(game) == pickle_args(shown)
    a = nimatron.analyze([3, 4, 5])
    b = nimatron.analyze([3, 4, 5], False, game="nim", max_moves=None, every_move=False, max_states=5000000,
                         max_seconds=120.0)
    assert a.to_dict() == b.to_dict()


def pickle_args(game: nimatron.Game) -> object:
    return game.__reduce__()[0].keywords  # type: ignore[attr-defined]
