"""Numbers in words and digits (PT/EN): cardinals up to 59, ordinals, amounts with fractions.

"vinte e cinco", "twenty-five", "dezoito", "primeira", "1º", "3rd", "meia", "1/2",
"2,5": each reader takes the tokens at an index and returns the value and the index
after what it read, or None.
"""

from __future__ import annotations

from fractions import Fraction

from agent.understanding.reminders.lexicon import HYPHENS, Phrases, Tok, glued, text_at

UNITS = {
    "zero": 0, "um": 1, "uma": 1, "dois": 2, "duas": 2, "tres": 3, "quatro": 4, "cinco": 5,
    "seis": 6, "sete": 7, "oito": 8, "nove": 9, "dez": 10, "onze": 11, "doze": 12, "treze": 13,
    "catorze": 14, "quatorze": 14, "quinze": 15, "dezesseis": 16, "dezasseis": 16,
    "dezessete": 17, "dezassete": 17, "dezoito": 18, "dezenove": 19, "dezanove": 19,
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
TENS = {
    "vinte": 20, "trinta": 30, "quarenta": 40, "cinquenta": 50,
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
}  # fmt: skip
AND = frozenset({"e", "and"})

# Ordinals for "the nth weekday" and days of the month. The PT feminine forms of 2nd-5th
# are also weekday names: the dates grammar decides which one a word is.
ORDINALS = Phrases(
    {
        "primeiro": 1, "primeira": 1, "segundo": 2, "segunda": 2, "terceiro": 3,
        "terceira": 3, "quarto": 4, "quarta": 4, "quinto": 5, "quinta": 5,
        "ultimo": -1, "ultima": -1, "penultimo": -2, "penultima": -2,
        "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
        "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
        "thirteenth": 13, "fourteenth": 14, "fifteenth": 15, "sixteenth": 16,
        "seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20,
        "thirtieth": 30, "last": -1, "second last": -2, "second to last": -2,
    }
)  # fmt: skip
_EN_ORDINAL_UNITS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
                     "seventh": 7, "eighth": 8, "ninth": 9}  # fmt: skip
_ORDINAL_SUFFIXES = frozenset({"o", "a", "st", "nd", "rd", "th", "\u00b0"})


def cardinal(toks: tuple[Tok, ...], i: int, *, words: bool = True) -> tuple[int, int] | None:
    """A whole number at `i`: digits, or words up to 59 ("vinte e cinco", "twenty-five")."""
    word = text_at(toks, i)
    if word.isdigit():
        return int(word), i + 1
    if not words:
        return None
    if word in TENS:
        tens = TENS[word]
        j = i + 1
        if text_at(toks, j) in AND or text_at(toks, j) in HYPHENS:
            j += 1
        unit = UNITS.get(text_at(toks, j))
        if unit is not None and 1 <= unit <= 9:
            return tens + unit, j + 1
        return tens, i + 1
    if word in UNITS:
        return UNITS[word], i + 1
    return None


def ordinal(toks: tuple[Tok, ...], i: int) -> tuple[int, int] | None:
    """An ordinal at `i`: "1º", "1a", "3rd", "primeira", "twenty-first", "last" (-1)."""
    word = text_at(toks, i)
    if word.isdigit() and len(word) <= 2 and text_at(toks, i + 1) in _ORDINAL_SUFFIXES:
        if glued(toks, i + 1):
            return int(word), i + 2
    if word in TENS and word in ("twenty", "thirty"):
        j = i + 1 + (text_at(toks, i + 1) in HYPHENS)
        unit = _EN_ORDINAL_UNITS.get(text_at(toks, j))
        if unit is not None:
            return TENS[word] + unit, j + 1
    return ORDINALS.match(toks, i)


def decimal(toks: tuple[Tok, ...], i: int) -> tuple[Fraction, int] | None:
    """A number with a fraction at `i`: "2.5", "2,5", "1/2", or a whole number."""
    word = text_at(toks, i)
    if not word.isdigit():
        return None
    sep, after = text_at(toks, i + 1), text_at(toks, i + 2)
    if sep in (".", ",") and after.isdigit() and glued(toks, i + 1) and glued(toks, i + 2):
        return Fraction(f"{word}.{after}"), i + 3
    if sep == "/" and after.isdigit() and glued(toks, i + 1) and glued(toks, i + 2):
        if int(after) and int(after) <= 12 and int(word) < int(after):
            return Fraction(int(word), int(after)), i + 3
        return None
    return Fraction(int(word)), i + 1
