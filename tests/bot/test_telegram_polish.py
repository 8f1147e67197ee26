"""Telegram polish through the real webhook: pressed keyboards edited, paging and language
buttons, previews off for lists, captions and hidden links read, `--info`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agent.types import Choice, Incoming, Paging, Reply, ReplyMeta
from bot.render import owner_of
from tests.bot.test_telegram_cli import _env, _lembra
from tests.support.fake_telegram import FakeTelegram, callback_update, message_update

CHAT = 5550077
KEYBOARD = [[("Inception (2010)", "c:pk1:0")], [("Inception (2014)", "c:pk1:1")]]
PAGED = Paging(page=2, pages=3, previous="/list vídeos 1", next="/list vídeos 3")


class ListingRuntime:
    """Replies like the runtime's: a paged list for `/list ...`, a plain echo otherwise."""

    def __init__(self) -> None:
        self.seen: list[Incoming] = []

    async def handle(self, incoming: Incoming) -> Reply:
        self.seen.append(incoming)
        message = incoming.text or ""
        if message.startswith("/list"):
            return Reply(
                text="Vídeos (70):\n31. https://youtu.be/a\n32. https://youtu.be/b",
                meta=ReplyMeta(intent="list_all"),
                paging=PAGED,
            )
        if message == "escolhe":
            return Reply(
                text="Qual?",
                choices=(Choice(0, "A"), Choice(1, "B")),
                choice_kind="pick",
                choice_token="pk1",
            )
        return Reply(text=f"eco: {message}")


def _keyboard(call: Any) -> list[list[tuple[str, str]]]:
    rows = (call.params.get("reply_markup") or {}).get("inline_keyboard", [])
    return [[(b["text"], b["callback_data"]) for b in row] for row in rows]


async def test_a_pressed_choice_edits_its_message_to_show_the_choice(harness: Any) -> None:
    async with harness() as h:
        press = callback_update(CHAT, "c:pk1:1", message_text="Qual deles?", buttons=KEYBOARD)
        await h.post_update(press)
        await h.idle()

        [edit] = h.tg.sent("editMessageText")
        assert edit.params["text"] == "Qual deles?\n\n→ Inception (2014)"
        assert (edit.params["chat_id"], int(edit.params["message_id"])) == (CHAT, 11)
        assert not _keyboard(edit)  # the buttons are gone
        assert h.runtime.seen[0].choice == 1
        assert h.tg.texts(CHAT) == ["escolheu 1 (pk1)"]


async def test_a_list_has_no_link_previews_and_paging_buttons_that_ask_for_pages(
    harness: Any,
) -> None:
    runtime = ListingRuntime()
    async with harness(handler=runtime.handle) as h:
        await h.post_update(message_update(CHAT, "/list vídeos 2"))
        await h.post_update(message_update(CHAT, "oi"))
        await h.idle()

        listed, echoed = h.tg.sent("sendMessage", CHAT)
        assert listed.params["link_preview_options"] == {"is_disabled": True}
        assert "link_preview_options" not in echoed.params
        rows = _keyboard(listed)
        owner = f"@{CHAT}"  # only the user they were sent to may press them (issue 46)
        assert rows == [[("‹", f"k:/list vídeos 1{owner}"), ("›", f"k:/list vídeos 3{owner}")]]
        assert all(len(data.encode()) <= 64 for row in rows for _, data in row)

        # pressing › is the same as sending its command; the old buttons go away
        await h.post_update(
            callback_update(CHAT, rows[0][1][1], message_text=listed.params["text"], buttons=rows)
        )
        await h.idle()

        assert runtime.seen[-1].kind == "text"
        assert runtime.seen[-1].text == "/list vídeos 3"
        [removed] = h.tg.sent("editMessageReplyMarkup")
        assert int(removed.params["message_id"]) == 11
        assert not _keyboard(removed)
        assert h.tg.sent("editMessageText") == []
        assert len(h.tg.sent("sendMessage", CHAT)) == 3


async def test_start_and_a_bare_lang_offer_language_buttons(harness: Any) -> None:
    runtime = ListingRuntime()
    async with harness(handler=runtime.handle) as h:
        for text in ("/start", "/lang", "/lang en", "escolhe"):
            await h.post_update(message_update(CHAT, text))
            await h.idle()

        start, lang, chosen, choice = h.tg.sent("sendMessage", CHAT)
        languages = [[("Português", f"k:/lang pt@{CHAT}"), ("English", f"k:/lang en@{CHAT}")]]
        assert _keyboard(start) == languages
        assert _keyboard(lang) == languages
        assert _keyboard(chosen) == []
        assert [label for row in _keyboard(choice) for label, _ in row] == ["A", "B"]

        await h.post_update(
            callback_update(
                CHAT, f"k:/lang en@{CHAT}", message_text=start.params["text"], buttons=languages
            )
        )
        await h.idle()

        assert runtime.seen[-1].text == "/lang en"
        [edit] = h.tg.sent("editMessageText")
        assert edit.params["text"].endswith("\n\n→ English")


