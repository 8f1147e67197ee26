"""WhatsApp Cloud API through the real web app, against a fake Graph API."""

from __future__ import annotations

import json
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from storage import Database
from storage.database import make_client
from storage.embedded import EmbeddedServer
from tests.bot.conftest import FAST
from tests.support import fake_whatsapp as wa
from tests.support.scripted_runtime import CONFIRM_TOKEN, PICK_TOKEN

PHONE = "5511999990001"
USER = f"wa:{PHONE}"


async def test_verification_echoes_the_challenge_only_with_the_right_token(harness: Any) -> None:
    async with harness() as h:
        ok = await h.client.get(
            "/whatsapp/webhook",
            params={
                "hub.mode": "subscribe",
                "hub.verify_token": wa.VERIFY_TOKEN,
                "hub.challenge": "1158201444",
            },
        )
        assert ok.status == 200
        assert ok.content_type == "text/plain"
        assert await ok.text() == "1158201444"
        for params in (
            {"hub.mode": "subscribe", "hub.verify_token": "wrong", "hub.challenge": "1"},
            {"hub.mode": "unsubscribe", "hub.verify_token": wa.VERIFY_TOKEN, "hub.challenge": "1"},
            {"hub.mode": "subscribe", "hub.challenge": "1"},
        ):
            refused = await h.client.get("/whatsapp/webhook", params=params)
            assert refused.status == 403


async def test_a_text_message_is_answered_once_and_recorded(harness: Any) -> None:
    async with harness() as h:
        payload = wa.message_payload(PHONE, wa.text_content("oi"), name="Bia")
        wamid = payload["entry"][0]["changes"][0]["value"]["messages"][0]["id"]
        response = await h.post_whatsapp(payload)
        assert response.status == 200
        await h.idle()

        sent = h.wa.sent_to(PHONE)
        assert [m["text"]["body"] for m in sent] == ["eco: oi"]
        assert sent[0]["messaging_product"] == "whatsapp"
        seen = h.runtime.seen[0]
        assert (seen.channel, seen.user_id, seen.update_id, seen.display_name) == (
            "whatsapp",
            USER,
            f"wa:{wamid}",
            "Bia",
        )
        assert await h.status(f"wa:{wamid}") == "done"


async def test_a_missing_or_forged_signature_gets_401_before_anything(harness: Any) -> None:
    async with harness() as h:
        payload = wa.message_payload(PHONE, wa.text_content("oi"))
        body = wa.encode(payload)
        wamid = payload["entry"][0]["changes"][0]["value"]["messages"][0]["id"]
        forged = wa.sign(body, secret="not-the-app-secret")
        reserialized = wa.sign(json.dumps(payload, indent=2).encode())  # same JSON, other bytes
        for signature in (None, "sha256=", forged, reserialized, "sha1=abc"):
            response = await h.post_whatsapp(body, signature=signature)
            assert response.status == 401, signature
        await h.idle()
        assert h.runtime.seen == []
        assert h.wa.messages == []
        assert await h.status(f"wa:{wamid}") is None


async def test_a_signature_header_that_is_not_utf8_gets_401(harness: Any) -> None:
    async with harness() as h:
        body = wa.encode(wa.message_payload(PHONE, wa.text_content("oi")))
        status = await h.post_raw("/whatsapp/webhook", b"X-Hub-Signature-256: sha256=\xff", body)
        await h.idle()

        assert status == 401
        assert h.runtime.seen == []
        assert h.wa.messages == []


async def test_a_signed_body_that_is_not_json_gets_400(harness: Any) -> None:
    async with harness() as h:
        response = await h.post_whatsapp(b"{broken")
        assert response.status == 400


async def test_a_body_over_one_megabyte_gets_413(harness: Any) -> None:
    async with harness() as h:
        payload = wa.message_payload(PHONE, wa.text_content("x" * (1024 * 1024)))
        response = await h.post_whatsapp(payload)
        assert response.status == 413
        assert h.runtime.seen == []


async def test_a_replayed_delivery_is_handled_once(harness: Any) -> None:
    async with harness() as h:
        payload = wa.message_payload(PHONE, wa.text_content("oi"))
        for _ in range(3):
            assert (await h.post_whatsapp(payload)).status == 200
            await h.idle()
        assert len(h.runtime.seen) == 1
        assert len(h.wa.sent_to(PHONE)) == 1
        assert await h.metric("lembra_updates_total", channel="whatsapp", outcome="duplicated") == 2


