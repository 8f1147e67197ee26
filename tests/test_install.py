"""Installs: the lock pins what pyproject asks for, nothing dev-only, and `--version` tells it."""

from __future__ import annotations

import re
import tomllib

import pytest

from bot.cli.main import main
from tests.support.proc import REPO_ROOT


def _name(requirement: str) -> str:
    """The normalized distribution name of a requirement line (PEP 503)."""
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement.strip())
    assert match, requirement
    return re.sub(r"[-_.]+", "-", match.group(0)).lower()


def _pyproject() -> dict[str, object]:
    return tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _locked() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in (REPO_ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines():
        if match := re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)", line):
            pins[_name(match.group(1))] = match.group(2)
    return pins


def test_every_runtime_dependency_is_pinned_with_hashes_and_no_dev_tool_is() -> None:
    project = _pyproject()["project"]
    assert isinstance(project, dict)
    pins = _locked()
    missing = [dep for dep in project["dependencies"] if _name(dep) not in pins]
    assert not missing, f"run `make lock`: requirements.lock lacks {missing}"
    dev_only = {_name(dep) for dep in project["optional-dependencies"]["dev"]}
    assert not dev_only & set(pins), "dev tools must not be in the production lock"
    text = (REPO_ROOT / "requirements.lock").read_text(encoding="utf-8")
    assert text.count("--hash=sha256:") >= len(pins)


def test_the_unused_job_queue_is_not_installed_in_production() -> None:
    assert "apscheduler" not in _locked()


def test_the_docker_image_installs_from_the_lock() -> None:
    dockerfile = (REPO_ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "--require-hashes -r requirements.lock" in dockerfile
    assert "--no-deps ." in dockerfile


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    project = _pyproject()["project"]
    assert isinstance(project, dict)
    assert capsys.readouterr().out.strip() == f"lembra {project['version']}"
