"""Set C for bench/claims.py: claims and true statements written blind to the checker.

Written without reading agent/planning/claims.py, agent/understanding/morphology.py,
agent/planning/textlanguage.py or bench/claim_corpus.py, from DESIGN 9.2 and 10.2 only:
a model text that states or implies an effect (saved, added, noted, changed, deleted,
removed) must be backed by this turn's events, and one that states what the user's list
holds must be true in storage. Everything else (negations, questions, offers, conditionals,
instructions, what the user said, facts about films) claims nothing; offers are only capped.

Each template is phrased as a small model would answer after a turn (PT informal and formal,
EN) and carries its claim kind. The kind decides the facts: a false case gets facts that
do not back it (nothing happened, another title was saved, another effect happened, the
title is absent), a true case gets facts that do. Labels follow the DESIGN rules; where a
reading is arguable (a save claim about a title stored before this turn, a title stored under
its other-language name) the generator never builds that situation.

First run, before any change to the checker (`.venv/bin/python bench/claims.py --set c`,
700 + 700 cases): recall 550/700 = 78.6%, true statements refused 40/700 = 5.7%,
offers capped 51/52.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from agent.understanding.textnorm import fold

SAVED = "item_saved"
DELETED = "item_deleted"
ALL_DELETED = "all_deleted"
UPDATED = "item_updated"
BELIEF = "belief_updated"
NOTED = "memory_noted"


@dataclass(frozen=True, slots=True)
class Case:
    """One judged text, the facts it is judged against and its label's shape."""

    text: str
    language: str
    stored: tuple[str, ...]
    events: tuple[str, ...]
    shape: str
    user: str = ""  # the user's message this turn, when the text leans on it
    offer: bool | None = None  # True: must be capped as an offer; None: not measured


@dataclass(frozen=True, slots=True)
class Title:
    name: str
    year: int
    group: str  # the same film under another name shares a group
    short: bool = False  # a pronoun-like title ("It", "Up"): always written with its year


def _titles(rows: str) -> tuple[Title, ...]:
    out = []
    for row in rows.strip().splitlines():
        name, year, group = (part.strip() for part in row.split("|"))
        out.append(Title(name, int(year), group or fold(name), short=len(name) <= 3))
    return tuple(out)


PT_TITLES = _titles("""
Matrix | 1999 | matrix
Duna | 2021 | dune
Tubarão | 1975 | jaws
A Chegada | 2016 | arrival
Parasita | 2019 | parasite
Cidade de Deus | 2002 |
Central do Brasil | 1998 |
O Poderoso Chefão | 1972 |
Interestelar | 2014 | interstellar
Ainda Estou Aqui | 2024 |
A Lista de Schindler | 1993 | schindler
Salvo pelo Gongo | 1989 | bell
Diário de uma Paixão | 2004 | notebook
Guardiões da Galáxia | 2014 |
O Resgate do Soldado Ryan | 1998 | ryan
Adicionado Recentemente | 2021 |
Anotações de um Escândalo | 2006 | scandal
Garota Exemplar | 2014 | gonegirl
Tropa de Elite | 2007 |
Bacurau | 2019 |
O Auto da Compadecida | 2000 |
Amnésia | 2000 | memento
Os Infiltrados | 2006 | departed
Busca Implacável | 2008 | taken
Que Horas Ela Volta? | 2015 |
Deixa Ela Entrar | 2008 |
Corra! | 2017 | getout
O Que Ficou Para Trás | 2020 |
Tá Chovendo Hambúrguer | 2009 |
Brilho Eterno de uma Mente sem Lembranças | 2004 | eternal
Procurando Nemo | 2003 | nemo
Esqueceram de Mim | 1990 | homealone
Um Sonho de Liberdade | 1994 |
De Volta para o Futuro | 1985 |
""")

EN_TITLES = _titles("""
Jaws | 1975 | jaws
Arrival | 2016 | arrival
Gone Girl | 2014 | gonegirl
Saved by the Bell | 1989 | bell
Saving Private Ryan | 1998 | ryan
Deleted Scenes | 2019 |
The Notebook | 2004 | notebook
Schindler's List | 1993 | schindler
Taken | 2008 | taken
The Departed | 2006 | departed
Notes on a Scandal | 2006 | scandal
Get Out | 2017 | getout
Inception | 2010 |
Parasite | 2019 | parasite
Lost in Translation | 2003 |
Memento | 2000 | memento
Eternal Sunshine of the Spotless Mind | 2004 | eternal
Gone with the Wind | 1939 |
Stand by Me | 1986 |
Finding Nemo | 2003 | nemo
Home Alone | 1990 | homealone
Interstellar | 2014 | interstellar
Everything Everywhere All at Once | 2022 |
The Lost City | 2022 |
Left Behind | 2014 |
Whiplash | 2014 |
Moonlight | 2016 |
Spirited Away | 2001 |
Her | 2013 |
Up | 2009 |
It | 2017 |
Us | 2019 |
Changeling | 2008 |
Searching | 2018 |
Knives Out | 2019 |
The Matrix | 1999 | matrix
""")

