"""Multi-turn sessions through `Runtime.handle`: does a conversation end with the right items?

Issue 26. Each session is a short conversation a person would have (PT or EN): saves,
lists and positions ("apaga a segunda"), several items in one message, edits, questions
about saved things, slang save verbs, the closest item, undo, reminders and small talk in
between. A session succeeds when every turn's reply fits (not FAIL, naming what it must)
and the items stored at the end are exactly the expected ones. Every turn also declares
the effect it may have (save, delete, edit, correct, remind, undo, none): any other change to the
items or reminders is an unasked effect.

Modes (`--model`):
- `scripted` (default): the scripted OpenAI-compatible server (bot/fakes) answers each
  model-routed turn with the session's ideal planner output; a turn that reaches the
  model without one (it should have been answered in code) fails.
- `local`: whatever OPENAI_BASE_URL names, e.g. the local 1.5B model:
      PORT=8097 /work/shared/tools/local-model/start.sh ~/.cache/lembra-local-model
      OPENAI_BASE_URL=http://127.0.0.1:8097/v1 OPENAI_API_KEY=local \\
        LLM_MODEL=qwen2.5-coder-1.5b-instruct-q4_k_m LLM_PROFILE=small \\
        .venv/bin/python bench/sessions.py --model local
- `offline`: no model: the rule-based planner.

TMDB (`--tmdb`): `fake` (a small catalogue on loopback; the default for `SESSIONS`) or
`none` (not configured: titles are saved as written, with the caveat). `--file F.json|F.yaml`
runs the sessions in F instead, `--only NAME,...` a few. A file is either a list of sessions
(the shape of `SESSIONS` below, as data) or the held-out format: an object {"tmdb"?,
"sessions"} whose items are "type:words[:year[:state]]" ("tv" is a TV show) and whose
sessions may expect the reminders open at the end ({"about", "next"?, "repeats"?}). A file
runs with its own "tmdb" catalogue when it has one, else with no movie database.
Held-out files written blind (by people who never read the code; run once, first-run
figures in the wave-4 closing note, spent since): bench/sessions_blind_understanding.json
(40 sessions, issue 41), bench/sessions_blind_undo_reminders.json (35, issue 43),
bench/sessions_blind_watchlist.json (29, with its TMDB catalogue, issue 44). Wave 6's, written
the same way and run once with no model (first run in its closing note, spent since):
bench/sessions_blind3_understanding.json (16), bench/sessions_blind3_watchlist.json (10, with
its catalogue), bench/sessions_blind3_undo_reminders.json (10). Wave 8's, the same way, run once on
586c2f9 (first run in that wave's closing note: no model 18/42, 3/24, 13/25; local 1.5B 29/42,
5/24, 14/25), spent since: bench/sessions_blind4_understanding.json (42),
bench/sessions_blind4_watchlist.json (24, with its catalogue), bench/sessions_blind4_undo_reminders.json
(25). Wave 9's, run once on 809a33f (no model 17/30, 6/26, 16/26; local 1.5B 24/30, 8/26,
20/26): bench/sessions_blind5_understanding.json (30), bench/sessions_blind5_watchlist.json (26),
bench/sessions_blind5_undo_reminders.json (26). Wave 10's, run once on 397d89e (no model 18/30,
9/30, 7/26; local 1.5B 22/30, 15/30, 10/26): bench/sessions_blind6_understanding.json (30),
bench/sessions_blind6_watchlist.json (30, with its catalogue),
bench/sessions_blind6_undo_reminders.json (26); all spent since. (Wave 5's blind sets were lost
with the machine they were written on before they were committed; their first-run figures are
in that wave's note.)
`--fresh-runtime` builds the runtime again for every message, as one `lembra chat` per
message does (nothing kept in process between messages).

Each session runs in a fresh account; the clock starts on Monday 2026-01-05 at 10:00
(America/Sao_Paulo) and moves 20 seconds before every turn.

Prints one line per session, then per category and in total: sessions passed, turns that
fit, unasked effects, model calls per model-routed message, p50 turn latency.
The local mode is never part of the test pass/fail; tests/e2e/test_sessions.py runs every
session in the scripted mode, which needs no model.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import re
import statistics
import sys
import tempfile
import time
import unicodedata
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent.assembly import open_deps  # noqa: E402
from agent.clock import FakeClock  # noqa: E402
from agent.conversation.runtime import Runtime  # noqa: E402
from agent.types import Incoming, Reply  # noqa: E402
from bot.fakes.scripted_model import ScriptedModelServer  # noqa: E402
from bot.fakes.tmdb import FakeTmdb  # noqa: E402
from config.settings import load_settings  # noqa: E402
from storage import Database  # noqa: E402
from storage.documents import ItemDoc  # noqa: E402

EFFECTS = ("none", "save", "delete", "edit", "correct", "remind", "undo", "mark", "any")
ITEM_KINDS = {"tv": "tv_show"}  # the held-out files' short name for a TV show
FIRST_STATE = {"movie": "to_see", "tv_show": "to_see", "video": "to_see", "link": "to_read"}
START = (2026, 1, 5, 10, 0)
SECONDS_BETWEEN_TURNS = 20
PUBLIC_TMDB = "https://api.themoviedb.org/3"  # with no key: "not configured"
CATALOGUE: dict[str, dict[str, list[dict[str, Any]]]] = {
    "movie": {
        "matrix": [{"id": 603, "title": "Matrix", "release_date": "1999-03-31"}],
        "interestelar": [{"id": 157336, "title": "Interestelar", "release_date": "2014-11-05"}],
        "velozes e furiosos": [
            {"id": 9799, "title": "Velozes e Furiosos", "release_date": "2001-06-18"},
            {"id": 13804, "title": "Velozes e Furiosos 4", "release_date": "2009-04-02"},
        ],
        "pride and prejudice": [
            {"id": 4348, "title": "Pride & Prejudice", "release_date": "2005-09-16"}
        ],
        "arrival": [{"id": 329865, "title": "Arrival", "release_date": "2016-11-10"}],
        "duna": [{"id": 438631, "title": "Duna", "release_date": "2021-10-21"}],
        "tenet": [{"id": 577922, "title": "Tenet", "release_date": "2020-08-22"}],
        "toy story": [
            {"id": 862, "title": "Toy Story", "release_date": "1995-10-30"},
            {"id": 863, "title": "Toy Story 2", "release_date": "1999-10-30"},
        ],
        "toy story 2": [{"id": 863, "title": "Toy Story 2", "release_date": "1999-10-30"}],
        "parasita": [{"id": 496243, "title": "Parasita", "release_date": "2019-05-30"}],
    },
    "tv": {
        "dark": [{"id": 70523, "name": "Dark", "first_air_date": "2017-12-01"}],
        "severance": [{"id": 95396, "name": "Severance", "first_air_date": "2022-02-17"}],
    },
}


# -- the sessions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    say: str
    effect: str = "none"  # what this turn may change (EFFECTS)
    expect: tuple[str, ...] = ()  # the reply names these (accent- and case-folded)
    llm: tuple[Mapping[str, Any], ...] = ()  # the ideal planner outputs (scripted mode)
    fail_ok: bool = False  # a FAIL reply is what this turn should get


@dataclass(frozen=True)
class ReminderSpec:
    about: str  # words that must all be in the reminder's text
    next: str | None = None  # "2026-01-06 08:00": the local wall time of its next occurrence
    repeats: bool | None = None


@dataclass(frozen=True)
class Session:
    name: str
    language: str
    categories: tuple[str, ...]
    turns: tuple[Turn, ...]
    items: tuple[str, ...]  # "type:words[:year[:state]]" of every item at the end
    reminders: tuple[ReminderSpec, ...] | None = None  # the open ones at the end (None: any)


BELIEF = {"key": "answer.confidence", "guessed": 1.0, "delta": 0}


def plan(tool: str, **args: Any) -> Mapping[str, Any]:
    return {"action": "CALL_TOOL", "tool": tool, "args": args, "message": None, "belief": BELIEF}


def note(text: str, content: str | None = None) -> Turn:
    return Turn(
        text, "save", (), (plan("save_note", content=content or text.split(":", 1)[1].strip()),)
    )


def movie(text: str, title: str) -> Turn:
    return Turn(text, "save", (), (plan("enrich_movie", title=title),))


def show(text: str, title: str) -> Turn:
    return Turn(text, "save", (), (plan("enrich_tv_show", title=title),))


def link(text: str, url: str) -> Turn:
    return Turn(text, "save", (), (plan("save_link", url=url),))


def say(text: str, effect: str = "none", *expect: str) -> Turn:
    return Turn(text, effect, tuple(expect))


S = Session
SESSIONS: tuple[Session, ...] = (
    # -- the shelf: positions and references ---------------------------------------------------
    S(
        "pt-shelf-apaga-a-segunda",
        "pt",
        ("shelf",),
        (
            note("anota: dentista quinta às 15h"),
            note("anota: pagar o IPVA"),
            say("lista minhas notas", "none", "1. dentista", "2. pagar o ipva"),
            say("apaga a segunda", "none", "apagar pagar o ipva"),
            say("sim", "delete", "apagado"),
        ),
        ("note:dentista",),
    ),
    S(
        "pt-shelf-lista-tudo-o-ultimo",
        "pt",
        ("shelf",),
        (
            note("anota: reunião sexta"),
            movie("salva o filme Duna", "Duna"),
            say("lista tudo", "none", "1. reuniao sexta", "2. duna"),
            say("apaga o último", "none", "apagar duna"),
            say("sim", "delete"),
        ),
        ("note:reuniao",),
    ),
    S(
        "en-shelf-number-3",
        "en",
        ("shelf",),
        (
            note("note: buy batteries"),
            note("note: call the bank"),
            note("note: water the plants"),
            say("list my notes", "none", "3. water the plants"),
            say("delete number 3", "none", "delete water the plants"),
            say("yes", "delete", "deleted"),
        ),
        ("note:batteries", "note:bank"),
    ),
    S(
        "en-shelf-show-then-it",
        "en",
        ("shelf",),
        (
            note("note: gym closes at 10pm"),
            note("note: renew passport in march"),
            say("list my notes", "none"),
            say("show me the first one", "none", "gym closes"),
            say("delete it", "none", "delete gym closes"),
            say("yes", "delete"),
        ),
        ("note:passport",),
    ),
    S(
        "pt-shelf-fora-da-lista",
        "pt",
        ("shelf",),
        (
            note("anota: comprar pão"),
            note("anota: levar o carro na revisão"),
            say("lista minhas notas", "none"),
            say("apaga o 4", "none", "a lista tinha 2 itens"),
            say("apaga o 1", "none", "apagar comprar pao"),
            say("sim", "delete"),
        ),
        ("note:carro",),
    ),
    S(
        "pt-shelf-esse-depois-de-salvar",
        "pt",
        ("shelf",),
        (
            link(
                "salva esse link https://example.com/receita-de-bolo",
                "https://example.com/receita-de-bolo",
            ),
            say("apaga esse", "none", "apagar"),
            say("sim", "delete"),
        ),
        (),
    ),
    S(
        "en-shelf-bookmark-second",
        "en",
        ("shelf",),
        (
            note("note: book the dentist"),
            note("note: pay the rent"),
            say("list my notes", "none"),
            say("bookmark the second one", "none", "pay the rent"),
        ),
        ("note:dentist", "note:rent"),
    ),
    S(
        "pt-shelf-muda-o-2",
        "pt",
        ("shelf", "edit"),
        (
            note("anota: ligar pra Ana"),
            note("anota: pagar o IPVA"),
            say("lista minhas notas", "none"),
            say("muda o 2 para pagar o IPVA até sexta", "edit", "atualizado"),
        ),
        ("note:ana", "note:ipva ate sexta"),
    ),
    S(
        "en-shelf-search-then-position",
        "en",
        ("shelf", "question"),
        (
            note("note: buy oat milk"),
            note("note: fix the bike"),
            say("find milk", "none", "1. buy oat milk"),
            say("delete the first one", "none", "delete buy oat milk"),
            say("yes", "delete"),
        ),
        ("note:bike",),
    ),
    S(
        "pt-shelf-ano-do-1",
        "pt",
        ("shelf", "edit"),
        (
            Turn(
                "salva o filme Parasita de 2018",
                "save",
                (),
                (plan("save_movie", title="Parasita", year=2018),),
            ),
            say("lista meus filmes", "none", "1. parasita"),
            say("muda o ano do 1 para 2019", "edit", "atualizado"),
        ),
        ("movie:parasita:2019",),
    ),
    # -- several items in one message --------------------------------------------------------
    S(
        "pt-multi-matrix-e-interestelar",
        "pt",
        ("multi",),
        (
            say(
                "salva os filmes matrix e interestelar",
                "save",
                "salvei 2",
                "matrix",
                "interestelar",
            ),
            say("quantos filmes eu tenho?", "none", "2 filmes"),
        ),
        ("movie:matrix", "movie:interestelar"),
    ),
    S(
        "pt-multi-notas",
        "pt",
        ("multi",),
        (
            say("anota: comprar pão; levar o carro na revisão; ligar pro João", "save", "salvei 3"),
            say("lista minhas notas", "none", "3. ligar pro joao"),
        ),
        ("note:pao", "note:carro", "note:joao"),
    ),
    S(
        "en-multi-links",
        "en",
        ("multi",),
        (
            say("save https://example.com/a and https://example.com/b", "save", "saved 2"),
            say("what links do I have?", "none", "example.com/a", "example.com/b"),
        ),
        ("link:example com a", "link:example com b"),
    ),
    S(
        "pt-multi-velozes-e-furiosos",
        "pt",
        ("multi",),
        (
            say(
                "salva os filmes velozes e furiosos e matrix",
                "save",
                "salvei 2",
                "velozes e furiosos",
            ),
        ),
        ("movie:velozes furiosos", "movie:matrix"),
    ),
    S(
        "en-multi-pride-and-prejudice",
        "en",
        ("multi",),
        (say("add the movies Pride and Prejudice and Arrival to my list", "save", "saved 2"),),
        ("movie:pride prejudice", "movie:arrival"),
    ),
    S(
        "pt-multi-limite",
        "pt",
        ("multi",),
        (
            say(
                "anota: " + "; ".join(f"tarefa {n}" for n in range(1, 13)),
                "save",
                "salvei 10",
                "ficaram de fora",
            ),
        ),
        tuple(f"note:tarefa {n}" for n in range(1, 11)),
    ),
    S(
        "pt-multi-series-e-posicao",
        "pt",
        ("multi", "shelf"),
        (
            say("guarda pra mim as séries Dark e Severance", "save", "1. dark", "2. severance"),
            say("apaga a 2", "none", "apagar severance"),
            say("sim", "delete"),
        ),
        ("tv_show:dark",),
    ),
    S(
        "en-multi-notes-lines",
        "en",
        ("multi",),
        (say("note:\n- pick up the kids at 5\n- buy bread", "save", "saved 2"),),
        ("note:kids", "note:bread"),
    ),
    # -- edits -----------------------------------------------------------------------------------
    S(
        "pt-edit-essa-nota",
        "pt",
        ("edit",),
        (
            note("anota: comprar leite"),
            say(
                "muda essa nota para comprar leite sem lactose",
                "edit",
                "atualizado: comprar leite sem lactose",
            ),
        ),
        ("note:leite sem lactose",),
    ),
    S(
        "en-edit-change-it",
        "en",
        ("edit",),
        (
            note("note: call mom on sunday"),
            say("change it to call mom on saturday", "edit", "updated"),
        ),
        ("note:saturday",),
    ),
    S(
        "pt-edit-na-verdade-2021",
        "pt",
        ("edit",),
        (
            Turn(
                "salva o filme Duna de 1984",
                "save",
                (),
                (plan("save_movie", title="Duna", year=1984),),
            ),
            say("na verdade é o de 2021", "correct", "2021"),  # the movie just named, in code
        ),
        ("movie:duna:2021",),
    ),
    # -- questions about saved things ----------------------------------------------------------------
    S(
        "pt-q-link-da-bbc",
        "pt",
        ("question",),
        (
            link(
                "salva esse link https://www.bbc.com/portuguese", "https://www.bbc.com/portuguese"
            ),
            note("anota: pagar a luz"),
            say("qual era aquele link da bbc?", "none", "bbc.com/portuguese"),
        ),
        ("link:bbc", "note:luz"),
    ),
    S(
        "en-q-which-link-python",
        "en",
        ("question",),
        (
            link("keep https://docs.python.org/3/tutorial/", "https://docs.python.org/3/tutorial/"),
            say("which link did I save about python?", "none", "docs.python.org"),
        ),
        ("link:python",),
    ),
    S(
        "pt-q-eu-salvei",
        "pt",
        ("question",),
        (
            note("anota: ver o jogo domingo"),
            say("eu salvei interestelar?", "none", "nao"),
            movie("salva o filme interestelar", "interestelar"),
            say("eu salvei interestelar?", "none", "sim", "interestelar"),
        ),
        ("note:jogo", "movie:interestelar"),
    ),
    S(
        "pt-q-quantos-videos",
        "pt",
        ("question",),
        (
            say(
                "https://youtu.be/dQw4w9WgXcQ https://www.youtube.com/watch?v=9bZkp7q19f0",
                "save",
                "salvei 2",
            ),
            say("quantos vídeos eu tenho?", "none", "2 videos"),
        ),
        ("video:dqw4w9wgxcq", "video:9bzkp7q19f0"),
    ),
    S(
        "pt-q-hoje",
        "pt",
        ("question",),
        (
            note("anota: levar os exames ao médico"),
            say("o que eu salvei hoje?", "none", "levar os exames"),
        ),
        ("note:exames",),
    ),
    S(
        "en-q-what-was-it",
        "en",
        ("question",),
        (
            link("save https://example.com/technology-news", "https://example.com/technology-news"),
            say("I saved something about technology, what was it?", "none", "technology-news"),
            say("what was it?", "none", "technology-news"),
        ),
        ("link:technology",),
    ),
    S(
        "en-q-how-many-notes",
        "en",
        ("question",),
        (
            note("note: buy stamps"),
            note("note: send the letter"),
            say("how many notes do I have?", "none", "2 notes"),
        ),
        ("note:stamps", "note:letter"),
    ),
    S(
        "pt-q-sobre-viagem",
        "pt",
        ("question",),
        (
            note("anota: reservar hotel da viagem"),
            note("anota: trocar o óleo"),
            say("o que eu salvei sobre viagem?", "none", "hotel da viagem"),
        ),
        ("note:hotel", "note:oleo"),
    ),
    # -- save verbs people use ---------------------------------------------------------------------
    S(
        "pt-verb-bota-ai-serie",
        "pt",
        ("verbs",),
        (
            show("bota aí tb a série the office", "the office"),
            say("quais series eu tenho", "none", "the office"),
        ),
        ("tv_show:office",),
    ),
    S(
        "pt-verb-coloca-filme",
        "pt",
        ("verbs",),
        (movie("coloca o filme Duna na minha lista", "Duna"),),
        ("movie:duna",),
    ),
    S(
        "pt-verb-guarda-pra-mim",
        "pt",
        ("verbs",),
        (
            link(
                "guarda pra mim esse link https://example.com/artigo-cafe",
                "https://example.com/artigo-cafe",
            ),
        ),
        ("link:artigo cafe",),
    ),
    S(
        "en-verb-stash",
        "en",
        ("verbs",),
        (link("stash this link https://example.com/recipe", "https://example.com/recipe"),),
        ("link:recipe",),
    ),
    S(
        "en-verb-put",
        "en",
        ("verbs",),
        (movie("put the movie Arrival on my list", "Arrival"),),
        ("movie:arrival",),
    ),
    S(
        "pt-verb-joga-pra-ver-depois",
        "pt",
        ("verbs",),
        (show("joga aí a série Dark pra ver depois", "Dark"),),
        ("tv_show:dark",),
    ),
    S(
        "en-verb-keep-for-later",
        "en",
        ("verbs",),
        (show("keep the show Severance for later", "Severance"),),
        ("tv_show:severance",),
    ),
    # -- the closest item wins -----------------------------------------------------------------
    S(
        "pt-closest-toy-story",
        "pt",
        ("closest", "shelf"),
        (
            note("anota: Toy Story"),
            note("anota: Toy Story 2"),
            say("procura toy story", "none", "1. toy story"),
            say("apaga o 1", "none", "apagar toy story?"),
            say("sim", "delete"),
        ),
        ("note:toy story 2",),
    ),
    S(
        "en-closest-delete-by-name",
        "en",
        ("closest",),
        (
            Turn(
                "save the movie Toy Story 2", "save", (), (plan("save_movie", title="Toy Story 2"),)
            ),
            Turn("save the movie Toy Story", "save", (), (plan("save_movie", title="Toy Story"),)),
            Turn(
                "delete toy story",
                "none",
                ("delete toy story",),
                (plan("delete_item", query="toy story"),),
            ),
            say("yes", "delete"),
        ),
        ("movie:toy story 2",),
    ),
    # -- undo, reminders and small talk in between ---------------------------------------------------
    S(
        "pt-undo-depois-de-apagar",
        "pt",
        ("undo", "shelf"),
        (
            note("anota: ligar pro encanador"),
            note("anota: comprar lâmpadas"),
            say("lista minhas notas", "none"),
            say("apaga o 1", "none"),
            say("sim", "delete"),
            say("desfaz", "undo"),
        ),
        ("note:encanador", "note:lampadas"),
    ),
    S(
        "en-undo-a-save",
        "en",
        ("undo",),
        (
            note("note: buy eggs"),
            say("undo", "undo"),
        ),
        (),
    ),
    S(
        "pt-lembrete-no-meio",
        "pt",
        ("reminder", "shelf"),
        (
            note("anota: ligar pro João"),
            say("me lembra daqui a 10 minutos de ligar pro João", "remind", "10:"),
            say("lista minhas notas", "none", "1. ligar pro joao"),
            say("apaga o 1", "none"),
            say("sim", "delete"),
        ),
        (),
    ),
    S(
        "en-reminder-in-between",
        "en",
        ("reminder", "question"),
        (
            say("remind me in 20 minutes to call the bank", "remind"),
            note("note: bank branch number 1234"),
            say("what notes do I have?", "none", "bank branch"),
        ),
        ("note:bank branch",),
    ),
    S(
        "pt-conversa-no-meio",
        "pt",
        ("smalltalk", "shelf"),
        (
            say("oi, tudo bem?", "none"),
            note("anota: pagar a conta de luz"),
            say("valeu!", "none"),
            say("apaga esse", "none", "apagar pagar a conta de luz"),
            say("sim", "delete"),
            say("obrigado", "none"),
        ),
        (),
    ),
    S(
        "en-small-talk-in-between",
        "en",
        ("smalltalk", "multi"),
        (
            say("hi!", "none"),
            say("save the movies Tenet and Arrival", "save", "saved 2"),
            say("thanks", "none"),
            say("how many movies do I have?", "none", "2 movies"),
        ),
        ("movie:tenet", "movie:arrival"),
    ),
    S(
        "pt-tudo-junto",
        "pt",
        ("multi", "shelf", "question"),
        (
            note("anota: reunião sexta às 9h"),
            say("salva os filmes duna e tenet", "save", "salvei 2"),
            say("lista tudo", "none", "1. reuniao", "2. tenet", "3. duna"),  # newest first by type
            say("apaga o 2", "none", "apagar tenet"),
            say("sim", "delete"),
            say("quantos filmes eu tenho?", "none", "1 filme"),
        ),
        ("note:reuniao", "movie:duna"),
    ),
)


# -- running --------------------------------------------------------------------------------------


def fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


def words(text: str) -> set[str]:
    return set(re.sub(r"[^\w]+", " ", fold(text)).split())


@dataclass
class TurnResult:
    session: str
    text: str
    reply: str
    state: str
    calls: int
    seconds: float
    fits: bool
    why: str
    unasked: str


@dataclass
class SessionResult:
    session: Session
    turns: list[TurnResult] = field(default_factory=list)
    items_ok: bool = False
    items_why: str = ""

    @property
    def passed(self) -> bool:
        return self.items_ok and all(t.fits for t in self.turns)


Snapshot = dict[str, tuple[str, str, int | None]]
Marks = dict[str, str]  # item id -> its state (to_see, seen, ...)
Reminders = dict[str, tuple[str, int, str, str]]  # id -> text, due, state, rule


def snapshot(items: Sequence[ItemDoc]) -> Snapshot:
    return {i.id: (i.type, i.title or i.content or i.url or "", i.year) for i in items}


def item_state(item: ItemDoc) -> str:
    """The item's watchlist state (DESIGN 11.5); an item stored without one has its type's first."""
    state = getattr(item, "state", None) or (item.model_extra or {}).get("state")
    return str(state or FIRST_STATE.get(item.type, "open"))


def marks(items: Sequence[ItemDoc]) -> Marks:
    return {i.id: item_state(i) for i in items}


def reminder_snapshot(reminders: Sequence[Any]) -> Reminders:
    return {
        r.id: (r.text, r.due_at_ms, r.state, str(getattr(r, "rule", None) or "")) for r in reminders
    }


def unasked(
    effect: str,
    before: Snapshot,
    after: Snapshot,
    reminders: int,
    *,
    marked: int = 0,
) -> str:
    """What changed that the turn's declared effect does not allow ("" when nothing).

    `reminders`: reminders added, moved, changed or cancelled; `marked`: items whose
    seen/read state changed.
    """
    added = [k for k in after if k not in before]
    removed = [k for k in before if k not in after]
    changed = [k for k in after if k in before and after[k] != before[k]]
    allowed = {
        "none": (),
        "save": ("added",),
        "delete": ("removed",),
        "edit": ("changed",),
        # a correction of the turn before: edits what it saved, saves what it left as a
        # choice, moves the reminder it set, or changes the state it marked
        "correct": ("added", "changed", "reminders", "marked"),
        "remind": ("reminders",),
        "undo": ("added", "removed", "changed", "reminders", "marked"),
        "mark": ("marked",),
        "any": ("added", "removed", "changed", "reminders", "marked"),
    }[effect]
    found = {
        "added": added,
        "removed": removed,
        "changed": changed,
        "reminders": reminders,
        "marked": marked,
    }
    extra = [
        f"{name} {len(v) if isinstance(v, list) else v}"
        for name, v in found.items()
        if v and name not in allowed
    ]
    return ", ".join(extra)


def reminder_changes(before: Reminders, after: Reminders) -> int:
    """Reminders set, moved, changed or cancelled between two snapshots (a send is none)."""
    changed = 0
    for key in before.keys() | after.keys():
        old, new = before.get(key), after.get(key)
        if old is None or new is None:
            changed += 1
        elif (old[0], old[1], old[3]) != (new[0], new[1], new[3]) or (
            old[2] != new[2] and "cancelled" in (old[2], new[2])
        ):
            changed += 1
    return changed


def marks_changed(before: Marks, after: Marks) -> int:
    return sum(1 for k in after if k in before and after[k] != before[k])


def item_spec(spec: str) -> tuple[str, set[str], int | None, str | None]:
    """ "type:words[:year[:state]]" read: the type ("tv" is tv_show), the words, year, state."""
    kind, want, *rest = spec.split(":")
    year = rest[0].strip() if rest else ""
    state = rest[1].strip() if len(rest) > 1 else ""
    if year and not year.isdigit() and not state:
        year, state = "", year  # "movie:dune:seen": a state with no year before it
    return ITEM_KINDS.get(kind, kind), words(want), int(year) if year else None, state or None


def items_match(expected: Sequence[str], items: Sequence[ItemDoc]) -> tuple[bool, str]:
    """Whether `items` are exactly the expected ones ("type:words[:year[:state]]" each)."""
    left = list(items)
    for spec in expected:
        kind, wanted, year, state = item_spec(spec)
        match = next(
            (
                i
                for i in left
                if i.type == kind
                and wanted <= words(" ".join(v for v in (i.title, i.content, i.url) if v))
                and (year is None or i.year == year)
                and (state is None or item_state(i) == state)
            ),
            None,
        )
        if match is None:
            shown = [
                f"{i.type}:{i.title or i.content or i.url}:{i.year or ''}:{item_state(i)}"
                for i in items
            ]
            return False, f"missing {spec} in {shown}"
        left.remove(match)
    if left:
        return False, f"unexpected {[f'{i.type}:{i.title or i.content or i.url}' for i in left]}"
    return True, ""


def local_time(ms: int, zone: str) -> str:
    return datetime.fromtimestamp(ms / 1000, ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M")


def reminders_match(expected: Sequence[ReminderSpec], reminders: Sequence[Any]) -> tuple[bool, str]:
    """Whether the open `reminders` are exactly the expected ones (about words, next, repeats)."""
    left = list(reminders)

    def shown() -> list[str]:
        return [
            f"{r.text!r} @ {local_time(r.due_at_ms, r.timezone)}"
            + (" (repeats)" if getattr(r, "rule", None) else "")
            for r in reminders
        ]

    for spec in expected:
        match = next(
            (
                r
                for r in left
                if words(spec.about) <= words(r.text)
                and (spec.next is None or local_time(r.due_at_ms, r.timezone) == spec.next.strip())
                and (spec.repeats is None or bool(getattr(r, "rule", None)) == spec.repeats)
            ),
            None,
        )
        if match is None:
            return False, f"missing reminder {spec} in {shown()}"
        left.remove(match)
    if left:
        return False, f"unexpected reminders {shown()}"
    return True, ""


def resolve(outputs: Sequence[Mapping[str, Any]], ids: Sequence[str]) -> list[Mapping[str, Any]]:
    """`${item:N}` in scripted outputs becomes the id of the session user's N-th item."""
    text = json.dumps(list(outputs))
    text = re.sub(
        r"\$\{item:(\d+)\}",
        lambda m: ids[int(m.group(1))] if int(m.group(1)) < len(ids) else "missing",
        text,
    )
    return list(json.loads(text))


