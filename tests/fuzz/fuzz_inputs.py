"""Hypothesis strategies of fuzz inputs, one per target of :mod:`fuzz_targets`: text built
from the target's own grammar (fields, cells, tags, options, with numbers huge,
negative, non-ASCII and malformed), valid examples mutated (characters inserted,
deleted, repeated, swapped, numbers blown up), and arbitrary text."""

from __future__ import annotations

from hypothesis import strategies as st

_ODD_DIGITS = ["١٢", "１", "٣", "²", "𝟗", "1_000"]
_NUMBERS = st.one_of(
    st.integers(-30, 30).map(str),
    st.integers(-(10**30), 10**30).map(str),
    st.sampled_from(["", "-", "+1", "0x10", "1e3", "nan", "inf", "-0", "00", "9" * 40,
                     *_ODD_DIGITS]),
)
_JUNK = st.text(max_size=12)


def _joined(parts: st.SearchStrategy[list[str]], separators: list[str]) -> st.SearchStrategy[str]:
    return st.tuples(parts, st.sampled_from(separators)).map(lambda p: p[1].join(p[0]))


# --- positions -------------------------------------------------------------------------

_AXIAL = st.builds(lambda q, r: f"{q},{r}", _NUMBERS, _NUMBERS) | \
    st.builds(lambda q, r: f"{q},{r}", st.integers(-6, 6), st.integers(-6, 6))
_CELLS = st.one_of(st.just("-"), _joined(st.lists(_AXIAL, max_size=30), [";", ";", ",", " "]))
_ANDANTINO_FIELDS = st.one_of(
    _CELLS.map("w={}".format), _CELLS.map("r={}".format),
    st.sampled_from(["w", "r", "x", "", "W"]).map("turn={}".format),
    st.builds(lambda a, b: f"hands=w{a},r{b}", _NUMBERS, _NUMBERS),
    st.sampled_from(["unused", "used", "", "yes"]).map("single={}".format),
    _NUMBERS.map("relocations={}".format), _JUNK)
ANDANTINO_POSITION = _joined(st.lists(_ANDANTINO_FIELDS, max_size=8).map(
    lambda fields: ["andantino", *fields]), [" ", "  ", "\t"])

_POINT = st.one_of(st.sampled_from([f"{c}{n}" for c in "abcdefg" for n in range(1, 8)]),
                   st.builds(lambda c, n: f"{c}{n}", st.sampled_from("abcdefghz"), _NUMBERS))
_STACK = st.text(alphabet="BWbwX", max_size=6)
_ABANDE_FIELDS = st.one_of(
    st.builds(lambda p, s: f"{p}={s}", _POINT, _STACK),
    st.sampled_from(["b", "w", "x"]).map("turn={}".format),
    st.builds(lambda a, b: f"hands=b{a},w{b}", _NUMBERS, _NUMBERS),
    _NUMBERS.map("passes={}".format), _JUNK)
ABANDE_POSITION = _joined(st.lists(_ABANDE_FIELDS, max_size=12).map(
    lambda fields: ["abande", *fields]), [" "])

# --- moves -------------------------------------------------------------------------------

ANDANTINO_MOVE = st.one_of(_AXIAL, st.builds(lambda a, b: f"{a}>{b}", _AXIAL, _AXIAL),
                           _AXIAL.map("({})".format), _AXIAL.map(" {} ".format))
ABANDE_MOVE = st.one_of(_POINT, st.builds(lambda a, b: f"{a}-{b}", _POINT, _POINT),
                        st.sampled_from(["pass", "PASS", "pass ", "-", "d4-", "-d4"]))

# --- rules and player specs -----------------------------------------------------------

_RULE_KEYS = ["single_adjacency", "self_trap", "extended", "extended_move_limit",
              "tiles_per_player", "max_height", "nope", ""]
