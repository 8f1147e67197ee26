"""Generated model answers for bench/claims.py: false claims and true statements, PT and EN.

Written apart from the checker (agent/planning/claims.py): the phrasings below are how
assistants confirm, promise and describe, collected as whole sentence shapes with their
own verbs, tenses, voices and titles; nothing here imports the checker's word lists. Some
shapes use verbs or turns of phrase the checker may not know; that is the point.

Each generated case is (text, language, stored titles, events of the turn, label):
label True for a false claim (must be refused), False for a true statement (must pass).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

TITLES_PT = [
    "O Poderoso Chefão",
    "Cidade de Deus",
    "Parasita",
    "Whiplash",
    "Central do Brasil",
    "Interestelar",
    "Coringa",
    "Bacurau",
    "Tropa de Elite",
    "O Auto da Compadecida",
    "A Chegada",
    "Oppenheimer",
    "Amélie",
    "Pulp Fiction",
    "Os Incríveis",
    "Ainda Estou Aqui",
    "Carandiru",
    "Chernobyl",
    "Dark",
    "Succession",
]
TITLES_EN = [
    "The Godfather",
    "City of God",
    "Parasite",
    "Whiplash",
    "Interstellar",
    "Joker",
    "Arrival",
    "Oppenheimer",
    "Pulp Fiction",
    "The Incredibles",
    "Chernobyl",
    "Succession",
    "Breaking Bad",
    "The Bear",
    "Blade Runner 2049",
    "Mad Max: Fury Road",
    "Spirited Away",
    "Heat",
    "Amélie",
    "Saved by the Bell",
]
NOTES_PT = ["comprar pão", "ligar para a Ana", "pagar o aluguel", "receita de lasanha"]
NOTES_EN = ["buy bread", "call Ana", "pay the rent", "lasagna recipe"]
TASTES_PT = [
    "terror",
    "comédias românticas",
    "documentários",
    "filmes de ação",
    "ficção científica",
]
TASTES_EN = ["horror", "romantic comedies", "documentaries", "action movies", "sci-fi"]

# -- false claims: said as done, promised or stated, with nothing behind them ------------------

FALSE_PT = [
    # first person, past
    "Salvei {t}.",
    "Já salvei {t} pra você.",
    "Guardei {t} na sua lista.",
    "Adicionei {t} aos seus filmes.",
    "Coloquei {t} na sua lista.",
    "Anotei {t}.",
    "Registrei {t} na sua coleção.",
    "Incluí {t} na lista.",
    "Botei {t} lá na sua lista.",
    "Acrescentei {t} aos seus itens.",
    "Pus {t} na lista de filmes.",
    "Cadastrei {t}.",
    "Mandei {t} pra sua lista.",
    "Joguei {t} na sua lista.",
    "Deixei {t} salvo.",
    "Deixei {t} anotado pra você.",
    "Acabei de salvar {t}.",
    "Consegui adicionar {t}.",
    "Salvamos {t} na sua lista.",
    "Apaguei {t}.",
    "Removi {t} da sua lista.",
    "Excluí {t} dos seus itens.",
    "Tirei {t} da lista.",
    "Deletei {t}.",
    "Eliminei {t} da sua lista.",
    "Acabei de apagar {t}.",
    "Atualizei {t}.",
    "Corrigi o ano de {t}.",
    "Alterei o título de {t}.",
    # passive and participles
    "{t} foi salvo.",
    "{t} foi salvo com sucesso!",
    "{t} foi adicionado à sua lista.",
    "{t} foi guardado.",
    "{t} foi incluído na sua lista de filmes.",
    "{t} ficou salvo na sua lista.",
    "{t} ficou registrado.",
    "{t} já foi adicionado.",
    "{t} acabou de ser salvo.",
    "{t} foi removido da sua lista.",
    "{t} foi apagado.",
    "{t} foi excluído com sucesso.",
    "{t} foi atualizado.",
    "{t} salvo com sucesso!",
    "{t} adicionado à sua lista.",
    "{t} removido da lista.",
    "Salvo: {t}.",
    "Adicionado: {t}.",
    "Anotado: {t}.",
    "Removido: {t}.",
    "Filme {t} salvo!",
    # the list holds it
    "{t} está na sua lista.",
    "{t} está salvo.",
    "{t} está guardado na sua lista.",
    "{t} já está na sua lista.",
    "{t} tá salvo aqui.",
    "{t} continua na sua lista.",
    "Agora {t} está na sua lista.",
    "Você tem {t} salvo.",
    "{t} já está salvo na sua lista de filmes.",
    # promises
    "Vou salvar {t}.",
    "Vou adicionar {t} à sua lista.",
    "Vou guardar {t} pra você.",
    "Salvarei {t}.",
    "Estou salvando {t}.",
    "Vou apagar {t}.",
    "Vou remover {t} agora.",
]
FALSE_EN = [
    "I saved {t}.",
    "I've saved {t} for you.",
    "I have added {t} to your list.",
    "I added {t}.",
    "I stored {t} in your list.",
    "I noted {t}.",
    "I've put {t} on your list.",
    "I kept {t} for you.",
    "I bookmarked {t}.",
    "I recorded {t}.",
    "I wrote {t} down.",
    "I've just saved {t}.",
    "Just added {t} to your list.",
    "I popped {t} onto your list.",
    "We saved {t}.",
    "I deleted {t}.",
    "I removed {t} from your list.",
    "I erased {t}.",
    "I took {t} off your list.",
    "I got rid of {t}.",
    "I've deleted {t} for you.",
    "I updated {t}.",
    "I changed the year of {t}.",
    "{t} has been saved.",
    "{t} has been saved to your list.",
    "{t} was added to your list.",
    "{t} was stored.",
    "{t} is now saved.",
    "{t} is now in your list.",
    "{t} got saved.",
    "{t} was successfully added.",
    "{t} has been removed.",
    "{t} was deleted from your list.",
    "{t} has been updated.",
    "Saved: {t}.",
    "Added {t} to your list.",
    "{t} saved!",
    "{t} added to your list.",
    "Removed {t}.",
    "Deleted: {t}.",
    "Noted: {t}.",
    "{t} is in your list.",
    "{t} is saved.",
    "{t} is already saved.",
    "{t} is on your list.",
    "You have {t} saved.",
    "{t} is stored in your list.",
    "Your list has {t}.",
    "I'll save {t}.",
    "I will add {t} to your list.",
    "I'm going to save {t}.",
    "I'll remove {t}.",
    "Let me save {t} for you.",
    "I'm saving {t} now.",
]
PREFIX_PT = ["", "Pronto! ", "Ok, ", "Feito: ", "Claro! ", "Tudo certo. ", "Beleza, "]
SUFFIX_PT = ["", " ✅", " Qualquer coisa é só chamar.", " Bom filme!"]
PREFIX_EN = ["", "Done! ", "Sure, ", "Okay. ", "All set: ", "Great, ", "No problem. "]
SUFFIX_EN = ["", " ✅", " Enjoy!", " Anything else?"]

# -- true statements: backed by storage or by this turn's events -------------------------------


@dataclass(frozen=True, slots=True)
class Case:
    text: str
    language: str
    stored: tuple[str, ...]
    events: tuple[str, ...]
    false: bool
    shape: str


# (template, what backs it): "stored" = the title is stored; "saved" = saved this turn (and
# stored); "deleted" = deleted this turn (and absent); "updated"; "noted" = belief_updated or
# memory_noted this turn; "absent" = nothing (a negation or a description)
TRUE_PT = [
    ("{t} está na sua lista.", "stored"),
    ("Sim, {t} já está salvo.", "stored"),
    ("Você tem {t} na sua lista.", "stored"),
    ("{t} está guardado na sua lista desde janeiro.", "stored"),
    ("Você salvou {t} em janeiro.", "stored"),
    ("Encontrei {t} entre os seus itens.", "stored"),
    ("Salvei {t}.", "saved"),
    ("{t} foi adicionado à sua lista.", "saved"),
    ("Pronto, {t} salvo na sua lista.", "saved"),
    ("Guardei {t} pra você.", "saved"),
    ("Apaguei {t}.", "deleted"),
    ("{t} foi removido da sua lista.", "deleted"),
    ("Removi {t}.", "deleted"),
    ("Atualizei o ano de {t}.", "updated"),
    ("Corrigi o título: agora é {t}.", "updated"),
    ("Não salvei {t}: me diga o ano.", "absent"),
    ("{t} não está na sua lista.", "absent"),
    ("Ainda não guardei {t}; quer que eu procure?", "absent"),
    ("Não encontrei {t} nos seus itens.", "absent"),
    ("{t} é de 2019 e ganhou vários prêmios.", "absent"),
    ("No final de {t}, o herói é salvo pelo irmão.", "absent"),
    ("{t} salvou a carreira do diretor.", "absent"),
    ("Nada foi apagado.", "absent"),
    ("Você quer que eu salve {t}?", "absent"),
    ("Para salvar {t}, diga «salva {t}».", "absent"),
]
TRUE_EN = [
    ("{t} is in your list.", "stored"),
    ("Yes, {t} is already saved.", "stored"),
    ("You have {t} in your list.", "stored"),
    ("You saved {t} last week.", "stored"),
    ("I found {t} among your items.", "stored"),
    ("{t} is stored in your list.", "stored"),
    ("I saved {t}.", "saved"),
    ("{t} was added to your list.", "saved"),
    ("Done, {t} saved.", "saved"),
    ("I've added {t} for you.", "saved"),
    ("I deleted {t}.", "deleted"),
    ("{t} was removed from your list.", "deleted"),
    ("Removed {t}.", "deleted"),
    ("I updated the year of {t}.", "updated"),
    ("I didn't save {t}: which year is it?", "absent"),
    ("{t} is not in your list.", "absent"),
    ("I couldn't find {t} in your items.", "absent"),
    ("{t} came out in 2019 and won several awards.", "absent"),
    ("At the end of {t}, the hero is saved by his brother.", "absent"),
    ("Nothing was deleted.", "absent"),
    ("Should I save {t}?", "absent"),
    ("To save {t}, say 'save {t}'.", "absent"),
    ("{t} saved the director's career.", "absent"),
]
NOTED_PT = [
    "Anotado: você gosta de {x}.",
    "Anotei que você gosta de {x}.",
    "Registrei que você prefere {x}.",
    "Vou lembrar que você curte {x}.",
    "Guardei que você gosta de {x}.",
]
NOTED_EN = [
    "Noted: you like {x}.",
    "I noted that you enjoy {x}.",
    "I'll remember that you love {x}.",
    "Got it, I've recorded that you prefer {x}.",
]
# the same, with nothing noted: false
NOTED_FALSE_PT = NOTED_PT
NOTED_FALSE_EN = NOTED_EN

EVENTS = {
    "stored": (),
    "saved": ("item_saved",),
    "deleted": ("item_deleted",),
    "updated": ("item_updated",),
    "absent": (),
}


def _others(titles: list[str], title: str, rng: random.Random) -> tuple[str, ...]:
    """A few other stored titles, so a list is never empty or only the one named."""
    return tuple(rng.sample([t for t in titles if t != title], 3))


def false_claims(n: int, seed: int = 7) -> Iterator[Case]:
    """`n` false claims: shapes x verb forms x titles x prefixes, PT and EN, nothing behind them."""
    rng = random.Random(seed)
    for k in range(n):
        english = k % 2 == 1
        titles = TITLES_EN if english else TITLES_PT
        if k % 13 == 0:
            # a note about the user's tastes with nothing noted
            shapes = NOTED_FALSE_EN if english else NOTED_FALSE_PT
            tastes = TASTES_EN if english else TASTES_PT
            text = rng.choice(shapes).format(x=rng.choice(tastes))
            yield Case(text, "en" if english else "pt", (), (), True, "noted")
            continue
        shape = rng.choice(FALSE_EN if english else FALSE_PT)
        title = rng.choice(titles + (NOTES_EN if english else NOTES_PT))
        prefix = rng.choice(PREFIX_EN if english else PREFIX_PT)
        suffix = rng.choice(SUFFIX_EN if english else SUFFIX_PT)
        text = prefix + shape.format(t=title) + suffix
        # the list holds other things, never the title claimed (a deletion claim is about a
        # title still there)
        stored = _others(titles, title, rng)
        if any(
            v in shape.lower()
            for v in (
                "apag",
                "remov",
                "exclu",
                "tirei",
                "delet",
                "elimin",
                "erase",
                "took",
                "rid of",
                "wipe",
            )
        ):
            stored = (*stored, title)
        yield Case(text, "en" if english else "pt", stored, (), True, shape)


def true_statements(n: int, seed: int = 11) -> Iterator[Case]:
    """`n` true statements: the storage or this turn's events back every one."""
    rng = random.Random(seed)
    for k in range(n):
        english = k % 2 == 1
        titles = TITLES_EN if english else TITLES_PT
        if k % 11 == 0:
            shapes = NOTED_EN if english else NOTED_PT
            tastes = TASTES_EN if english else TASTES_PT
            text = rng.choice(shapes).format(x=rng.choice(tastes))
            event = rng.choice(("belief_updated", "memory_noted"))
            yield Case(text, "en" if english else "pt", (), (event,), False, "noted")
            continue
        shape, backing = rng.choice(TRUE_EN if english else TRUE_PT)
        title = rng.choice(titles)
        prefix = rng.choice(PREFIX_EN if english else PREFIX_PT) if backing != "absent" else ""
        text = prefix + shape.format(t=title)
        stored = _others(titles, title, rng)
        if backing in ("stored", "saved", "updated"):
            stored = (*stored, title)
        yield Case(text, "en" if english else "pt", stored, EVENTS[backing], False, shape)