class Bench:
    def __init__(
        self,
        runtime: Runtime,
        clock: FakeClock,
        model: ScriptedModelServer | None,
        *,
        fresh: Callable[[], AbstractAsyncContextManager[Runtime]] | None = None,
    ) -> None:
        self.runtime = runtime
        self.clock = clock
        self.model = model
        self.fresh = fresh  # a new runtime per message (one `lembra chat` per message)

    async def _handle(self, incoming: Incoming) -> Reply:
        if self.fresh is None:
            return await self.runtime.handle(incoming)
        async with self.fresh() as runtime:
            return await runtime.handle(incoming)

    async def run(self, session: Session) -> SessionResult:
        user = f"cli:s-{session.name}"
        result = SessionResult(session)
        db = self.runtime.deps.db
        zone = ZoneInfo(self.runtime.deps.settings.default_timezone)
        self.clock.set(datetime(*START, tzinfo=zone))  # every session starts at the same time
        for turn in session.turns:
            self.clock.advance(SECONDS_BETWEEN_TURNS)
            items0 = await db.items.list_for(user)
            before = snapshot(items0)
            reminders0 = reminder_snapshot(await db.reminders.for_user(user))
            script_problems: list[str] = []
            if self.model is not None:
                self.model.begin_turn(resolve(turn.llm, list(before)))
            started = time.perf_counter()
            try:
                reply = await self._handle(
                    Incoming(
                        channel="console",
                        chat_id=user.split(":", 1)[1],
                        user_id=user,
                        text=turn.say,
                        language_hint=session.language,  # type: ignore[arg-type]
                    )
                )
            finally:
                if self.model is not None:
                    script_problems = self.model.end_turn().problems()
            seconds = time.perf_counter() - started
            items1 = await db.items.list_for(user)
            after = snapshot(items1)
            moved = reminder_changes(
                reminders0, reminder_snapshot(await db.reminders.for_user(user))
            )
            marked = marks_changed(marks(items0), marks(items1))
            result.turns.append(
                self._judge(
                    session, turn, reply, seconds, before, after, moved, marked, script_problems
                )
            )
        ok, why = items_match(session.items, await db.items.list_for(user))
        if ok and session.reminders is not None:
            ok, why = reminders_match(session.reminders, await db.reminders.open_for(user))
        result.items_ok, result.items_why = ok, why
        return result

    @staticmethod
    def _judge(
        session: Session,
        turn: Turn,
        reply: Reply,
        seconds: float,
        before: Snapshot,
        after: Snapshot,
        reminders: int,
        marked: int,
        script_problems: list[str],
    ) -> TurnResult:
        why: list[str] = []
        if reply.meta.state == "FAIL" and not turn.fail_ok:
            why.append("FAIL")
        folded = fold(reply.text)
        missing = [e for e in turn.expect if fold(e) not in folded]
        if missing:
            why.append(f"reply lacks {missing}")
        why += script_problems
        extra = unasked(turn.effect, before, after, reminders, marked=marked)
        if extra:
            why.append(f"unasked: {extra}")
        return TurnResult(
            session.name,
            turn.say,
            reply.text,
            reply.meta.state,
            reply.meta.llm_calls,
            seconds,
            not why,
            "; ".join(why),
            extra,
        )


