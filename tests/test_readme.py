"""The README's examples are what the program does (issue 34).

Every `>` line of the README's conversation runs through `lembra chat` in the default
set-up (no model, no TMDB key, a fresh database), and each answer must be the lines the
README shows under it. The examples quoted in the README's first paragraph must be
among those lines, so the first thing a newcomer tries is checked too.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.bot.test_console import turns
from tests.support.proc import REPO_ROOT, run_lembra

README = REPO_ROOT / "README.md"
FENCE = re.compile(r"^```text\n(?P<body>.*?)^```$", re.MULTILINE | re.DOTALL)


def conversation() -> list[tuple[str, str]]:
    """(message, answer) pairs of the README's ```text blocks made of `>` lines."""
    pairs: list[tuple[str, str]] = []
    for block in FENCE.finditer(README.read_text(encoding="utf-8")):
        lines = block.group("body").splitlines()
        if not lines or not lines[0].startswith("> "):
            continue
        for line in lines:
            if line.startswith("> "):
                pairs.append((line[2:], ""))
            else:
                message, answer = pairs[-1]
                pairs[-1] = (message, f"{answer}\n{line}" if answer else line)
    return pairs


def test_every_example_of_the_readme_answers_as_the_readme_says(tmp_path: Path) -> None:
    pairs = conversation()
    assert len(pairs) >= 8, "the README's conversation block is gone"
    stdin = "".join(f"{message}\n" for message, _ in pairs)

    result = run_lembra(
        ["chat", "--show-meta"], env={"DATA_DIR": str(tmp_path / "data")}, cwd=tmp_path, stdin=stdin
    )

    assert result.returncode == 0, result.stderr
    answers = [reply for reply, _ in turns(result.stdout)]
    assert len(answers) == len(pairs)
    for (message, expected), answer in zip(pairs, answers, strict=True):
        assert answer == expected, f"> {message}"
    assert all(meta.group("calls") == "0" for _, meta in turns(result.stdout))


def test_the_first_paragraphs_examples_are_in_the_checked_conversation() -> None:
    text = README.read_text(encoding="utf-8")
    intro = text.split("\n## ", 1)[0]
    quoted = re.findall(r"«([^»]+)»", intro)
    messages = {message for message, _ in conversation()}

    assert quoted, "the README's first paragraph quotes no example"
    assert set(quoted) <= messages
