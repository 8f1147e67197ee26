"""`/constitution` (admin): show the version in force, store text, `set <json>` the structured part, `rollback`."""

from __future__ import annotations

import json

from agent.deps import Deps
from agent.memory.constitution import (
    ConstitutionInputError,
    current_constitution,
    rollback_constitution,
    set_structure,
    structure_of,
    update_constitution,
)
from agent.texts import text
from agent.types import Language
from storage.documents import ConstitutionDoc


async def constitution_command(
    deps: Deps, args: str, admin_id: str, *, language: Language = "en"
) -> str:
    """Run one `/constitution` command (the caller has checked admin power) and say what is in
    force, in the admin's language (the constitution's own text is shown as written)."""
    verb, _, rest = args.partition(" ")
    try:
        if not args:
            doc = await current_constitution(deps)
        elif verb == "set":
            doc = await set_structure(deps, rest.strip(), author=admin_id)
        elif verb == "rollback" and not rest.strip():
            doc = await rollback_constitution(deps, author=admin_id)
        else:
            doc = await update_constitution(deps, args, author=admin_id)
    except ConstitutionInputError as exc:
        usage = text("admin_constitution_usage", language)
        return text("admin_constitution_unchanged", language, reason=exc, usage=usage)
    return describe(doc, language)


def describe(doc: ConstitutionDoc, language: Language = "en") -> str:
    """The version, its author, the text and the structured part as JSON."""
    structure = json.dumps(structure_of(doc), ensure_ascii=False, indent=1)
    heading = text("admin_constitution_structure", language)
    return f"v{doc.version} ({doc.author}):\n{doc.text}\n\n{heading}:\n{structure}"