@dataclass(frozen=True)
class SessionFile:
    sessions: tuple[Session, ...]
    tmdb: Mapping[str, Mapping[str, Sequence[Mapping[str, Any]]]] | None = None


def load_sessions(path: Path) -> SessionFile:
    """Sessions from a JSON or YAML file: a list of sessions, or {"tmdb"?, "sessions"}."""
    raw_text = path.read_text(encoding="utf-8")
    if path.suffix in (".yaml", ".yml"):
        import yaml

        raw = yaml.safe_load(raw_text)
    else:
        raw = json.loads(raw_text)
    return parse_sessions(raw)


def parse_sessions(raw: Any) -> SessionFile:
    """What a sessions file holds, checked: a clear error names the session and the field."""
    tmdb = None
    if isinstance(raw, Mapping):
        tmdb = raw.get("tmdb") or None
        raw = raw.get("sessions")
    if not isinstance(raw, list):
        raise ValueError("a sessions file is a list of sessions or {'tmdb'?, 'sessions': [...]}")
    if tmdb is not None and not (isinstance(tmdb, Mapping) and set(tmdb) <= {"movie", "tv"}):
        raise ValueError("'tmdb' maps 'movie' and/or 'tv' to {query: [results]}")
    sessions = []
    for s in raw:
        name = s.get("name", "?")
        turns = tuple(
            Turn(
                t["say"],
                t.get("effect", "none"),
                tuple(t.get("expect", ())),
                tuple(t.get("llm", ())),
                bool(t.get("fail_ok", False)),
            )
            for t in s["turns"]
        )
        for t in turns:
            if t.effect not in EFFECTS:
                raise ValueError(f"{name}: unknown effect {t.effect!r}")
        items = tuple(s.get("items", ()))
        for spec in items:
            kind = item_spec(spec)[0]
            if kind not in ("movie", "tv_show", "video", "link", "note"):
                raise ValueError(f"{name}: unknown item type in {spec!r}")
        reminders = None
        if "reminders" in s:
            reminders = tuple(
                ReminderSpec(str(r["about"]), r.get("next"), r.get("repeats"))
                for r in s["reminders"]
            )
        sessions.append(
            Session(
                name,
                s.get("language", "pt"),
                tuple(s.get("categories", ())),
                turns,
                items,
                reminders,
            )
        )
    return SessionFile(tuple(sessions), tmdb)


