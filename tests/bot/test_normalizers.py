"""Both channels' normalizers never raise, whatever JSON value sits in any field they read.

Each property starts from a real-shaped payload holding every field the code reads, puts
an arbitrary JSON value (lone surrogates, numbers, objects, lists, null) in some of those
fields or removes them, and checks the normalizer returns an outcome, and that whatever
Incoming comes out carries only text that can be stored and sent (no lone surrogate).
"""

from __future__ import annotations

import copy
import json
from dataclasses import fields
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.types import Incoming
from bot.inbound import Ignored, Rejected, clean, phone_language, read_body
from bot.telegram import updates as tg
from bot.whatsapp import updates as wa

DELETE = object()
SURROGATES = ["\ud800", "a\udfffb", "\ud83d", "\udc00x\ud800"]
texts = st.one_of(st.text(max_size=20), st.sampled_from(SURROGATES))
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    texts,
)
json_values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(texts, children, max_size=3)
    ),
    max_leaves=8,
)
replacement = st.one_of(json_values, st.just(DELETE))

TG_MESSAGE: dict[str, Any] = {
    "message_id": 10,
    "date": 1_700_000_000,
    "edit_date": 1_700_000_100,
    "chat": {"id": 5550001, "type": "private", "first_name": "Ana"},
    "from": {
        "id": 5550001,
        "is_bot": False,
        "first_name": "Ana",
        "last_name": "Lima",
        "language_code": "pt-br",
    },
    "text": "salva https://exemplo.com/a",
    "caption": "salva essa foto",
    "entities": [{"type": "text_link", "offset": 0, "length": 5, "url": "https://x.org"}],
    "caption_entities": [{"type": "text_link", "offset": 0, "length": 5, "url": "https://y.org"}],
    "photo": [{"file_id": "p", "file_unique_id": "u", "width": 1, "height": 1}],
    "successful_payment": {"currency": "BRL", "total_amount": 100},
    "reply_markup": {"inline_keyboard": [[{"text": "1", "callback_data": "c:tk:0"}]]},
}
TG_PATHS = [
    ("update_id",),
    *[(root, key) for root in ("message", "edited_message") for key in TG_MESSAGE],
    *[(root, "chat", key) for root in ("message",) for key in ("id", "type")],
    *[
        ("message", "from", key)
        for key in ("id", "is_bot", "first_name", "last_name", "language_code")
    ],
    ("message", "entities", 0, "offset"),
    ("message", "entities", 0, "length"),
    ("message", "entities", 0, "url"),
    ("message", "entities", 0, "type"),
    ("callback_query",),
    ("callback_query", "id"),
    ("callback_query", "data"),
    ("callback_query", "from"),
    ("callback_query", "from", "id"),
    ("callback_query", "message"),
    ("callback_query", "message", "chat"),
    ("callback_query", "message", "chat", "id"),
    ("callback_query", "message", "text"),
    ("callback_query", "message", "date"),
    ("callback_query", "message", "reply_markup"),
    ("callback_query", "message", "reply_markup", "inline_keyboard", 0, 0, "text"),
    ("callback_query", "message", "reply_markup", "inline_keyboard", 0, 0, "callback_data"),
]


# the fields a person writes: the likeliest to hold a lone surrogate from a JSON escape
TG_STRINGS = [
    ("message", "text"),
    ("message", "caption"),
    ("message", "from", "first_name"),
    ("message", "from", "last_name"),
    ("message", "entities", 0, "url"),
    ("edited_message", "text"),
    ("edited_message", "caption"),
    ("callback_query", "data"),
    ("callback_query", "from", "first_name"),
]
surrogate_texts = st.one_of(st.sampled_from(SURROGATES), st.text(max_size=8))


def _tg_update(kind: str) -> dict[str, Any]:
    if kind == "callback_query":
        return {
            "update_id": 7,
            "callback_query": {
                "id": "cbq-1",
                "from": copy.deepcopy(TG_MESSAGE["from"]),
                "data": "c:tk:0",
                "message": copy.deepcopy(TG_MESSAGE),
            },
        }
    return {"update_id": 7, kind: copy.deepcopy(TG_MESSAGE)}


