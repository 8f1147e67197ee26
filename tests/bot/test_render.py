"""Message splitting as the platforms count length."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.render import ChoicePress, decode_choice, encode_choice, split_text, utf16_units


def test_telegram_length_counts_emoji_outside_the_bmp_twice() -> None:
    assert utf16_units("abc") == 3
    assert utf16_units("🍿") == 2
    assert utf16_units("é") == 1


def test_an_emoji_heavy_reply_fits_telegram_in_utf16_units() -> None:
    text = "\n".join("🎬" * 1500 for _ in range(3))  # 3,000 units a line, 9,002 in all
    parts = split_text(text, 4096, measure=utf16_units)
    assert all(utf16_units(p) <= 4096 for p in parts)
    assert "".join(parts).replace("\n", "") == text.replace("\n", "")
    # counted in code points, the same text would be one 4,502-character message
    assert len(split_text(text, 4096)) == 2


def test_a_long_line_of_emoji_is_cut_between_characters() -> None:
    parts = split_text("🍿" * 5000, 4096, measure=utf16_units)
    assert [utf16_units(p) for p in parts] == [4096, 4096, 1808]
    assert all(set(p) == {"🍿"} for p in parts)


@given(st.text(min_size=1, max_size=300), st.integers(min_value=2, max_value=40))
def test_split_loses_nothing_and_respects_the_limit(text: str, limit: int) -> None:
    parts = split_text(text, limit, measure=utf16_units)
    assert all(utf16_units(p) <= limit for p in parts)
    # whitespace-only parts are dropped; every visible character survives, in order
    assert "".join("".join(parts).split()) == "".join(text.split())


def test_a_choice_is_bound_to_its_owner_and_fits_telegrams_64_bytes() -> None:
    longest = encode_choice("snz:" + "f" * 24, 2, owner="9" * 16, max_bytes=64)
    assert decode_choice(longest) == ChoicePress("snz:" + "f" * 24, 2, "9" * 16)
    assert decode_choice("c:tk:1") == ChoicePress("tk", 1, None)  # sent before owners
    assert decode_choice("c:tk:1@x1") is None  # an owner is a platform's digits only


@given(st.text(max_size=80))
def test_any_button_data_decodes_to_a_press_or_none(data: str) -> None:
    press = decode_choice(data)
    assert press is None or (press.index >= 0 and (press.owner is None or press.owner.isdigit()))
