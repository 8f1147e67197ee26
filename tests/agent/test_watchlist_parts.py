"""The watchlist read by its parts (issue 44): chatter around a request, suggestions and
counts by the words that make them, unmarking in other words, "tem X na Netflix?", through
`Runtime.handle` with the offline planner and the real TMDB client against the fake."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.understanding.chatter import quiet
from agent.understanding.intent import IntentClassifier
from agent.understanding.questions import read_question
from agent.understanding.watchlist import (
    WATCHABLE,
    ListRequest,
    MarkRequest,
    StateQuestion,
    SuggestRequest,
    WhereRequest,
    genres_of_words,
    read,
    read_list,
    read_state_question,
    read_suggest,
    read_where,
)
from storage import Database
from tests.agent.test_watchlist import CATALOGUE, item, watching
from tests.support.harness import ALICE, open_lembra

# -- chatter --------------------------------------------------------------------------------------


def test_quiet_blanks_laughter_edge_politeness_and_chatter_clauses_one_char_for_one() -> None:
    for said, left in (
        ("kkkkk já vi esse, 8/10", "já vi esse, 8/10"),
        ("vi esse hahaha nota 7", "vi esse nota 7"),
        ("pfv desmarca o 3", "desmarca o 3"),
        ("add coringa e barbie por favor!", "add coringa e barbie !"),
        ("ih, foi mal, ainda não vi o 2", "ainda não vi o 2"),
        ("oh wait, my bad. haven't seen it", "haven't seen it"),
    ):
        quieted = quiet(said)
        assert len(quieted) == len(said), said
        assert " ".join(quieted.split()) == left, said
    # politeness inside a clause may be a title; chatter alone is left as it is
    assert quiet("salva please stand by") == "salva please stand by"
    assert quiet("opa, foi mal") == "opa, foi mal"
    assert quiet("kkkk") == "kkkk"


async def test_a_mark_with_laughter_and_a_rating_marks_the_title_in_focus_and_sets_no_reminder(
    db: Database,
) -> None:
    async with watching(db) as lembra:
        await lembra.say("onde passa dark?")
        marked = await lembra.say("kkkk essa eu já maratonei, 9/10")
        reminders = await db.reminders.for_user(ALICE)
        dark = await item(lembra, "Dark")
    assert "Dark" in marked.text, marked.text
    assert (dark.done, dark.rating) == (True, 9)
    assert reminders == []


def test_a_rating_after_a_see_verb_is_no_date_to_be_reminded_at() -> None:
    classifier = IntentClassifier()
    assert classifier.classify("finally watched it lol, 7/10").action == "llm"
    assert classifier.classify("ah esse eu terminei kkk 8/10").action == "llm"
    routed = classifier.classify("dentista 9/10")  # a date still is one
    assert routed.action == "command"
    assert routed.entities.get("name") in ("remind", "remind_or_note")


async def test_a_correction_in_a_clause_of_its_own_unmarks(db: Database) -> None:
    async with watching(db) as lembra:
        await lembra.say("maratonei dark")
        back = await lembra.say("ops, me enganei, ainda n terminei dark")
        dark = await item(lembra, "Dark")
        await lembra.say("já vi duna")
        english = await lembra.say("oh no, sorry, I haven't actually seen it yet")
        duna = await item(lembra, "Duna")
    assert "Dark" in back.text, back.text
    assert "Duna" in english.text, english.text
    assert not dark.done
    assert not duna.done


# -- suggestions ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "item_type", "short", "minutes", "genres", "binge"),
    [
        ("tem algo curtinho pra ver agr?", None, True, None, (), False),
        ("sugere uma série pra maratonar pfv", "tv_show", False, None, (), True),
        ("qual filme eu vejo hj? nada com mais de 2h", "movie", False, 120, (), False),
        ("anything quick for tonight?", None, True, None, (), False),
        ("bora ver uma comédia rn", None, False, None, ("comedia",), False),
        ("hoje foi puxado, quero um filminho leve", "movie", False, None, ("leve",), False),
        ("need a movie no longer than 90 min", "movie", False, 90, (), False),
    ],
)
def test_a_suggestion_is_read_by_its_parts(
    said: str,
    item_type: str | None,
    short: bool,
    minutes: int | None,
    genres: tuple[str, ...],
    binge: bool,
) -> None:
    found = read(said)
    assert isinstance(found, SuggestRequest), said
    assert (found.type, found.short, found.max_minutes, found.genre_words, found.binge) == (
        item_type,
        short,
        minutes,
        genres,
        binge,
    ), said


@pytest.mark.parametrize(
    "said",
    [
        "quero ver duna hj",  # a title: not a pick from the list
        "o que eu faço hoje?",
        "me indica um restaurante bom",
        "vi duna, o que eu vejo hoje?",  # a mark too: the planner's
        "quero ver",
        "comédia",
        "what did i watch tonight?",
        "filmes com mais de 2h",  # at least so long: not a constraint this reader knows
        "me recomenda uma série boa",  # a good one anywhere, not a pick from the list
        "me sugere algo, quero ver com a ana",  # a clause with more than an aside
        "que comédia eu vi?",  # the seen ones: a list, not a pick
    ],
)
def test_what_is_not_certainly_a_suggestion_is_declined(said: str) -> None:
    assert not isinstance(read(said), SuggestRequest), said


async def test_a_short_suggestion_in_slang_picks_from_the_unseen_items(db: Database) -> None:
    async with watching(db) as lembra:
        picked = await lembra.say("vc tem algum filminho curto pra hj?")
        items = await lembra.items()
    assert "Superbad" in picked.text, picked.text
    assert "Duna" not in picked.text.splitlines()[1], picked.text
    assert len(items) == 3


# -- counts ---------------------------------------------------------------------------------------


def test_counts_are_read_by_count_state_and_type_words() -> None:
    for said, state, types in (
        ("how many movies are still unwatched?", "left", ("movie",)),
        ("qtas séries eu terminei até agora?", "done", ("tv_show",)),
        ("quantos filmes eu ainda não vi?", "left", ("movie",)),
        ("how many shows do i have left to watch?", "left", ("tv_show",)),
    ):
        found = read(said)
        assert isinstance(found, ListRequest), said
        assert (found.state, found.types, found.count) == (state, types, True), said
    both = read("qts filmes eu já vi e qts faltam?")
    assert isinstance(both, ListRequest)
    assert both.then is not None
    assert (both.state, both.then.state, both.then.types) == ("done", "left", ("movie",))
    for said in ("quantos filmes do nolan eu vi?", "quantos filmes eu tenho?"):
        assert read(said) is None, said


async def test_two_counts_in_one_message_answer_both(db: Database) -> None:
    async with watching(db) as lembra:
        await lembra.say("já vi duna")
        counted = await lembra.say("quantos filmes eu já assisti e quantos ainda faltam?")
    assert counted.text == "Você já viu 1 filme.\nFalta ver 1 filme.", counted.text


# -- unmarking ------------------------------------------------------------------------------------


def test_unmarking_names_the_seen_list_or_the_way_back() -> None:
    for said in (
        "tira o duna da lista de assistidos",
        "volta duna pra não vistos",
        "coloca duna de volta pra ver",
        "put dune back on my to-watch list",
        "take dune off my watched list",
    ):
        found = read(said)
        assert isinstance(found, MarkRequest), said
        assert found.state == "unseen", said
    assert read("coloca duna pra ver") is None  # may be a save: not an unmark


async def test_taking_a_title_off_the_seen_list_puts_it_back_to_see(db: Database) -> None:
    async with watching(db) as lembra:
        await lembra.say("já vi duna e superbad")
        back = await lembra.say("volta o superbad pra lista de não vistos pfv")
        superbad = await item(lembra, "Superbad")
        duna = await item(lembra, "Duna")
    assert "Superbad" in back.text, back.text
    assert not superbad.done
    assert duna.done


# -- where, on a given service --------------------------------------------------------------------


def test_a_service_question_names_the_title_and_the_service() -> None:
    for said, title, service in (
        ("tem dark na netflix?", "dark", "Netflix"),
        ("e o tenet, tá no prime?", None, None),  # the comma form stays the named-first reader's
        ("superbad tá na netflix?", "superbad", "Netflix"),
        ("is dune on hbo max?", "dune", "Max"),
        ("does netflix have dark?", "dark", "Netflix"),
    ):
        found = read(said)
        if title is None:
            continue
        assert isinstance(found, WhereRequest), said
        assert (found.title, found.service) == (title, service), said
    assert read("dark tá na netflix") is None  # news, not a question


async def test_a_service_question_says_yes_or_no_then_where_it_is(db: Database) -> None:
    async with watching(db) as lembra:
        yes = await lembra.say("tem dark na netflix?")
        no = await lembra.say("superbad tá na netflix?")
        slang = await lembra.say("onde q passa duna?")
        items = await lembra.items()
    assert yes.text.startswith("Sim: Netflix tem Dark (2017) (BR)."), yes.text
    assert no.text.startswith("Netflix não tem Superbad (2007) (BR)"), no.text
    assert "Apple TV" in no.text  # where it is, after the answer
    assert "Max" in slang.text, slang.text
    assert len(items) == 3


# -- saving several titles with a politeness word -------------------------------------------------


async def test_two_titles_and_a_politeness_word_save_two_items(db: Database) -> None:
    async with open_lembra(db, tmdb_results=CATALOGUE) as lembra:
        await lembra.say("salva o filme duna")
        await lembra.say("o que falta ver?")
        saved = await lembra.say("add tenet e superbad pfv")
        titles = sorted(i.title or "" for i in await lembra.items())
    assert "Tenet" in saved.text, saved.text
    assert "Superbad" in saved.text, saved.text
    assert titles == ["Duna", "Superbad", "Tenet"]


def test_an_echoed_negation_and_a_mistake_clause_still_unmark_the_title() -> None:
    for said, title in (
        ("n vi duna ainda n, cliquei errado", "duna"),
        ("não assisti Dark não, foi engano", "Dark"),
        ("sorry, by mistake. haven't seen dune", "dune"),
    ):
        found = read(said)
        assert isinstance(found, MarkRequest), said
        assert (found.state, found.title) == ("unseen", title), said
    affirmed = read("já vi Dark sim kkkk")
    assert isinstance(affirmed, MarkRequest)
    assert affirmed.title == "Dark"


def test_any_streaming_asks_where_at_all() -> None:
    for said in ("tem duna em algum streaming?", "is dune on any streaming service?"):
        found = read(said)
        assert isinstance(found, WhereRequest), said
        assert (found.title, found.service) == ("duna" if "tem" in said else "dune", ""), said


def test_asides_at_the_edge_and_a_day_before_the_title_are_no_part_of_it() -> None:
    for said, state, title, days in (
        ("I didn't finish dune actually", "unseen", "dune", 0),
        ("scratch that, i haven't seen dune", "unseen", "dune", 0),
        ("vi ontem o Duna, top demais", "seen", "Duna", 1),
        ("assisti anteontem Tenet", "seen", "Tenet", 2),
    ):
        found = read(said)
        assert isinstance(found, MarkRequest), said
        assert (found.state, found.title, found.days_ago) == (state, title, days), said


def test_counts_take_every_see_verb_and_the_passive() -> None:
    for said, state in (
        ("quantas séries eu já zerei?", "done"),
        ("quantos filmes já foram vistos?", "done"),
    ):
        found = read(said)
        assert isinstance(found, ListRequest), said
        assert (found.state, found.count) == (state, True), said


# -- where a save goes is no part of the title -----------------------------------------------------


async def test_where_the_save_goes_before_a_colon_is_no_part_of_the_title(db: Database) -> None:
    async with open_lembra(db, tmdb_results=CATALOGUE) as lembra:
        for said in (
            "add to my list: tenet",
            "bota o filme na minha lista: superbad",
            "joga pra lista: duna",
        ):
            await lembra.say(said)
        titles = sorted((i.type, i.title or "") for i in await lembra.items())
        await lembra.say("salva na minha lista: comprar pão amanhã")
        notes = [i.content for i in await lembra.items() if i.type == "note"]
    assert titles == [("movie", "Duna"), ("movie", "Superbad"), ("movie", "Tenet")]
    assert notes == ["comprar pão amanhã"]


# -- lists of what is left, read by their parts ----------------------------------------------------


def test_a_list_of_what_is_left_is_read_by_an_asking_word_and_a_state() -> None:
    for said, state, types in (
        ("so what's left for me to watch?", "left", WATCHABLE),
        ("show me the stuff I haven't watched", None, None),  # "stuff": more than a state
        ("show me what I haven't watched", "left", WATCHABLE),
        ("any shows I haven't seen yet?", "left", ("tv_show",)),
        ("tem alguma série que eu ainda não vi?", "left", ("tv_show",)),
        ("show me what i watched", "done", WATCHABLE),
        ("what did I watch with Ana?", None, None),
        ("what to watch?", None, None),  # a pick, not a list
    ):
        found = read(said)
        if state is None:
            assert not isinstance(found, ListRequest), said
            continue
        assert isinstance(found, ListRequest), said
        assert (found.state, found.types, found.count) == (state, types, False), said


async def test_what_i_have_not_seen_lists_only_the_unseen(db: Database) -> None:
    async with watching(db) as lembra:
        await lembra.say("já vi duna")
        listed = await lembra.say("anything I haven't watched yet?")
    assert "Superbad" in listed.text, listed.text
    assert "Dark" in listed.text, listed.text
    assert "Duna" not in listed.text, listed.text


# -- the rating given, asked ----------------------------------------------------------------------


async def test_asking_the_rating_given_answers_the_stored_rating(db: Database) -> None:
    async with watching(db) as lembra:
        await lembra.say("assisti superbad, 7/10")
        asked_pt = await lembra.say("qual nota eu tinha dado pro superbad?")
        asked_en = await lembra.say("how did I rate Superbad again?")
    assert "7/10" in asked_pt.text, asked_pt.text
    assert "7/10" in asked_en.text, asked_en.text


def test_what_was_given_to_someone_is_a_rating_question_only_of_an_item_of_the_list() -> None:
    # read as anchored: answered only when the words name one item of the list
    for said in ("quanto eu dei pro joão?", "what did I give mom for christmas?"):
        found = read(said)
        assert found is None or (isinstance(found, StateQuestion) and found.anchored)


# -- a mark said with how often, or with the command again -----------------------------------------


def test_how_often_and_the_command_said_again_are_no_part_of_a_mark() -> None:
    for said, state, title in (
        ("Superbad eu já vi umas cinco vezes, pode marcar", "seen", "Superbad"),
        ("Dark eu já maratonei todas as temporadas", "seen", "Dark"),
        ("The Office, watched it a bunch of times", "seen", "The Office"),
        ("Duna na verdade eu ainda não vi, desmarca aí", "unseen", "Duna"),
    ):
        found = read(said)
        assert isinstance(found, MarkRequest), said
        assert (found.state, found.title) == (state, title), said
    # the command said again must go the mark's way
    assert read("Duna eu não vi, marca como visto") is None


async def test_a_title_first_mark_with_how_often_marks_that_title(db: Database) -> None:
    async with watching(db) as lembra:
        marked = await lembra.say("superbad eu já vi mil vezes kkk marca como visto")
        superbad = await item(lembra, "Superbad")
        duna = await item(lembra, "Duna")
    assert "Superbad" in marked.text, marked.text
    assert (superbad.done, duna.done) == (True, False)


# -- an unmark said as a correction, the command at the end ----------------------------------------


async def test_a_correction_then_unmark_puts_the_item_in_focus_back(db: Database) -> None:
    async with watching(db) as lembra:
        await lembra.say("já vi superbad")
        back = await lembra.say(
            "ugh no, I got it mixed up with another one, I haven't actually, unmark it"
        )
        superbad = await item(lembra, "Superbad")
    assert "Superbad" in back.text, back.text
    assert superbad.done is False


def test_a_bare_unmark_names_the_item_in_focus_and_a_bare_mark_word_nothing() -> None:
    for said in ("desmarca", "ops, confundi com outra série, desmarca"):
        found = read(said)
        assert isinstance(found, MarkRequest), said
        assert (found.state, found.title) == ("unseen", ""), said
    assert read("marca") is None


# -- a suggestion beside a clause about mood or tomorrow -------------------------------------------


@pytest.mark.parametrize(
    ("said", "short", "minutes", "genres"),
    [
        ("tô exausta hj, me indica algo curtinho pra ver", True, None, ()),
        (
            "any comedy on my list I haven't seen? need a laugh after this week",
            False,
            None,
            ("comedy",),
        ),
        ("what should I watch tonight? less than 2 hours, early meeting tmrw", False, 120, ()),
    ],
)
def test_a_clause_about_mood_or_tomorrow_beside_a_suggestion_is_read_past(
    said: str, short: bool, minutes: int | None, genres: tuple[str, ...]
) -> None:
    found = read(said)
    assert isinstance(found, SuggestRequest), said
    assert (found.short, found.max_minutes, found.genre_words) == (short, minutes, genres), said


# -- approval, then a question about what was just suggested ---------------------------------------


async def test_where_after_approving_a_suggestion_is_about_the_suggested_title(
    db: Database,
) -> None:
    async with watching(db) as lembra:
        suggested = await lembra.say("tem alguma comédia pra hoje?")
        where = await lembra.say("boa! e onde eu vejo?")
    assert "Superbad" in suggested.text, suggested.text
    assert "Superbad" in where.text, where.text
    assert "Apple TV" in where.text, where.text


def test_approval_is_read_past_only_in_a_clause_of_its_own() -> None:
    found = read("top gun eu já vi")
    assert isinstance(found, MarkRequest)
    assert found.title == "top gun"


def test_a_line_by_its_hash_with_already_after_it_is_that_line() -> None:
    for said in ("seen #2 already", "watched the 2nd one already"):
        found = read(said)
        assert isinstance(found, MarkRequest), said
        assert found.target is not None, said
        assert (found.target.kind, found.target.value, found.title) == ("number", 2, ""), said


# -- questions about the watchlist, wave 9: counts, seen lists, picks, where off the list ---------


def test_what_is_still_owed_is_counted_as_left() -> None:
    for said, state, types in (
        ("how many movies do i still need to watch", "left", ("movie",)),
        ("quantos filmes eu ainda preciso ver?", "left", ("movie",)),
        ("qntos filmes tenho que ver ainda", "left", ("movie",)),
        ("how many films have i got left", "left", ("movie",)),
        ("how many shows am i done with?", "done", ("tv_show",)),
        ("quantas séries ainda estão pra ver", "left", ("tv_show",)),
    ):
        found = read(said)
        assert isinstance(found, ListRequest), said
        assert (found.state, found.types, found.count) == (state, types, True), said
    for said in ("quantos filmes eu preciso?", "how many movies do i need to buy"):
        assert read(said) is None, said


async def test_counts_and_seen_lists_follow_the_marks_of_the_same_session(db: Database) -> None:
    async with watching(db) as lembra:
        await lembra.say("já vi duna")
        left_en = await lembra.say("how many movies do i still need to watch")
        left_pt = await lembra.say("qts filmes eu ainda preciso assistir?")
        seen_en = await lembra.say("which movies have i seen")
        seen_pt = await lembra.say("quais filmes eu ja vi?")
        await lembra.say("terminei dark")
        shows = await lembra.say("quantas series eu ja terminei")
        shows_left = await lembra.say("e quantas faltam?")
    assert left_en.text == "1 movie left to watch.", left_en.text
    assert left_pt.text == "Falta ver 1 filme.", left_pt.text
    assert "Duna" in seen_en.text, seen_en.text
    assert "Superbad" not in seen_en.text, seen_en.text
    assert "Duna" in seen_pt.text, seen_pt.text
    assert "Superbad" not in seen_pt.text, seen_pt.text
    assert shows.text == "Você já viu 1 série.", shows.text
    assert shows_left.text == "Falta ver 0 séries.", shows_left.text


@pytest.mark.parametrize(
    ("said", "item_type", "genres", "minutes"),
    [
        (
            "im in the mood for a comedy tonight, what do u suggest from my list",
            None,
            ("comedy",),
            None,
        ),
        ("gimme a funny show for tonight from my list", "tv_show", ("funny",), None),
        (
            "bora ver uma comedia hj a noite, qual vc indica da minha lista?",
            None,
            ("comedia",),
            None,
        ),
        ("what's a good sci-fi movie on my list to watch tonight?", "movie", ("sci_fi",), None),
        ("me indica uma ficcao cientifica da minha lista", None, ("ficcao_cientifica",), None),
        ("hj quero algo com menos de 2h, qual da lista?", None, (), 120),
        ("tonite i want smth scary, any pick from my watchlist?", None, ("scary",), None),
        ("2 horas no maximo, o que eu vejo?", None, (), 120),
        ("tenho 1 hora livre, qual filme da lista eu vejo", "movie", (), 60),
        ("i only have 90 min, what should i watch", None, (), 90),
        ("nao sei o que ver hj, alguma ideia?", None, (), None),
        ("help me pick a movie from my list", "movie", (), None),
        ("i cant decide what to watch tonight", None, (), None),
        ("recomend me a comdy from my list", None, ("comedy",), None),
        ("qual filme eu asisto hoje?", "movie", (), None),
    ],
)
def test_a_pick_from_the_own_list_reads_its_genre_type_and_length_wherever_they_stand(
    said: str, item_type: str | None, genres: tuple[str, ...], minutes: int | None
) -> None:
    found = read(said)
    assert isinstance(found, SuggestRequest), said
    assert (found.type, found.genre_words, found.max_minutes) == (item_type, genres, minutes), said


@pytest.mark.parametrize(
    "said",
    [
        "me indica um restaurante bom da minha lista",  # nothing to watch in it
        "me recomenda uma série boa",  # a good one anywhere: not a pick from the list
        "vi duna da minha lista, qual eu vejo agora?",  # a mark too
        "what did i save from my list tonight?",
        "nao sei o que fazer hoje",  # not knowing what to do is no pick from the list
        "quero tirar a comédia da minha lista",  # a change to the list
        "apaga o filme de terror da minha lista",
        "tem algum filme por acaso pra hoje?",  # "acaso" is no misspelled "ação"
        "não sei que filme eu vi",
    ],
)
def test_words_of_no_part_are_read_past_only_in_a_pick_of_something_to_watch(said: str) -> None:
    assert not isinstance(read(said), SuggestRequest), said


async def test_a_genre_said_in_either_language_picks_by_tmdb_genre_names(db: Database) -> None:
    async with watching(db) as lembra:
        comedy = await lembra.say(
            "im in the mood for a comedy tonight, what do u suggest from my list"
        )
        comedia = await lembra.say(
            "bora ver uma comedia hj a noite, qual vc indica da minha lista?"
        )
        scifi = await lembra.say("algum sci-fi pra hoje?")
        short = await lembra.say("hj quero algo com menos de 2h, qual da lista?")
    assert "Superbad" in comedy.text, comedy.text
    assert "Duna" not in comedy.text, comedy.text
    assert "Superbad" in comedia.text, comedia.text
    assert "Duna" not in comedia.text, comedia.text
    assert "Duna" in scifi.text, scifi.text
    assert "Superbad" not in scifi.text, scifi.text
    assert "Superbad" in short.text, short.text
    assert "Duna" not in short.text, short.text


async def test_a_type_with_nothing_unseen_offers_the_unseen_of_the_other_types(
    db: Database,
) -> None:
    async with watching(db) as lembra:
        await lembra.say("maratonei dark")
        binge = await lembra.say("need a series to binge this weekend, which one from my list?")
        pt = await lembra.say("me indica uma série pra hoje")
    assert "seen everything" not in binge.text, binge.text
    assert binge.text.startswith("There are no shows left to watch on your list."), binge.text
    assert "Duna" in binge.text, binge.text
    assert "Superbad" in binge.text, binge.text
    assert pt.text.startswith("Não há séries para ver na sua lista."), pt.text
    assert "Duna" in pt.text, pt.text


async def test_a_genre_no_item_can_be_checked_on_is_said_with_the_items_it_could_be(
    db: Database,
) -> None:
    no_tmdb = "https://api.themoviedb.org/3"  # its public host with no key: "not configured"
    async with open_lembra(db, tmdb_base_url=no_tmdb) as lembra:
        await lembra.say("salva o filme duna")
        await lembra.say("salva o filme superbad")
        unknown = await lembra.say("me indica uma comédia da minha lista")
    assert "Nada na sua lista combina" not in unknown.text, unknown.text
    assert unknown.text.splitlines() == [
        "Não sei o gênero destes itens para ver (salvos sem TMDB), então não consigo conferir se"
        " combinam (2):",
        "1. duna",
        "2. superbad",
    ]


async def test_items_known_not_to_fit_and_items_not_known_are_told_apart(db: Database) -> None:
    async with watching(db) as lembra:
        await lembra.say("salva o filme o auto da compadecida")  # not on TMDB: saved as written
        await lembra.say("já vi superbad")
        reply = await lembra.say("what comedy should i watch tonight from my list?")
    lines = reply.text.splitlines()
    assert lines[0].startswith("Of those I know about, none fits (2)."), reply.text
    assert "the genre" in lines[0], reply.text
    assert lines[1:] == ["1. o auto da compadecida"], reply.text


async def test_where_a_title_off_the_list_streams_is_answered_and_nothing_is_saved(
    db: Database,
) -> None:
    async with watching(db) as lembra:
        before = len(await lembra.items())
        english = await lembra.say("and tenet, where's that on? just asking, dont add it")
        portuguese = await lembra.say("onde passa tenet? nao precisa salvar")
        curious = await lembra.say("where can i stream tenet, just curious")
        after = await lembra.items()
    for reply in (english, portuguese, curious):  # Tenet streams in BR only
        assert "Tenet (2020)" in reply.text, reply.text
        assert "JustWatch" in reply.text, reply.text
    assert "Prime Video" in portuguese.text, portuguese.text
    assert len(after) == before
    assert "Tenet" not in {i.title for i in after}


def test_a_clause_saying_nothing_is_to_be_saved_is_no_part_of_the_title() -> None:
    for said, title in (
        ("onde assistir dark? não salva", "dark"),
        ("where can i stream severance? dont save it pls", "severance"),
        ("onde vejo duna? só pra saber, não precisa adicionar na lista", "duna"),
        ("where's the bear streaming? no need to add it", "the bear"),
        ("where can i watch oppenheimer? not saving it", "oppenheimer"),
        ("onde passa oppenheimer? so queria saber", "oppenheimer"),
        ("where can i find dune online, not adding it to my list", "dune"),
    ):
        found = read(said)
        assert isinstance(found, WhereRequest), said
        assert found.title == title, said


def test_a_rating_question_needs_no_question_mark_a_statement_does() -> None:
    asked = read("what rating did i give dune")
    assert isinstance(asked, StateQuestion)
    assert asked.title == "dune"
    assert isinstance(read("já vi duna"), MarkRequest)
    assert isinstance(read("já vi duna?"), StateQuestion)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(
        [
            "how many ",
            "quantos ",
            "gimme a ",
            "im in the mood for ",
            "onde passa ",
            "and ",
            "what rating did i give ",
            "which ",
            "sabe onde passa ",
            "nao sei o que ver ",
            "e ",
            "séries ",
        ]
    ),
    st.text(max_size=40),
    st.sampled_from(
        [
            "",
            " from my list",
            " da minha lista?",
            "? nao precisa salvar",
            ", where's that on? just asking, dont add it",
            " sci-fi tonight",
            " ficção científica hj",
            " still need to watch",
            "? só curiosidade.",
            " 2 horas no maximo",
            ", tenho 1 hora livre",
            "? onde passa?",
            " que eu ja asisti",
        ]
    ),
)
def test_the_question_readers_never_raise(head: str, middle: str, tail: str) -> None:
    said = head + middle + tail
    read(said)
    read_list(said)
    read_suggest(said)
    read_where(said)
    read_state_question(said)
    read_question(said)
    genres_of_words(said.split())


def test_a_count_reads_a_state_or_type_word_misspelled_by_a_letter() -> None:
    for said, state, types in (
        ("quantos filmes eu ja asisti", "done", ("movie",)),
        ("how many flims have i watchd", "done", ("movie",)),
        ("how many series do i have left to finish", "left", ("tv_show",)),
        ("how many movies are left for me", "left", ("movie",)),
    ):
        found = read(said)
        assert isinstance(found, ListRequest), said
        assert (found.state, found.types, found.count) == (state, types, True), said
    assert read("how many movies have i seen with karen") is None  # a name is no typo


def test_a_watch_state_is_never_the_topic_of_a_count_about_saved_things() -> None:

    for said in (
        "how many movies do i still need to watch with karen",
        "quantos filmes faltam com a ana",
    ):
        asked = read_question(said)
        assert asked is None or not asked.subject, said
    topic = read_question("quantos filmes sobre guerra eu tenho?")
    assert topic is not None
    assert topic.subject == "guerra"


def test_lists_by_state_are_read_by_their_parts_type_first_too() -> None:
    for said, state, types in (
        ("séries vistas", "done", ("tv_show",)),
        ("meus filmes ja assistidos", "done", ("movie",)),
        ("my unwatched shows", "left", ("tv_show",)),
        ("videos que faltam ver", "left", ("video",)),
        ("links q nao li", "left", ("link",)),
        ("what's on my watch list?", "left", WATCHABLE),
        ("series pra ver", "left", ("tv_show",)),
        ("que filmes ainda estao na lista pra ver?", "left", ("movie",)),
        ("me diz quais filmes eu ja vi", "done", ("movie",)),
        ("me mostra o que eu já terminei", "done", WATCHABLE),
    ):
        found = read(said)
        assert isinstance(found, ListRequest), said
        assert (found.state, found.types, found.count) == (state, types, False), said
    for said in ("filmes que eu vi com a ana", "filme duna", "what to watch?"):
        assert not isinstance(read(said), ListRequest), said


def test_a_where_question_asked_about_asking_or_after_its_title_names_the_title() -> None:
    for said, title in (
        ("sabe onde passa succession? só curiosidade msm", "succession"),
        ("do you know where i can watch dune", "dune"),
        ("any idea where dune is streaming?", "dune"),
        ("e succession? onde passa?", "succession"),
        ("where does succession stream", "succession"),
        ("vc sabe qual streaming tem duna?", "duna"),
        ("dá pra ver duna em algum lugar?", "duna"),
        ("tem duna pra assistir online?", "duna"),
        ("em qual plataforma tá duna?", "duna"),
        ("what app is dune on?", "dune"),
    ):
        found = read(said)
        assert isinstance(found, WhereRequest), said
        assert found.title == title, said
    for said in (
        "sabe se duna é bom?",
        "sabe onde fica o shopping?",
        "comprei pipoca? onde passa?",
        "onde ta o controle?",
    ):
        assert not isinstance(read(said), WhereRequest), said


async def test_a_type_none_of_which_fits_offers_what_fits_among_the_others(db: Database) -> None:
    async with watching(db) as lembra:
        comedy_show = await lembra.say("gimme a comedy show for tonight from my list")
        scary = await lembra.say("algo de terror pra hoje?")
    lines = comedy_show.text.splitlines()
    assert lines[0] == "None of the shows left to watch fits that.", comedy_show.text
    assert lines[1:] == [
        "From the rest of your list, to watch:",
        "1. Superbad (2007) — Comédia, 1h53",
    ]
    assert scary.text.startswith("Nada na sua lista combina"), scary.text


async def test_a_title_off_the_list_is_the_show_of_that_name_before_a_film_with_its_words(
    db: Database,
) -> None:
    dark_waters = {
        "id": 552178,
        "title": "O Preço da Verdade",
        "original_title": "Dark Waters",
        "release_date": "2019-11-22",
        "providers": {"BR": {"rent": ["Apple TV"]}},
    }
    catalogue = {"movie": {"dark": [dark_waters]}, "tv": CATALOGUE["tv"]}
    async with open_lembra(db, tmdb_results=catalogue) as lembra:
        where = await lembra.say("sabe onde passa dark? só curiosidade")
        items = await lembra.items()
    assert where.text.startswith("Onde assistir Dark (2017) (BR):"), where.text
    assert "Netflix" in where.text, where.text
    assert items == []


def test_whether_a_title_is_seen_is_read_in_the_ways_people_ask_it() -> None:
    for said, title in (
        ("eu já vi duna ou não?", "duna"),
        ("será que eu já vi duna?", "duna"),
        ("duna ta marcado como visto?", "duna"),
        ("is dune marked as watched?", "dune"),
        ("i already saw dune?", "dune"),
        ("ja vi dark??", "dark"),
    ):
        found = read(said)
        assert isinstance(found, StateQuestion), said
        assert found.title == title, said
    assert isinstance(read("i already saw dune"), MarkRequest)  # no "?": a mark
    assert read("sera que chove amanha?") is None


async def test_asking_whether_a_title_is_seen_answers_from_storage_and_changes_nothing(
    db: Database,
) -> None:
    async with watching(db) as lembra:
        await lembra.say("já vi duna, nota 8")
        seen = await lembra.say("será que eu já vi duna?")
        left = await lembra.say("superbad ta marcado como visto?")
        items = {i.title: i.done for i in await lembra.items()}
    assert seen.text == "Duna (2021) está na sua lista, já marcado como visto · 8/10.", seen.text
    assert left.text == "Superbad (2007) está na sua lista, ainda para ver.", left.text
    assert items == {"Duna": True, "Superbad": False, "Dark": False}


@pytest.mark.parametrize(
    ("said", "title", "pronoun"),
    [
        ("where can i stream arrival? not saving it tho", "arrival", False),
        ("onde dá pra ver o iluminado aqui?", "iluminado", False),  # the article aside
        ("e passa onde?", "", True),  # the title in focus
        ("onde passa e o vento levou?", "e o vento levou", False),  # a title opening with "e"
    ],
)
def test_where_reads_the_question_before_what_follows_and_no_place_word(
    said: str, title: str, pronoun: bool
) -> None:
    asked = read_where(said)
    assert asked is not None
    assert (asked.title.lower(), asked.target is not None) == (title, pronoun)


@pytest.mark.parametrize(
    ("said", "title", "days"),
    [
        ("assisti parasita hj de madrugada, nota 9", "parasita", 0),
        ("watched dune yesterday afternoon, 8/10", "dune", 1),
        ("vi duna ontem de madrugada", "duna", 1),
        ("terminei dark hoje a tarde", "dark", 0),
    ],
)
def test_a_part_of_the_day_after_the_title_is_when_it_was_seen_not_the_title(
    said: str, title: str, days: int
) -> None:
    from agent.understanding.watchlist import read_mark

    read = read_mark(said)
    assert read is not None
    assert (read.title, read.days_ago) == (title, days)


def test_a_list_question_reads_past_how_the_rest_stayed_and_a_count_asked_last() -> None:
    # issue 44: "qual serie ficou faltando entao?", "e series vistas, qtas?"
    from agent.understanding.watchlist import ListRequest, read

    assert read("e qual filme ficou sobrando?") == ListRequest("left", ("movie",))
    assert read("filmes que eu já vi, quantos?") == ListRequest("done", ("movie",), count=True)


def test_the_shortest_left_is_a_pick_of_the_shortest_unseen() -> None:
    from agent.understanding.watchlist import SuggestRequest, read

    assert read("so which is the quickest one left?") == SuggestRequest(short=True)
    assert read("e qual o filme mais curto que resta?") == SuggestRequest(type="movie", short=True)
    assert read("quantos restam?") != SuggestRequest(short=True)


def test_marks_read_past_words_that_only_colour_them() -> None:
    # issue 44: "the office eu ja vi inteirinha", "palm springs ive seen tho", "i actually saw X"
    from agent.understanding.watchlist import MarkRequest, read

    for said, title, rating in (
        ("dark eu maratonei inteirinha, nota 9", "dark", 9),
        ("heat ive watched tho", "heat", None),
        ("ok i actually watched ronin yesterday, 6/10", "ronin", 6),
    ):
        found = read(said)
        assert isinstance(found, MarkRequest), said
        assert (found.title, found.rating) == (title, rating), said


def test_a_rating_question_with_no_title_asks_of_the_item_in_focus() -> None:
    from agent.understanding.references import Target
    from agent.understanding.watchlist import StateQuestion, read

    asked = read("e que nota eu tinha dado?")
    assert asked is None or asked == StateQuestion("", opinion=True, target=Target("pronoun"))
    assert read("e q nota eu dei?") == StateQuestion("", opinion=True, target=Target("pronoun"))
    assert read("e qual nota eu coloquei?") == StateQuestion(
        "", opinion=True, target=Target("pronoun")
    )
    assert read("o que eu disse?") is None  # said of what? not certain


def test_an_unmark_after_a_reason_that_opens_with_the_title_unmarks_that_title() -> None:
    from agent.understanding.watchlist import MarkRequest, read

    assert read("the bear eu parei no meio, desmarca ela") == MarkRequest(
        "unseen", title="the bear", anchored=True
    )
    assert read("dark eu vi sim, desmarca") is None  # seen, then unmark: not one reading


def test_a_line_number_said_first_in_english_is_marked_and_rough_days_are_read() -> None:
    from agent.understanding.references import Target
    from agent.understanding.watchlist import MarkRequest, read

    found = read("number 3 i binged last month, 7/10")
    assert isinstance(found, MarkRequest)
    assert (found.target, found.days_ago, found.rating) == (Target("number", 3), 30, 7)
    assert read("the last one i watched") is None  # a list question, not a mark
    rated = read("the third one i've seen, gave it a 6")  # with a rating it marks that line
    assert isinstance(rated, MarkRequest)
    assert (rated.target, rated.rating) == (Target("ordinal", 3), 6)
    weekend = read("vi heat no fim de semana")
    assert isinstance(weekend, MarkRequest)
    assert (weekend.title, weekend.days_ago) == ("heat", 1)  # the weekend just gone: a day back