async def test_callback_data_that_is_not_a_command_is_ignored(harness: Any) -> None:
    async with harness() as h:
        for data in ("k:", "k:lista tudo", "x:/lang en"):
            await h.post_update(callback_update(CHAT, data))
        await h.idle()

        assert h.runtime.seen == []
        assert h.tg.sent("editMessageText") == h.tg.sent("editMessageReplyMarkup") == []


async def test_a_photo_caption_is_read_as_its_text(harness: Any) -> None:
    photo = [{"file_id": "p1", "file_unique_id": "u1", "width": 90, "height": 90}]
    async with harness() as h:
        await h.post_update(
            message_update(CHAT, None, extra={"photo": photo, "caption": "anota: pão"})
        )
        await h.post_update(message_update(CHAT, None, extra={"photo": photo}))
        await h.idle()

        captioned, bare = h.runtime.seen
        assert (captioned.kind, captioned.text) == ("text", "anota: pão")
        assert bare.kind == "unsupported"


async def test_hidden_links_are_read_with_their_urls_and_plain_links_unchanged(
    harness: Any,
) -> None:
    # "🎬" is two UTF-16 units: Telegram's offsets count them
    hidden = {
        "entities": [{"type": "text_link", "offset": 9, "length": 5, "url": "https://ex.com/f"}]
    }
    plain = {"entities": [{"type": "url", "offset": 6, "length": 14}]}
    async with harness() as h:
        await h.post_update(message_update(CHAT, "🎬 salva filme bom", extra=hidden))
        await h.post_update(message_update(CHAT, "salva https://ex.com/", extra=plain))
        await h.post_update(
            message_update(
                CHAT,
                None,
                extra={
                    "document": {"file_id": "d1", "file_unique_id": "u2"},
                    "caption": "olha",
                    "caption_entities": [
                        {"type": "text_link", "offset": 0, "length": 4, "url": "https://ex.com/c"}
                    ],
                },
            )
        )
        await h.idle()

        assert h.runtime.texts() == [
            "🎬 salva filme (https://ex.com/f) bom",
            "salva https://ex.com/",
            "olha (https://ex.com/c)",
        ]


async def test_info_prints_pending_updates_and_the_last_error(
    fake_tg: FakeTelegram, tmp_path: Path
) -> None:
    fake_tg.webhook_info |= {
        "url": "https://bot.example.com/telegram/webhook",
        "pending_update_count": 7,
        "last_error_date": 1_700_000_000,
        "last_error_message": "Connection timed out",
        "max_connections": 40,
    }
    code, out, err = await _lembra(["telegram", "--info"], _env(fake_tg), tmp_path)

    assert code == 0, err
    assert "pending updates: 7" in out
    assert "last error: 2023-11-14T22:13:20+00:00 Connection timed out" in out
    assert "url: https://bot.example.com/telegram/webhook" in out
    assert {c.method for c in fake_tg.calls} <= {"getMe", "getWebhookInfo"}  # changes nothing


async def test_a_lists_check_buttons_sit_above_its_paging_buttons(harness: Any) -> None:
    """Issue 44: the ✓ of each line to see, then ‹ ›, each within Telegram's 64 bytes."""

    async def handle(incoming: Incoming) -> Reply:
        return Reply(
            text="Filmes (40):\n31. Duna (2021)\n32. Superbad (2007)",
            choices=(Choice(30, "✓ 31. Duna (2021)"), Choice(31, "✓ 32. Superbad (2007)")),
            choice_kind="pick",
            choice_token="mk:0123456789ab",
            meta=ReplyMeta(intent="list_all"),
            paging=PAGED,
        )

    async with harness(handler=handle) as h:
        await h.post_update(message_update(CHAT, "/list filmes 2"))
        await h.idle()

        [listed] = h.tg.sent("sendMessage", CHAT)
        owner = owner_of(f"tg:{CHAT}")  # a press by anyone else is refused (issue 46)
        assert _keyboard(listed) == [
            [("✓ 31. Duna (2021)", f"c:mk:0123456789ab:30@{owner}")],
            [("✓ 32. Superbad (2007)", f"c:mk:0123456789ab:31@{owner}")],
            [("‹", f"k:/list vídeos 1@{owner}"), ("›", f"k:/list vídeos 3@{owner}")],
        ]
        assert all(len(data.encode()) <= 64 for row in _keyboard(listed) for _, data in row)
