"""The import boundaries of ARCHITECTURE.md, checked on the source (not by convention)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# package -> top-level modules it must never import
FORBIDDEN = {
    "storage": {
        "agent",
        "bot",
        "langchain_core",
        "langchain_openai",
        "openai",
        "telegram",
        "aiohttp",
    },
    "agent": {"bot", "telegram", "pymongo"},
    "bot": {"pymongo", "langchain_core", "langchain_openai", "openai"},
    "config": {"agent", "bot", "storage", "telegram", "pymongo", "langchain_core"},
}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_respects_its_import_boundary(package: str) -> None:
    violations = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for name in sorted(imports_of(path) & FORBIDDEN[package])
    ]
    assert not violations, "\n".join(violations)