_RULE_VALUES = st.one_of(_NUMBERS, st.sampled_from(
    ["on", "off", "none", "opponent_wins", "illegal", "ignore", "yes", ""]))
RULES = _joined(st.lists(st.builds(lambda k, v: f"{k}={v}", st.sampled_from(_RULE_KEYS),
                                   _RULE_VALUES) | _JUNK, max_size=6), [" "])

_SPEC_NAMES = ["random", "greedy", "alphabeta", "mcts", "solver", "easy", "medium", "hard",
               "expert", "alpha-beta", "robot", ""]
_SPEC_KEYS = ["time", "nodes", "depth", "playouts", "tt_mb", "noise", "exploration",
              "rave", "rave_bias", "grave_ref", "cutoff_scale", "abande_cutoff",
              "andantino_cutoff", "eval", "x"]
_SPEC_VALUES = st.one_of(st.sampled_from(["0.001", "0.01", "1", "0", "-1", "on", "off",
                                          "none", "1e999", "NaN", "-inf", "2", "learned",
                                          "score", "hand"]),
                         st.sampled_from(_ODD_DIGITS))
PLAYER_SPEC = st.builds(
    lambda name, options: name + (":" + ",".join(options) if options else ""),
    st.sampled_from(_SPEC_NAMES),
    st.lists(st.builds(lambda k, v: f"{k}={v}", st.sampled_from(_SPEC_KEYS), _SPEC_VALUES),
             max_size=4))

# --- records ---------------------------------------------------------------------------

_TAG_VALUE = st.one_of(st.sampled_from(["Andantino", "Abande", "1-0", "0-1", "1/2-1/2", "*",
                                        "line", "trap", "score", "resignation"]),
                       ANDANTINO_POSITION, ABANDE_POSITION, RULES, _JUNK)
_TAG = st.builds(lambda k, v: f'[{k} "{v}"]', st.sampled_from(
    ["Game", "Result", "Termination", "Rules", "Position", "White", "Red", "Score",
     "Event"]), _TAG_VALUE)
_MOVE_TOKEN = st.one_of(ANDANTINO_MOVE, ABANDE_MOVE, st.integers(0, 99).map("{}.".format),
                        st.sampled_from(["...", "{a comment}", "{", "}", "1-0", "*",
                                         "0-1", "1/2-1/2", "(", ")", ";", "$1"]))
_MOVE_TEXT = _joined(st.lists(_MOVE_TOKEN, max_size=30), [" ", "\n"])
_GAME = st.builds(lambda tags, moves: "\n".join(tags) + "\n\n" + moves + "\n",
                  st.lists(_TAG, max_size=6), _MOVE_TEXT)
RECORD = _joined(st.lists(_GAME, min_size=1, max_size=3), ["\n", "\n\n", ""])

# --- valid examples, mutated -------------------------------------------------------------

