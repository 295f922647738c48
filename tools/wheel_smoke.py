"""The smoke test of a built wheel (``make wheel-smoke``; standard library only).

    python3 tools/wheel_smoke.py dist

Makes a fresh virtual environment in a temporary folder, installs the one wheel of
the folder given (with the browser app's extra) on a ``PATH`` that holds no ``cargo``
and no ``rustc`` (so nothing can be compiled), and from outside the source tree:

1. asks ``hexgames --version``;
2. plays a whole game of each game through the command line (``hexgames match``);
3. runs a search of the native alpha-beta from Python;
4. starts ``hexgames serve``, waits for ``GET /api/meta`` to answer with both games, and
   asks for the rulebook the rules page links to (``GET /docs/rules``: its copy ships in
   the package).

Exit status 0 when all pass; 1 with what failed; 2 for a folder without exactly one
wheel.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

#: The folders a PATH without Rust keeps: the system's, not ~/.cargo/bin.
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"

SEARCH = """
from hexgames import andantino
from hexgames.engine.players import make_player
from hexgames.engine.base import Limit
board = andantino.Board()
result = make_player("alphabeta").play(board, Limit(depth=4))
assert result.move in board.legal_moves, result
print("search:", result.move, result.info.nodes, "nodes")
"""


def run(command: list[str], env: dict[str, str], cwd: Path, timeout: float = 300) -> str:
    """Run ``command``; its output, or SystemExit(1) with it if it failed."""
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, check=False)
    if done.returncode != 0:
        print(f"FAILED: {' '.join(command)}\n{done.stdout}\n{done.stderr}", file=sys.stderr)
        raise SystemExit(1)
    return done.stdout


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: wheel_smoke.py DIST_FOLDER", file=sys.stderr)
        return 2
    wheels = sorted(Path(sys.argv[1]).glob("hexgames-*.whl"))
    if len(wheels) != 1:
        print(f"error: {sys.argv[1]} holds {len(wheels)} hexgames wheels, not one",
              file=sys.stderr)
        return 2
    wheel = wheels[0].resolve()
    with tempfile.TemporaryDirectory(prefix="hexgames-wheel-") as folder:
        home = Path(folder)
        env = {"PATH": SYSTEM_PATH, "HOME": str(home), "LANG": "C.UTF-8"}
        if shutil.which("cargo", path=SYSTEM_PATH) or shutil.which("rustc", path=SYSTEM_PATH):
            print("error: cargo or rustc is on the system PATH: the test could not tell "
                  "a wheel from a source build", file=sys.stderr)
            return 1
        venv = home / "venv"
        run([sys.executable, "-m", "venv", str(venv)], env, home)
        python = str(venv / "bin" / "python")
        # --only-binary: hexgames must come from the wheel, never be built
        run([python, "-m", "pip", "install", "--quiet", "--only-binary", "hexgames",
             f"{wheel}[web]"], env, home, timeout=600)
        hexgames = str(venv / "bin" / "hexgames")
        print(run([hexgames, "--version"], env, home).strip())
        for game in ("andantino", "abande"):
            shown = run([hexgames, "match", game, "-p", "random", "-p", "greedy", "-n", "2",
                         "--seed", "1"], env, home)
            print(f"match {game}: {shown.strip().splitlines()[-1]}")
        print(run([python, "-c", SEARCH], env, home).strip())
        port = free_port()
        server = subprocess.Popen([hexgames, "serve", "--port", str(port), "--db",
                                   str(home / "games.db")], env=env, cwd=home,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/meta",
                                                timeout=2) as answer:
                        meta = json.load(answer)
                    break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        print("FAILED: the app did not answer", file=sys.stderr)
                        return 1
                    time.sleep(0.2)
            if sorted(meta["games"]) != ["abande", "andantino"]:
                print(f"FAILED: /api/meta answered {meta}", file=sys.stderr)
                return 1
            print(f"app: /api/meta lists {', '.join(sorted(meta['games']))}")
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/docs/rules",
                                        timeout=10) as answer:
                rulebook = answer.read().decode()
            if "The rules of Andantino and Abande" not in rulebook:
                print("FAILED: /docs/rules is not the rulebook", file=sys.stderr)
                return 1
            print("app: /docs/rules is the rulebook")
        finally:
            server.terminate()
            server.wait(20)
    print(f"the wheel {wheel.name} works without Rust")
    return 0


if __name__ == "__main__":
    sys.exit(main())
