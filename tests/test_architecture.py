"""ARCHITECTURE.md, checked on the source: every module listed, every import rule held."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("config", "storage", "agent", "bot")
LISTED_DIRS = (*PACKAGES, "tests/support", "bench")

# DESIGN 1-2 and STYLE, whatever ARCHITECTURE.md says: the floor of each package's rule
DESIGN_FLOOR = {
    "config": {"agent", "bot", "storage"},
    "storage": {"agent", "bot", "langchain_core", "langchain_openai", "openai", "telegram"},
    "agent": {"bot", "telegram", "pymongo"},
    "bot": {"pymongo", "langchain_core", "langchain_openai", "openai"},
}

_HEADING = re.compile(r"^## (?P<dir>[\w/]+?)/(?: — must not import: (?P<rule>.+))?(?: — .*)?$")
_ONLY = re.compile(r"^- Only (?P<paths>.+?) may import: (?P<names>.+)\.$")
_MODULE = re.compile(r"^- `(?P<path>[\w/.]+\.(?:py|md))`: (?P<owns>.+)$")
_MODULE_RULE = re.compile(r" Must not import: (?P<names>[\w., ]+)\.$")


def _names(text: str) -> set[str]:
    return {name.strip() for name in text.split(",") if name.strip()}


@dataclass
class Section:
    directory: str
    forbidden: set[str] = field(default_factory=set)
    only: list[tuple[tuple[str, ...], set[str]]] = field(default_factory=list)
    modules: dict[str, set[str]] = field(default_factory=dict)  # path -> forbidden names
    owns: dict[str, str] = field(default_factory=dict)


def parse_architecture() -> dict[str, Section]:
    sections: dict[str, Section] = {}
    current: Section | None = None
    for line in (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8").splitlines():
        if heading := _HEADING.match(line):
            current = Section(heading["dir"], _names(heading["rule"] or ""))
            sections[current.directory] = current
        elif current is None:
            continue
        elif only := _ONLY.match(line):
            paths = tuple(re.findall(r"`([^`]+)`", only["paths"]))
            current.only.append((paths, _names(only["names"])))
        elif module := _MODULE.match(line):
            rule = _MODULE_RULE.search(module["owns"])
            current.modules[module["path"]] = _names(rule["names"]) if rule else set()
            current.owns[module["path"]] = module["owns"]
    return sections


def imports_of(path: Path) -> set[str]:
    """Every module `path` imports, dotted, wherever the import statement sits."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def matches(imported: str, rule: str) -> bool:
    return imported == rule or imported.startswith(rule + ".")


def source_modules(directory: str) -> list[str]:
    base = ROOT / directory
    return sorted(
        p.relative_to(base).as_posix()
        for p in base.rglob("*.py")
        if p.name != "__init__.py" and "__pycache__" not in p.parts
    )


SECTIONS = parse_architecture()


def test_architecture_md_has_a_section_per_package_with_the_design_floor() -> None:
    assert set(LISTED_DIRS) <= set(SECTIONS)
    for package, floor in DESIGN_FLOOR.items():
        assert floor <= SECTIONS[package].forbidden, package


@pytest.mark.parametrize("directory", LISTED_DIRS)
def test_every_module_has_its_ownership_line_and_every_line_a_module(directory: str) -> None:
    section = SECTIONS[directory]
    listed = {path for path in section.modules if path.endswith(".py")}
    existing = set(source_modules(directory))
    assert sorted(existing - listed) == [], (
        f"modules without a line in ARCHITECTURE.md ({directory}/)"
    )
    assert sorted(listed - existing) == [], f"lines for modules that do not exist ({directory}/)"
    for path in section.modules:
        assert (ROOT / directory / path).exists(), path


@pytest.mark.parametrize("package", PACKAGES)
def test_package_and_module_import_rules_hold(package: str) -> None:
    section = SECTIONS[package]
    violations = []
    for path in source_modules(package) + ["__init__.py"]:
        file = ROOT / package / path
        if not file.exists():
            continue
        imported = imports_of(file)
        rules = section.forbidden | section.modules.get(path, set())
        violations += [
            f"{package}/{path} imports {name} (must not import {rule})"
            for name in sorted(imported)
            for rule in sorted(rules)
            if matches(name, rule)
        ]
        for allowed, names in section.only:
            if any(path == a or (a.endswith("/") and path.startswith(a)) for a in allowed):
                continue
            violations += [
                f"{package}/{path} imports {name} (only {', '.join(allowed)} may)"
                for name in sorted(imported)
                for rule in sorted(names)
                if matches(name, rule)
            ]
    assert not violations, "\n".join(violations)


def test_the_rules_catch_a_violation() -> None:
    # the parser and matcher are live: the same rules applied to a made-up import fail
    section = SECTIONS["bot"]
    assert any(matches("pymongo.asynchronous", rule) for rule in section.forbidden)
    assert any(matches("telegram.ext", rule) for _, names in section.only for rule in names), (
        "bot/ should allow telegram only in its Telegram modules"
    )
    assert any(matches("agent.tools.saving", r) for r in section.modules["whatsapp/channel.py"])


def test_a_process_without_a_model_never_loads_the_openai_client() -> None:
    """The OpenAI client and langchain-openai cost ~40 MB: only a configured model loads them."""
    code = (
        "import sys, agent.conversation.runtime, agent.deps, bot.web.app, bot.telegram.channel, bot.whatsapp.channel, bot.cli.main\n"
        "print(sorted(m for m in ('openai', 'langchain_openai') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"
