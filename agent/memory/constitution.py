"""The constitution: a stored, versioned behaviour document (`constitutions`) with a default.

Creating the default, or any later version, appends `constitution_updated` to the
`system` ledger stream with the version and digests of the text and of the structured
part (overrides, stance, risk tolerance: issue 13). Every edit is a new version; a
rollback stores the previous version again as the newest.
"""

from __future__ import annotations

import json

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agent.deps import Deps
from agent.planning.prompt import DEFAULT_CONSTITUTION
from agent.trust.ledgering import append_event, digest
from agent.trust.risk import Thresholds, thresholds
from storage.documents import ConstitutionDoc, ConstitutionOverride

SYSTEM_STREAM = "system"


async def current_constitution(deps: Deps) -> ConstitutionDoc:
    """The constitution in force, creating the default version on first use."""
    latest = await deps.db.constitutions.latest()
    if latest is not None:
        return latest
    doc, created = await deps.db.constitutions.ensure_first(
        DEFAULT_CONSTITUTION, now_ms=deps.clock.ms()
    )
    if created:
        await _record(deps, doc)
    return doc


async def update_constitution(deps: Deps, text: str, *, author: str) -> ConstitutionDoc:
    """Store a new version of the constitution (it applies from the next frame)."""
    doc = await deps.db.constitutions.add(text, author=author, now_ms=deps.clock.ms())
    await _record(deps, doc)
    return doc


class ConstitutionInputError(ValueError):
    """An edit refused before anything was stored; the message names the field."""


class StructureEdit(BaseModel):
    """`/constitution set <json>`: the structured fields to replace (absent ones are kept)."""

    model_config = ConfigDict(extra="forbid")

    overrides: list[ConstitutionOverride] | None = Field(default=None, max_length=20)
    stance: str | None = Field(default=None, max_length=500)
    risk_tolerance: float | None = Field(default=None, ge=0.0, le=1.0)


def parse_structure_edit(raw: str) -> StructureEdit:
    """Read an edit's JSON, or raise `ConstitutionInputError` naming the bad field."""
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ConstitutionInputError(f"not JSON: {exc.msg} (position {exc.pos})") from None
    if not isinstance(data, dict):
        raise ConstitutionInputError(
            "expected a JSON object with overrides, stance or risk_tolerance"
        )
    try:
        edit = StructureEdit.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "value"
        raise ConstitutionInputError(f"{where}: {first['msg']}") from None
    if not edit.model_fields_set:
        raise ConstitutionInputError("nothing to set: give overrides, stance or risk_tolerance")
    return edit


async def set_structure(deps: Deps, raw: str, *, author: str) -> ConstitutionDoc:
    """Store a new version with the structured fields of `raw` replaced (text kept)."""
    edit = parse_structure_edit(raw)
    current = await current_constitution(deps)
    changed = current.model_copy(update=edit.model_dump(exclude_unset=True))
    doc = await deps.db.constitutions.add(
        current.text, author=author, now_ms=deps.clock.ms(), structure=changed
    )
    await _record(deps, doc)
    return doc


async def rollback_constitution(deps: Deps, *, author: str) -> ConstitutionDoc:
    """Store the version before the one in force again, as a new version."""
    current = await current_constitution(deps)
    previous = await deps.db.constitutions.previous(current.version)
    if previous is None:
        raise ConstitutionInputError(
            f"v{current.version} is the first version: nothing to roll back to"
        )
    doc = await deps.db.constitutions.add(
        previous.text, author=author, now_ms=deps.clock.ms(), structure=previous
    )
    await _record(deps, doc)
    return doc


def structure_of(doc: ConstitutionDoc) -> dict[str, object]:
    """The structured part as plain data (the frame's and `/constitution`'s view)."""
    return {
        "stance": doc.stance,
        "risk_tolerance": doc.risk_tolerance,
        "overrides": [o.model_dump() for o in doc.overrides],
    }


async def _record(deps: Deps, doc: ConstitutionDoc) -> None:
    structure = json.dumps(structure_of(doc), sort_keys=True, ensure_ascii=False)
    await append_event(
        deps,
        None,
        "constitution_updated",
        {
            "version": doc.version,
            "text_sha256": digest(doc.text),
            "structure_sha256": digest(structure),
            "author": doc.author,
        },
        stream=SYSTEM_STREAM,
    )


async def current_limits(deps: Deps) -> Thresholds:
    """The risk thresholds in force: the settings, moved by the constitution's risk tolerance."""
    settings = deps.settings
    # every delete preview reads these: kept per process (issue 26: a position resolved
    # in code costs at most three round trips), fresh again after any new version
    memo, now = deps.constitution_memo, deps.clock.ms()
    version = deps.db.ledger.known_head(SYSTEM_STREAM)
    doc = memo.get(version, now, settings.frame_cache_ttl_seconds * 1000)
    if doc is None:
        doc = await current_constitution(deps)
        memo.put(deps.db.ledger.known_head(SYSTEM_STREAM), now, doc)
    return thresholds(
        settings.risk_confirm_threshold,
        settings.risk_block_threshold,
        tolerance=doc.risk_tolerance,
    )