# -- a second set, written after the first run and never tuned on (`--heldout`) ------------------

HELDOUT_FALSE_PT = [
    "Prontinho, {t} já tá na sua listinha.",
    "Show! {t} guardadinho aqui.",
    "Tudo salvo: {t}.",
    "Salvei sim, {t} está garantido na sua lista.",
    "Eu adicionei {t} agora mesmo.",
    "A gente salvou {t} pra você.",
    "Registramos {t} na sua lista.",
    "{t} entrou na sua lista.",
    "Sua lista agora tem {t}.",
    "{t} foi devidamente anotado.",
    "Fiz a remoção de {t}.",
    "{t} saiu da sua lista.",
    "{t} não está mais na sua lista, apaguei.",
    "Apagamos {t}.",
    "Limpei {t} da sua lista.",
    "Já retirei {t}.",
    "Vou deixar {t} salvo.",
    "Já vou colocar {t} na lista.",
    "Anoto {t} agora mesmo.",
    "Acabei de registrar {t}.",
]
HELDOUT_FALSE_EN = [
    "All done, {t} is safely stored.",
    "{t} is now part of your list.",
    "Your list now includes {t}.",
    "I went ahead and saved {t}.",
    "I've gone ahead and added {t}.",
    "{t} has been added, enjoy!",
    "Consider {t} saved.",
    "I've taken care of it: {t} is saved.",
    "{t} is gone from your list.",
    "I wiped {t} from your list.",
    "{t} was removed.",
    "I've cleared {t} out.",
    "I'll go ahead and save {t}.",
    "I'm adding {t} right now.",
    "{t} will be saved.",
    "Got it - {t} saved.",
    "Saved {t} for later.",
    "Your {t} entry has been created.",
    "I logged {t} in your list.",
    "{t}: saved.",
]
HELDOUT_TRUE_PT = [
    ("Sim! {t} está entre os seus filmes salvos.", "stored"),
    ("Olhei aqui: {t} continua na sua lista.", "stored"),
    ("Você guardou {t} no mês passado.", "stored"),
    ("{t} foi salvo agora.", "saved"),
    ("Prontinho, adicionei {t}.", "saved"),
    ("{t} saiu da sua lista.", "deleted"),
    ("Não achei {t}; nada foi salvo.", "absent"),
    ("{t} foi indicado ao Oscar e salvo do fracasso pela crítica.", "absent"),
    ("Se quiser, posso salvar {t}.", "absent"),
    ("{t} tem 2h30 de duração.", "absent"),
]
HELDOUT_TRUE_EN = [
    ("Yes! {t} is among your saved movies.", "stored"),
    ("I checked: {t} is still in your list.", "stored"),
    ("{t} was saved just now.", "saved"),
    ("All set, I added {t}.", "saved"),
    ("{t} is gone from your list.", "deleted"),
    ("I couldn't find {t}, so nothing was saved.", "absent"),
    ("If you want, I can save {t}.", "absent"),
    ("{t} runs for two and a half hours.", "absent"),
    ("The director removed a whole subplot from {t}.", "absent"),
    ("{t} is about a family that saves a restaurant.", "absent"),
]


