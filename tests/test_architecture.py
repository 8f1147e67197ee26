"""ARCHITECTURE.md, checked on the source: every module listed, every import rule held."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
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


# Lazy imports (inside a function) allowed to close an import circle, each with its reason:
# (importer, imported) -> why. Empty: agent/ has no circle, not even a hidden one.
LAZY_CYCLE_EXEMPT: dict[tuple[str, str], str] = {}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports_with_place(tree: ast.AST, place: str = "module") -> Iterator[tuple[str, str, int]]:
    """(dotted name, place, level) of every import: at module level, under `if
    TYPE_CHECKING:` or inside a function; a relative import keeps its level."""
    for node in ast.iter_child_nodes(tree):
        inner = place
        if isinstance(node, ast.If) and _is_type_checking(node.test) and place == "module":
            for child in node.body:
                yield from _imports_with_place(ast.Module(body=[child], type_ignores=[]), "typing")
            for child in node.orelse:
                yield from _imports_with_place(ast.Module(body=[child], type_ignores=[]), place)
            continue
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            inner = "function"
        if isinstance(node, ast.Import):
            yield from ((alias.name, place, 0) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            yield from (
                (f"{module}.{alias.name}".lstrip("."), place, node.level) for alias in node.names
            )
        yield from _imports_with_place(node, inner)


def import_graph(package: str) -> dict[str, dict[str, set[str]]]:
    """importer -> imported -> places, over the modules of `package`.

    A package's `__init__` goes by the package's name. `from a import b` imports `a.b` when
    that is a module, else `a` (as import-linter reads it): the parent packages Python
    initializes on the way are not edges, or every registry `__init__` would be a circle.
    """
    files = {
        _module_name(p): p for p in (ROOT / package).rglob("*.py") if "__pycache__" not in p.parts
    }

    def ours(name: str) -> str | None:
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, dict[str, set[str]]] = {module: {} for module in files}
    for module, path in files.items():
        base = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for name, place, level in _imports_with_place(ast.parse(path.read_text(encoding="utf-8"))):
            if level:
                anchor = base.split(".")[: len(base.split(".")) - level + 1]
                name = ".".join([*anchor, name]).rstrip(".")
            target = ours(name)
            if target is not None and target != module:
                graph[module].setdefault(target, set()).add(place)
    return graph


def import_cycles(graph: Mapping[str, Mapping[str, set[str]]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph.get(node, {}):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = [stack.pop()]
            while component[-1] != node:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_agent_modules_import_no_circle_not_even_for_typing_or_in_a_function() -> None:
    graph = import_graph("agent")
    for (importer, imported), reason in LAZY_CYCLE_EXEMPT.items():
        assert reason, (importer, imported)
        assert graph[importer].get(imported) == {"function"}, (importer, imported)
        del graph[importer][imported]
    described = [
        "\n".join(
            f"  {a} -> {b} ({', '.join(sorted(graph[a][b]))})"
            for a in cycle
            for b in sorted(graph[a])
            if b in cycle
        )
        for cycle in import_cycles(graph)
    ]
    assert not described, "import circles among agent/ modules:\n" + "\n\n".join(described)


def test_the_cycle_finder_sees_circles_of_every_kind_of_import() -> None:
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "from . import sibling\n"
        "if TYPE_CHECKING:\n    from agent.deps import Deps\n"
        "def f():\n    import agent.tools.base\n"
    )
    places = {(name, place) for name, place, _ in _imports_with_place(tree)}
    assert {("agent.deps.Deps", "typing"), ("agent.tools.base", "function")} <= places
    assert ("sibling", "module") in places
    assert import_cycles(
        {"a": {"b": {"typing"}}, "b": {"c": {"function"}}, "c": {"a": {"module"}}}
    ) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b": {"module"}}, "b": {}}) == []
    # the real graph: the package's own registry and TYPE_CHECKING edges are in it
    graph = import_graph("agent")
    assert "agent.tools.saving" in graph["agent.tools"]
    assert graph["agent.deps"]["agent.planning.transport"] == {"typing"}


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