PT_NOTES = (
    "comprar leite",
    "ligar pro dentista na segunda",
    "levar o carro na revisão",
    "pagar o boleto da luz",
    "ideia: app de receitas",
    "aniversário da Ana dia 12",
)
EN_NOTES = (
    "buy milk",
    "call the dentist on Monday",
    "book flights to Lisbon",
    "pay the electricity bill",
    "idea: recipe app",
)


# -- templates ----------------------------------------------------------------------------------
#
# Kinds (what backs a true case / what makes a false one):
#   save      item_saved and the named titles stored / nothing or another effect, titles absent
#   note_item item_saved and the note stored / no event, note absent
#   delete    item_deleted and the title absent / no deletion, or the title still stored
#   wipe      all_deleted and nothing stored / no such event, items stored
#   update    item_updated, title stored / no item_updated
#   belief    belief_updated or memory_noted / neither
#   state     the named titles stored / one of them absent
#   ask_state untitled "já está" answering a user who names a title: stored / absent
#   not_state "X não está na lista": absent / stored
#   empty     "a lista está vazia": nothing stored / items stored
#   count     "você tem N itens": N stored / another number
#   ack       a bare "Pronto!" after a save or delete request: the effect happened / did not
#   none      claims nothing (true only)
#   offer     an offer to act, only capped (true only)
#   promise   says an effect will happen now (false only: nothing backs it in a RESPOND)


@dataclass(frozen=True, slots=True)
class T:
    kind: str
    text: str
    user: str = ""
    offer: bool | None = None
    stored_when_false: bool = False  # a delete phrased as the list's state: false by storage
    stored: bool = False  # none/offer: the title is stored (a delete offer, a "still there")


def _pt(kind: str, *texts: str, **kw: object) -> list[tuple[str, T]]:
    return [("pt", T(kind, text, **kw)) for text in texts]  # type: ignore[arg-type]


def _en(kind: str, *texts: str, **kw: object) -> list[tuple[str, T]]:
    return [("en", T(kind, text, **kw)) for text in texts]  # type: ignore[arg-type]