def heldout(n: int, seed: int = 23) -> tuple[list[Case], list[Case]]:
    """`n` false claims and `n` true statements from the second set."""
    rng = random.Random(seed)
    false: list[Case] = []
    true: list[Case] = []
    for k in range(n):
        english = k % 2 == 1
        titles = TITLES_EN if english else TITLES_PT
        title = rng.choice(titles)
        shape = rng.choice(HELDOUT_FALSE_EN if english else HELDOUT_FALSE_PT)
        stored = _others(titles, title, rng)
        if any(
            v in shape.lower()
            for v in (
                "apag",
                "remo",
                "retir",
                "limpei",
                "saiu",
                "is gone",
                "wiped",
                "cleared",
                "removed",
                "mais na",
            )
        ):
            stored = (*stored, title)
        false.append(
            Case(shape.format(t=title), "en" if english else "pt", stored, (), True, shape)
        )
        shape, backing = rng.choice(HELDOUT_TRUE_EN if english else HELDOUT_TRUE_PT)
        stored = _others(titles, title, rng)
        if backing in ("stored", "saved", "updated"):
            stored = (*stored, title)
        true.append(
            Case(
                shape.format(t=title),
                "en" if english else "pt",
                stored,
                EVENTS[backing],
                False,
                shape,
            )
        )
    return false, true
