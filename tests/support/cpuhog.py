"""Run a command with a CPU hog beside it: busy processes, `--per-core` for each core, so the
load average stays at or above that many times the cores (`make test-loaded`, issue 45).

    python tests/support/cpuhog.py --per-core 2 -- make pytest

The hogs stop when the command ends (or is interrupted); the exit status is the command's.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys


def _spin() -> None:
    while True:
        pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-core", type=int, default=2, help="busy processes per core")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command to run")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command to run after --")
    cores = os.cpu_count() or 1
    hogs = [
        multiprocessing.Process(target=_spin, daemon=True) for _ in range(cores * args.per_core)
    ]
    for hog in hogs:
        hog.start()
    print(f"cpuhog: {len(hogs)} busy processes on {cores} cores", file=sys.stderr, flush=True)
    try:
        return subprocess.call(command)
    except KeyboardInterrupt:
        return 130
    finally:
        for hog in hogs:
            hog.terminate()
        for hog in hogs:
            hog.join()


if __name__ == "__main__":
    raise SystemExit(main())