@asynccontextmanager
async def running(
    mode: str,
    tmdb_mode: str,
    data_dir: Path,
    *,
    db: Database | None = None,
    catalogue: Mapping[str, Mapping[str, Sequence[Mapping[str, Any]]]] | None = None,
    fresh_runtime: bool = False,
    model_timeout_s: float | None = None,
) -> AsyncIterator[Bench]:
    async with AsyncExitStack() as stack:
        tmdb = FakeTmdb(CATALOGUE if catalogue is None else catalogue)
        tmdb_url = await tmdb.start()
        stack.push_async_callback(tmdb.close)
        overrides: dict[str, Any] = {
            "data_dir": data_dir,
            "mongodb_uri": None,
            "tmdb_api_key": None,
            "tmdb_base_url": tmdb_url if tmdb_mode == "fake" else PUBLIC_TMDB,
            "user_daily_token_quota": 100_000_000,
            "global_daily_token_cap": 1_000_000_000,
            "log_level": "WARNING",
            "admin_user_ids": "",
            "background_llm": False,
        }
        model: ScriptedModelServer | None = None
        if mode == "scripted":
            model = ScriptedModelServer()
            url = await model.start()
            stack.push_async_callback(model.close)
            overrides.update(
                openai_base_url=url, openai_api_key="bench-not-a-secret", llm_model="bench-scripted"
            )
        elif mode == "offline":
            overrides.update(openai_base_url=None, openai_api_key=None)
        if model_timeout_s is not None:  # a shared server queues requests: wait, not fail
            overrides["llm_timeout_seconds"] = model_timeout_s
        settings = load_settings(**overrides)
        clock = FakeClock(datetime(*START, tzinfo=ZoneInfo(settings.default_timezone)))
        deps = await stack.enter_async_context(open_deps(settings, db=db, clock=clock))

        @asynccontextmanager
        async def fresh() -> AsyncIterator[Runtime]:
            async with open_deps(settings, db=deps.db, clock=clock) as again:
                yield Runtime(again)

        yield Bench(Runtime(deps), clock, model, fresh=fresh if fresh_runtime else None)


