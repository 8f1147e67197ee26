"""Outcome estimates of an effect (seed 002-43): numbers the code computes, never a model.

`simulate` and the confirmation preview built from it carry one `Estimate`: how surely
each target is the one meant (the matcher's 0-100 score), whether «desfaz» restores it
(1 or 0), how many similar items would stay, and a verdict the reply tells in one line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Verdict = Literal["unambiguous", "similar", "uncertain", "everything", "new"]
# a target the matcher scores at least this (every word of the name is a word of the item)
# is the one meant; below it, the preview says the target is uncertain
SURE = 95


@dataclass(frozen=True, slots=True)
class Estimate:
    confidences: tuple[int, ...]  # per target shown, 0-100; empty when the effect creates
    undo_restores: int  # 1: «desfaz» puts it back; 0: it cannot
    similar_kept: int  # items like the target(s) the effect would leave in place
    everything: bool = False  # the effect touches every item (delete_all_memories)

    @property
    def verdict(self) -> Verdict:
        """The one-line assessment, decided from the numbers alone."""
        if self.everything:
            return "everything"
        if self.similar_kept:
            return "similar"
        if not self.confidences:
            return "new"
        return "uncertain" if min(self.confidences) < SURE else "unambiguous"

    def to_json(self) -> dict[str, object]:
        """The estimate as the model reads it in the tool result."""
        return {
            "match_confidence": list(self.confidences),
            "undo_restores": self.undo_restores,
            "similar_kept": self.similar_kept,
            "assessment": self.verdict,
        }
