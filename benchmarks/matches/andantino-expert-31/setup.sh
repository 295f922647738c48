#!/bin/bash
# Set up the planned expert match of plan.md on a fresh machine, from the repository
# at /work/main (its .venv made by `make test` or `make play`):
# - /work/wt/engine: the engine's commit, built (its own .venv), for _native.abi3.so;
# - /work/wt/old: hexgames 0.1's expert (c44fa03, the last commit with the pure-Python
#   players beside the native ones), its native player patched to pass what the
#   engine commit's player passes (old_worktree.patch), with the engine's .so.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ENGINE=0e9225b
REPO=/work/main
mkdir -p /work/wt
if [ ! -d /work/wt/engine ]; then
    git -C "$REPO" worktree add -f /work/wt/engine "$ENGINE"
fi
if [ ! -f /work/wt/engine/src/hexgames/_native.abi3.so ]; then
    (cd /work/wt/engine && python3 -m venv .venv && .venv/bin/python -m pip install --quiet --upgrade pip \
        && .venv/bin/python -m pip install --quiet -e .)
fi
if [ ! -d /work/wt/old ]; then
    git -C "$REPO" worktree add -f /work/wt/old c44fa03
    git -C /work/wt/old apply "$HERE/old_worktree.patch"
fi
cp /work/wt/engine/src/hexgames/_native.abi3.so /work/wt/old/src/hexgames/_native.abi3.so
md5sum /work/wt/old/src/hexgames/_native.abi3.so
git -C /work/wt/old diff --stat
