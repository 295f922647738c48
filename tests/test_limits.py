"""The caps of issue 14 live in one module, each named, described and documented."""

from __future__ import annotations

import re
from pathlib import Path

from hexgames import limits

ROOT = Path(__file__).parent.parent


def caps() -> dict[str, object]:
    return {name: value for name, value in vars(limits).items()
            if name.isupper() and not name.startswith("_")}


def test_every_cap_has_a_docstring_comment() -> None:
    source = Path(limits.__file__).read_text(encoding="utf-8").splitlines()
    for name in caps():
        [line] = [n for n, text in enumerate(source) if text.startswith(f"{name} = ")]
        assert source[line - 1].startswith("#: "), f"{name} has no #: comment"


def test_every_cap_is_in_docs_limits_md() -> None:
    text = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"`([A-Z][A-Z_]+)`", text))
    assert set(caps()) <= documented, set(caps()) - documented


def test_the_modules_use_the_caps_of_limits() -> None:
    from hexgames.cli import tools
    from hexgames.web import app, session, views

    assert app.MAX_BODY == limits.MAX_REQUEST_BYTES
    assert session.MAX_MOVE_TEXT == limits.MAX_MOVE_TEXT
    assert views.MAX_TT_MB == limits.MAX_TT_MB
    assert tools.MAX_PERFT_DEPTH == limits.MAX_PERFT_DEPTH