async def test_two_choices_become_reply_buttons_and_a_press_comes_back(harness: Any) -> None:
    async with harness() as h:
        await h.post_whatsapp(wa.message_payload(PHONE, wa.text_content("apaga tudo")))
        await h.idle()
        message = h.wa.sent_to(PHONE)[-1]
        assert message["type"] == "interactive"
        interactive = message["interactive"]
        assert interactive["type"] == "button"
        assert interactive["body"]["text"] == "Apagar 3 itens? Isso não pode ser desfeito."
        buttons = interactive["action"]["buttons"]
        assert [(b["reply"]["id"], b["reply"]["title"]) for b in buttons] == [
            (f"c:{CONFIRM_TOKEN}:0@{PHONE}", "Sim, apagar"),
            (f"c:{CONFIRM_TOKEN}:1@{PHONE}", "Não"),
        ]

        await h.post_whatsapp(
            wa.message_payload(PHONE, wa.button_reply_content(buttons[0]["reply"]["id"]))
        )
        await h.idle()
        choice = h.runtime.seen[-1]
        assert (choice.kind, choice.choice, choice.choice_token) == ("choice", 0, CONFIRM_TOKEN)
        assert h.wa.bodies(PHONE)[-1] == f"escolheu 0 ({CONFIRM_TOKEN})"


async def test_many_or_long_choices_become_a_list_of_at_most_ten_rows(harness: Any) -> None:
    async with harness() as h:
        await h.post_whatsapp(wa.message_payload(PHONE, wa.text_content("muitas")))
        await h.idle()
        interactive = h.wa.sent_to(PHONE)[-1]["interactive"]
        assert interactive["type"] == "list"
        assert len(interactive["action"]["button"]) <= 20
        rows = interactive["action"]["sections"][0]["rows"]
        assert len(rows) == 10
        assert all(len(r["title"]) <= 24 for r in rows)
        assert all(len(r.get("description", "")) <= 72 for r in rows)
        assert rows[0]["description"] == "Um título bem comprido número 0 (2000)"
        assert [r["id"] for r in rows] == [f"c:{PICK_TOKEN}:{n}@{PHONE}" for n in range(10)]

        await h.post_whatsapp(wa.message_payload(PHONE, wa.list_reply_content(f"c:{PICK_TOKEN}:7")))
        await h.idle()
        assert (h.runtime.seen[-1].kind, h.runtime.seen[-1].choice) == ("choice", 7)


async def test_short_choices_ride_on_the_text_as_buttons(harness: Any) -> None:
    async with harness() as h:
        await h.post_whatsapp(wa.message_payload(PHONE, wa.text_content("escolhe")))
        await h.idle()
        sent = h.wa.sent_to(PHONE)
        assert len(sent) == 1  # the text is the interactive body, not a separate message
        assert sent[0]["interactive"]["type"] == "button"
        assert sent[0]["interactive"]["body"]["text"].startswith("Qual deles?")


async def test_a_long_reply_is_split_at_4096(harness: Any) -> None:
    async with harness() as h:
        await h.post_whatsapp(wa.message_payload(PHONE, wa.text_content("longo")))
        await h.idle()
        bodies = h.wa.bodies(PHONE)
        assert len(bodies) >= 3
        assert all(len(b) <= 4096 for b in bodies)


async def test_an_attachment_is_uploaded_then_sent_as_a_document(harness: Any) -> None:
    async with harness() as h:
        await h.post_whatsapp(wa.message_payload(PHONE, wa.text_content("exporta")))
        await h.idle()
        assert h.wa.media == [("lembra-export.json", "application/json", b'{"items": []}')]
        document = h.wa.sent_to(PHONE)[-1]
        assert document["type"] == "document"
        assert document["document"]["filename"] == "lembra-export.json"


async def test_an_image_reaches_the_runtime_as_unsupported(harness: Any) -> None:
    async with harness() as h:
        await h.post_whatsapp(wa.message_payload(PHONE, wa.image_content()))
        await h.idle()
        assert [i.kind for i in h.runtime.seen] == ["unsupported"]
        assert h.wa.bodies(PHONE) == ["Por enquanto eu só entendo mensagens de texto."]


