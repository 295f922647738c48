"""The registry of players and levels: specs, options, limits and errors."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest
from fake_players import FakePlayer

from hexgames import abande, andantino
from hexgames.engine import players
from hexgames.engine.base import InvalidLimitError, Limit, Player
from hexgames.engine.players import (
    LEVEL_NAMES,
    LEVELS,
    PLAYER_NAMES,
    UnknownPlayerError,
    check_spec,
    make_player,
    parse_spec,
    player_class,
)
from hexgames.engine.random_player import RandomPlayer


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(players._PLAYERS, "fake", ("fake_players", "FakePlayer"))


def available(name: str) -> bool:
    return importlib.util.find_spec(players._PLAYERS[name][0]) is not None


# --- names ----------------------------------------------------------------------------


def test_names() -> None:
    assert PLAYER_NAMES == ("random", "greedy", "alphabeta", "mcts", "solver")
    assert LEVEL_NAMES == ("easy", "medium", "hard", "expert")
    assert tuple(LEVELS) == LEVEL_NAMES


def test_levels_are_the_measured_presets() -> None:
    assert (LEVELS["easy"].spec, LEVELS["easy"].limit) == ("greedy:noise=0.75", Limit())
    proving = "prove=0.1,prove_nodes=20000"  # a proven win at once (tests/test_proving.py)
    assert (LEVELS["medium"].spec, LEVELS["medium"].limit) == \
        (f"alphabeta:rfp=0,{proving}", Limit(depth=2))
    assert (LEVELS["hard"].spec, LEVELS["hard"].limit) == \
        (f"alphabeta:rfp=0,{proving}", Limit(depth=4))
    assert make_player("hard").rfp == 0 and make_player("expert").fallback.rfp == 150  # type: ignore[attr-defined]
    assert (LEVELS["expert"].spec, LEVELS["expert"].limit) == \
        ("solver:fallback=alphabeta:prove=0.1", Limit(time=5.0))
    assert make_player("expert").fallback.prove == 0.1  # type: ignore[attr-defined]
    source = Path(players.__file__).read_text(encoding="utf-8")
    assert "provisional" not in source.lower()
    for level in LEVELS.values():
        assert parse_spec(level.spec).player in PLAYER_NAMES
    easy = make_player("easy", 1)
    assert easy.name == "greedy" and easy.noise == 0.75  # type: ignore[attr-defined]
    expert = make_player("expert", 1)
    assert expert.name == "abande-solver" and expert.default_limit == Limit(time=5.0)
    assert expert.fallback.name == "alphabeta"  # type: ignore[attr-defined]


# --- parsing --------------------------------------------------------------------------


def test_parse_a_plain_name_in_any_case() -> None:
    spec = parse_spec("  Random ")
    assert (spec.text, spec.player, spec.level, spec.options, spec.limit) == \
        ("Random", "random", None, {}, None)


def test_parse_options_and_limits() -> None:
    spec = parse_spec("alphabeta:time=0.5,tt_mb=16")
    assert spec.player == "alphabeta"
    assert spec.options == {"tt_mb": "16"}
    assert spec.limit == Limit(time=0.5)
    spec = parse_spec("mcts: rave=off , playouts=2000, nodes=5, depth=3")
    assert spec.options == {"rave": "off"}
    assert spec.limit == Limit(playouts=2000, nodes=5, depth=3)


def test_parse_levels() -> None:
    hard = parse_spec("hard")
    assert (hard.player, hard.level, hard.limit, hard.preset) == \
        ("alphabeta", "hard", None, Limit(depth=4))
    easy = parse_spec("easy:noise=0.2")
    assert (easy.player, easy.options) == ("greedy", {"noise": "0.2"})  # the spec's wins
    expert = parse_spec("EXPERT:time=2,solve_share=0.3")
    assert (expert.player, expert.level, expert.limit, expert.options) == \
        ("solver", "expert", Limit(time=2.0),
         {"fallback": "alphabeta:prove=0.1", "solve_share": "0.3"})


def test_limit_precedence() -> None:
    cli = Limit(nodes=100)
    assert parse_spec("hard").default_limit() == Limit(depth=4)
    assert parse_spec("hard").default_limit(cli) == cli
    assert parse_spec("hard:depth=3").default_limit(cli) == Limit(depth=3)
    assert parse_spec("random").default_limit() is None
    assert parse_spec("random").default_limit(Limit()) is None
    assert parse_spec("random:time=1").default_limit(cli) == Limit(time=1.0)


@pytest.mark.parametrize(("spec", "fragment"), [
    ("", "unknown player"),
    ("robot", "unknown player 'robot'"),
    ("robot:time=1", "unknown player 'robot'"),
    ("random:", "no options after ':'"),
    ("random:time", "option 'time' is not key=value"),
    ("random:=3", "is not key=value"),
    ("alphabeta:quiescence=", r"option quiescence needs a value \(quiescence=\.\.\.\)"),
    ("alphabeta:depth=3,time= ", "option time needs a value"),
    ("random:time=1,time=2", "option time is given twice"),
    ("random:a-b=1", "'a-b' is not an option name"),
    ("alphabeta:tt_mb=1,tt_mb=2", "given twice"),
])
def test_bad_specs(spec: str, fragment: str) -> None:
    with pytest.raises(UnknownPlayerError, match=fragment):
        parse_spec(spec)


@pytest.mark.parametrize(("spec", "fragment"), [
    ("random:time=-1", "limit time must be a number of seconds above 0 \\(and finite\\), "
                       "not -1"),
    ("random:time=abc", "limit time must be a number of seconds, not 'abc'"),
    ("random:time=nan", "must be a number of seconds above 0"),
    ("random:time=inf", "must be a number of seconds above 0"),
    # 0 is refused, as --time 0, --nodes 0 and --depth 0 are (time=0 was a one-ply search)
    ("alphabeta:time=0", "limit time must be a number of seconds above 0 \\(and finite\\), "
                         "not 0"),
    ("alphabeta:time=0.0", "above 0"),
    ("alphabeta:depth=0", "limit depth must be at least 1, not 0"),
    ("mcts:playouts=0", "limit playouts must be at least 1, not 0"),
    ("alphabeta:nodes=000", "limit nodes must be at least 1, not 000"),
    # 1e308 s was accepted and ran until Ctrl-C (found by a helper)
    ("alphabeta:time=1e308", "limit time must be at most 86400 seconds \\(a day\\), not 1e308"),
    ("alphabeta:time=86400.5", "limit time must be at most 86400 seconds"),
    ("random:depth=1.5", "limit depth takes a whole number, not '1.5'"),
    ("mcts:playouts=many", "limit playouts takes a whole number"),
    ("hard:nodes=-3", "limit nodes must be at least 1, not -3"),
    ("alphabeta:nodes=99999999999999999999",
     "limit nodes must be at most 999999999999999999, not 99999999999999999999"),
    # 19 digits are a whole number too large, not "not a whole number" (was that message)
    ("random:nodes=1234567890123456789",
     "limit nodes must be at most 999999999999999999, not 1234567890123456789"),
    # and 19 digits below zero are below zero (was "takes a whole number")
    ("random:depth=-1234567890123456789",
     "limit depth must be at least 1, not -1234567890123456789"),
])
def test_bad_limits(spec: str, fragment: str) -> None:
    with pytest.raises(InvalidLimitError, match=fragment):
        parse_spec(spec)


@pytest.mark.parametrize(("spec", "fragment"), [
    ("random:time=1e999", "must be at most 86400 seconds (a day), not 1e999"),
    ("random:time=-inf", "must be a number of seconds above 0 (and finite), not -inf"),
    ("random:depth=١٢", "takes a whole number, not '١٢'"),
    ("random:nodes=1_000", "takes a whole number, not '1_000'"),
    ("random:time=\uff11", "must be a number of seconds, not '\uff11'"),
    ("random:time=1_0", "must be a number of seconds, not '1_0'"),
    # Decimal() raised InvalidOperation (a traceback) for these exponents.
    ("random:time=1e99999999999999999999", "must be at most 86400 seconds (a day), not 1e9"),
    ("random:time=-1e-99999999999999999999", "must be a number of seconds above 0"),
])
def test_limits_are_read_strictly_and_must_be_finite(spec: str, fragment: str) -> None:
    """Issue 14: a limit is ASCII digits (``int()`` would read Arabic-Indic digits and
    underscores) and finite; ``1e999``, which ``float()`` makes infinite, is too large."""
    with pytest.raises(InvalidLimitError, match=re.escape(fragment)):
        parse_spec(spec)


def test_a_limit_of_an_int_too_large_for_a_float_is_refused_by_name() -> None:
    # Limit(time=10**400) raised OverflowError: the message formatted it as a float.
    for name in ("time", "clock"):
        with pytest.raises(InvalidLimitError, match=f"limit {name} must be at most 86400 "
                                                   "seconds \\(a day\\), not 1000000"):
            Limit(**{name: 10**400})
    with pytest.raises(InvalidLimitError, match="limit nodes must be at most"):
        Limit(nodes=10**400)


def test_a_time_too_small_for_a_float_is_the_least_one() -> None:
    # 1e-400 was refused as "must be above 0", while 5e-324 was taken.
    assert parse_spec("random:time=1e-400").limit == Limit(time=5e-324)
    assert parse_spec("random:time=1e-99999999999999999999").limit == Limit(time=5e-324)


@pytest.mark.parametrize("text", ["1_0", "\u0663", "\uff11", "1e00001", "5s", "0x10", "1e309",
                                  "1e-400", "0", "-1", "nan", "inf", "86401", " 2 ", "+.5e-3",
                                  "1e99999999999999999999"])
def test_the_command_line_and_a_spec_read_a_time_alike(text: str) -> None:
    # --time read float() (1_0, other scripts' digits) while time= read ASCII digits, and
    # their wording differed ("must be a number of seconds" / "takes a number of seconds").
    from click.testing import CliRunner

    from hexgames.cli import cli

    try:
        parse_spec(f"greedy:time={text.strip()}")
        refused = None
    except InvalidLimitError as error:
        refused = str(error).split(": limit time ", 1)[1]
    result = CliRunner().invoke(cli, ["match", "abande", "-p", "random", "-p", "greedy",
                                      "-n", "2", "--time", text])
    if refused is None:
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code == 2
        assert refused in result.stderr, (refused, result.stderr)


@pytest.mark.parametrize(("spec", "fragment"), [
    # MCTS's float options: exploration has no typed default (None), the others do
    ("mcts:exploration=nan", "option exploration takes a finite number, not 'nan'"),
    ("mcts:exploration=inf", "option exploration takes a finite number, not 'inf'"),
    ("mcts:exploration=-Infinity", "option exploration takes a finite number"),
    ("mcts:rave_bias=nan", "option rave_bias takes a finite number, not 'nan'"),
    ("mcts:rave_bias=1e999", "option rave_bias takes a finite number, not '1e999'"),
    ("mcts:cutoff_scale=inf", "option cutoff_scale takes a finite number"),
    ("greedy:noise=NaN", "option noise takes a finite number, not 'NaN'"),
    ("mcts:grave_ref=١٢", "option grave_ref takes a whole number, not '١٢'"),
    ("alphabeta:tt_mb=1_6", "option tt_mb takes a whole number, not '1_6'"),
    ("mcts:rave_bias=0x10", "option rave_bias takes a number, not '0x10'"),
    # a whole number of more digits than read: too many digits, not "not a whole number"
    ("alphabeta:randomness=100000000000000000000",
     "option randomness has too many digits: 100000000000000000000 \\(at most 18\\)"),
    ("mcts:grave_ref=-1234567890123456789",
     "option grave_ref has too many digits: -1234567890123456789"),
])
def test_numeric_options_refuse_nan_infinities_and_other_digits(spec: str,
                                                                 fragment: str) -> None:
    """Issue 14: ``mcts:exploration=nan`` was accepted and searched with."""
    with pytest.raises(UnknownPlayerError, match=fragment):
        check_spec(spec)
    with pytest.raises(UnknownPlayerError, match=fragment):
        make_player(spec)


def test_finite_numbers_of_every_spelling_are_read(fake: None) -> None:
    for text, value in [("0.25", 0.25), ("1e-3", 0.001), (".5", 0.5), ("2.", 2.0),
                        ("+3", 3.0), ("-0", 0.0)]:
        assert make_player(f"fake:ratio={text}").ratio == value  # type: ignore[attr-defined]
    assert make_player("fake:size=-0").size == 0  # type: ignore[attr-defined]
    # leading zeros are no digits too many (depth=0...03 said "at most 999999999999999999")
    zeros = "0" * 150
    assert make_player(f"fake:size={zeros}16").size == 16  # type: ignore[attr-defined]
    assert make_player(f"fake:size=-{zeros}").size == 0  # type: ignore[attr-defined]
    assert parse_spec(f"random:depth=+{zeros}3").limit == Limit(depth=3)
    with pytest.raises(UnknownPlayerError, match="a player spec has at most 200 "
                                                 "characters, not 201"):
        parse_spec("random:depth=" + "0" * 187 + "3")
    assert make_player("mcts:exploration=0.5").exploration == 0.5  # type: ignore[attr-defined]
    for text in ("nan", "inf", "1e999"):
        with pytest.raises(UnknownPlayerError, match="option extra takes a finite number"):
            make_player(f"fake:extra={text}")


def test_errors_are_value_errors() -> None:
    assert issubclass(UnknownPlayerError, ValueError)
    assert issubclass(InvalidLimitError, ValueError)
    with pytest.raises(UnknownPlayerError):
        parse_spec(3)  # type: ignore[arg-type]


# --- making players -------------------------------------------------------------------


def test_make_random_player_is_seeded() -> None:
    player = make_player("random", seed=5)
    assert isinstance(player, RandomPlayer)
    assert player.default_limit == Limit()
    again = make_player("random", 5)
    board = andantino.Board()
    first = [player.play(board).move for _ in range(5)]
    assert first == [again.play(board).move for _ in range(5)]


def test_make_player_sets_the_default_limit() -> None:
    assert make_player("random:nodes=10").default_limit == Limit(nodes=10)
    assert make_player("random", limit=Limit(time=0.5)).default_limit == Limit(time=0.5)
    assert make_player("random:depth=2", limit=Limit(time=0.5)).default_limit == \
        Limit(depth=2)


def test_options_are_converted_to_the_parameter_types(fake: None) -> None:
    player = make_player("fake:flag=off,size=7,ratio=0.25,label=hello,extra=12", seed=3)
    assert isinstance(player, FakePlayer)
    assert (player.seed, player.flag, player.size, player.ratio, player.label) == \
        (3, False, 7, 0.25, "hello")
    assert player.extra == 12
    assert make_player("fake:extra=1.5").extra == 1.5  # type: ignore[attr-defined]
    assert make_player("fake:extra=on").extra is True  # type: ignore[attr-defined]
    assert make_player("fake:extra=none").extra is None  # type: ignore[attr-defined]
    assert make_player("fake:extra=abc").extra == "abc"  # type: ignore[attr-defined]
    assert make_player("fake:ratio=2").ratio == 2.0  # type: ignore[attr-defined]
    assert make_player("fake:flag=YES").flag is True  # type: ignore[attr-defined]


def test_default_limit_goes_through_the_constructor(fake: None) -> None:
    player = make_player("fake:time=0.1")
    assert player.default_limit == Limit(time=0.1)
    player = make_player("fake")
    assert player.default_limit == Limit()


@pytest.mark.parametrize(("spec", "fragment"), [
    ("fake:colour=red", "fake has no option 'colour' (options: flag, size, ratio, label, "
                        "extra, policy, interrupt, time, nodes, depth, playouts)"),
    ("fake:seed=3", "fake has no option 'seed'"),
    # a level is named as the user named it, with its player
    ("easy:bogus=1", "easy (greedy) has no option 'bogus'"),
    ("fake:default_limit=3", "no option 'default_limit'"),
    ("fake:flag=maybe", "option flag takes on or off (also yes/no, true/false, 1/0), not 'maybe'"),
    ("fake:size=1.5", "option size takes a whole number, not '1.5'"),
    ("fake:ratio=x", "option ratio takes a number, not 'x'"),
    ("fake:size=-1", "size must be 0 or more"),  # the constructor's own ValueError
])
def test_bad_options(fake: None, spec: str, fragment: str) -> None:
    with pytest.raises(UnknownPlayerError, match=fragment.replace("(", r"\(")
                       .replace(")", r"\)")):
        make_player(spec)


@pytest.mark.parametrize(("value", "error"), [
    ("yes", "option exploration takes a number or none, not 'yes'"),
    ("off", "option exploration takes a number or none, not 'off'"),
    ("abc", "option exploration takes a number or none, not 'abc'"),
])
def test_an_option_without_a_typed_default_is_read_by_its_annotation(
        value: str, error: str) -> None:
    """``mcts:exploration`` (``float | None = None``) took ``yes`` as True and said
    ``could not convert string to float`` for ``abc``."""
    with pytest.raises(UnknownPlayerError, match=error):
        make_player(f"mcts:exploration={value}")
    for text, number in (("0.5", 0.5), ("2", 2.0), ("none", None)):
        kwargs, _ = players._constructor_args(parse_spec(f"mcts:exploration={text}"),
                                              player_class("mcts"))
        assert kwargs == {"exploration": number}
        assert type(kwargs["exploration"]) is type(number)


def test_a_player_too_big_for_memory_is_a_bad_spec(
        fake: None, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_memory(self: FakePlayer, *args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr(FakePlayer, "__init__", no_memory)
    with pytest.raises(UnknownPlayerError,
                       match=r"^player spec 'fake': not enough memory to make this player"):
        make_player("fake")
    # A transposition table far beyond any memory fails at once, without a traceback.
    with pytest.raises(UnknownPlayerError, match="not enough memory"):
        make_player(f"alphabeta:tt_mb={10**12}")


def test_check_spec_does_not_construct(fake: None) -> None:
    assert check_spec("fake:size=-1").options == {"size": "-1"}  # only make_player fails
    with pytest.raises(UnknownPlayerError, match="no option 'colour'"):
        check_spec("fake:colour=red")


def test_random_takes_no_options() -> None:
    with pytest.raises(UnknownPlayerError, match="random has no option 'rave'"):
        make_player("random:rave=off")


def test_a_player_whose_module_is_missing_is_not_available_yet(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(players._PLAYERS, "ghost", ("hexgames.engine.ghost", "GhostPlayer"))
    with pytest.raises(UnknownPlayerError,
                       match="player ghost is not available yet in this version"):
        make_player("ghost")
    monkeypatch.setitem(players._PLAYERS, "ghost", ("fake_players", "GhostPlayer"))
    with pytest.raises(UnknownPlayerError, match="has no player class GhostPlayer"):
        check_spec("ghost")


def test_an_import_error_inside_a_player_module_is_not_hidden(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "broken_player.py").write_text("import no_such_module_here\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(players._PLAYERS, "broken", ("broken_player", "X"))
    with pytest.raises(ModuleNotFoundError, match="no_such_module_here"):
        make_player("broken")


# --- every registered player, once it exists ------------------------------------------


@pytest.mark.parametrize("name", PLAYER_NAMES)
@pytest.mark.parametrize("module", [andantino, abande], ids=["andantino", "abande"])
def test_each_available_player_plays_a_legal_move(name: str, module: object) -> None:
    if not available(name):
        with pytest.raises(UnknownPlayerError, match="not available yet"):
            make_player(name)
        pytest.skip(f"{name} is not written yet")
    board = module.Board()  # type: ignore[attr-defined]
    for move in ("0,1", "1,1") if module is andantino else ("d4", "c4"):
        board.push_notation(move)
    before = board.position()
    player = make_player(name, seed=1, limit=Limit(time=0.2, nodes=200, depth=2,
                                                   playouts=200))
    assert isinstance(player, Player)
    result = player.play(board)
    assert result.move in board.legal_moves
    assert board.position() == before


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_each_level_makes_its_player_or_says_it_is_not_available(level: str) -> None:
    spec = parse_spec(level)
    if not available(spec.player):
        with pytest.raises(UnknownPlayerError, match="not available yet"):
            make_player(level)
        return
    player = make_player(level, seed=2)
    assert isinstance(player, Player)
    if not LEVELS[level].limit.is_empty():
        assert player.default_limit == LEVELS[level].limit


def test_a_game_clock_becomes_a_move_time_for_players_without_a_time_manager() -> None:
    limit = Limit(clock=60.0, increment=2.0)
    assert not limit.is_empty()
    assert limit.move_time() == pytest.approx(60.0 / 30 + 1.5)
    assert Limit(clock=1.0).move_time() == pytest.approx(1.0 / 30)
    assert Limit(clock=2.0, increment=10.0).move_time() == pytest.approx(1.0)  # half the clock
    assert Limit(clock=60.0, time=0.5).move_time() == 0.5
    assert Limit(time=3.0).move_time() == 3.0

    seen: list[Limit] = []

    class Recorder(Player):
        def _search(self, board: Any, limit: Limit, on_info: Any) -> Any:
            seen.append(limit)
            return None

    Recorder().play(andantino.Board(), Limit(clock=30.0, nodes=5))
    assert seen == [Limit(time=1.0, nodes=5)]


@pytest.mark.parametrize(("kwargs", "fragment"), [
    ({"clock": float("nan")}, "limit clock must be a finite number"),
    ({"clock": float("inf")}, "limit clock must be a finite number"),
    ({"clock": -1.0}, "limit clock must be 0 or more"),
    ({"clock": 5.0, "increment": -1.0}, "limit increment must be 0 or more"),
    ({"increment": 1.0}, "limit increment needs a clock"),
    ({"time": float("inf")}, "limit time must be a finite number"),
    ({"time": 1e308}, "limit time must be at most 86400 seconds \\(a day\\), not 1e\\+308"),
    ({"clock": 86_401.0}, "limit clock must be at most 86400 seconds"),
    ({"clock": 5.0, "increment": 1e9}, "limit increment must be at most 86400 seconds"),
])
def test_bad_clock_limits(kwargs: dict[str, float], fragment: str) -> None:
    with pytest.raises(InvalidLimitError, match=fragment):
        Limit(**kwargs)



@pytest.mark.parametrize(("kwargs", "fragment"), [
    ({"depth": 1.5}, "limit depth must be a whole number, not 1.5"),
    ({"nodes": 1000.0}, "limit nodes must be a whole number, not 1000.0"),
    ({"playouts": True}, "limit playouts must be a number, not True"),
    ({"depth": 2**70}, "limit depth must be at most 999999999999999999"),
    ({"nodes": 10**18}, "limit nodes must be at most 999999999999999999"),
])
def test_counts_are_bounded_whole_numbers(kwargs: dict[str, Any], fragment: str) -> None:
    """``Limit(depth=2**70)`` and ``Limit(depth=1.5)`` were taken, and the native
    alpha-beta search then failed with ``OverflowError`` / ``TypeError`` (not a
    ``ValueError``); ``hexgames analyse --nodes 99999999999999999999999`` a traceback."""
    with pytest.raises(InvalidLimitError, match=fragment):
        Limit(**kwargs)
    assert Limit(depth=10**18 - 1, nodes=10**18 - 1).depth == 10**18 - 1

# --- varied play and options a caller adds --------------------------------------------


def test_levels_below_expert_vary_their_play_and_expert_does_not() -> None:
    assert [name for name, level in LEVELS.items() if level.varied is not None] == \
        ["easy", "medium", "hard"]
    assert dict(LEVELS["medium"].varied or ()) == {"randomness": "25"}
    assert dict(LEVELS["hard"].varied or ()) == {"randomness": "15"}
    assert parse_spec("hard").varied and not parse_spec("expert").varied
    assert not parse_spec("alphabeta:depth=3").varied
    # a spec's own option wins over the level's
    assert parse_spec("hard:randomness=0").optional == {}
    assert parse_spec("hard").optional == {"randomness": "15"}


def test_a_levels_varied_options_reach_only_a_player_that_takes_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(players._PLAYERS, "lines", ("fake_players", "LinesPlayer"))
    monkeypatch.setitem(players._PLAYERS, "fake", ("fake_players", "FakePlayer"))
    monkeypatch.setitem(players.LEVELS, "hard", players.Level(
        "lines", Limit(depth=2), "t", varied=(("randomness", "15"),)))
    monkeypatch.setitem(players.LEVELS, "medium", players.Level(
        "fake", Limit(depth=2), "t", varied=(("randomness", "15"),)))
    assert make_player("hard", 1).randomness == 15  # type: ignore[attr-defined]
    # FakePlayer has no randomness option: it is made all the same, without it
    assert make_player("medium", 1).name == "fake"
    assert check_spec("medium").optional == {"randomness": "15"}


def test_a_seeded_varied_level_replays_its_moves_and_varies_by_seed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from hexgames.andantino import Board

    monkeypatch.setitem(players._PLAYERS, "lines", ("fake_players", "LinesPlayer"))
    monkeypatch.setitem(players.LEVELS, "hard", players.Level(
        "lines", Limit(depth=2), "t", varied=(("randomness", "15"),)))

    def game(seed: int) -> list[str]:
        board = Board()
        for ply in range(12):
            board.push(make_player("hard", players.move_seed(seed, ply)).play(board).move)
        return [move.notation() for move in board.move_stack]

    assert game(7) == game(7)
    assert len({tuple(game(seed)) for seed in range(6)}) > 1


def test_move_seed_is_the_documented_formula() -> None:
    assert players.move_seed(0, 5) == 5
    assert players.move_seed(3, 2) == 3 * 1_000_003 + 2
    assert players.move_seed(2**62, 1) == (2**62 * 1_000_003 + 1) % 2**63
    assert 0 <= players.move_seed(2**80, 7) < 2**63


def test_options_are_added_only_where_the_player_takes_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(players._PLAYERS, "lines", ("fake_players", "LinesPlayer"))
    monkeypatch.setitem(players._PLAYERS, "fake", ("fake_players", "FakePlayer"))
    assert players.with_options("lines", {"multipv": "3"}) == "lines:multipv=3"
    assert players.with_options("lines:delay=0", {"multipv": "3"}) == \
        "lines:delay=0,multipv=3"
    assert players.with_options("lines:multipv=2", {"multipv": "3"}) == "lines:multipv=2"
    assert players.with_options("fake", {"multipv": "3"}) == "fake"
    assert players.takes_options("random", ["multipv", "seed"]) == set()
    assert make_player(players.with_options("lines", {"multipv": "4"})).multipv == 4  # type: ignore[attr-defined]


def test_a_day_is_the_longest_search() -> None:
    from hexgames.limits import MAX_SEARCH_SECONDS

    assert Limit(time=MAX_SEARCH_SECONDS).time == 86_400
    assert Limit(clock=MAX_SEARCH_SECONDS, increment=MAX_SEARCH_SECONDS).clock == 86_400
    assert parse_spec(f"alphabeta:time={MAX_SEARCH_SECONDS:g}").default_limit() \
        == Limit(time=86_400)
