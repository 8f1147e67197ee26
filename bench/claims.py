"""Print how well the model-text check (DESIGN 11.2) holds in turns where no effect happened.

Every case is judged by `agent.planning.claims.judge` as the runtime judges a model text in
a turn with no effect: the case's stored items are the user's storage, its user message is
the turn's message. Printed: false claims caught (statements that an effect happened or will
happen, and false statements about the list), true statements refused, offers handled (asked
as a clarification, or refused; never shown as plain OK text), the median time per check,
and the misses.

Sets:
- `a`, `b`: bench/claim_corpus.py (generated shapes; `b` is its held-out second set);
- `c`: bench/claim_corpus_c.py (written blind to the old checker);
- `d`: bench/claims_d_blind.jsonl by default (or `--file PATH`), 544 replies written blind by
  someone who never read the checker (issue 42). Its first run, once, on the merged
  checker: 268/340 false claims caught (78.8%), 2/174 true statements refused (1.1%). Spent
  since: the classes it missed were given (paraphrased) to a developer who then wrote set f;
  it no longer measures anything. The format, one case a line: {"id", "language": "pt"|"en",
  "kind", "label": "effect_claim"|"false_list"|"true_list"|"no_claim"|"offer", "user",
  "stored": [{"type": movie|tv|video|link|note, "title", "year"?, "original_title"?,
  "state"?}], "reply"}. bench/claims_blind4.jsonl (430 replies, wave 8, first run on 586c2f9:
  231/279 false claims caught (82.8%), 10/129 true statements refused (7.8%); spent since).
  bench/claims_blind9.jsonl (460 replies, wave 15, first run on 3b8f07e: 269/302 false claims
  caught (89.1%), 7/136 true statements refused (5.1%); spent since).
  bench/claims_blind8.jsonl (442 replies, wave 13, first run on ad7655e: 261/283 false claims
  caught (92.2%), 4/137 true statements refused (2.9%); spent since).
  bench/claims_blind7.jsonl (420 replies, wave 11, first run on 1bf9a00: 231/273 false claims
  caught (84.6%), 3/126 true statements refused (2.4%); spent since).
  bench/claims_blind6.jsonl (420 replies, wave 10, first run on 397d89e: 254/273 false claims
  caught (93.0%), 7/126 true statements refused (5.6%); spent since).
  bench/claims_blind5.jsonl (420 replies, wave 9, first run on 809a33f: 240/273 false claims
  caught (87.9%), 10/126 true statements refused (7.9%); spent since: its misses were fixed).
  bench/claims_blind3.jsonl (300 replies, wave 6, same format, `--set d
  --file bench/claims_blind3.jsonl`) was written the same way and run once: 165/195 false
  claims caught (84.6%), 6/90 true statements refused (6.7%); spent since. bench/claims_e.jsonl, bench/claims_f.jsonl and bench/claims_g.jsonl are ours (`--set e`, `--set f`,
  `--set g`; g, written for issue 42's second round: "only X left", picks "from your list",
  absence and emptiness by topic, titles that read as clauses, counts per type, true
  listings and small talk; on the checker before them: 35/56 false caught, 1/56 true refused;
  h (`--set h`), an item's state said of it: "X tá nos vistos", "still unwatched", listings
  headed by a state, picks said unseen, in both states; on the checker before them: 7/26
  false caught, 4/26 true refused).

Sets a, b and c were written when model text could follow an effect in its own turn, so
some of their cases carry this turn's ledger events. By default only the cases with no
events are judged (the realistic case now); `--full` judges every case, and the true
statements an event used to back are then refused by design (model text never says an
effect happened).

Run from the repo root: `.venv/bin/python bench/claims.py --set d [--file PATH] [--show 40]`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agent.planning.claims import ClaimFacts, Stored, Verdict, judge  # noqa: E402
from bench import claim_corpus as corpus_a  # noqa: E402
from bench import claim_corpus_c as corpus_c  # noqa: E402

FALSE_LABELS = ("effect_claim", "false_list")
TRUE_LABELS = ("true_list", "no_claim")
TYPES = {"tv": "tv_show"}


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    language: str
    kind: str
    label: str
    user: str
    stored: tuple[Stored, ...]
    reply: str
    events: tuple[str, ...] = ()


def from_jsonl(path: Path) -> list[Case]:
    cases = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        if not line.strip():
            continue
        row = json.loads(line)
        stored = tuple(
            Stored(
                type=TYPES.get(s.get("type", ""), s.get("type", "")),
                title=s.get("title") or "",
                original_title=s.get("original_title"),
                year=s.get("year"),
                state=s.get("state"),
            )
            for s in row.get("stored") or []
        )
        cases.append(
            Case(
                str(row.get("id", n)),
                row.get("language", "pt"),
                row.get("kind", ""),
                row["label"],
                row.get("user") or "",
                stored,
                row["reply"],
            )
        )
    return cases


_NOTES = {
    *corpus_a.NOTES_PT,
    *corpus_a.NOTES_EN,
    *corpus_c.PT_NOTES,
    *corpus_c.EN_NOTES,
}


def _stored(titles: tuple[str, ...]) -> tuple[Stored, ...]:
    return tuple(Stored("note" if t in _NOTES else "movie", t) for t in titles)


def from_corpus(name: str, n: int | None) -> list[Case]:
    """Sets a, b and c as cases; a false case is labelled effect_claim (its shape decides
    nothing here: both false labels count as false claims)."""
    if name == "a":
        false, true = (
            list(corpus_a.false_claims(n or 600)),
            list(corpus_a.true_statements(n or 600)),
        )
    elif name == "b":
        false, true = corpus_a.heldout(n or 600)
    else:
        false, true = corpus_c.false_claims_c(n or 700), corpus_c.true_statements_c(n or 700)
    cases = []
    for label, group in (("effect_claim", false), ("no_claim", true)):
        for k, case in enumerate(group):
            offer = isinstance(case, corpus_c.Case) and case.offer
            user = case.user if isinstance(case, corpus_c.Case) else ""
            cases.append(
                Case(
                    f"{name}{label[0]}{k}",
                    case.language,
                    case.shape,
                    "offer" if offer else label,
                    user,
                    _stored(case.stored),
                    case.text,
                    tuple(case.events),
                )
            )
    return cases


def run(cases: list[Case], show: int) -> None:
    verdicts: list[tuple[Case, Verdict]] = []
    timings: list[float] = []
    for case in cases:
        facts = ClaimFacts(items=case.stored, user_text=case.user)
        started = time.perf_counter()
        verdict = judge(case.reply, facts, case.language)
        timings.append(time.perf_counter() - started)
        verdicts.append((case, verdict))
    false = [(c, v) for c, v in verdicts if c.label in FALSE_LABELS]
    true = [(c, v) for c, v in verdicts if c.label in TRUE_LABELS]
    offers = [(c, v) for c, v in verdicts if c.label == "offer"]
    caught = [(c, v) for c, v in false if v.problem is not None]
    refused = [(c, v) for c, v in true if v.problem is not None]
    languages = Counter(c.language for c in cases)
    print(f"cases: {len(cases)} ({languages['pt']} pt, {languages['en']} en)")
    print(f"false claims caught: {_share(len(caught), len(false))}")
    for label in FALSE_LABELS:
        of = [x for x in false if x[0].label == label]
        if of:
            print(f"  {label}: {_share(sum(v.problem is not None for _, v in of), len(of))}")
    print(f"true statements refused: {_share(len(refused), len(true))}")
    for label in TRUE_LABELS:
        of = [x for x in true if x[0].label == label]
        if of:
            print(f"  {label}: {_share(sum(v.problem is not None for _, v in of), len(of))}")
    if offers:
        asked = sum(v.offer and v.problem is None for _, v in offers)
        handled = sum(v.offer or v.problem is not None for _, v in offers)
        print(
            f"offers handled: {_share(handled, len(offers))} "
            f"({asked} asked as a clarification, {handled - asked} refused)"
        )
    shown_ok = sum(v.problem is None and not v.offer for _, v in verdicts)
    capped = sum(v.problem is None and not v.offer and v.unchecked for _, v in verdicts)
    print(f"shown as text: {shown_ok}, of which capped below 100 as unchecked: {capped}")
    print(f"median check: {statistics.median(timings) * 1000:.3f} ms")
    kinds = sorted({c.kind for c, _ in false})
    if len(kinds) > 1 and len(kinds) <= 40:
        print("false claims caught by kind:")
        for kind in kinds:
            of = [v for c, v in false if c.kind == kind]
            print(f"  {kind:24s} {_share(sum(v.problem is not None for v in of), len(of))}")
    missed = [c for c, v in false if v.problem is None]
    wrongly = [(c, v) for c, v in refused]
    unhandled = [c for c, v in offers if not (v.offer or v.problem is not None)]
    for title, rows in (
        ("missed", [_line(c) for c in missed]),
        ("refused", [f"{_line(c)}  <- {v.problem[:80] if v.problem else ''}" for c, v in wrongly]),
        ("offers shown as text", [_line(c) for c in unhandled]),
    ):
        if rows:
            print(f"{title} ({len(rows)}):")
            for row in rows[:show]:
                print(f"  {row}")


def _line(case: Case) -> str:
    stored = [s.title for s in case.stored]
    user = f" user={case.user!r}" if case.user else ""
    return f"[{case.id} {case.kind} {case.label}] {case.reply!r} stored={stored}{user}"


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} = {part / whole:.1%}" if whole else "0/0"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--set", choices=("a", "b", "c", "d", "e", "f", "g", "h"), default="e")
    parser.add_argument("--file", type=Path, help="the JSON lines of set d")
    parser.add_argument("--n", type=int, help="cases of each label for sets a, b, c")
    parser.add_argument("--full", action="store_true", help="sets a, b, c: every case, events too")
    parser.add_argument("--show", type=int, default=25, help="misses listed per group")
    args = parser.parse_args()
    if args.set in ("d", "e", "f", "g", "h"):
        named = "claims_d_blind.jsonl" if args.set == "d" else f"claims_{args.set}.jsonl"
        cases = from_jsonl(args.file or ROOT / "bench" / named)
    else:
        cases = from_corpus(args.set, args.n)
        if not args.full:
            cases = [c for c in cases if not c.events]
    run(cases, args.show)


if __name__ == "__main__":
    main()