async def test_status_callbacks_are_counted_not_handled(harness: Any) -> None:
    async with harness() as h:
        for status in ("sent", "delivered", "read", "read"):
            assert (await h.post_whatsapp(wa.status_payload(status))).status == 200
        await h.idle()
        assert h.runtime.seen == []
        assert h.wa.messages == []
        metric = "lembra_whatsapp_status_callbacks_total"
        assert await h.metric(metric, status="read") == 2
        assert await h.metric(metric, status="delivered") == 1


async def test_messages_for_another_phone_number_are_ignored(harness: Any) -> None:
    async with harness() as h:
        payload = wa.message_payload(PHONE, wa.text_content("oi"), phone_number_id="999")
        assert (await h.post_whatsapp(payload)).status == 200
        await h.idle()
        assert h.runtime.seen == []


async def test_a_graph_5xx_is_retried_and_the_reply_arrives_once(harness: Any) -> None:
    async with harness() as h:
        h.wa.fail(500, times=2)
        await h.post_whatsapp(wa.message_payload(PHONE, wa.text_content("oi")))
        await h.idle()
        assert h.wa.attempts == 3
        assert h.wa.bodies(PHONE) == ["eco: oi"]
        assert len(h.runtime.seen) == 1


async def test_outside_the_24_hour_window_nothing_is_sent(harness: Any, db: Database) -> None:
    # A message from 25 hours ago, left `received` by a crash, re-driven now.
    old = wa.message_payload(PHONE, wa.text_content("oi"), timestamp=int(time.time()) - 25 * 3600)
    message = old["entry"][0]["changes"][0]["value"]["messages"][0]
    update_id = f"wa:{message['id']}"
    stored = json.dumps({"message": message, "name": "Ana"})
    await db.updates.record(update_id, stored, now_ms=int(time.time() * 1000) - 120_000)
    options = replace(
        FAST, jobs=True, tuning=replace(FAST.tuning, stale_after_s=0.5, redrive_interval_s=0.1)
    )
    async with harness(options=options) as h:
        await h.until_status(update_id, "done")
        await h.idle()

        assert h.wa.messages == []
        assert len(h.runtime.seen) == 1  # handled (effects are idempotent), just not sent
        sample = {"channel": "whatsapp", "outcome": "window_closed"}
        assert await h.metric("lembra_messages_sent_total", **sample) == 1


async def test_the_platform_refusing_outside_the_window_finishes_the_update(harness: Any) -> None:
    async with harness() as h:
        h.wa.fail(400, code=131047)
        payload = wa.message_payload(PHONE, wa.text_content("oi"))
        wamid = payload["entry"][0]["changes"][0]["value"]["messages"][0]["id"]
        await h.post_whatsapp(payload)
        await h.idle()
        assert h.wa.attempts == 1  # not retried
        assert await h.status(f"wa:{wamid}") == "done"


async def test_with_the_database_down_the_webhook_answers_503_and_sends_nothing(
    harness: Any,
) -> None:
    server = EmbeddedServer(Path(tempfile.gettempdir()), memory=True)
    uri = server.start()
    db = Database(make_client(uri, timeout_ms=300), "down")
    try:
        async with harness(database=db) as h:
            server.stop()
            payload = wa.message_payload(PHONE, wa.text_content("oi"))

            first = await h.post_whatsapp(payload)
            redelivered = await h.post_whatsapp(payload)  # Meta retries the same delivery
            await h.idle()

            assert (first.status, redelivered.status) == (503, 503)
            assert h.runtime.seen == []
            assert h.wa.messages == []
    finally:
        server.stop()
        await db.close()


async def test_a_send_the_graph_api_accepted_whose_answer_timed_out_is_not_sent_again(
    harness: Any,
) -> None:
    """Failed before: a read timeout was retried like a refused send, so a reply the Cloud
    API had already delivered reached the user twice. See docs/delivery.md."""
    async with harness() as h:
        h.wa.stall(after_s=1.0)  # the client gives up after 0.5 s
        await h.post_whatsapp(wa.message_payload(PHONE, wa.text_content("oi")))
        await h.idle()

        assert h.wa.attempts == 1
        assert h.wa.bodies(PHONE) == ["eco: oi"]
        sample = {"channel": "whatsapp", "outcome": "unconfirmed"}
        assert await h.metric("lembra_messages_sent_total", **sample) == 1