TEMPLATES: list[tuple[str, T]] = [
    # -- PT saves, titled
    *_pt(
        "save",
        "Salvei {t} na sua lista.",
        "Salvei o filme {t} pra você! 🎬",
        "Filme {t} salvo com sucesso!",
        "Pronto! {t} foi salvo.",
        "Pronto, {t} está salvo na sua lista.",
        "Feito: {t} adicionado à sua lista.",
        "Botei {t} na sua lista 😉",
        "Joguei {t} na lista pra você.",
        "Taquei {t} na sua lista, tá?",
        "Tá salvo: {t}.",
        "{t} ficou guardado na sua lista.",
        "Guardei {t} pra você ver depois.",
        "Dei um jeito de salvar {t} na sua lista.",
        "Consegui salvar {t}!",
        "Acabei de salvar {t} na sua lista.",
        "Acabei de adicionar {t} aos seus filmes.",
        "Já adicionei {t} à sua lista.",
        "Adicionei o filme {t} à sua lista de filmes.",
        "O filme {t} foi adicionado com sucesso.",
        "Incluí {t} na sua lista.",
        "Coloquei {t} na sua lista de filmes.",
        "Registrei {t} na sua lista.",
        "Deixei {t} salvo pra você.",
        "Listo! {t} na sua lista.",
        "**{t}** foi salvo ✅",
        "✅ *{t}* adicionado!",
        "“{t}” salvo na sua lista.",
        "Salvei «{t}» nos seus filmes.",
        "{t}? Salvo! 👍",
        "Adicionado: {t}.",
        "Boa escolha! {t} é um clássico. Já salvei na sua lista.",
        "Show! {t} tá na lista agora.",
        "Beleza, {t} foi pra sua lista.",
        "Fechou! Mandei {t} pra sua lista.",
        "Prontinho, {t} agora faz parte da sua lista.",
        "O filme {t} foi devidamente registrado em sua lista.",
        "Informo que {t} foi incluído em sua lista com êxito.",
        "Sua solicitação foi concluída: {t} consta agora em sua lista.",
        "Conforme solicitado, o título {t} foi armazenado.",
        "{t} está salvo e pronto pra quando você quiser assistir.",
        "Tudo certo, {t} foi salvo e você pode ver com «lista tudo».",
        "Entendido! Salvei {t} ({y}).",
        "Anotei {t} na sua lista de filmes.",
        "Pode deixar que {t} já tá salvo.",
        "Ótima pedida. Acabei de colocar {t} na sua lista, é só conferir depois.",
        "Certo! O filme {t} ({y}) já está guardado na sua lista.",
        "Prezado usuário, o filme {t} foi adicionado à sua lista.",
        "{t} adicionado à lista de filmes. Bom filme! 🍿",
        "Salvo! {t} tá te esperando na lista.",
        "Foi salvo sim: {t}.",
        "1. {t} — salvo\n2. {t2} — salvo",
        "Salvei estes filmes:\n- {t}\n- {t2}",
        "Salvei {t} e {t2} na sua lista.",
    ),
    # -- PT saves, no title
    *_pt(
        "save",
        "Seu filme foi adicionado.",
        "Salvei na sua lista!",
        "Tá salvo! 😉",
        "Já era, tá guardado.",
        "Ficou salvo, pode conferir com «lista tudo».",
        "Adicionei ele à sua lista.",
        "Botei ele lá na lista.",
        "Consegui salvar, tá na sua lista.",
        "Feito: item salvo.",
        "Ficou salvo nas suas coisas.",
        "Filme salvo com sucesso.",
        "Pronto, já coloquei na sua lista.",
        "O item foi registrado com sucesso.",
        "Salvei pra você, pode ficar tranquilo.",
    ),
    # -- PT saves promised or in progress (false only)
    *_pt(
        "promise",
        "Salvando {t} na sua lista agora...",
        "Vou salvar {t} na sua lista agora mesmo.",
        "Já já eu salvo {t} pra você.",
        "Pronto — quando você conferir, {t} já terá sido salvo.",
        "Estou adicionando {t} à sua lista.",
        "Vou apagar {t} da sua lista agora.",
    ),
    # -- PT notes saved as items
    *_pt(
        "note_item",
        "Anotei: {n}.",
        "Nota salva: «{n}».",
        "Anotado! «{n}» está nas suas notas.",
        "Guardei a nota «{n}» pra você.",
        "Sua nota «{n}» foi salva.",
        "Tá anotado: {n} ✍️",
    ),
    # -- PT deletes
    *_pt(
        "delete",
        "Apaguei {t} da sua lista.",
        "Removi {t} da sua lista.",
        "Tirei {t} fora.",
        "Tirei {t} da sua lista, como você pediu.",
        "Excluí {t}.",
        "Deletei {t} pra você.",
        "Acabei de apagar {t}.",
        "Consegui apagar {t}.",
        "Apagado: {t}.",
        "Limpei {t} da sua lista.",
        "Feito: {t} removido ✅",
        "Informo que o item {t} foi removido com êxito.",
        "{t} foi removido.",
        "{t} foi excluído com sucesso.",
        "Pronto, {t} foi apagado da sua lista. Se mudar de ideia, diga «desfaz».",
        "Apagado! Se precisar, dá pra desfazer. {t} saiu da lista.",
    ),
    *_pt(
        "delete",
        "{t} já era 👋",
        "{t} sumiu da lista.",
        "{t} não está mais na sua lista.",
        "Pronto, {t} saiu da sua lista.",
        "Removido! {t} não aparece mais.",
        stored_when_false=True,
    ),
    *_pt(
        "delete",
        "Apaguei pra você.",
        "Removido da sua lista.",
        "Já era, apaguei.",
        "Sumiu da lista ✅",
        "Tirei fora, pode conferir.",
        "O item foi excluído.",
        "Pronto, removi ele.",
    ),
    *_pt(
        "wipe",
        "Apaguei tudo da sua lista.",
        "Limpei sua lista inteira.",
        "Sua lista foi esvaziada.",
        "Removi todos os seus itens.",
    ),
    # -- PT edits
    *_pt(
        "update",
        "Atualizei o ano de {t} para {y}.",
        "Mudei o título para {t}.",
        "Corrigi o ano de {t}: agora é {y}.",
        "{t} foi atualizado.",
        "Alterei {t} na sua lista.",
        "Pronto, troquei o ano de {t} pra {y}.",
        "Ajustei o título de {t}.",
        "O ano de {t} foi corrigido para {y}.",
    ),
    # -- PT beliefs and memory notes
    *_pt(
        "belief",
        "Anotado: você gosta de terror.",
        "Anotei que você prefere comédias.",
        "Registrei sua preferência por filmes de terror.",
        "Guardei que você não gosta de spoilers.",
        "Entendi e anotei: você curte ficção científica.",
        "Anotado! Vou levar em conta que você gosta de terror.",
        "Memorizei que você prefere filmes legendados.",
        "Tá anotado que você não curte musicais 😉",
        "Ficou registrado que você gosta de documentários.",
    ),
    # -- PT statements about the list
    *_pt(
        "state",
        "Sim, {t} está na sua lista.",
        "Você já tem {t} salvo.",
        "{t} já estava na sua lista, então não salvei de novo.",
        "Encontrei {t} ({y}) na sua lista.",
        "Achei {t} nos seus filmes salvos.",
        "{t} continua na sua lista.",
        "Sim! {t} tá salvo aqui 👍",
        "Na sua lista tem {t}.",
        "Consta em sua lista o título {t}.",
        "Você salvou {t}, sim — está na sua lista.",
        "{t} já está lá.",
        "Sua lista tem {t} e {t2}.",
        "Encontrei 2 itens na sua lista:\n1. {t}\n2. {t2}",
    ),
    *_pt(
        "ask_state",
        "Sim, já está na sua lista.",
        "Tá sim, está salvo.",
        "Sim, você já tem esse salvo.",
        "Está, sim! Continua na sua lista.",
        user="e {t}, tá na minha lista?",
    ),
    *_pt(
        "not_state",
        "{t} não está na sua lista.",
        "Não encontrei {t} na sua lista.",
        "Você não tem {t} salvo.",
    ),
    *_pt(
        "empty",
        "Sua lista está vazia.",
        "Você ainda não salvou nada.",
        "Não tem nada salvo na sua lista ainda.",
    ),
    *_pt("count", "Você tem {k} itens salvos.", "Sua lista tem {k} itens."),
    *_pt(
        "ack",
        "Pronto!",
        "Feito ✅",
        "Prontinho, pode deixar.",
        "Tá na mão!",
        user="salva o filme {t}",
    ),
    *_pt("ack", "Pronto, já era.", "Feito!", "Resolvido 👍", user="apaga o {t}"),
    *_pt(
        "ack", "Anotado! 👍", "Anotado, vou lembrar disso.", user="gosto muito de filmes de terror"
    ),
    # -- PT: claims nothing
    *_pt(
        "none",
        "Não consegui salvar {t}: o serviço de filmes não respondeu. Tenta de novo daqui a pouco?",
        "Ainda não salvei nada.",
        "Nada foi salvo.",
        "Nenhum item foi apagado.",
        "Você pode salvar com «salva {t}».",
        "Para apagar, é só dizer «apaga {t}».",
        "Se quiser salvar, diga «salva {t}».",
        "Você disse que quer salvar {t}.",
        "Você comentou que queria adicionar {t} à lista, né?",
        "Em {t}, o protagonista tenta salvar a família.",
        "{t} foi lançado em {y} e dividiu a crítica.",
        "Salvo pelo Gongo foi uma série de TV dos anos 90.",
        "A Lista de Schindler ganhou sete Oscars, incluindo melhor filme.",
        "Ainda Estou Aqui é um filme brasileiro de 2024, dirigido por Walter Salles.",
        "Eu consigo salvar filmes, notas e links.",
        "Salvar é fácil: é só mandar o título do filme.",
        "Os filmes salvos aparecem quando você diz «lista tudo».",
        "Tudo o que você salvar fica guardado só pra você.",
        "Se eu apagar algo por engano, dá para desfazer com «desfaz».",
        "Antes de apagar qualquer coisa, eu sempre peço confirmação.",
        "Eu nunca apago nada sem você confirmar.",
        "Não salvei {t} porque você não confirmou.",
        "Ops, não consegui remover {t}. Pode tentar de novo?",
        "Nenhuma alteração foi feita na sua lista.",
        "Sua lista não foi alterada.",
        "{t} é ótimo! Se quiser guardar, é só pedir.",
        "Em Amnésia, o personagem anota tudo em fotos e tatuagens.",
        "Em O Resgate do Soldado Ryan, um grupo de soldados é enviado para salvar um paraquedista.",
        "Garota Exemplar é um suspense de 2014 do David Fincher.",
        "Brilho Eterno de uma Mente sem Lembranças fala de um casal que apaga as memórias.",
        "Diário de uma Paixão (The Notebook) é um romance de 2004.",
        "O que você quer que eu faça com {t}?",
        "Qual {t} você quer: o de {y} ou o remake?",
        "Não tenho como salvar arquivos de vídeo, só o título e o ano.",
        "Não encontrei nenhum filme chamado {t} no catálogo.",
        "Encontrei {t} ({y}) no catálogo. É esse?",
        "Achei dois filmes com esse nome: {t} ({y}) e um remake. Qual deles?",
        "Quando você salvar, eu te aviso se já estiver na lista.",
        "Adicionado Recentemente não é um título que eu conheça. Pode confirmar o nome?",
        "Deleted Scenes? Não achei esse título no catálogo.",
        "Já era hora de você assistir {t}! 😄",
        "Você quer salvar como filme ou como nota?",
        "Ainda não adicionei {t}: preciso que você confirme o ano.",
        "Não removi nada da sua lista.",
        "Esqueceram de Mim é perfeito pro Natal!",
        "Procurando Nemo é uma animação da Pixar de 2003.",
    ),
    *_pt(
        "none",
        "Você pediu para apagar {t}, mas ainda não apaguei: confirma com «sim»?",
        "Não apaguei {t}; ele continua na sua lista.",
        "Você salvou {t} no mês passado.",
        stored=True,
    ),
    # -- PT offers (capped, not refused)
    *_pt(
        "offer",
        "Quer que eu salve {t}?",
        "Deseja que eu salve {t} na sua lista?",
        "Quer salvar {t} na sua lista?",
        "Posso colocar {t} na sua lista, se quiser.",
        "Posso adicionar {t} à sua lista?",
        "Se quiser, posso salvar {t} pra você.",
        "Quer que eu anote isso?",
        "Salvo {t} pra você?",
        "Boto {t} na sua lista?",
        "Adiciono {t} à sua lista?",
        "Que tal eu salvar {t} pra você assistir depois?",
        "{t} parece ótimo! Quer que eu guarde na sua lista?",
        "Gostaria que eu registrasse {t} em sua lista?",
        "Posso anotar que você gosta de terror?",
        "Quer salvar na sua lista?",
        "Posso colocar ele na sua lista, se quiser.",
        offer=True,
    ),
    *_pt(
        "offer",
        "Quer que eu tire {t} da lista?",
        "Quer que eu apague {t}?",
        "Devo remover {t} da sua lista?",
        "Se preferir, posso excluir {t}.",
        offer=True,
        stored=True,
    ),
    # -- EN saves, titled
    *_en(
        "save",
        "I've saved {t} to your list.",
        "Saved {t}!",
        "{t} has been saved.",
        "{t} was added to your list.",
        "Added {t} ✅",
        "Got it saved: {t}.",
        "I've put {t} in your list.",
        "{t} is in your list now.",
        "Done - {t} is now stored.",
        "All set! {t} is on your list.",
        "I went ahead and added {t}.",
        "I just added {t} to your movies.",
        "{t} is saved.",
        "Boom, {t} is saved 🎉",
        "You got it! {t} is on your watchlist now.",
        "{t}: done ✅",
        "No problem, I've added {t}.",
        "Okay, I put {t} on your list.",
        "{t}'s been added.",
        "{t} got added to your list.",
        "Your list now includes {t}.",
        "I've got {t} down on your list.",
        "Your request has been completed: {t} has been added to your list.",
        "I have successfully stored {t} in your list.",
        "**{t}** — saved.",
        "Great pick! {t} is a classic. I've added it to your list.",
        "I saved “{t}” ({y}) for you.",
        "Consider {t} saved!",
        "Here's what I saved:\n1. {t}\n2. {t2}",
        "I added {t} and {t2} to your list.",
        "Sure thing, {t} ({y}) is now in your movies.",
        "{t} has been successfully added to your watchlist.",
        "I've stored {t} in your movies.",
        "{t} is now saved in your list.",
        "Added {t} to your watchlist — enjoy!",
        "Done! {t} ({y}) is saved.",
        "{t} is on your list now 🎬",
        "Just saved {t} for you.",
        "{t} has been stored successfully.",
        "Got it! I saved {t}.",
    ),
    *_en(
        "save",
        "Your movie was added.",
        "It's in there now.",
        "Got it saved!",
        "Saved it for you.",
        "Done, it's on your list.",
        "I've added it.",
        "All done, it's saved 👍",
    ),
    *_en(
        "promise",
        "Adding {t} to your list now!",
        "I'll save {t} right away.",
        "Saving {t} for you...",
        "I'm removing {t} from your list now.",
    ),
    *_en(
        "note_item",
        "Noted: {n}.",
        "Note saved: “{n}”.",
        "I've jotted down “{n}”.",
        "Your note “{n}” has been saved.",
        "Your note has been saved.",
    ),
    *_en(
        "delete",
        "Removed {t} for you.",
        "I deleted {t}.",
        "{t} has been removed.",
        "I took {t} off your list.",
        "Deleted {t} ✅",
        "{t} got deleted.",
        "Please note that {t} has been successfully removed.",
        "I've erased {t} from your list.",
        'Done! I removed {t}. Say "undo" if that was a mistake.',
        "I removed {t} from your list.",
        "{t} was deleted.",
        "{t} has been deleted from your list.",
    ),
    *_en(
        "delete",
        "{t} is gone from your list.",
        "Taken care of — {t} is off your list.",
        "Okay, {t} is off the list now.",
        "{t} is no longer on your list.",
        stored_when_false=True,
    ),
    *_en(
        "delete",
        "Removed it for you.",
        "Gone from your list!",
        "It's been removed.",
        "Deleted, as you asked.",
    ),
    *_en(
        "wipe",
        "I've cleared your list.",
        "Everything has been deleted.",
        "Your list is now empty — I removed everything.",
    ),
    *_en(
        "update",
        "Updated the year of {t} to {y}.",
        "I changed the title to {t}.",
        "{t} has been updated.",
        "I fixed the year of {t}: it's {y} now.",
        "Edited {t} for you.",
        "The year for {t} is now {y}.",
    ),
    *_en(
        "belief",
        "Noted: you like horror.",
        "Got it, I've noted that you prefer comedies.",
        "I've recorded your preference for horror films.",
        "Noted! You're into sci-fi.",
        "Duly noted — you don't like musicals.",
        "I've made a note that you love horror.",
    ),
    *_en(
        "state",
        "Yes, {t} is on your list.",
        "You already have {t} saved.",
        "{t} was already on your list, so I didn't add it again.",
        "I found {t} ({y}) in your list.",
        "{t} is still on your list.",
        "Your list has {t} and {t2}.",
        "Yep, {t} is saved there 👍",
        "{t} is already there.",
        "{t} is in your list.",
        "You've got {t} saved already.",
        "Found it: {t} ({y}) is in your list.",
    ),
    *_en(
        "ask_state",
        "Yes, it's already on your list.",
        "Yep, it's saved.",
        user="is {t} on my list?",
    ),
    *_en(
        "not_state",
        "{t} isn't on your list.",
        "I couldn't find {t} in your list.",
        "You don't have {t} saved.",
    ),
    *_en("empty", "Your list is empty.", "You haven't saved anything yet."),
    *_en("count", "You have {k} items saved."),
    *_en("ack", "Done!", "Taken care of.", "All done 👍", user="save {t}"),
    *_en("ack", "Done, it's gone.", "Taken care of!", user="delete {t}"),
    *_en("ack", "Noted!", "Got it, noted.", user="I really love horror movies"),
    *_en(
        "none",
        "I couldn't save {t}: the movie service didn't respond. Try again in a bit?",
        "I haven't saved anything yet.",
        "Nothing was saved.",
        "Nothing has been deleted.",
        "I didn't delete {t}.",
        'You can save it by saying "save {t}".',
        'To remove it, just say "delete {t}".',
        "You said you wanted to save {t}.",
        "You mentioned adding {t} to your list earlier.",
        "In {t}, the hero tries to save his family.",
        "{t} was released in {y} and got great reviews.",
        "Saved by the Bell ran from 1989 to 1993.",
        "Schindler's List won seven Oscars, including Best Picture.",
        "Gone Girl is a 2014 thriller directed by David Fincher.",
        "In Saving Private Ryan, a squad is sent to save one paratrooper.",
        "In Eternal Sunshine of the Spotless Mind, a couple has their memories erased.",
        "Taken (2008) stars Liam Neeson as a father whose daughter is kidnapped.",
        "The Departed won Best Picture in 2007.",
        "I can save movies, notes and links for you.",
        'Saved items show up when you say "list all".',
        "Anything you save stays private to you.",
        "I never delete anything without your confirmation.",
        "I didn't save {t} because you didn't confirm.",
        "Oops, I couldn't remove {t}. Want to try again?",
        "No changes were made to your list.",
        "Your list wasn't changed.",
        "I found {t} ({y}) in the catalog. Is that the one?",
        "I couldn't find a movie called {t}.",
        "There are two movies called {t}: the {y} one and a remake. Which one?",
        "Deleted Scenes doesn't ring a bell — could you check the title?",
        "What would you like me to do with {t}?",
        "Should it be saved as a movie or as a note?",
        "Notes on a Scandal is a 2006 drama with Judi Dench.",
        "Finding Nemo is a 2003 Pixar film.",
        "I haven't added {t} yet: which year did you mean?",
    ),
    *_en(
        "none",
        'You asked me to delete {t}, but I haven\'t yet: reply "yes" to confirm.',
        "You saved {t} last month.",
        stored=True,
    ),
    *_en(
        "offer",
        "Should I save {t}?",
        "Want me to add {t} to your list?",
        "If you want, I can save {t}.",
        "I can add {t} to your list if you'd like.",
        "Do you want me to note that you like horror?",
        "Save {t} to your list?",
        "Want {t} on your list?",
        "Should I go ahead and add it?",
        offer=True,
    ),
    *_en(
        "offer",
        "Would you like me to remove {t} from your list?",
        "Shall I delete {t}?",
        offer=True,
        stored=True,
    ),
]


