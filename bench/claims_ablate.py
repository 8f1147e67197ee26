"""Print which parts of the model-text check change no verdict on any claims set (issue 42).

Each `if` of `agent/planning/claims.py` is tried with its test replaced by False, then by
True, and (with `--statements`) each other statement of a function by `pass`, on a fresh copy
of the module; a change is kept when every case of sets a, b, c (no events), d-h and every
bench/claims_blind*.jsonl gets the same verdict as before (refused or not, offer, checked,
unchecked). Kept changes accumulate, so what is printed can be deleted together. Nothing is
written: a part printed here is only a candidate (tests/agent/test_claims.py may need it, and
a guard no set reaches may still be right), a part not printed changes some verdict.

Run from the repo root: `.venv/bin/python bench/claims_ablate.py [--statements]`.
"""

from __future__ import annotations

import argparse
import ast
import signal
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.claims import Case, from_corpus, from_jsonl  # noqa: E402

CHECK = ROOT / "agent" / "planning" / "claims.py"
Key = tuple[int, int]  # a statement's line and column


def cases() -> list[Case]:
    out = [c for name in "abc" for c in from_corpus(name, None) if not c.events]
    for name in "defgh":
        out += from_jsonl(
            ROOT / "bench" / ("claims_d_blind.jsonl" if name == "d" else f"claims_{name}.jsonl")
        )
    for path in sorted((ROOT / "bench").glob("claims_blind*.jsonl")):
        out += from_jsonl(path)
    return out


def module(source: str, tests: dict[Key, bool], passes: set[Key]) -> types.ModuleType:
    """The check with the given `if` tests fixed and statements made `pass`."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and (node.lineno, node.col_offset) in tests:
            node.test = ast.Constant(tests[(node.lineno, node.col_offset)])
        for field in ("body", "orelse"):
            body = getattr(node, field, None)
            if isinstance(body, list):
                keys = [(s.lineno, s.col_offset) if isinstance(s, ast.stmt) else None for s in body]
                setattr(
                    node,
                    field,
                    [ast.Pass() if k in passes else s for s, k in zip(body, keys, strict=True)],
                )
    mod = types.ModuleType("claims_ablated")
    sys.modules[mod.__name__] = mod
    exec(compile(ast.fix_missing_locations(tree), str(CHECK), "exec"), mod.__dict__)  # noqa: S102
    return mod


def verdicts(mod: types.ModuleType, order: list[Case], base: dict[int, tuple[bool, ...]]) -> bool:
    """Whether every case keeps its verdict; the first case that does not moves to the front
    (it tends to catch the next change too)."""
    for k, case in enumerate(order):
        try:
            facts = mod.ClaimFacts(items=case.stored, user_text=case.user)
            v = mod.judge(case.reply, facts, case.language)
            got = (v.problem is not None, v.offer, v.checked, v.unchecked)
        except Exception:  # a change that breaks the check is no candidate
            got = ()
        if got != base[id(case)]:
            order.insert(0, order.pop(k))
            return False
    return True


def candidates(source: str, statements: bool) -> list[tuple[Key, int, bool]]:
    """(where, last line, whether an `if`), the longest first."""
    found: set[tuple[Key, int, bool]] = set()
    for func in ast.walk(ast.parse(source)):
        if not isinstance(func, ast.FunctionDef):  # not check_model_text, no set reaches it
            continue
        for node in ast.walk(func):
            if isinstance(node, ast.If):
                found.add(((node.lineno, node.col_offset), node.end_lineno or 0, True))
            for field in ("body", "orelse") if statements else ():
                body = getattr(node, field, None)
                for s in body if isinstance(body, list) else ():
                    docstring = isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                    if isinstance(s, ast.stmt) and not isinstance(s, ast.If) and not docstring:
                        found.add(((s.lineno, s.col_offset), s.end_lineno or 0, False))
    return sorted(found, key=lambda c: c[0][0] - c[1])


def _timeout(*_: object) -> None:
    raise TimeoutError


def main() -> None:
    signal.signal(signal.SIGALRM, _timeout)
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument(
        "--statements", action="store_true", help="also try each statement as `pass`"
    )
    args = parser.parse_args()
    source, order = CHECK.read_text(encoding="utf-8"), cases()
    first = module(source, {}, set())
    base = {}
    for case in order:
        v = first.judge(
            case.reply, first.ClaimFacts(items=case.stored, user_text=case.user), case.language
        )
        base[id(case)] = (v.problem is not None, v.offer, v.checked, v.unchecked)
    lines = source.splitlines()
    tests: dict[Key, bool] = {}
    passes: set[Key] = set()
    found = candidates(source, args.statements)
    started = time.perf_counter()
    for key, end, is_if in found:
        for value in (False, True) if is_if else (None,):
            trial_tests = {**tests, key: bool(value)} if is_if else tests
            trial_passes = passes if is_if else {*passes, key}
            try:
                changed = module(source, trial_tests, trial_passes)
            except Exception:  # the module no longer loads
                continue
            signal.alarm(60)  # a loop that no longer advances
            try:
                same = verdicts(changed, order, base)
            except TimeoutError:
                same = False
            signal.alarm(0)
            if same:
                tests, passes = trial_tests, trial_passes
                what = f"if -> {value}" if is_if else "pass"
                print(f"{key[0]}-{end} {what}: {lines[key[0] - 1].strip()[:90]}", flush=True)
                break
    print(
        f"{len(tests) + len(passes)} of {len(found)} parts change no verdict on {len(order)} cases "
        f"({time.perf_counter() - started:.0f} s)"
    )


if __name__ == "__main__":
    main()
