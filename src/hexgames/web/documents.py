"""The documents the browser app shows players, as web pages (``GET /docs/{name}``).

The rules page of the app (``#/rules/<game>``) gives a short summary and links to the
whole rulebook, ``/docs/rules``; the rulebook links on to the notation, the records, the
perft tables and the limits. Those five files of the repository's ``docs/`` ship inside
the package, in ``hexgames/web/docs/`` (so an installed wheel has them), as copies that
``make shipped-docs`` refreshes and tests/test_web_documents.py holds equal to
``docs/``. Each is rendered once from its Markdown (CommonMark and tables, by
markdown-it-py, which rich already brings; raw HTML in the text is not passed through),
with ids on the headings as GitHub makes them, so that the documents' own links
(``notation.md``, ``#self-trap``) lead where they lead on GitHub.
"""

from __future__ import annotations

import functools
import html
import re
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

#: The folder of the shipped documents (``<name>.md``).
DOCS_DIR = Path(__file__).parent / "docs"


def names() -> list[str]:
    """The documents served, by name (``"rules"`` for ``rules.md``), sorted."""
    return sorted(path.stem for path in DOCS_DIR.glob("*.md"))


def heading_id(text: str) -> str:
    """The id GitHub gives a heading of plain text ``text``: lower case, punctuation
    but ``-`` and ``_`` dropped, spaces as ``-`` (``"Andantino options"`` ->
    ``"andantino-options"``)."""
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def _anchors_and_links(state: StateCore) -> None:
    """A markdown-it core rule: an id on every heading (a repeated one numbered ``-1``,
    ``-2``, as GitHub does), and links to another served document (``notation.md``,
    ``notation.md#tags``) written as its page's address (``notation``, ``notation#tags``)."""
    served = set(names())
    seen: dict[str, int] = {}
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and index + 1 < len(tokens):
            children = tokens[index + 1].children or []
            text = "".join(child.content for child in children
                           if child.type in ("text", "code_inline"))
            anchor = heading_id(text)
            count = seen.get(anchor, 0)
            seen[anchor] = count + 1
            token.attrSet("id", anchor if count == 0 else f"{anchor}-{count}")
        for child in token.children or []:
            href = child.attrGet("href") if child.type == "link_open" else None
            if isinstance(href, str):
                match = re.fullmatch(r"([a-z-]+)\.md(#.*)?", href)
                if match and match[1] in served:
                    child.attrSet("href", match[1] + (match[2] or ""))


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.core.ruler.push("hexgames_anchors", _anchors_and_links)
    return md


@functools.cache
def page(name: str) -> str:
    """The whole web page of document ``name`` (one of :func:`names`): the app's top bar
    and stylesheet, the document in an ``<article id="doc">``.

    Raises:
        KeyError: for a name that is not a served document.
    """
    if name not in names():
        raise KeyError(name)
    text = (DOCS_DIR / f"{name}.md").read_text(encoding="utf-8")
    title = next((line[2:].replace("`", "").strip() for line in text.splitlines()
                  if line.startswith("# ")), name)
    body = _markdown().render(text)
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{html.escape(title)} · hexgames</title>
  <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/static/app.css">
</head>
<body>
  <header class="topbar">
    <a class="brand" href="/#/" aria-label="hexgames home">
      <svg class="brand-mark" viewBox="-12 -11 24 22" aria-hidden="true">
        <polygon points="10,0 5,8.66 -5,8.66 -10,0 -5,-8.66 5,-8.66"/></svg>
      hexgames
    </a>
    <nav class="topnav"><a href="/#/">Games</a><a href="/docs/rules">Rules</a></nav>
  </header>
  <main class="app">
    <article class="card doc" id="doc" data-doc="{name}">
{body}
    </article>
  </main>
</body>
</html>
"""
