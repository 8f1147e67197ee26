"""Computed confidence (DESIGN 3.4): the point table, the bands, the caps and the state table."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.trust.confidence import Confidence, Level, TurnFacts, TurnKind, band, evaluate

ALL_KINDS: tuple[TurnKind, ...] = (
    "deterministic",
    "preview",
    "effect",
    "dedup",
    "saved_with_caveat",
    "candidates",
    "unavailable",
    "blocked",
    "answer",
)


def level_of(confidence: Confidence) -> Level:
    """The state, with "OK with a warning" told apart from OK."""
    return "OK_WARN" if confidence.warning else confidence.state


def caveated() -> TurnFacts:
    facts = TurnFacts()
    facts.add_caveat("TMDB indisponível: salvo sem detalhes.")
    return facts


# -- points and bands --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("score", "expected"),
    [
        (0, "FAIL"),
        (29, "FAIL"),
        (30, "AMBIGUOUS"),
        (49, "AMBIGUOUS"),
        (50, "PARTIAL"),
        (69, "PARTIAL"),
        (70, "OK_WARN"),
        (89, "OK_WARN"),
        (90, "OK"),
        (100, "OK"),
    ],
)
def test_band_boundaries(score: int, expected: Level) -> None:
    assert band(score) == expected


@pytest.mark.parametrize("score", [-1, 101])
def test_band_refuses_a_score_outside_0_to_100(score: int) -> None:
    with pytest.raises(ValueError, match="out of range"):
        band(score)


@pytest.mark.parametrize(
    ("fields", "score"),
    [
        ({}, 100),
        ({"pipeline": "caveat"}, 85),
        ({"pipeline": "failed"}, 60),
        ({"ambiguity": "implicit"}, 85),
        ({"ambiguity": "unresolved"}, 70),
        ({"rules": "partial"}, 90),
        ({"rules": "ignored"}, 80),
        ({"mapping": "coerced"}, 95),
        ({"mapping": "violation"}, 90),
        ({"pipeline": "failed", "ambiguity": "unresolved", "rules": "ignored"}, 10),
        (
            {
                "pipeline": "failed",
                "ambiguity": "unresolved",
                "rules": "ignored",
                "mapping": "violation",
            },
            0,
        ),
    ],
)
def test_the_score_is_the_sum_of_the_four_components(fields: dict[str, Any], score: int) -> None:
    assert TurnFacts(**fields).score == score


@pytest.mark.parametrize(
    ("fields", "score", "expected"),
    [
        # The point table only reaches multiples of 5: these are each boundary's neighbours.
        ({"rules": "partial"}, 90, "OK"),
        ({"pipeline": "caveat"}, 85, "OK_WARN"),
        ({"ambiguity": "implicit", "rules": "partial", "mapping": "coerced"}, 70, "OK_WARN"),
        ({"pipeline": "caveat", "rules": "partial", "mapping": "violation"}, 65, "PARTIAL"),
        (
            {
                "pipeline": "caveat",
                "ambiguity": "implicit",
                "rules": "partial",
                "mapping": "violation",
            },
            50,
            "PARTIAL",
        ),
        ({"pipeline": "failed", "rules": "partial", "mapping": "coerced"}, 45, "AMBIGUOUS"),
        (
            {
                "pipeline": "failed",
                "ambiguity": "implicit",
                "rules": "partial",
                "mapping": "coerced",
            },
            30,
            "AMBIGUOUS",
        ),
        (
            {
                "pipeline": "failed",
                "ambiguity": "implicit",
                "rules": "partial",
                "mapping": "violation",
            },
            25,
            "FAIL",
        ),
    ],
)
def test_an_effect_turn_takes_the_state_of_its_band(
    fields: dict[str, Any], score: int, expected: Level
) -> None:
    confidence = evaluate(TurnFacts(**fields), "effect")
    assert confidence.score == score
    assert level_of(confidence) == expected


# -- the facts that cap the state --------------------------------------------------------------


def test_a_caveat_makes_the_state_at_most_partial() -> None:
    facts = TurnFacts(caveats=["TMDB indisponível"])  # score 100: band OK
    confidence = evaluate(facts, "effect")
    assert (confidence.score, confidence.state) == (100, "PARTIAL")


def test_a_caveat_never_raises_a_worse_band() -> None:
    facts = TurnFacts(pipeline="failed", ambiguity="implicit", rules="ignored", caveats=["x"])
    confidence = evaluate(facts, "effect")
    assert (confidence.score, confidence.state) == (25, "FAIL")


def test_an_unresolved_ambiguity_makes_the_state_at_most_ambiguous() -> None:
    confidence = evaluate(TurnFacts(ambiguity="unresolved"), "effect")  # 70: band OK_WARN
    assert (confidence.score, confidence.state) == (70, "AMBIGUOUS")


@pytest.mark.parametrize(
    "block", ["pipeline_violation", "unknown_item", "undefined_argument", "cross_user"]
)
def test_an_absolute_block_is_fail_whatever_the_score(block: Any) -> None:
    facts = TurnFacts()
    facts.block(block)
    for kind in ALL_KINDS:
        assert evaluate(facts, kind).state == "FAIL", kind


def test_a_pipeline_violation_also_zeroes_the_pipeline_points() -> None:
    facts = TurnFacts()
    facts.block("pipeline_violation")
    assert facts.score == 60


def test_a_planner_retry_warns_without_the_caveat_cap() -> None:
    facts = TurnFacts()
    facts.add_warning("Precisei de mais de uma tentativa para entender o pedido.")
    facts.add_warning("Precisei de mais de uma tentativa para entender o pedido.")
    confidence = evaluate(facts, "effect")
    assert (confidence.score, confidence.state, confidence.warning) == (85, "OK", True)
    assert confidence.caveats == ("Precisei de mais de uma tentativa para entender o pedido.",)
    assert confidence.shows_caveat


def test_caveats_come_before_warnings() -> None:
    facts = caveated()
    facts.add_warning("retry")
    assert evaluate(facts, "saved_with_caveat").caveats == (
        "TMDB indisponível: salvo sem detalhes.",
        "retry",
    )


# -- the state table by kind of turn ------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "facts", "expected"),
    [
        # deterministic answer (list, help, greeting, cancel, stray confirm): OK
        ("deterministic", TurnFacts(), "OK"),
        ("deterministic", TurnFacts(pipeline="caveat"), "OK_WARN"),
        # preview awaiting confirmation: OK, even after an implicit (fuzzy) match and its caveat
        ("preview", TurnFacts(), "OK"),
        ("preview", TurnFacts(ambiguity="implicit", caveats=["closest match"]), "OK_WARN"),
        # saved / deleted / found: by the score
        ("effect", TurnFacts(), "OK"),
        ("effect", TurnFacts(pipeline="caveat"), "OK_WARN"),
        ("effect", TurnFacts(pipeline="caveat", rules="partial", mapping="violation"), "PARTIAL"),
        # already saved (dedup): OK
        ("dedup", TurnFacts(), "OK"),
        ("dedup", caveated(), "OK_WARN"),
        # saved with a caveat (TMDB down): PARTIAL
        ("saved_with_caveat", caveated(), "PARTIAL"),
        ("saved_with_caveat", TurnFacts(), "PARTIAL"),
        # several candidates, nothing chosen: AMBIGUOUS
        ("candidates", TurnFacts(ambiguity="unresolved"), "AMBIGUOUS"),
        ("candidates", TurnFacts(), "AMBIGUOUS"),
        # over quota, model timeout, model unavailable after its retries: FAIL
        ("unavailable", TurnFacts(), "FAIL"),
        # pipeline violation, cross-user or unknown item: FAIL
        ("blocked", TurnFacts(), "FAIL"),
        # the model phrased a message: by the score
        ("answer", TurnFacts(), "OK"),
        ("answer", TurnFacts(pipeline="caveat"), "OK_WARN"),
    ],
)
def test_state_table(kind: TurnKind, facts: TurnFacts, expected: Level) -> None:
    assert level_of(evaluate(facts, kind)) == expected


def test_the_state_table_never_lifts_a_fail() -> None:
    facts = TurnFacts(pipeline="failed", ambiguity="implicit", rules="ignored")
    assert facts.score == 25
    for kind in ALL_KINDS:
        assert evaluate(facts, kind).state == "FAIL", kind


# -- what the state allows and shows ----------------------------------------------------------


@pytest.mark.parametrize(
    ("facts", "kind", "writes"),
    [
        (TurnFacts(), "effect", True),  # OK
        (TurnFacts(pipeline="caveat"), "effect", True),  # OK with a warning
        (caveated(), "saved_with_caveat", True),  # PARTIAL
        (TurnFacts(ambiguity="unresolved"), "effect", False),  # AMBIGUOUS
        (TurnFacts(pipeline="failed", rules="partial", mapping="coerced"), "effect", False),
        (TurnFacts(pipeline="failed", ambiguity="implicit", rules="ignored"), "effect", False),
        (TurnFacts(blocks=["cross_user"]), "effect", False),  # FAIL
        (TurnFacts(), "unavailable", False),  # FAIL
    ],
)
def test_writes_happen_only_in_ok_and_partial(
    facts: TurnFacts, kind: TurnKind, writes: bool
) -> None:
    confidence = evaluate(facts, kind)
    assert confidence.writes_allowed is writes
    assert writes == (confidence.state in ("OK", "PARTIAL"))


@pytest.mark.parametrize(
    ("facts", "kind", "shows"),
    [
        (TurnFacts(), "effect", False),  # OK
        (TurnFacts(pipeline="caveat"), "effect", True),  # OK with a warning
        (caveated(), "saved_with_caveat", True),  # PARTIAL
        (TurnFacts(ambiguity="unresolved"), "candidates", False),  # AMBIGUOUS
        (TurnFacts(), "unavailable", False),  # FAIL
    ],
)
def test_the_caveat_line_shows_in_ok_with_a_warning_and_partial(
    facts: TurnFacts, kind: TurnKind, shows: bool
) -> None:
    assert evaluate(facts, kind).shows_caveat is shows


def test_rules_applied_are_reported_once_in_order() -> None:
    facts = TurnFacts()
    for rule in ("dedup", "user_scope", "dedup"):
        facts.apply_rule(rule)
    assert evaluate(facts, "effect").rules_applied == ("dedup", "user_scope")


def test_a_caveat_degrades_the_pipeline_but_never_undoes_a_failure() -> None:
    facts = TurnFacts()
    facts.add_caveat("a")
    assert facts.pipeline == "caveat"
    failed = TurnFacts(pipeline="failed")
    failed.add_caveat("a")
    assert failed.pipeline == "failed"


# -- scores that mean something (issue 27) ------------------------------------------------


@given(
    pipeline=st.sampled_from(["complete", "caveat", "failed"]),
    ambiguity=st.sampled_from(["none", "implicit", "unresolved"]),
    rules=st.sampled_from(["all", "partial", "ignored"]),
    mapping=st.sampled_from(["exact", "coerced", "violation"]),
    kind=st.sampled_from(ALL_KINDS),
    blocked=st.booleans(),
)
def test_a_fail_never_scores_above_29(
    pipeline: Any, ambiguity: Any, rules: Any, mapping: Any, kind: TurnKind, blocked: bool
) -> None:
    facts = TurnFacts(pipeline=pipeline, ambiguity=ambiguity, rules=rules, mapping=mapping)
    if blocked:
        facts.block("pipeline_violation")
    confidence = evaluate(facts, kind)
    if confidence.state == "FAIL":
        assert confidence.score <= 29
    else:
        assert confidence.score == facts.score  # only a FAIL's score is held to its band


@pytest.mark.parametrize("kind", ["unavailable", "blocked"])
def test_a_blocked_or_unavailable_stage_scores_no_pipeline_points(kind: TurnKind) -> None:
    # seed 003: a critical stage that failed is worth 0 of the pipeline's 40 points
    confidence = evaluate(TurnFacts(), kind)
    assert confidence.state == "FAIL"
    assert confidence.score == 29  # 30 + 20 + 10 without the pipeline, held to FAIL's band
    assert evaluate(TurnFacts(ambiguity="unresolved"), kind).score == 29
    assert evaluate(TurnFacts(ambiguity="unresolved", rules="ignored"), kind).score == 10
