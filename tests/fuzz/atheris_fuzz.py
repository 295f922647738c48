"""Coverage-guided fuzzing of one target of :mod:`fuzz_targets` with atheris (libFuzzer
for Python; optional: ``pip install atheris``), for runs longer than the CI suite::

    .venv/bin/python tests/fuzz/atheris_fuzz.py TARGET [CORPUS_DIR] [libFuzzer options]

for example::

    .venv/bin/python tests/fuzz/atheris_fuzz.py record -max_total_time=3600 \\
        -rss_limit_mb=1024 -timeout=10 /tmp/record-corpus

TARGET is one of :data:`fuzz_targets.TARGETS` (``andantino_position``, ``record``,
``http``, ...). libFuzzer enforces the memory limit (``-rss_limit_mb``, default 1024 here)
and the time budget per input (``-timeout`` seconds, default 10 here); an input that a
target does not handle as promised (:class:`fuzz_targets.Broken`, or any other
exception) stops the run, and libFuzzer writes it to ``crash-<hash>`` in the current
directory. Without a corpus directory the run starts from the target's seeds of
:mod:`fuzz_inputs` in a temporary one. The hexgames modules are instrumented, so
libFuzzer steers towards inputs that reach new code.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import atheris

with atheris.instrument_imports(include=["hexgames"]):
    import hexgames.abande
    import hexgames.andantino
    import hexgames.engine.players
    import hexgames.record  # noqa: F401 - instrumented here, used by the targets

from fuzz_inputs import SEEDS
from fuzz_targets import TARGETS


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in TARGETS:
        sys.exit(f"usage: {sys.argv[0]} TARGET [CORPUS_DIR] [libFuzzer options]; "
                 f"targets: {', '.join(sorted(TARGETS))}")
    name = sys.argv[1]
    target = TARGETS[name]
    options = sys.argv[2:]
    if not any(not option.startswith("-") for option in options):
        corpus = Path(tempfile.mkdtemp(prefix=f"hexgames-{name}-"))
        for number, text in enumerate(SEEDS.get(name, [])):
            (corpus / f"seed-{number}").write_text(text, encoding="utf-8")
        options.append(str(corpus))
    for flag, default in (("-rss_limit_mb=", "1024"), ("-timeout=", "10")):
        if not any(option.startswith(flag) for option in options):
            options.append(flag + default)

    def one_input(data: bytes) -> None:
        # UTF-8, so that the seeds (and the dictionary libFuzzer learns) are the text
        target(data.decode("utf-8", "replace"))

    atheris.Setup([sys.argv[0], *options], one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