def report(results: Sequence[SessionResult], *, verbose: bool) -> dict[str, Any]:
    for r in results:
        mark = "ok " if r.passed else "BAD"
        calls = sum(t.calls for t in r.turns)
        print(
            f"{mark} {r.session.name:34} turns {sum(t.fits for t in r.turns)}/{len(r.turns)} calls {calls}"
            + ("" if r.items_ok else f"  items: {r.items_why}")
        )
        for t in r.turns:
            if not t.fits or verbose:
                print(
                    f"      {'  ' if t.fits else '✗ '}{t.text!r} -> {t.reply[:160]!r} [{t.state}, {t.calls} calls] {t.why}"
                )
    groups: dict[str, list[SessionResult]] = defaultdict(list)
    for r in results:
        for c in r.session.categories:
            groups[c].append(r)
        groups[f"lang:{r.session.language}"].append(r)
    groups["ALL"] = list(results)
    rows = {}
    print(
        f"\n{'group':14} {'sessions':>9} {'passed':>8} {'turns fit':>10} {'unasked':>8} {'calls/routed':>13} {'routed':>7} {'p50 s':>6}"
    )
    for name, group in groups.items():
        turns = [t for r in group for t in r.turns]
        routed = [t for t in turns if t.calls]
        row = {
            "sessions": len(group),
            "passed": sum(r.passed for r in group) / len(group),
            "turns_fit": sum(t.fits for t in turns) / len(turns),
            "unasked": sum(1 for t in turns if t.unasked),
            "calls_per_routed": (sum(t.calls for t in routed) / len(routed)) if routed else 0.0,
            "routed": len(routed),
            "p50_s": statistics.median([t.seconds for t in turns]),
        }
        rows[name] = row
        print(
            f"{name:14} {row['sessions']:>9} {row['passed']:>8.0%} {row['turns_fit']:>10.0%} {row['unasked']:>8} "
            f"{row['calls_per_routed']:>13.2f} {row['routed']:>7} {row['p50_s']:>6.2f}"
        )
    return rows


