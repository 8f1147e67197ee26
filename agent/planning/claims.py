"""Model text checked against the turn's facts before it is sent (DESIGN 9.2).

- A RESPOND message that claims an effect (saved, deleted...) no tool produced this turn
  is an invalid output: `false_claim` names the problem for the re-ask (DESIGN 3.1 budget).
- Emojis are removed from model-written text (`without_emojis`).
- An offer to act ("quer que eu salve...?") is sent with state at most AMBIGUOUS
  (`offers_to_act`).

Claims are read in folded text (no case, no accents), PT and EN; a negated one
("não salvei", "nothing was deleted") claims nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final, Literal

from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.understanding.textnorm import fold

Effect = Literal["save", "delete"]
FALSE_CLAIM: Final = (
    "your message claims an effect that did not happen ({effects}): call the tool, "
    "or say what happened"
)

_PARTICIPLES: Final[dict[Effect, str]] = {
    "save": r"salv[oa]s?|guardad[oa]s?|anotad[oa]s?|adicionad[oa]s?|registrad[oa]s?|"
    r"armazenad[oa]s?|incluid[oa]s?",
    "delete": r"apagad[oa]s?|removid[oa]s?|excluid[oa]s?|deletad[oa]s?|eliminad[oa]s?|"
    r"descartad[oa]s?",
}
_FIRST_PERSON: Final[dict[Effect, str]] = {
    "save": r"salvei|guardei|anotei|adicionei|registrei|armazenei|inclui|salvamos|guardamos",
    "delete": r"apaguei|removi|exclui|deletei|eliminei|descartei|apagamos|removemos",
}
_ENGLISH: Final[dict[Effect, str]] = {
    "save": r"saved|stored|added|noted|bookmarked|recorded|kept",
    "delete": r"deleted|removed|erased|wiped|cleared|discarded",
}
# a promise of the effect is a claim too: "I'll remember that" stores nothing by itself
_PROMISE: Final[dict[Effect, str]] = {
    "save": r"(?:i ll|i will|ill|we ll|we will)\s+(?:remember|keep|save|store|note|add|bookmark)"
    r"|vou\s+(?:me\s+)?(?:lembrar|guardar|salvar|anotar|registrar|adicionar)"
    r"|lembrarei|guardarei|salvarei|anotarei|registrarei|adicionarei",
    "delete": r"(?:i ll|i will|ill|we ll|we will)\s+(?:delete|remove|erase|forget)"
    r"|vou\s+(?:apagar|remover|excluir|deletar|esquecer)|apagarei|removerei|excluirei",
}
_AUXILIARY: Final = (
    r"(?:foi|foram|ja foi|ja foram|ficou|ficaram|esta agora|estao agora|acabou de ser|"
    r"has been|have been|was|were|is now|are now|got)"
)
_NEGATION: Final = re.compile(
    r"\b(?:nao|nada|nenhum|nenhuma|nunca|sem|not|no|nothing|never|didnt|havent|hasnt|"
    r"wasnt|werent|isnt|cannot|cant|couldnt|wont|without)\b(?:\s+\S+){0,3}\s*$"
)
_OFFER: Final = re.compile(
    r"\b(?:quer que eu|voce quer que eu|vc quer que eu|posso|gostaria que eu|devo|"
    r"do you want me to|want me to|should i|shall i|can i|may i|would you like me to)\s+"
    r"(?:\S+\s+){0,2}?"
    r"(?:salv|guard|anot|adicion|apag|remov|exclu|delet|procur|busc|list|save|add|keep|store|"
    r"note|delete|remove|erase|search|find|look|list)",
)
# Pictographs, dingbats, flags, skin tones, joiners and variation selectors.
_EMOJI: Final = re.compile(
    "[\U0001f000-\U0001faff\U00002600-\U000027bf\U00002b00-\U00002bff\U0001f1e6-\U0001f1ff"
    "\u200d\ufe0e\ufe0f\u20e3\u2300-\u23ff\u2190-\u21ff\u2b50\u2b55\u3030\u303d\u3297\u3299"
    "\U000e0020-\U000e007f]+"
)
_SPACES: Final = re.compile(r"[ \t]{2,}")
# The fences the prompt puts around stored text ("<data>https://bbc.com</data>"), echoed back
_DATA_TAG: Final = re.compile(r"<\s*/?\s*data\b[^<>]{0,40}>", re.IGNORECASE)
_SPACE_BEFORE_MARK: Final = re.compile(r"[ \t]+([.,;:!?])")


def _claim_pattern(effect: Effect) -> re.Pattern[str]:
    return re.compile(
        rf"\b(?:(?:{_FIRST_PERSON[effect]})|(?:{_PROMISE[effect]})|(?:i|we|ive|weve|i ve|we ve|just)\s+"
        rf"(?:{_ENGLISH[effect]})|{_AUXILIARY}\s+(?:{_PARTICIPLES[effect]}|{_ENGLISH[effect]})"
        rf"|^(?:pronto\s+|done\s+|ok\s+|feito\s+)?(?:{_PARTICIPLES[effect]}|{_ENGLISH[effect]})\b"
        rf"(?!\s+(?:movies|films|items|links|notes|videos|shows|filmes|itens|notas)))\b"
    )


_CLAIMS: Final[dict[Effect, re.Pattern[str]]] = {
    "save": _claim_pattern("save"),
    "delete": _claim_pattern("delete"),
}
# what each effect needs to have happened this turn (ledger event types, DESIGN 3.9)
EVIDENCE: Final[dict[Effect, frozenset[str]]] = {
    "save": frozenset({"item_saved"}),
    "delete": frozenset({"item_deleted", "all_deleted"}),
}


def claimed_effects(message: str) -> frozenset[Effect]:
    """The effects a text states as done, sentence by sentence, negations excluded."""
    found: set[Effect] = set()
    for sentence in re.split(r"[.!?;\n]+", message):
        folded = fold(sentence)
        for effect, pattern in _CLAIMS.items():
            for match in pattern.finditer(folded):
                if not _NEGATION.search(folded[: match.start()]):
                    found.add(effect)
    return frozenset(found)


def false_claim(message: str | None, events: Iterable[str]) -> str | None:
    """The re-ask for a message claiming effects this turn's events do not show, or None."""
    if not message:
        return None
    happened = frozenset(events)
    missing = sorted(e for e in claimed_effects(message) if happened.isdisjoint(EVIDENCE[e]))
    if not missing:
        return None
    return FALSE_CLAIM.format(effects=", ".join(missing))


