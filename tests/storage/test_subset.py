"""storage/ uses no MongoDB operator outside the subset written down in storage/SUBSET.md."""

from __future__ import annotations

import ast
import re
from pathlib import Path

STORAGE = Path(__file__).resolve().parents[2] / "storage"


def allowed_operators() -> set[str]:
    text = (STORAGE / "SUBSET.md").read_text(encoding="utf-8")
    allowed = text[text.index("Allowed") : text.index("Not allowed")]
    return set(re.findall(r"`(\$[a-zA-Z]+)`", allowed))


def operators_used() -> dict[str, set[str]]:
    used: dict[str, set[str]] = {}
    for path in sorted(STORAGE.glob("*.py")):
        if path.name == "embedded.py":  # speaks the wire protocol itself (`$db`), no queries
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if re.fullmatch(r"\$[a-zA-Z]+", node.value):
                    used.setdefault(node.value, set()).add(path.name)
    return used


def test_every_operator_in_storage_is_in_the_written_subset() -> None:
    allowed = allowed_operators()
    assert {"$set", "$inc", "$in", "$lte"} <= allowed  # the section was found
    outside = {op: sorted(files) for op, files in operators_used().items() if op not in allowed}
    assert outside == {}, "operators used but not in storage/SUBSET.md's allowed list"


def test_the_subset_lists_nothing_storage_does_not_use() -> None:
    assert sorted(allowed_operators() - set(operators_used())) == []
