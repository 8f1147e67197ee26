"""Print how long the intent classifier takes per message (microseconds: mean, p50, p99).

Two sets: the labelled corpus (tests/agent/intent_corpus.tsv, deliberately hard: typos,
near-misses) and a realistic mix, where most messages go to the planner. Run from the repo
root: `.venv/bin/python bench/classifier.py [--rounds N]`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agent.understanding.intent import IntentClassifier  # noqa: E402

CORPUS = ROOT / "tests" / "agent" / "intent_corpus.tsv"

TITLES = [
    "inception",
    "interestelar",
    "a origem",
    "parasita",
    "duna",
    "the matrix",
    "oppenheimer",
    "cidade de deus",
    "breaking bad",
    "dark",
    "the office",
    "round 6",
    "o poderoso chefão",
    "tropa de elite",
    "succession",
    "barbie",
    "everything everywhere all at once",
    "1917",
]
NOTES = [
    "comprar leite, ovos e pão amanhã cedo",
    "a senha do wifi da casa da minha mãe é girassol2024",
    "reunião com o time de produto na quinta às 15h, levar os números do trimestre",
    "ideia: um app que lembra de regar as plantas",
    "o carro ficou na vaga 42 do subsolo 2",
    "livro que o João recomendou: Sapiens, do Harari",
    "dentista dia 12 às 9h30",
    "call mom on sunday about the trip to Lisbon",
    "the plumber said the part costs about 300 dollars, call back on monday",
    "receita do bolo de cenoura: 3 cenouras, 4 ovos, 1 xícara de óleo, 2 de açúcar e 2 de farinha",
    "presente de aniversário da Ana: aquele livro de fotografia",
    "lembrar de renovar o passaporte antes de março",
]
LINKS = [
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "https://github.com/python/cpython/pull/12345",
    "https://news.ycombinator.com/item?id=41234567",
    "https://pt.wikipedia.org/wiki/Inception",
    "https://blog.example.com/2025/01/como-organizar-suas-notas",
]
SEARCHES = [
    "procura {t}",
    "busca o link do github",
    "tem algum filme do nolan?",
    "cadê a nota do wifi?",
    "qual era o nome daquele livro que o joão recomendou?",
    "find my note about the plumber",
    "do I have {t} saved?",
    "acha a receita do bolo",
    "eu salvei {t}?",
]
DETERMINISTIC = [
    ("sim", 6),
    ("ok", 3),
    ("pode", 2),
    ("yes", 2),
    ("não", 2),
    ("no", 1),
    ("cancela", 2),
    ("1", 4),
    ("2", 3),
    ("o segundo", 1),
    ("2010", 1),
    ("lista tudo", 2),
    ("lista meus filmes", 2),
    ("what did I save?", 1),
    ("oi", 3),
    ("bom dia", 2),
    ("hello", 1),
    ("ajuda", 1),
    ("/help", 1),
    ("apaga tudo", 1),
    ("/why", 1),
    ("lsita tudo", 1),
    ("siiim", 1),
]


def realistic_mix(size: int, *, seed: int = 7) -> list[str]:
    """About 70% planner traffic (saves, notes, links, searches), 30% deterministic."""
    rng = random.Random(seed)
    det = [text for text, weight in DETERMINISTIC for _ in range(weight)]
    out: list[str] = []
    for _ in range(size):
        roll = rng.random()
        title = rng.choice(TITLES)
        if roll < 0.25:
            out.append(
                rng.choice(
                    [
                        "salva {t}",
                        "salvar o filme {t}",
                        "guarda {t}",
                        "save {t}",
                        "salva a série {t}",
                        "{t}",
                    ]
                ).format(t=title)
            )
        elif roll < 0.45:
            out.append(rng.choice(NOTES))
        elif roll < 0.55:
            out.append(rng.choice(["", "guarda esse link ", "salva "]) + rng.choice(LINKS))
        elif roll < 0.70:
            out.append(rng.choice(SEARCHES).format(t=title))
        else:
            out.append(rng.choice(det))
    return out


def corpus_texts() -> list[str]:
    lines = CORPUS.read_text(encoding="utf-8").splitlines()
    return [line.split("\t")[0] for line in lines[1:] if "\t" in line]


def measure(classifier: IntentClassifier, texts: list[str], rounds: int) -> list[float]:
    """Microseconds per message: its median over `rounds` interleaved passes.

    The median per message keeps a preempted call (this machine is shared) from standing
    for the message; the plain wall-clock mean is reported beside it.
    """
    for text in texts:
        classifier.classify(text)
    per_message: list[list[float]] = [[] for _ in texts]
    clock = time.perf_counter_ns
    for _ in range(rounds):
        for samples, text in zip(per_message, texts, strict=True):
            start = clock()
            classifier.classify(text)
            samples.append((clock() - start) / 1000)
    return [statistics.median(samples) for samples in per_message]


def wall_mean(classifier: IntentClassifier, texts: list[str], rounds: int) -> float:
    """Microseconds per call over whole passes, preemptions included."""
    start = time.perf_counter_ns()
    for _ in range(rounds):
        for text in texts:
            classifier.classify(text)
    return (time.perf_counter_ns() - start) / 1000 / (rounds * len(texts))


def report(name: str, times: list[float], wall: float) -> None:
    cuts = statistics.quantiles(times, n=100)
    print(
        f"{name:<14} {len(times):>5} msgs  mean {statistics.fmean(times):6.2f} us"
        f"  p50 {statistics.median(times):6.2f} us  p99 {cuts[98]:7.2f} us"
        f"  max {max(times):7.2f} us   (wall-clock mean {wall:6.2f} us)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--mix-size", type=int, default=2000)
    args = parser.parse_args()

    start = time.perf_counter()
    classifier = IntentClassifier()
    print(f"IntentClassifier() built in {(time.perf_counter() - start) * 1000:.1f} ms")

    corpus = corpus_texts()
    mix = realistic_mix(args.mix_size)
    actions = Counter(classifier.classify(text).action for text in mix)
    share = ", ".join(f"{a} {n / len(mix):.0%}" for a, n in actions.most_common())
    print(f"realistic mix: {share}")
    for name, texts in (("corpus", corpus), ("realistic mix", mix)):
        report(name, measure(classifier, texts, args.rounds), wall_mean(classifier, texts, 5))


if __name__ == "__main__":
    main()