async def main(args: argparse.Namespace) -> None:
    logging.disable(logging.WARNING)  # the caveats' log lines would bury the table
    loaded = load_sessions(Path(args.file)) if args.file else SessionFile(SESSIONS, CATALOGUE)
    sessions = loaded.sessions
    # a file runs with its own catalogue, or with no movie database (the held-out rule)
    tmdb_mode = args.tmdb or ("fake" if loaded.tmdb else "none")
    if args.only:
        wanted = set(args.only.split(","))
        sessions = tuple(s for s in sessions if s.name in wanted)
    with tempfile.TemporaryDirectory(prefix="lembra-sessions-") as data_dir:
        async with running(
            args.model,
            tmdb_mode,
            Path(data_dir),
            catalogue=loaded.tmdb or {},
            fresh_runtime=args.fresh_runtime,
            model_timeout_s=args.timeout,
        ) as bench:
            deps = bench.runtime.deps
            print(
                f"model {deps.model_name} · mode {args.model} · TMDB {tmdb_mode} · "
                f"{'a runtime per message · ' if args.fresh_runtime else ''}{len(sessions)} sessions, "
                f"{sum(len(s.turns) for s in sessions)} turns",
                flush=True,
            )
            results = []
            for session in sessions:
                results.append(await bench.run(session))
                if args.progress:
                    r = results[-1]
                    print(f"  {'ok ' if r.passed else 'BAD'} {session.name}", flush=True)
                    for t in r.turns:
                        if not t.fits:
                            print(f"      ✗ {t.text!r} -> {t.reply[:200]!r} {t.why}", flush=True)
                    if not r.items_ok:
                        print(f"      items: {r.items_why}", flush=True)
    rows = report(results, verbose=args.verbose)
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", choices=("scripted", "local", "offline"), default="scripted")
    parser.add_argument(
        "--tmdb",
        choices=("fake", "none"),
        help="default: fake for the built-in sessions; for a file, its own catalogue or none",
    )
    parser.add_argument("--file", help="run the sessions in this JSON/YAML file instead")
    parser.add_argument("--only", help="comma-separated session names")
    parser.add_argument("--verbose", action="store_true", help="print every turn")
    parser.add_argument("--progress", action="store_true", help="a line as each session ends")
    parser.add_argument("--json", action="store_true", help="also print the table as JSON")
    parser.add_argument(
        "--timeout",
        type=float,
        help="seconds a model request may wait (default: LLM_TIMEOUT_SECONDS); a shared "
        "server queues requests, and a timeout there measures the queue, not the turn",
    )
    parser.add_argument(
        "--fresh-runtime",
        action="store_true",
        help="build the runtime again for every message, as one `lembra chat` per message does",
    )
    asyncio.run(main(parser.parse_args()))
