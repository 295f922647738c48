"""The documents the browser app serves players (``GET /docs/{name}``,
:mod:`hexgames.web.documents`): the rulebook the rules page links to, whole and
readable, the documents it links to, and the package's copies equal to docs/."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # Starlette would rather have httpx2: not installed here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from hexgames.web import create_app, documents

REPO_DOCS = Path(__file__).parent.parent / "docs"
RULES_JS = documents.DOCS_DIR.parent / "static" / "js" / "rules.js"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.db")) as test_client:
        yield test_client


def test_the_rules_page_links_to_the_rulebook_the_server_serves(client: TestClient) -> None:
    """The rules page named "RULES.md", a file no player can open (issue 35, defect 13):
    it links to /docs/rules, at the part of the game shown, and that page is the whole
    rulebook."""
    script = RULES_JS.read_text(encoding="utf-8")
    assert "RULES.md" not in script
    assert 'href: `/docs/rules#${this.game}`' in script
    page = client.get("/docs/rules")
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    for snippet in (
        "<title>The rules of Andantino and Abande · hexgames</title>",
        '<link rel="stylesheet" href="/static/app.css">',
        '<h1 id="the-rules-of-andantino-and-abande">',
        # both games' parts, where the rules page's link leads
        '<h2 id="andantino">Andantino</h2>',
        '<h2 id="abande">Abande</h2>',
        # the whole rulebook, not a summary: every option, its tables, its examples
        '<h3 id="self-trap">Self-trap</h3>',
        "<td><code>opponent_wins</code> (default)</td>",
        '<h3 id="opening-restriction">Opening restriction</h3>',
        "<td><code>max_height</code></td>",
        "White wins by <code>trap</code>, the trapped\ntile being <code>0,0</code>",
        # its links lead to pages of this server
        '<a href="notation">notation.md</a>',
        '<a href="#self-trap">self-trap</a>',
    ):
        assert snippet in page.text, snippet


def test_every_link_of_a_served_document_leads_somewhere_served(
        client: TestClient) -> None:
    assert documents.names() == ["limits", "notation", "perft", "records", "rules"]
    pages = {name: client.get(f"/docs/{name}").text for name in documents.names()}
    ids = {name: set(re.findall(r' id="([^"]+)"', text)) for name, text in pages.items()}
    for name, text in pages.items():
        article = text.split('<article class="card doc" id="doc"', 1)[1]
        for href in re.findall(r'href="([^"]*)"', article):
            target, _, anchor = href.partition("#")
            if re.match(r"[a-z]+:", target):
                continue  # another site's page
            target = target or name
            assert target in pages, f"{name}: {href} is no served document"
            assert not anchor or anchor in ids[target], f"{name}: {href} has no such part"


def test_the_package_ships_the_documents_of_the_repository() -> None:
    """hexgames/web/docs/ holds copies of docs/ (the wheel has no docs/): equal, byte for
    byte; ``make shipped-docs`` refreshes them."""
    if not REPO_DOCS.is_dir():
        pytest.skip("not in the repository: no docs/ to compare with")
    for name in documents.names():
        shipped = (documents.DOCS_DIR / f"{name}.md").read_bytes()
        assert shipped == (REPO_DOCS / f"{name}.md").read_bytes(), (
            f"src/hexgames/web/docs/{name}.md differs from docs/{name}.md: "
            "run make shipped-docs")


def test_only_the_shipped_documents_are_served(client: TestClient) -> None:
    for path in ("/docs/style", "/docs/RULES", "/docs/rules.md", "/docs/..%2Fapp.py",
                 "/docs/", "/docs/web-protocol"):
        answer = client.get(path)
        assert answer.status_code == 404, path
    answer = client.get("/docs/server")
    assert answer.json() == {"error": "there is no document 'server'; there are limits, "
                                      "notation, perft, records, rules"}