def _apply(document: Any, changes: dict[tuple[Any, ...], Any]) -> Any:
    """`document` with each path set to its value (or removed); paths that are not there are skipped."""
    for path, value in changes.items():
        target = document
        for step in path[:-1]:
            try:
                target = target[step]
            except (KeyError, IndexError, TypeError):
                target = None
                break
        if not isinstance(target, dict | list):
            continue
        last = path[-1]
        if isinstance(target, dict) and isinstance(last, str):
            if value is DELETE:
                target.pop(last, None)
            else:
                target[last] = value
        elif isinstance(target, list) and isinstance(last, int) and last < len(target):
            target[last] = None if value is DELETE else value
    return document


def _storable(incoming: Incoming) -> None:
    """Every string of the Incoming encodes as UTF-8 (BSON, JSON, the Bot API all need it)."""
    for f in fields(incoming):
        value = getattr(incoming, f.name)
        if isinstance(value, str):
            value.encode("utf-8")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(["message", "edited_message", "callback_query"]),
    changes=st.dictionaries(st.sampled_from(TG_PATHS), replacement, max_size=4),
    strings=st.dictionaries(st.sampled_from(TG_STRINGS), surrogate_texts, max_size=4),
    groups=st.booleans(),
)
def test_telegram_normalize_never_raises(
    kind: str,
    changes: dict[tuple[Any, ...], Any],
    strings: dict[tuple[Any, ...], Any],
    groups: bool,
) -> None:
    update = _apply(_apply(_tg_update(kind), strings), changes)
    read = tg.normalize(update, allow_groups=groups)
    assert isinstance(read.outcome, Incoming | Ignored | Rejected)
    if isinstance(read.outcome, Incoming):
        _storable(read.outcome)
        assert read.outcome.user_id.startswith("tg:")


@settings(max_examples=200, deadline=None)
@given(data=json_values)
def test_telegram_normalize_takes_any_json_document(data: Any) -> None:
    read = tg.normalize(data, allow_groups=False)
    assert isinstance(read.outcome, Incoming | Ignored | Rejected)


WA_CONTENTS: dict[str, dict[str, Any]] = {
    "text": {"text": {"body": "anota: comprar leite"}},
    "image": {"image": {"caption": "salva esse", "id": "1", "mime_type": "image/jpeg"}},
    "document": {"document": {"caption": "anota: boleto", "filename": "a.pdf", "id": "2"}},
    "button": {"button": {"text": "Sim", "payload": "yes"}},
    "interactive": {
        "interactive": {
            "type": "button_reply",
            "button_reply": {"id": "c:tk:1", "title": "Inception (2014)"},
            "list_reply": {"id": "other", "title": "Outra", "description": "d"},
        }
    },
    "edit": {
        "edit": {
            "original_message_id": "wamid.orig",
            "message": {"type": "text", "text": {"body": "anota: comprar pão"}},
        }
    },
    "revoke": {"revoke": {"original_message_id": "wamid.orig"}},
    "reaction": {"reaction": {"message_id": "wamid.x", "emoji": "👍"}},
}
WA_MESSAGE_KEYS = ["from", "id", "timestamp", "type"]


def _wa_payload(kind: str) -> dict[str, Any]:
    message = {
        "from": "5511999990000",
        "id": "wamid.abc",
        "timestamp": "1700000000",
        "type": kind,
        **copy.deepcopy(WA_CONTENTS[kind]),
    }
    return {
        "object": "whatsapp_business_account",
        "entry": [
            {
                "id": "1",
                "changes": [
                    {
                        "field": "messages",
                        "value": {
                            "metadata": {"phone_number_id": "109876543210"},
                            "contacts": [{"wa_id": "5511999990000", "profile": {"name": "Ana"}}],
                            "messages": [message],
                            "statuses": [{"id": "wamid.s", "status": "read"}],
                        },
                    }
                ],
            }
        ],
    }


