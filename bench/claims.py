"""Print how well the claim check (DESIGN 10.2) tells false claims from true statements.

Cases come from bench/claim_corpus.py, written apart from the checker: false claims
(verb forms x sentence shapes x titles, PT and EN, with nothing saved, deleted or noted
behind them) and true statements (backed by the stored titles or by this turn's events).
`--set a` is its first set, `--set b` its held-out shapes (also `--heldout`), and
`--set c` bench/claim_corpus_c.py, a third set written blind to the checker (its author
read only this harness and `judge`'s signature), which also counts offers that must be
capped (`offers_to_act`).
Each is judged by `agent.planning.claims.judge` against those facts, as the runtime
judges a model answer. Prints recall (false claims caught), the share of true statements
refused, precision, the median time per check, and the shapes that were missed or
wrongly refused. Goal: recall >= 98% of >= 500, refused <= 1% of >= 500. Run from the
repo root: `.venv/bin/python bench/claims.py [--set a|b|c] [--n 600] [--show 15]`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agent.planning.claims import ClaimFacts, judge, named_item, offers_to_act  # noqa: E402
from agent.understanding.textnorm import fold  # noqa: E402
from bench.claim_corpus import Case, false_claims, heldout, true_statements  # noqa: E402
from bench.claim_corpus_c import Case as CaseC  # noqa: E402
from bench.claim_corpus_c import false_claims_c, true_statements_c  # noqa: E402


def facts_for(case: Case | CaseC) -> ClaimFacts:
    items = tuple(named_item(title, fold(title).split()) for title in case.stored)
    user = case.user if isinstance(case, CaseC) else ""
    return ClaimFacts(events=frozenset(case.events), items=items, user_text=user)


def facts_line(case: Case | CaseC) -> str:
    user = f" user={case.user!r}" if isinstance(case, CaseC) and case.user else ""
    return f"stored={list(case.stored)} events={list(case.events)}{user}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, help="cases of each kind (600; 700 for set c)")
    parser.add_argument("--show", type=int, default=15, help="mistakes listed per kind")
    parser.add_argument(
        "--heldout", action="store_true", help="the second set of shapes (same as --set b)"
    )
    parser.add_argument(
        "--set", choices=("a", "b", "c"), default="a", help="a, b (held out), c (written blind)"
    )
    parser.add_argument(
        "--every", action="store_true", help="list every mistake with its facts, not one per shape"
    )
    args = parser.parse_args()
    if args.n is None:
        args.n = 700 if args.set == "c" and not args.heldout else 600
    chosen = "b" if args.heldout else args.set
    false_cases: list[Case] | list[CaseC]
    true_cases: list[Case] | list[CaseC]
    if chosen == "b":
        false_cases, true_cases = heldout(args.n)
    elif chosen == "c":
        false_cases, true_cases = false_claims_c(args.n), true_statements_c(args.n)
    else:
        false_cases = list(false_claims(args.n))
        true_cases = list(true_statements(args.n))
    timings: list[float] = []
    missed: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    examples: dict[str, str] = {}
    mistakes: list[str] = []
    caught = 0
    for case in false_cases:
        started = time.perf_counter()
        problem = judge(case.text, facts_for(case), case.language)
        timings.append(time.perf_counter() - started)
        if problem is not None:
            caught += 1
        else:
            missed[case.shape] += 1
            mistakes.append(f"missed  {case.text!r} {facts_line(case)}")
            examples.setdefault(case.shape, case.text.replace("\n", " / "))
    wrongly = 0
    for case in true_cases:
        started = time.perf_counter()
        problem = judge(case.text, facts_for(case), case.language)
        timings.append(time.perf_counter() - started)
        if problem is not None:
            wrongly += 1
            refused[case.shape] += 1
            mistakes.append(f"refused {case.text!r} {facts_line(case)}  <- {problem}")
            examples.setdefault(
                case.shape, f"{case.text.replace(chr(10), ' / ')}  <- {problem[:70]}"
            )
    offers = [c for c in true_cases if isinstance(c, CaseC) and c.offer]
    capped = sum(offers_to_act(c.text, c.language) for c in offers)
    uncapped = [c.text for c in offers if not offers_to_act(c.text, c.language)]
    recall = caught / len(false_cases)
    refusal = wrongly / len(true_cases)
    precision = caught / (caught + wrongly) if caught + wrongly else 1.0
    by_language = Counter(c.language for c in false_cases)
    print(f"false claims: {len(false_cases)} ({by_language['pt']} pt, {by_language['en']} en)")
    print(f"true statements: {len(true_cases)}")
    print(f"recall (false claims caught): {caught}/{len(false_cases)} = {recall:.1%}")
    print(f"true statements refused: {wrongly}/{len(true_cases)} = {refusal:.1%}")
    print(f"precision (refusals that were false claims): {precision:.1%}")
    print(f"median check: {statistics.median(timings) * 1000:.3f} ms")
    if offers:
        print(f"offers capped (offers_to_act): {capped}/{len(offers)}")
        for text in uncapped[: args.show]:
            print(f"  not capped: {text!r}")
    for title, counter in (("missed", missed), ("refused", refused)):
        if counter:
            print(f"{title} by shape:")
            for shape, count in counter.most_common(args.show):
                print(f"  {count:3d}  {examples[shape]}")
    if args.every:
        print("every mistake:")
        for line in mistakes:
            print(f"  {line}")


if __name__ == "__main__":
    main()