SEEDS: dict[str, list[str]] = {
    "andantino_position": [
        "andantino w=0,0 r=1,0 turn=w hands=w24,r24",
        "andantino w=0,0;0,1 r=1,0;1,1 turn=w hands=w23,r23",
        "andantino w=0,0;1,0;2,0;3,0 r=4,-1;0,1;1,1;2,1 turn=w hands=w21,r21",
        "andantino w=1,-1;0,-1;-1,0;1,0;0,1 r=2,-1;-2,0;0,0;2,0;-2,1 turn=w hands=w20,r20",
        "andantino w=0,0 r=1,0 turn=r single=unused relocations=0",
    ],
    "abande_position": ["abande turn=b hands=b18,w18",
                        "abande c3=BW d4=B e4=W turn=w hands=b16,w17 passes=1"],
    "andantino_move": ["0,1", "-1,1", "2,-1>0,3", "(0, 1)"],
    "abande_move": ["d4", "c3-d4", "pass", "a1", "g4"],
    "rules": ["single_adjacency=on self_trap=illegal extended=on extended_move_limit=20",
              "tiles_per_player=none", "max_height=4"],
    "player_spec": ["mcts:time=2,rave=off", "alphabeta:depth=4,tt_mb=16", "hard",
                    "greedy:noise=0.5", "expert:time=2"],
    "record": [
        '[Game "Andantino"]\n[Result "*"]\n\n1. 0,1 1,1 2. -1,1 -1,0 {a comment} *\n',
        '[Game "Abande"]\n[Black "A"]\n[White "B"]\n[Result "*"]\n\n1. d4 e4 2. c4 e4-d4 *\n',
        '[Game "Andantino"]\n[Rules "single_adjacency=on"]\n[Position "andantino w=0,0 r=1,0 '
        'turn=w"]\n[Result "*"]\n\n1. 0,1 *\n\n[Game "Abande"]\n[Result "*"]\n\n*\n',
    ],
    "http": ['{"game": "abande", "rules": {"max_height": 4}, "players": ["human", "easy"]}',
             '{"text": "[Game \\"Abande\\"]\\n[Result \\"*\\"]\\n\\n1. d4 *\\n"}',
             "limit=3&offset=1", "ply=0", '{"game": "andantino", "rules": null}'],
    "websocket": ['{"type": "move", "move": "0,1", "ply": 0}', '{"type": "undo", "ply": 0}',
                  '{"type": "view", "ply": 0}', '{"type": "analyse", "on": true}',
                  '{"type": "resign", "side": 0}', '{"type": "hint"}',
                  '{"type": "view", "line": ["0,1", "1,1"]}',
                  '{"type": "study", "action": "add", "line": ["0,1"]}',
                  '{"type": "analyse", "on": true, "line": ["0,1"], "multipv": 2}',
                  '{"type": "names", "names": ["A", "B"]}',
                  '{"type": "targets", "from": "0,0", "line": ["0,1"]}'],
}


@st.composite
def mutated(draw: st.DrawFn, seeds: list[str]) -> str:
    """A valid example with a few mutations: a span deleted, repeated or replaced,
    characters inserted, a number made huge or negative, two spans swapped."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 4))):
        size = len(text)
        at = draw(st.integers(0, size))
        end = draw(st.integers(at, min(size, at + 12)))
        kind = draw(st.sampled_from(["delete", "repeat", "insert", "number", "swap",
                                     "replace"]))
        if kind == "delete":
            text = text[:at] + text[end:]
        elif kind == "repeat":
            text = text[:end] + text[at:end] * draw(st.integers(2, 50)) + text[end:]
        elif kind == "insert":
            text = text[:at] + draw(st.text(max_size=6)) + text[at:]
        elif kind == "number":
            text = text[:at] + draw(_NUMBERS) + text[end:]
        elif kind == "swap" and size:
            other = draw(st.integers(0, size - 1))
            first, second = sorted((at, other))
            text = text[:first] + text[second:] + text[first:second]
        else:
            text = text[:at] + draw(st.sampled_from(list(" =;,>-:{}[]\"\n"))) + text[end:]
    return text


_GRAMMARS: dict[str, st.SearchStrategy[str]] = {
    "andantino_position": ANDANTINO_POSITION,
    "abande_position": ABANDE_POSITION,
    "andantino_move": ANDANTINO_MOVE,
    "abande_move": ABANDE_MOVE,
    "rules": RULES,
    "player_spec": PLAYER_SPEC,
    "record": RECORD,
    "http": st.one_of(RECORD, RULES, PLAYER_SPEC),
    "websocket": st.one_of(ANDANTINO_MOVE, st.integers().map(str),
                           st.sampled_from(["true", "null", "[]", "{}", '"x"', "1e999"])),
}


def inputs(target: str) -> st.SearchStrategy[str]:
    """The fuzz inputs of ``target``: its grammar, its seeds mutated, arbitrary text."""
    return st.one_of(_GRAMMARS[target], mutated(SEEDS[target]), st.text(max_size=300))