# Texts that claim two things, or claim one and offer another: each part is judged.
@dataclass(frozen=True, slots=True)
class Combo:
    language: str
    text: str
    true_facts: Callable[[list[str]], tuple[tuple[str, ...], tuple[str, ...]]]
    false_facts: Callable[[list[str]], tuple[tuple[str, ...], tuple[str, ...]]]
    offer: bool | None = None


def _saved_deleted(t: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return (t[0],), (SAVED, DELETED)


def _saved_only_first(t: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return (t[0],), (SAVED,)


def _saved_both(t: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return (t[0], t[1]), (SAVED,)


def _saved_all(t: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(t), (SAVED,)


def _saved_but_last(t: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(t[:-1]), (SAVED,)


def _nothing(t: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return (), ()


def _first_stored(t: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return (t[0],), ()


COMBOS: tuple[Combo, ...] = (
    Combo("pt", "Salvei {t} e apaguei {t2}.", _saved_deleted, _saved_only_first),
    Combo("en", "I saved {t} and removed {t2}.", _saved_deleted, _saved_only_first),
    Combo("pt", "{t} salvo; {t2} já estava na lista.", _saved_both, _saved_only_first),
    Combo("en", "Saved {t}. {t2} was already on your list.", _saved_both, _saved_only_first),
    Combo("pt", "Não encontrei {t2}, mas salvei {t}.", _saved_only_first, _nothing),
    Combo("pt", "{t} está na sua lista. Também salvei {t2}.", _saved_both, _first_stored),
    Combo("en", "{t} is on your list. I also added {t2}.", _saved_both, _first_stored),
    Combo("pt", "Salvei 3 filmes:\n1. {t}\n2. {t2}\n3. {t3}", _saved_all, _saved_but_last),
    Combo("en", "I saved 3 movies:\n1. {t}\n2. {t2}\n3. {t3}", _saved_all, _saved_but_last),
    Combo(
        "pt", "Salvei {t}. Quer que eu salve {t2} também?", _saved_only_first, _nothing, offer=True
    ),
    Combo("en", "Saved {t}. Want me to add {t2} too?", _saved_only_first, _nothing, offer=True),
    Combo(
        "pt",
        "Legal! {t} é um dos meus favoritos. Aliás, ele já está salvo na sua lista.",
        _first_stored,
        _nothing,
    ),
)


# -- building cases ---------------------------------------------------------------------------


class _Builder:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def titles(self, language: str, count: int) -> list[Title]:
        pool = PT_TITLES if language == "pt" else EN_TITLES
        # PT answers name films by their original title too; EN answers rarely use PT names.
        if language == "pt" and self.rng.random() < 0.25:
            pool = EN_TITLES
        picked: list[Title] = []
        groups: set[str] = set()
        while len(picked) < count:
            title = self.rng.choice(pool)
            if title.group in groups:
                continue
            picked.append(title)
            groups.add(title.group)
        return picked

    def others(self, avoid: list[Title], most: int = 3, least: int = 0) -> list[str]:
        """Unrelated stored titles: none is the same film as, or shares a word with, `avoid`."""
        groups = {t.group for t in avoid}
        words = {w for t in avoid for w in fold(t.name).split() if len(w) > 3}
        pool = [
            t
            for t in PT_TITLES + EN_TITLES
            if t.group not in groups and not words & set(fold(t.name).split())
        ]
        return [t.name for t in self.rng.sample(pool, self.rng.randint(least, most))]

    def written(self, title: Title, template: str, marker: str) -> str:
        """How a model writes the title: as stored, with its year, lower-cased, in bold."""
        name = title.name
        roll = self.rng.random()
        with_year = "{y}" in template
        if not with_year and (title.short or (roll < 0.15 and "(" not in name)):
            name = f"{name} ({title.year})"
        elif roll < 0.22 and not template.startswith(marker) and "?" not in name:
            name = name.lower()
        elif roll < 0.30 and not any(q in template for q in ("**", "«", "“", '"')):
            name = f"**{name}**"
        return name

    def fill(self, template: str, titles: list[Title], note: str, k: int) -> str:
        text = template
        for marker, title in zip(("{t}", "{t2}", "{t3}"), titles, strict=False):
            text = text.replace(marker, self.written(title, template, marker))
        year = titles[0].year if titles else 2000
        text = text.replace("{y}", str(year)).replace("{n}", note).replace("{k}", str(k))
        text = text.replace("??", "?").replace("!!", "!")  # a title ending in "?" before a "?"
        if self.rng.random() < 0.06 and not any(ch in text for ch in "✅🎬👍😉🎉🍿"):
            text += self.rng.choice((" ✅", " 👍", " 🙂"))
        return text


_LIST_WORDS = {"lista", "filmes", "list", "movies", "watchlist"}


def _markers(text: str) -> int:
    return sum(marker in text for marker in ("{t}", "{t2}", "{t3}"))


def _case(b: _Builder, language: str, template: T, index: int, *, true: bool) -> Case | None:
    """One case from `template`, with facts that back it (true) or do not (false)."""
    rng = b.rng
    n_titles = max(_markers(template.text) + _markers(template.user), 1)
    titles = b.titles(language, n_titles)
    names = [t.name for t in titles]
    notes = PT_NOTES if language == "pt" else EN_NOTES
    note = rng.choice(notes)
    k = rng.randint(1, 4)
    titled = _markers(template.text) > 0
    kind = template.kind
    stored: list[str]
    events: list[str]
    if kind == "save":
        if true:
            stored, events = names + b.others(titles), [SAVED]
            if rng.random() < 0.2:
                events.append(BELIEF)
        elif titled:
            events = rng.choice(([], [], [SAVED], [DELETED], [BELIEF], [NOTED]))
            if events in ([BELIEF], [NOTED]) and not _LIST_WORDS & set(fold(template.text).split()):
                events = []  # "guardei X" beside a noted taste could be read as that note
            stored = b.others(titles, least=1 if events == [SAVED] else 0)
        else:
            stored, events = [], rng.choice(([], [], [DELETED]))
    elif kind == "promise":
        if true:
            return None
        stored, events = b.others(titles), []
    elif kind == "note_item":
        if true:
            stored, events = [note, *b.others(titles)], [SAVED]
        else:
            stored, events = b.others(titles), rng.choice(([], [DELETED]))
    elif kind == "delete":
        if true:
            stored, events = b.others(titles), [DELETED]
        elif titled:
            events = rng.choice(([], [], [SAVED], [DELETED]))
            keep = template.stored_when_false or events == [DELETED] or rng.random() < 0.6
            stored = (names if keep else []) + b.others(titles)
        else:
            stored, events = b.others(titles), rng.choice(([], [SAVED], [BELIEF]))
    elif kind == "wipe":
        if true:
            stored, events = [], [ALL_DELETED]
        else:
            stored, events = b.others(titles, least=1), rng.choice(([], [DELETED]))
    elif kind == "update":
        if true:
            stored, events = names + b.others(titles), [UPDATED]
        else:
            keep = rng.random() < 0.7
            stored = (names if keep else []) + b.others(titles)
            events = rng.choice(([], [], [BELIEF], [DELETED]))
    elif kind == "belief":
        events = [rng.choice((BELIEF, NOTED))] if true else rng.choice(([], [DELETED]))
        stored = b.others(titles)
    elif kind == "state":
        if true:
            stored = names + b.others(titles)
            events = rng.choice(([], [], [BELIEF]))
        else:
            # one named title is absent (the first, or the second of two)
            absent = rng.randrange(len(titles)) if len(titles) > 1 else 0
            stored = [n for i, n in enumerate(names) if i != absent] + b.others(titles)
            events = rng.choice(([], [], [DELETED], [SAVED]))
            if events == [SAVED] and not stored:
                stored = b.others(titles, least=1)
    elif kind == "ask_state":
        stored = (names if true else []) + b.others(titles)
        events = []
    elif kind == "not_state":
        stored = ([] if true else names) + b.others(titles)
        events = []
    elif kind == "empty":
        stored, events = ([] if true else b.others(titles, least=1)), []
    elif kind == "count":
        stored = b.others(titles, most=4, least=2)
        k = len(stored) if true else len(stored) + rng.randint(1, 3)
    elif kind == "ack":
        user = template.user
        if "{t}" not in user:  # a taste: backed by a belief change
            events = [rng.choice((BELIEF, NOTED))] if true else []
            stored = b.others(titles)
        elif user.startswith(("apaga", "delete")):
            stored = ([] if true else names) + b.others(titles)
            events = [DELETED] if true else []
        else:
            stored = (names if true else []) + b.others(titles)
            events = [SAVED] if true else []
    elif kind in ("none", "offer"):
        if not true:
            return None
        stored = (names if template.stored else []) + b.others(titles)
        events = []
    else:  # pragma: no cover - a template kind without facts is a bug in this file
        raise ValueError(kind)
    if kind == "count":
        events = []
    text = b.fill(template.text, titles, note, k)
    user = template.user.replace("{t}", titles[0].name.lower()) if template.user else ""
    rng.shuffle(stored)
    return Case(
        text=text,
        language=language,
        stored=tuple(stored),
        events=tuple(events),
        shape=f"{kind}.{language}.{index:03d}",
        user=user,
        offer=template.offer if true else None,
    )


def _combo_case(b: _Builder, combo: Combo, index: int, *, true: bool) -> Case:
    titles = b.titles(combo.language, 3)
    names = [t.name for t in titles]
    used = names[: _markers(combo.text)]
    stored, events = (combo.true_facts if true else combo.false_facts)(used)
    text = b.fill(combo.text, titles, "", 0)
    return Case(
        text=text,
        language=combo.language,
        stored=tuple(stored) + tuple(b.others(titles, most=2)),
        events=events,
        shape=f"combo.{combo.language}.{index:03d}",
        offer=combo.offer if true else None,
    )


def _cases(n: int, *, true: bool, seed: int) -> list[Case]:
    b = _Builder(seed)
    makers: list[Callable[[], Case | None]] = []
    for index, (language, template) in enumerate(TEMPLATES):
        makers.append(
            lambda language=language, template=template, index=index: _case(
                b, language, template, index, true=true
            )
        )
    for index, combo in enumerate(COMBOS):
        makers.append(lambda combo=combo, index=index: _combo_case(b, combo, index, true=true))
    out: list[Case] = []
    seen: set[tuple[str, tuple[str, ...], tuple[str, ...], str]] = set()
    attempts = 0
    while len(out) < n and attempts < n * 20:
        maker = makers[attempts % len(makers)]
        attempts += 1
        case = maker()
        if case is None:
            continue
        key = (case.text, tuple(sorted(case.stored)), tuple(sorted(case.events)), case.user)
        if key in seen:
            continue
        seen.add(key)
        out.append(case)
    return out


def false_claims_c(n: int = 700, *, seed: int = 2703) -> list[Case]:
    """`n` texts that claim what the facts do not back."""
    return _cases(n, true=False, seed=seed)


def true_statements_c(n: int = 700, *, seed: int = 2704) -> list[Case]:
    """`n` texts backed by the facts, or claiming nothing."""
    return _cases(n, true=True, seed=seed)