def without_emojis(message: str) -> str:
    """The text with emojis removed (and the spaces they leave squeezed)."""
    stripped = _EMOJI.sub("", message)
    if stripped == message:
        return message
    lines = (_SPACE_BEFORE_MARK.sub(r"\1", _SPACES.sub(" ", line)) for line in stripped.split("\n"))
    return "\n".join(line.strip() for line in lines).strip()


def without_data_tags(message: str) -> str:
    """The text without the data fences a model copied from its prompt."""
    return _DATA_TAG.sub("", message)


def offers_to_act(message: str) -> bool:
    """Whether the text offers to do something ("quer que eu salve?", "should I save it?")."""
    return any(_OFFER.search(fold(s)) for s in re.split(r"[.!\n]+", message))


def deliverable(deps: Deps, turn: Turn, message: str) -> str:
    """Model text as it may be sent: emojis and data fences removed, offers capped at AMBIGUOUS."""
    unfenced = without_data_tags(message)
    if unfenced != message:
        deps.metrics.model_text.labels("data_tag_removed").inc()
        turn.facts.apply_rule("data_tag_removed")
    plain = without_emojis(unfenced)
    if plain != unfenced:
        deps.metrics.model_text.labels("emoji_removed").inc()
        turn.facts.apply_rule("emoji_removed")
    if offers_to_act(plain):
        # it cannot ask through a clarification with options yet: the offer is not an answer
        deps.metrics.model_text.labels("offer_capped").inc()
        turn.facts.ambiguity = "unresolved"
        turn.facts.apply_rule("offer_to_act_capped")
    return plain
