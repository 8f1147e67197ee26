"""Small talk and clear questions about saved things, read in code (DESIGN 9.2).

`refine(intent)` runs after the classifier's own steps and only ever changes an `llm` or a
`greeting` result, so confirmations, cancels and choices are never taken from a pending
action. It turns:

- small talk (thanks, acknowledgements, laughter, greetings with "tudo bem?", compliments,
  feelings, short questions to the bot, emoji-only) into `smalltalk` {kind};
- a clear question about saved things ("qual filme eu salvei?", "what links do I have?")
  into `list_all` {type?};
- a question about a link ("o que é https://...?") into `llm` / other: it is never a save.

Small talk is recognised by its words, not by a list of sentences: a message whose every
word is small-talk vocabulary (thanks, laughter, praise, feelings, pronouns, intensifiers)
is small talk; a message naming anything to save, find or delete never is.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from itertools import pairwise
from types import MappingProxyType
from typing import Final, Literal

from agent.understanding.textnorm import expand_chat, fold

SmallTalkKind = Literal[
    "thanks", "greeting", "compliment", "laughter", "ack", "feeling", "question", "emoji"
]
ItemType = Literal["note", "movie", "tv_show", "video", "link"]
MAX_WORDS: Final = 12


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


THANKS: Final = _words(
    """obrigado obrigada obrigadao obg obgd brigado brigada brigadao valeu vlw valew agradeco
    agradecido agradecida gratidao grato grata thanks thank thx ty tks tku cheers
    appreciate appreciated"""
)
GREET: Final = _words(
    """oi oie ola opa eai eae ae bom boa dia tarde noite tudo bem td tranquilo tranquila
    beleza blz como vai vc voce esta ta tudo certo suave firmeza hey hi hello hiya howdy
    yo sup whats up how are you doing good morning afternoon evening night tchau adeus bye
    goodbye see later cya falou fui flw ate logo mais amanha tomorrow take care night"""
)
PRAISE: Final = _words(
    """legal otimo otima bom boa bem show massa top demais incrivel perfeito perfeita lindo
    linda fofo fofa maravilhoso maravilhosa genial sensacional excelente bacana da hora
    dahora brabo braba foda fera esperto esperta inteligente util rapido rapida eficiente
    amo amei adoro adorei gostei curti love loved like liked nice cool great awesome
    amazing good best perfect excellent wonderful fantastic brilliant smart clever helpful
    useful cute sweet lovely fun funny engracado engracada hilario top melhor querido
    querida fofinho fofinha gatinho gatinha beautiful gorgeous sensational superb neat sick
    dope fire lit help tip tips wow uau nossa caramba eita vixe putz poxa omg gosh damn
    parabens maravilha boaa job done well sounds bad congrats congratulations bravo ideia idea"""
)
FEELING: Final = _words(
    """feliz triste cansado cansada cansadissimo entediado entediada animado animada
    ansioso ansiosa nervoso nervosa estressado estressada chateado chateada bravo brava
    sozinho sozinha doente mal bem otimo pessimo pessima exausto exausta com fome sono
    saudade saudades medo preguica happy sad tired bored excited anxious nervous stressed
    upset angry lonely sick ill fine hungry sleepy scared lazy exhausted depressed sorry
    desculpa desculpe foi mal perdao sorry oops ops afe aff ugh
    long rough day dia cansativo cansativa dificil hard tough pena pity shame"""
)
ACK: Final = _words(
    """ok okay okey blz beleza entendi entendido certo ta bom tudo sei compreendo justo
    combinado fechou fechado show joia suave de boa tranquilo verdade pois e eh mesmo
    exato isso ah ahh hmm hm humm uhum aham sim nao talvez acho que sera pode ser
    got it gotcha understood alright right fair enough makes sense true indeed yep yeah
    yes no nope maybe perhaps guess think so sure fine kk kkk noted cool whatever
    interessante interesting faz sentido sentido entao and so anyway well oh ah
    belezinha nada nem serio jura mentira loucura crazy seriously exactly real for believe acredito way same here too bizarro weird strange ue uai hein then lets go bora partiu vamos nessa simbora what whatever alguem anyone someone funcionando funciona working
    many one feel feeling going hows something not dont think cant believe let lets
    show tell conta"""
)
WISHES: Final = _words(
    """feliz natal ano novo aniversario pascoa fim semana bom boa otimo otima durma dorme
    bem sonhos dormir vou merry christmas happy birthday new year weekend easter sweet
    dreams sleep tight have nice good great day see ya care sumido sumida vida"""
)
# words that carry no content of their own: pronouns, articles, intensifiers, the bot
FILLER: Final = _words(
    """eu voce vc tu te me mim comigo contigo a o os as um uma e que de do da muito mt mto
    muitissimo mega super tao tanto tanta bem mais demais ai la aqui hoje agora mesmo
    sempre tambem tb tbm ne cara mano moco moca amigo amiga lembra bot robo robozinho
    assistente seu sua teu tua por pela pelo isso esse essa isto so ja estou to tou ando
    sou e eh ta esta voces gente pra para com sem nos ajuda ajudar dica dicas bola
    i you u me my your youre ur im am is are was it its this that so very really too much
    such the a an just soooo totally pretty quite lot lots all and for being you re m s
    bot robot assistant buddy man dude bro friend today now here there again always"""
)
LAUGH: Final = re.compile(
    r"^(?:k{2,}[kj]*|(?:ha|he|hi|ho|hu|ah|eh|ja|je)(?:h?[aeiou])*h?|(?:rs)+|lol+|lmf?ao+|"
    r"rofl|kek|hehe|hihi|huahua\w*|asdf\w*)$"
)
_LAUGH_MIN: Final = re.compile(r"^(?:k{2,}|(?:ha|he|hi|ah){2,}|(?:rs)+|lol+|lmf?ao+|rofl|kek)")
# words that name something to save, find, list or delete: never small talk
ACTION: Final = _words(
    """salva salvar salve salvei guarda guardar guarde guardei anota anotar anote anotei
    registra adiciona add save saved store keep remember note notes nota notas apaga apagar
    apague deleta delete remove remova exclui esquece forget procura procurar busca buscar
    encontra encontrar pesquisa find search look lista listar list mostra
    filme filmes movie movies film films serie series seriado shows video videos link
    links site url lembrete lembrar lembre remind reminder reminders lembretes tenho
    desfaz undo comandos commands bota bote poe coloca coloque joga jogue put stash"""
)
QUESTION_WORDS: Final = _words(
    """qual quais quanto quantos quantas quando onde quem como porque pq sera que what which
    how why who when where whats hows whos are do does did can could would will is"""
)
OPEN_QUESTION: Final = _words("what which how why who when where whats hows whos")
ADDRESS: Final = _words("voce vc tu te teu tua seu sua you your u ur youre yourself lembra")
HOLDING: Final = _words("have has got tem tens temos guardou salvou saved kept")
JOKE: Final = _words("piada piadas joke jokes charada riddle")
_URL: Final = re.compile(r"https?://\S|\bwww\.\S", re.IGNORECASE)
_URL_TOKEN: Final = re.compile(r"\S*(?:https?://|www\.)\S*", re.IGNORECASE)
_LETTERS: Final = re.compile(r"[^\W_]", re.UNICODE)
_REPEATS: Final = re.compile(r"([a-z])\1{2,}")


def words_of(text: str) -> list[str]:
    """Folded words with 3+ repeated letters squeezed ("obrigadooo" -> "obrigado")."""
    return [w if LAUGH.match(w) else _REPEATS.sub(r"\1", w) for w in fold(text).split()]


def smalltalk_kind(text: str) -> SmallTalkKind | None:
    """The kind of small talk `text` is, or None when it may ask for something."""
    stripped = text.strip()
    if not stripped:
        return None
    if not _LETTERS.search(stripped):
        # emoji only: nothing to act on (bare punctuation or invisible marks are no message)
        symbols = any(unicodedata.category(c) in ("So", "Sk") for c in stripped)
        return "emoji" if symbols else None
    if _URL.search(stripped) or any(c.isdigit() for c in stripped) or "/" == stripped[0]:
        return None
    words = words_of(stripped)
    if not words or len(words) > MAX_WORDS or not ACTION.isdisjoint(words) or _shows(words):
        return None
    laughing = [w for w in words if LAUGH.match(w)]
    rest = [w for w in words if not LAUGH.match(w)]
    if laughing and not rest and any(_LAUGH_MIN.match(w) for w in laughing):
        return "laughter"
    vocabulary = THANKS | GREET | PRAISE | FEELING | ACK | WISHES | FILLER
    question = "?" in stripped or words[0] in OPEN_QUESTION
    if all(w in vocabulary for w in rest):
        if not rest:
            return "laughter"
        kind = _kind_of(rest)
        if (
            question
            and ADDRESS.isdisjoint(words)
            and (kind == "ack" or (words[0] in QUESTION_WORDS and kind != "greeting"))
        ):
            # "e agora?", "que dia é hoje?" ask about the context or the world: the planner's
            return None
        return "question" if question and kind in ("ack", "feeling", "compliment") else kind
    if (
        not ADDRESS.isdisjoint(words)
        and HOLDING.isdisjoint(words)  # "do you have inception?" is a search
        and (question or not PRAISE.isdisjoint(words))
    ):
        # "você é um robô?", "are you real?", "você é demais", "i love you"
        return "question" if question else "compliment"
    if not JOKE.isdisjoint(words) and len(words) <= 6:
        return "question"
    return None


def _shows(words: list[str]) -> bool:
    """Whether "show" asks to be shown something ("show me", "show all") or is a TV show ("it's
    a show"), where a Brazilian "show, vlw" / "show de bola" is praise."""
    return any(
        (w == "show" and nxt in _SHOWN) or (nxt == "show" and w in _ARTICLE)
        for w, nxt in pairwise([*words, ""])
    )


_SHOWN: Final = _words("me us my all everything the what")
_ARTICLE: Final = _words("a an the um uma this that")


GREET_HEADS: Final = _words(
    """oi oie ola opa eai eae hey hi hello hiya howdy yo sup tchau adeus bye goodbye cya
    falou flw"""
)
GREET_PAIRS: Final = tuple(
    frozenset(p.split())
    for p in (
        "tudo bem, td bem, tudo bom, tudo certo, como vai, como esta, como voce, bom dia, "
        "boa tarde, boa noite, how are, how you, good morning, good afternoon, good evening, "
        "good night, whats up, hows going, see you, ate logo, ate mais, ate amanha, take care"
    ).split(", ")
)
GREETING_TAILS: Final = _words(
    "tudo bem td como vai how are you doing beleza blz tranquilo certo suave up sup whats"
)


def _kind_of(words: list[str]) -> SmallTalkKind:
    present = set(words)
    if not THANKS.isdisjoint(present):
        return "thanks"
    if not GREET_HEADS.isdisjoint(present) or any(pair <= present for pair in GREET_PAIRS):
        return "greeting"
    if not PRAISE.isdisjoint(present - ACK):
        return "compliment"
    if not FEELING.isdisjoint(present - ACK):
        return "feeling"
    return "ack"


# --- questions about saved things ---

TYPE_NOUNS: Final[Mapping[str, ItemType]] = MappingProxyType(
    {
        **dict.fromkeys(("filme", "filmes", "movie", "movies", "film", "films"), "movie"),
        **dict.fromkeys(
            ("serie", "series", "seriado", "seriados", "show", "shows", "tv"), "tv_show"
        ),
        **dict.fromkeys(("nota", "notas", "anotacao", "anotacoes", "note", "notes"), "note"),
        **dict.fromkeys(("video", "videos"), "video"),
        **dict.fromkeys(("link", "links", "bookmark", "bookmarks", "site", "sites"), "link"),
    }
)
HOLD_VERBS: Final = _words(
    """salvei salvou salvo salvos salva salvas salvamos guardei guardou guardado guardados
    guardada guardadas anotei anotado anotadas anotados tenho tem temos tens saved have got
    kept stored store added adicionei"""
)
SAVED_FILLERS: Final = _words(
    """qual quais que quanto quantos quantas o a os as eu voce vc ja meu minha meus minhas
    aqui ai la ate agora foi foram sao e eh do da de dos das no na nos nas em todos todas
    tudo lista mesmo entao hein what which how many do did i you my the so far already have
    has there here all of any is are were was list me show por favor please que ultimo
    ultimos ultima ultimas last recent recentes mostra quero ver see algum alguma alguns
    algumas nenhum nenhuma on in s whats tambem also too coisas coisa itens items things stuff"""
)
# "tem alguma série na minha lista?" holds through the list, without a verb of saving
LIST_NOUNS: Final = _words("lista list")


# Verbs a user asks whether Lembra does ("vc salva filmes?", "can you keep links?"); the
# forms of having saved ("salvou", "saved", "tem") ask about the user's things instead
CAPABLE_VERBS: Final = _words(
    """salva salvar guarda guardar anota anotar adiciona adicionar registra registrar lembra
    lembrar consegue sabe save keep store add remember note track handle support"""
)
# "vc salva filmes?" asks what Lembra does when its words are these, a verb and a kind
_CAPABILITY_WORDS: Final = _words(
    """voce vc tu you u can could do does will would pode podes poderia consegue sabe e eh
    tambem tb also too ai aqui here me pra para mim for"""
)
# the singular "last" of a question asking for one item ("qual foi o último filme que eu
# salvei?"): the newest one, not a list
LAST_ONE: Final = _words("ultimo ultima last latest")
_ONE_THING: Final = _words("coisa item thing one")


def asks_capability(text: str) -> bool:
    """Whether `text` asks if Lembra can keep a kind of thing ("vc salva filmes?", "can you
    save links?", "do you store notes?"): no request to list or save anything."""
    words = expand_chat(" ".join(words_of(text))).split()
    if "?" not in text or not words or len(words) > MAX_WORDS or ADDRESS.isdisjoint(words):
        return False
    kinds = [w for w in words if w in TYPE_NOUNS or w in ("coisas", "things", "lembretes")]
    verbs = [w for w in words if w in CAPABLE_VERBS]
    others = [w for w in words if w not in CAPABLE_VERBS and w not in TYPE_NOUNS]
    plural = all(w.endswith("s") or w == "tv" for w in kinds)
    return bool(kinds and verbs and plural) and all(
        w in _CAPABILITY_WORDS or w in ("coisas", "things", "lembretes") for w in others
    )


def last_saved_question(text: str) -> ItemType | Literal["all"] | None:
    """The type of the one item a question asks for as the last saved ("qual foi o último
    filme que eu salvei?", "what was the last thing I saved?"; "all" for any type)."""
    words = expand_chat(" ".join(words_of(text))).split()
    if "?" not in text or not words or len(words) > MAX_WORDS or LAST_ONE.isdisjoint(words):
        return None
    saving = HOLD_VERBS | CAPABLE_VERBS  # "what did I save last?"
    if saving.isdisjoint(words):
        return None
    types = {TYPE_NOUNS[w] for w in words if w in TYPE_NOUNS}
    plural = [w for w in words if w in TYPE_NOUNS and w.endswith("s") and w != "series"]
    others = [w for w in words if w not in TYPE_NOUNS and w not in saving]
    known = SAVED_FILLERS | _ONE_THING | LAST_ONE
    if len(types) > 1 or plural or not all(w in known for w in others):
        return None
    return types.pop() if types else "all"


def saved_question_types(text: str) -> tuple[ItemType, ...] | None:
    """The item types a clear question about saved things asks for, in the order said (none
    for every type; "q filmes e séries eu tenho?" asks for two)."""
    words = expand_chat(" ".join(words_of(text))).split()  # "qtas series vc tem?"
    question = "?" in text or (bool(words) and words[0] in QUESTION_WORDS)
    if not question or not words or len(words) > MAX_WORDS or _URL.search(text):
        return None
    if asks_capability(text) or last_saved_question(text) is not None:
        return None  # "vc salva filmes?" asks what Lembra does; "o último" asks for one
    if HOLD_VERBS.isdisjoint(words) and LIST_NOUNS.isdisjoint(words):
        return None
    types = tuple(dict.fromkeys(TYPE_NOUNS[w] for w in words if w in TYPE_NOUNS))
    joined = len(types) > 1 and not _AND.isdisjoint(words)
    if len(types) > 1 and not joined:
        return None
    others = [w for w in words if w not in TYPE_NOUNS and w not in HOLD_VERBS]
    if not all(w in SAVED_FILLERS or (joined and w in _AND) for w in others):
        return None  # "qual filme do Nolan eu salvei?" names a title: a search
    if not types and not {"que", "what", "quais", "qual"} & set(others):
        return None  # "o que eu tenho salvo?": only with a word asking what, never "tenho?"
    return types


_AND: Final = _words("e and")


def asks_about_link(text: str) -> bool:
    """Whether a message with a link is a question about it, not a request to save it."""
    if not _URL.search(text):
        return False
    outside = _URL_TOKEN.sub(" ", text)
    words = words_of(outside)
    if not ACTION.isdisjoint(words) and not {"tem", "have"} & set(words):
        return False  # "salva https://...?" still asks to save
    question = "?" in outside or text.rstrip().endswith("?")
    return question or bool(words and words[0] in OPEN_QUESTION | {"qual", "quais", "que"})
