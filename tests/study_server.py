"""The browser app for the study board's browser tests: ``create_app`` served by uvicorn
with the fake analyst of ``fake_players.py`` (``LinesPlayer``, which fills Info.lines)
as its helper, searches in threads (so the fake is registered where they run), and a
quick whole-game analysis.

    python tests/study_server.py --port 8123 --db /tmp/games.db [--helper lines] [--static DIR]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import uvicorn

from hexgames import limits
from hexgames.engine import players
from hexgames.web import create_app
from hexgames.web.hosts import policy_for_bind


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--helper", default="lines")
    parser.add_argument("--static", default=None, help="another page's folder (to check "
                        "that a test fails on the page before a fix)")
    args = parser.parse_args()
    players._PLAYERS["lines"] = ("fake_players", "LinesPlayer")
    app = create_app(args.db, helper_spec=args.helper, workers="thread", hint_time=0.3,
                     analysis_time=20.0, game_analysis_time=0.02,
                     hosts=policy_for_bind("127.0.0.1"), static_dir=args.static)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning",
                ws_max_size=limits.MAX_MESSAGE_BYTES)


if __name__ == "__main__":
    main()