MESSAGE = ("entry", 0, "changes", 0, "value", "messages", 0)
VALUE = ("entry", 0, "changes", 0, "value")
WA_STRINGS = [
    (*MESSAGE, "from"),
    (*MESSAGE, "text", "body"),
    (*MESSAGE, "image", "caption"),
    (*MESSAGE, "document", "caption"),
    (*MESSAGE, "button", "text"),
    (*MESSAGE, "interactive", "button_reply", "title"),
    (*MESSAGE, "interactive", "button_reply", "id"),
    (*MESSAGE, "edit", "message", "text", "body"),
    (*MESSAGE, "edit", "original_message_id"),
    (*VALUE, "contacts", 0, "profile", "name"),
]
WA_PATHS = [
    ("entry",),
    ("entry", 0),
    ("entry", 0, "changes"),
    ("entry", 0, "changes", 0, "value"),
    (*VALUE, "metadata"),
    (*VALUE, "metadata", "phone_number_id"),
    (*VALUE, "contacts"),
    (*VALUE, "contacts", 0, "wa_id"),
    (*VALUE, "contacts", 0, "profile"),
    (*VALUE, "contacts", 0, "profile", "name"),
    (*VALUE, "messages"),
    (*VALUE, "statuses"),
    (*VALUE, "statuses", 0, "status"),
    MESSAGE,
    *[(*MESSAGE, key) for key in WA_MESSAGE_KEYS],
    *[(*MESSAGE, kind) for kind in WA_CONTENTS],
    (*MESSAGE, "text", "body"),
    (*MESSAGE, "image", "caption"),
    (*MESSAGE, "document", "caption"),
    (*MESSAGE, "button", "text"),
    (*MESSAGE, "interactive", "button_reply"),
    (*MESSAGE, "interactive", "button_reply", "id"),
    (*MESSAGE, "interactive", "button_reply", "title"),
    (*MESSAGE, "interactive", "list_reply", "id"),
    (*MESSAGE, "edit", "original_message_id"),
    (*MESSAGE, "edit", "message"),
    (*MESSAGE, "edit", "message", "type"),
    (*MESSAGE, "edit", "message", "text", "body"),
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(sorted(WA_CONTENTS)),
    changes=st.dictionaries(st.sampled_from(WA_PATHS), replacement, max_size=4),
    strings=st.dictionaries(st.sampled_from(WA_STRINGS), surrogate_texts, max_size=4),
)
def test_whatsapp_normalize_never_raises(
    kind: str, changes: dict[tuple[Any, ...], Any], strings: dict[tuple[Any, ...], Any]
) -> None:
    found = wa.values(_apply(_apply(_wa_payload(kind), strings), changes))
    if isinstance(found, Rejected):
        return
    for value in found:
        for status in value.statuses:
            assert status.label  # a fixed label, whatever the status said
        names = value.names()
        for raw in value.messages:
            message = wa.read_message(raw)
            name = names.get(message.sender) if isinstance(message, wa.WaMessage) else None
            outcome = wa.normalize(raw, name)
            assert isinstance(outcome, Incoming | Ignored | Rejected)
            if isinstance(outcome, Incoming):
                _storable(outcome)


@settings(max_examples=200, deadline=None)
@given(data=json_values)
def test_whatsapp_reads_any_json_document(data: Any) -> None:
    found = wa.values(data)
    assert isinstance(found, list | Rejected)
    for value in found if isinstance(found, list) else []:
        for raw in value.messages:
            assert isinstance(wa.normalize(raw, None), Incoming | Ignored | Rejected)


@settings(max_examples=200, deadline=None)
@given(body=st.binary(max_size=200) | json_values.map(lambda v: json.dumps(v).encode()))
def test_a_body_is_json_or_not_and_nothing_else(body: bytes) -> None:
    try:
        read_body(body)
    except ValueError:
        pass  # NotJson: the one 400


@given(value=texts)
def test_clean_text_always_encodes(value: str) -> None:
    assert isinstance(clean(value).encode("utf-8"), bytes)
    assert clean(value) == value or "\ufffd" in clean(value)


def test_phone_numbers_of_portuguese_speaking_countries_hint_portuguese() -> None:
    pt = ["5511999990000", "351912345678", "244923456789", "258841234567", "2389912345"]
    pt += ["245955123456", "2399912345", "67077212345", "85366123456", "+5521987654321"]
    assert {phone_language(n) for n in pt} == {"pt"}
    others = ["972501234567", "14155550123", "447700900123", "34612345678", "5999123"]
    assert {phone_language(n) for n in others} == {None}
