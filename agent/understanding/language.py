"""Which language a message is written in (PT or EN), cheaply, in code (DESIGN 9.2).

Words that only one of the two languages uses vote for it; Portuguese letters (ã, ç,
é...) vote for Portuguese. A message with no clear majority (a number, "ok", an emoji,
"haha") has no language: the caller falls back to the stored one.
"""

from __future__ import annotations

import re
from typing import Final

from agent.types import Language
from agent.understanding.textnorm import fold

_WORD: Final = re.compile(r"[^\W\d_]+(?:'[a-z]+)?", re.UNICODE)
_REPEATS: Final = re.compile(r"([a-jl-z])\1{2,}")  # "obrigadooo"; "kkkk" stays laughter
_PT_LETTERS: Final = re.compile(r"[ãõçáéíóúâêôà]", re.IGNORECASE)
_PT_LAUGH: Final = re.compile(r"^(?:k{3,}|(?:rs){1,}|kk+a?)$")
_EN_LAUGH: Final = re.compile(r"^(?:lol+|lmf?ao+|rofl|omg|wtf|idk|tbh|btw|thx|ty|pls|plz)$")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Folded (lowercase, no accents). Words both languages share ("a", "no", "show", "link",
# "ok", "filme"/"film" aside) are left out on purpose: they would vote for nothing.
PT_WORDS: Final = _words(
    """o os as um uma uns umas de do da dos das em na nos nas num numa pra pro pras pros para
    por pelo pela com sem que se e eh ou mas mais muito muita muitos muitas pouco tambem
    ja ainda agora hoje ontem amanha aqui ali la isso isto esse essa este esta aquilo
    eu voce vc voces vcs ele ela eles elas nos gente meu minha meus minhas seu sua teu tua
    te me lhe mim ti comigo contigo
    sim nao talvez claro obrigado obrigada obg brigado brigada valeu vlw beleza blz
    oi ola opa tchau ate logo bom boa bons boas dia tarde noite tudo bem td tranquilo
    legal otimo otima lindo linda gostei adorei amei amo curti show demais massa top
    acho acha achei sei sabe quero queria gosto gosta fala falou entendi entendeu
    qual quais quando onde quem como porque pq porque por que sera
    salva salvar salve guarda guardar guarde anota anotar anote apaga apagar apague
    procura procurar busca buscar lista listar mostra mostrar tenho tem temos estou esta
    estamos sou somos foi era sao seria vai vou vamos pode posso fazer faz fiz feito
    coisa coisas nada nenhum nenhuma alguma algum ninguem sempre nunca cara mano
    filme filmes serie series nota notas obrigadao valeuu kkk rs rsrs haha
    bonito feliz triste cansado cansada saudade saudades amor querido querida
    engracado engracada incrivel perfeito perfeita verdade mesmo entao enfim
    belezinha certo certa exato exata maravilha poxa vida oie uhum aham boaa jura mentira
    loucura partiu bora esquece nada funciona sumido sumida dormir durma natal feliz
    aniversario novo ano semana fim nem ue uai hein pena bizarro serio cansativo ideia
    parabens ta to tou
    combinado fechou nossa caramba eita vixe putz fui excelente sensacional genial desculpa
    desculpe aff afe ai ui opa oie eae vc vcs tb tbm pra mto mt cade tchau falou flw fala
    parabens amanha gente mano cara sumido saudade bjs beijo beijos abraco abracos"""
) - {"haha", "show", "a", "no"}
EN_WORDS: Final = _words(
    """the an of in on at to for from with without by about and or but not no yes yeah yep
    nope is are was were be been being am do does did done have has had will would can could
    should shall may might must i you he she it we they me him her us them my your his its
    our their mine yours this that these those there here what which who whom whose when where
    why how all any some every each much many more most very really just also too only
    thanks thank thx please hi hello hey bye goodbye morning evening night good great nice
    cool awesome amazing love like lovely fine okay sure well right wrong cute funny
    save find search list show delete remove keep note notes movie movies film films
    link links video videos everything nothing something anything think know want need
    feel feeling happy sad tired bored today tomorrow yesterday now then again still
    lol haha funny joke kidding guess maybe bot robot human real smart dumb stupid
    cheers perfect gotcha understood makes sense fair enough true exactly indeed hehe wow
    oh oops ugh damn yo sup whats ya see care sorry seriously crazy whatever anyway never
    mind lets merry christmas sweet dreams long rough day bad same job done sounds
    birthday weekend happy year new anyone someone im ive dont cant isnt thats youre
    way let alright feel feeling going hows something many one
    gonna wanna gotta yall ya u ur thx tbh btw idk omg nah nope yup yep bye night
    kinda sorta awesome whatever welcome hug hugs xoxo"""
) - {"haha", "show", "no", "film", "films", "movie", "note", "notes", "link", "links"}
# only Portuguese or only English, however short the message
PT_ALONE: Final = _words(
    "obrigado obrigada obg brigado brigada valeu vlw beleza blz oi ola tchau sim nao kkk rs "
    "legal otimo otima gostei adorei amei curti saudade valeuu obrigadao tranquilo"
)
EN_ALONE: Final = _words(
    "thanks thank thx ty hi hello hey bye yes yeah yep nope cool awesome great nice lovely "
    "cute funny lol lmao amazing sure alright"
)


def detect_language(text: str) -> Language | None:
    """ "pt" or "en" when the message clearly is one of them, else None."""
    words = [_REPEATS.sub(r"\1", w) for w in _WORD.findall(fold(text))]
    if not words:
        return None
    pt = sum(1 for w in words if w in PT_WORDS or _PT_LAUGH.match(w))
    en = sum(1 for w in words if w in EN_WORDS or _EN_LAUGH.match(w))
    if _PT_LETTERS.search(text):
        pt += 2
    if len(words) == 1 and not _PT_LETTERS.search(text):
        word = words[0]
        if word in PT_ALONE or _PT_LAUGH.match(word):
            return "pt"
        if word in EN_ALONE or _EN_LAUGH.match(word):
            return "en"
    if pt == en:
        return None
    return "pt" if pt > en else "en"


def reply_language(message: str, *, stored: Language, chosen: bool) -> Language:
    """The /lang choice if made, else the message's language, else the stored one."""
    if chosen or message.lstrip().startswith("/"):
        return stored  # command names are English whatever the user speaks
    return detect_language(message) or stored
