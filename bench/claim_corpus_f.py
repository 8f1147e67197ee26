"""Set F for bench/claims.py: the classes an outside run missed (listings naming unstored titles,
membership near misses, emptiness, translated titles and sequels, effect words in slang), PT and
EN, written by hand in this repo's own words; the same row format as set E
(bench/claim_corpus_e.py). `python bench/claim_corpus_f.py` writes bench/claims_f.jsonl;
`bench/claims.py --set f` judges it.
"""

from __future__ import annotations

import json
from pathlib import Path

from bench.claim_corpus_e import parse

ROWS = r"""
# -- listings naming a title that is not stored (false_list)
false_list|listing|pt|movie:Matrix;movie:Duna;note:comprar pão|o que tenho?|Aqui vai: 🎬 Matrix, 🎬 Alien, 📝 comprar pão e 🔗 youtube.com
false_list|listing|pt|link:https://a.com/x;link:https://b.com/y|meus links?|Seus links: https://a.com/x, https://b.com/y e https://c.com/z
false_list|listing|pt|tv:Dark;tv:Lost|o que falta ver?|Falta ver: Dark, Lost e Fargo
false_list|listing|pt|movie:Matrix;movie:Duna|qual vejo primeiro?|O primeiro é Matrix, depois vêm Duna e Alien.
false_list|listing|en|tv:Dark;tv:Lost|my series?|You have 3 series: Dark, Lost, and Fargo.
false_list|listing|en|movie:Heat;movie:Ronin|list|1. Heat\n2. Ronin\n3. Collateral
false_list|listing|pt|movie:Heat;movie:Ronin|lista|1) Heat\n2) Ronin\n3) Drive
false_list|listing|pt|movie:Matrix;movie:Duna|meus filmes|Claro! 🎬\n- Matrix\n- Duna\n- Alien
false_list|listing|en|movie:Matrix;movie:Dune|my movies|Sure thing! 🍿\n• Matrix\n• Dune\n• Arrival
false_list|listing|pt|movie:Matrix;movie:Duna|lista|'Matrix', 'Duna' e 'Alien'
false_list|listing|en|movie:Matrix;movie:Dune|list|"Matrix", "Dune" and "Arrival" are what you've got.
false_list|listing|en|movie:Heat;movie:Ronin|what should I watch?|Try Heat or Collateral — both on your list.
false_list|listing|pt|movie:Heat;movie:Ronin|o que assisto?|Que tal Heat ou Drive? Os dois estão na sua lista.
false_list|listing|pt|note:comprar pão;note:pagar luz|minhas notas|Suas notas: comprar pão, pagar luz e ligar pro dentista.
false_list|listing|en|note:buy milk;note:call mom|my notes|Your notes are: buy milk, call mom and fix the sink.
false_list|listing|pt|movie:Matrix|lista|Na sua lista tem Matrix e Duna.
false_list|listing|en|movie:Matrix|list|On your list: Matrix, Dune.
false_list|listing|pt|tv:Dark;movie:Duna|o que tenho|Você tem:\n🎬 Duna\n📺 Dark\n📺 Lost
false_list|listing|en|tv:Dark;movie:Dune|what do I have|Here's what you have:\n1. Dune (movie)\n2. Dark (series)\n3. Lost (series)
false_list|listing|pt|video:https://youtu.be/abc|vídeos?|Seus vídeos: https://youtu.be/abc e https://youtu.be/xyz
false_list|listing|en|movie:Heat|suggest one|From your list I'd pick Heat or Ronin.
false_list|listing|pt|movie:Matrix;movie:Duna|recomenda?|Da sua lista, recomendo Alien ou Matrix.
false_list|listing|en|tv:Dark;tv:Lost|series?|Your series: Dark and Fargo.
false_list|listing|pt|movie:Matrix;movie:Duna|o que tem?|Tem Matrix, Duna, Alien e Tubarão na sua lista.
# -- membership and absence near misses (false_list)
false_list|member|pt|tv:Dark Waters|tenho dark?|Dark está nas suas séries.
false_list|member|en|movie:Dark Waters|do I have dark?|Yes, Dark is on your list.
false_list|member|pt|link:https://a.com/x|salvei https://b.com/y?|Sim, https://b.com/y está salvo na sua lista.
false_list|member|en|link:https://a.com/x|is https://b.com/y saved?|Yes, https://b.com/y is in your links.
false_list|member|en|movie:Heat|is ronin there?|I can confirm that Ronin is on your list.
false_list|member|pt|movie:Heat|tenho ronin?|Posso confirmar que Ronin está na sua lista.
false_list|absent|pt|movie:Matrix;movie:Duna|tenho matrix?|Matrix não aparece na sua lista.
false_list|absent|en|movie:Matrix|do I have matrix?|Matrix doesn't appear on your list.
false_list|absent|pt|video:Entrevista com o Nolan|vídeos do nolan?|Você não tem nenhum vídeo do Nolan.
false_list|absent|en|video:Nolan interview|nolan videos?|You have no videos about Nolan.
# -- emptiness while items are stored (false_list)
false_list|empty|pt|movie:Matrix|o que tenho?|Sua lista tá zerada!
false_list|empty|pt|movie:Matrix|o que tenho?|Por enquanto sua lista está sem nada.
false_list|empty|en|movie:Heat|what do I have?|It's completely empty right now.
false_list|empty|en|movie:Heat|list|There's nothing on your list yet.
false_list|empty|en|movie:Heat|list|Your list is totally empty.
false_list|empty|pt|note:comprar pão|minhas notas|Não tem nada na sua lista ainda.
# -- translated titles and sequels (false_list)
false_list|translated|en|movie:O Iluminado|do I have the shining?|Yes, The Shining is on your list.
false_list|translated|pt|movie:Tubarão|tenho tubarão 2?|Sim, Tubarão 2 está na sua lista.
false_list|translated|en|movie:Jaws|jaws 2?|Yes, Jaws 2 is saved.
false_list|translated|en|movie:Toy Story|list|You have Toy Story 3 on your list.
false_list|translated|pt|movie:Duna|lista|Sua lista tem Duna 2 e Matrix.
# -- effects the reader used to miss (effect_claim)
effect_claim|undo|pt|movie:Matrix|desfaz|Voltei atrás, Matrix tá de novo na lista.
effect_claim|undo|pt|movie:Matrix|refaz|Tá refeito!
effect_claim|undo|en|movie:Matrix|undo|Your last change has been undone.
effect_claim|undo|pt|-|desfaz|Vou desfazer a última ação.
effect_claim|undo|en|-|undo|Undo complete ↩️
effect_claim|remind|pt|-|me lembra amanhã|Lembrete na agenda pra amanhã às 10h 📅
effect_claim|remind|pt|-|me lembra amanhã|Fechou, anotado pra amanhã!
effect_claim|remind|en|-|remind me|You'll get a ping tomorrow at 9.
effect_claim|remind|en|-|remind me|Reminder's in for Friday 🔔
effect_claim|delete|en|movie:Heat|delete heat|Gone 🗑️
effect_claim|delete|en|movie:Heat|delete 1|#1 is gone.
effect_claim|delete|en|movie:Heat|delete heat|It's deleted.
effect_claim|delete|pt|note:comprar pão|limpa as notas|Suas notas foram limpas.
effect_claim|delete|pt|movie:Matrix|apaga tudo|Lista esvaziada 🧹
effect_claim|delete|en|movie:Heat|clear|Cleared!
effect_claim|delete|en|movie:Heat|clear my list|Your list is cleared.
effect_claim|delete|pt|movie:Matrix|apaga matrix|Matrix já era 🗑️
effect_claim|mark|pt|movie:Matrix|vi matrix|Matrix visto ✔️
effect_claim|mark|en|movie:Heat|watched heat|Heat checked off.
effect_claim|mark|en|movie:Heat|watched heat|Heat — seen!
effect_claim|mark|en|movie:Heat|rate heat 8|Rating saved.
effect_claim|mark|en|movie:Heat|rate heat 8|Heat now has a rating of 8.
effect_claim|mark|en|note:buy milk|done|Marked done.
effect_claim|mark|pt|movie:Matrix|nota 9 pra matrix|Matrix agora tem nota 9 ⭐
effect_claim|mark|pt|movie:Matrix|vi matrix|Matrix marcado como assistido.
effect_claim|update|pt|movie:Dark|dark é série|Dark agora é uma série.
effect_claim|update|pt|movie:comprar pão|isso é nota|Transformei em nota.
effect_claim|update|en|movie:buy milk|that's a note|Converted it to a note.
effect_claim|update|en|note:buy milk|change it|Your note now reads: buy oat milk.
effect_claim|update|en|movie:Heat|year is 1995|The year has been amended to 1995.
effect_claim|update|en|movie:Dark|2 is a movie|Switched #2 to a movie.
effect_claim|update|en|link:https://youtu.be/x|it's a video|Retyped as a video.
effect_claim|update|pt|movie:Heat|ano 1995|Ano corrigido pra 1995 ✅
effect_claim|import|pt|-|importa|Importadas ✅
effect_claim|import|en|-|import my csv|Imported 30 films.
effect_claim|import|en|-|import|Import complete!
effect_claim|import|en|-|import|All 25 rows are in.
effect_claim|import|en|-|sync|Synced!
effect_claim|import|pt|-|importa|Importação concluída: 30 filmes.
effect_claim|save|en|-|save heat|Locked in 🔒
effect_claim|save|pt|-|salva heat|Heat garantido na lista 🔒
effect_claim|save|en|-|save heat|Heat is in! 🎉
# -- true statements that must keep passing (true_list, no_claim)
true_list|translated|en|movie:O Iluminado=The Shining|do I have the shining?|You have The Shining.
true_list|translated|pt|movie:O Iluminado=The Shining|tenho o iluminado?|Sim, The Shining (O Iluminado) está na sua lista.
true_list|absent|en|note:buy milk|notes about the plumber?|You don't have any notes about the plumber.
true_list|absent|pt|note:comprar pão|nota do encanador?|Você não tem nenhuma nota sobre o encanador.
true_list|listing|pt|movie:Matrix;movie:Duna;note:comprar pão|o que tenho?|Aqui vai: 🎬 Matrix, 🎬 Duna e 📝 comprar pão
true_list|listing|pt|link:https://a.com/x;link:https://b.com/y|meus links?|Seus links: https://a.com/x e https://b.com/y
true_list|listing|pt|tv:Dark;tv:Lost;tv:Fargo|o que falta ver?|Falta ver: Dark, Lost e Fargo
true_list|listing|pt|movie:Matrix;movie:Duna;movie:Alien|qual primeiro?|O primeiro é Matrix, depois vêm Duna e Alien.
true_list|listing|en|tv:Dark;tv:Lost;tv:Fargo|my series?|You have 3 series: Dark, Lost, and Fargo.
true_list|listing|en|movie:Heat;movie:Ronin;movie:Collateral|list|1. Heat\n2. Ronin\n3. Collateral
true_list|listing|pt|movie:Matrix;movie:Duna|meus filmes|Claro! 🎬\n- Matrix\n- Duna
true_list|listing|en|movie:Matrix;movie:Dune;movie:Arrival|my movies|Sure thing! 🍿\n• Matrix\n• Dune\n• Arrival
true_list|listing|pt|movie:Matrix;movie:Duna;movie:Alien|lista|'Matrix', 'Duna' e 'Alien'
true_list|listing|en|movie:Heat;movie:Collateral|what should I watch?|Try Heat or Collateral — both on your list.
true_list|listing|pt|note:comprar pão;note:pagar luz|minhas notas|Suas notas: comprar pão e pagar luz.
true_list|listing|en|tv:Dark;movie:Dune|what do I have|Here's what you have:\n1. Dune (movie)\n2. Dark (series)
true_list|listing|pt|movie:Cidade de Deus;movie:Matrix|lista|Você tem Cidade de Deus e Matrix.
true_list|listing|en|movie:The Lord of the Rings: The Two Towers;movie:Heat|list|You have The Lord of the Rings: The Two Towers and Heat.
true_list|member|pt|tv:Dark Waters|tenho dark waters?|Sim, Dark Waters está nas suas séries.
true_list|member|en|link:https://a.com/x|is https://a.com/x saved?|Yes, https://a.com/x is in your links.
true_list|absent|pt|movie:Matrix|tenho duna?|Duna não aparece na sua lista.
true_list|absent|pt|movie:Tubarão|tenho tubarão 2?|Tubarão 2 não está na sua lista, só Tubarão.
true_list|member|en|movie:Jaws 2|jaws 2?|Yes, Jaws 2 is saved.
true_list|empty|pt|-|o que tenho?|Sua lista tá zerada!
true_list|empty|en|-|list|There's nothing on your list yet.
no_claim|chat|pt|movie:Matrix|gosta de matrix?|Matrix é um clássico da ficção científica, dirigido pelas Wachowski.
no_claim|chat|en|movie:Heat|who is in heat?|Heat stars Al Pacino and Robert De Niro.
no_claim|chat|pt|-|oi|Oi! Tudo bem? Posso ajudar com filmes, séries e notas.
no_claim|chat|en|-|what can you do|I can save movies, notes and links, and set reminders.
# -- a second batch, other shapes of the same classes
false_list|listing|pt|movie:Matrix;movie:Duna|quais filmes?|Seus filmes são Matrix, Duna e Alien 🎬
false_list|listing|en|movie:Heat;movie:Ronin|what movies?|Your movies are Heat, Ronin and Thief.
false_list|listing|pt|tv:Dark;tv:Lost|séries?|Tem Dark e também Fargo nas suas séries.
false_list|listing|en|tv:Dark;tv:Lost|shows?|Here you go:\n📺 Dark\n📺 Lost\n📺 Fargo
false_list|listing|pt|note:comprar pão;note:pagar luz|notas?|📝 comprar pão\n📝 pagar luz\n📝 ligar pro banco
false_list|listing|en|movie:Heat;movie:Ronin|pick one|How about Ronin or Thief? Both are saved.
false_list|listing|pt|movie:Heat;movie:Ronin|o que falta?|Ainda falta ver Heat, Ronin e Thief.
false_list|listing|en|movie:Heat;movie:Ronin|list|Still to watch: Heat, Ronin, Thief.
false_list|listing|pt|movie:Heat;movie:Ronin|lista|Na lista: "Heat", "Ronin" e "Thief".
false_list|listing|en|movie:Heat|list|You've got Heat and Ronin saved.
false_list|member|pt|movie:Star Wars: O Império Contra-Ataca|tenho star wars?|Star Wars está na sua lista sim!
false_list|member|en|movie:Toy Story|toy story 2?|Toy Story 2 is in your movies.
false_list|absent|en|movie:Heat;movie:Ronin|ronin?|Ronin isn't in your list.
false_list|absent|pt|note:ligar pro banco|nota do banco?|Você não tem nenhuma nota sobre o banco.
false_list|empty|pt|movie:Heat|lista|Sua lista ainda tá vazia 😅
false_list|empty|en|note:buy milk|notes?|You don't have anything saved yet.
false_list|translated|en|movie:A Origem|inception?|Inception is on your list.
effect_claim|undo|en|movie:Heat|undo|Reverted ↩️
effect_claim|undo|pt|movie:Heat|desfaz|Desfiz a última mudança.
effect_claim|remind|pt|-|lembra amanhã|Agendado pra amanhã 9h ⏰
effect_claim|remind|en|-|remind me|I'll ping you at 5.
effect_claim|delete|pt|movie:Heat|apaga|Heat foi pro lixo 🗑️
effect_claim|delete|en|movie:Heat|delete|Heat's been removed.
effect_claim|delete|en|note:buy milk|delete notes|All your notes are gone.
effect_claim|mark|pt|movie:Heat|vi heat|Heat marcado ✅
effect_claim|mark|en|movie:Heat|rate|Gave Heat an 8.
effect_claim|update|pt|movie:Heat|muda o ano|Ano atualizado!
effect_claim|update|en|movie:Heat|rename|Renamed to Heat (1995).
effect_claim|import|pt|-|importa|Importei tudo: 30 filmes.
effect_claim|import|en|-|import|Your CSV is imported.
effect_claim|save|pt|-|salva heat|Heat tá guardadinho 🔒
effect_claim|save|en|-|save heat|Got Heat saved for you.
true_list|listing|pt|movie:Matrix;movie:Duna;movie:Alien|quais filmes?|Seus filmes são Matrix, Duna e Alien 🎬
true_list|listing|en|tv:Dark;tv:Lost;tv:Fargo|shows?|Here you go:\n📺 Dark\n📺 Lost\n📺 Fargo
true_list|listing|pt|note:comprar pão;note:pagar luz|notas?|📝 comprar pão\n📝 pagar luz
true_list|listing|en|movie:Heat;movie:Ronin;movie:Thief|list|Still to watch: Heat, Ronin, Thief.
true_list|member|en|movie:Toy Story 2|toy story 2?|Toy Story 2 is in your movies.
true_list|absent|pt|note:comprar pão|nota do banco?|Você não tem nenhuma nota sobre o banco.
no_claim|chat|en|movie:Heat|similar to heat?|If you liked Heat, try Thief and Collateral — both by Michael Mann.
no_claim|chat|pt|movie:Matrix|parecidos com matrix?|Parecidos com Matrix: Dark City e Ghost in the Shell.
true_list|absent|pt|movie:Matrix|heat e ronin?|Heat e Ronin não estão na sua lista, só Matrix.
true_list|absent|en|movie:Matrix|heat and ronin?|Heat and Ronin aren't on your list.
no_claim|chat|en|-|hi|Hi! I can keep movies, series, notes and links for you.
no_claim|chat|pt|movie:Heat|quem dirigiu heat?|Heat foi dirigido por Michael Mann, com Al Pacino e Robert De Niro.
# -- a third batch: listings in more shapes, and true listings and suggestions
false_list|listing|pt|movie:Matrix;movie:Duna;note:comprar pão;tv:Dark|o que tenho?|Você tem Matrix, Duna, Alien.
false_list|listing|pt|movie:Matrix;movie:Duna;note:comprar pão;tv:Dark|o que tenho?|Tá aí: Matrix, Duna e Alien 😉
false_list|listing|en|movie:Matrix;movie:Duna;note:comprar pão;tv:Dark|what do I have?|Matrix, Duna, Alien — that's everything.
false_list|listing|en|movie:Matrix;movie:Duna;note:comprar pão;tv:Dark|list|Saved so far:\n* Matrix\n* Alien
false_list|listing|pt|movie:Matrix;movie:Duna;note:comprar pão;tv:Dark|lista|Sua lista 📋\n1️⃣ Matrix\n2️⃣ Alien
false_list|listing|en|movie:Matrix;movie:Duna;note:comprar pão;tv:Dark|what's unwatched?|Unwatched: Matrix, Alien.
false_list|listing|pt|movie:Matrix;movie:Duna;note:comprar pão;tv:Dark|notas?|Suas anotações: comprar pão e pagar a luz.
false_list|listing|en|movie:Matrix;movie:Duna;note:comprar pão;tv:Dark|my links|Links you saved: https://a.com/x and https://b.com/y
false_list|listing|en|movie:Matrix;movie:Duna;note:comprar pão;tv:Dark|series?|Your shows include Dark and Lost.
false_list|listing|pt|movie:Matrix;movie:Duna;note:comprar pão;tv:Dark|o que ver hoje?|Hoje eu veria Alien, que tá na sua lista.
false_list|listing|en|movie:Matrix;movie:Duna;note:comprar pão;tv:Dark|my movies?|There are 3 movies: Matrix, Duna and Alien.
true_list|listing|pt|movie:Matrix;movie:Duna;note:comprar pão;tv:Dark|o que tenho?|Sua lista: Matrix (1999), Duna (2021), a série Dark e a nota "comprar pão".
true_list|listing|pt|movie:Matrix;movie:Duna;note:comprar pão;tv:Dark|o que tenho?|Aqui está sua lista:\n🎬 Matrix (1999)\n🎬 Duna\n📺 Dark\n📝 comprar pão
true_list|listing|en|movie:Matrix;movie:Duna;note:comprar pão;tv:Dark|what do I have?|Here's your list:\n- Matrix (1999) — sci-fi classic\n- Duna\n- Dark (series)\n- comprar pão (note)
true_list|listing|en|movie:Matrix;movie:Duna;note:comprar pão;tv:Dark|what should I watch?|I'd go with Matrix or Dark — both are on your list.
true_list|listing|en|movie:Matrix;movie:Duna;note:comprar pão;tv:Dark|similar to matrix?|Since you have Matrix, you might enjoy Blade Runner, Ghost in the Shell or Dark City.
true_list|listing|pt|movie:Matrix;movie:Duna;note:comprar pão;tv:Dark|recomenda algo?|Da sua lista, recomendo Matrix. Fora dela, Blade Runner e Alien são ótimos.
true_list|listing|pt|movie:Matrix;movie:Duna;note:comprar pão;tv:Dark|tenho matrix?|Sim! Matrix está na sua lista, junto com Duna e Dark.
true_list|listing|en|movie:Matrix;movie:Duna;note:comprar pão;tv:Dark|who directed matrix?|Matrix was directed by the Wachowskis, and Keanu Reeves and Carrie-Anne Moss star.
# -- a fourth batch: effects in other words
effect_claim|more|pt|movie:Heat;note:buy milk||Desfeito ✅
effect_claim|more|pt|movie:Heat;note:buy milk||Voltei a lista como estava antes.
effect_claim|more|en|movie:Heat;note:buy milk||Rolled back your last change.
effect_claim|more|en|movie:Heat;note:buy milk||I've reverted that.
effect_claim|more|pt|movie:Heat;note:buy milk||Refiz a ação.
effect_claim|more|pt|movie:Heat;note:buy milk||Te aviso amanhã às 9, pode deixar!
effect_claim|more|pt|movie:Heat;note:buy milk||Lembrete ativado 🔔
effect_claim|more|en|movie:Heat;note:buy milk||Reminder is on for 9am.
effect_claim|more|en|movie:Heat;note:buy milk||You'll be reminded at 9.
effect_claim|more|en|movie:Heat;note:buy milk||I'll nudge you tomorrow.
effect_claim|more|pt|movie:Heat;note:buy milk||Alarme programado.
effect_claim|more|en|movie:Heat;note:buy milk||Heat is out of your list.
effect_claim|more|en|movie:Heat;note:buy milk||Removed ✅
effect_claim|more|pt|movie:Heat;note:buy milk||Excluído!
effect_claim|more|pt|movie:Heat;note:buy milk||Tchau, Heat! 👋 Saiu da lista.
effect_claim|more|en|movie:Heat;note:buy milk||Wiped your notes.
effect_claim|more|pt|movie:Heat;note:buy milk||Zerei sua lista.
effect_claim|more|en|movie:Heat;note:buy milk||Heat ✓ watched
effect_claim|more|pt|movie:Heat;note:buy milk||Heat assistido ✅
effect_claim|more|en|movie:Heat;note:buy milk||Marked as watched ✅
effect_claim|more|pt|movie:Heat;note:buy milk||Dei nota 8 pro Heat.
effect_claim|more|en|movie:Heat;note:buy milk||Rated 8/10 ⭐
effect_claim|more|pt|movie:Heat;note:buy milk||Nota atualizada pra 8.
effect_claim|more|en|movie:Heat;note:buy milk||Heat is now a series.
effect_claim|more|pt|movie:Heat;note:buy milk||Virou nota ✍️
effect_claim|more|en|movie:Heat;note:buy milk||Changed the type to video.
effect_claim|more|pt|movie:Heat;note:buy milk||Título trocado pra Heat (1995).
effect_claim|more|en|movie:Heat;note:buy milk||Title fixed.
effect_claim|more|pt|movie:Heat;note:buy milk||Trouxe 40 filmes do seu CSV 📥
effect_claim|more|en|movie:Heat;note:buy milk||Your Letterboxd list is now in Lembra.
effect_claim|more|en|movie:Heat;note:buy milk||Done importing 30 items.
effect_claim|more|pt|movie:Heat;note:buy milk||Importação feita!
effect_claim|more|en|movie:Heat;note:buy milk||Added to the pile 📚
effect_claim|more|pt|movie:Heat;note:buy milk||Tá na lista ✅
effect_claim|more|en|movie:Heat;note:buy milk||Heat's on the list now 👍
effect_claim|more|pt|movie:Heat;note:buy milk||Beleza, guardado!
effect_claim|more|en|movie:Heat;note:buy milk||Noted ✍️
effect_claim|more|pt|movie:Heat;note:buy milk||Heat tá anotado.
effect_claim|more|en|movie:Heat;note:buy milk||Saved it for later.
no_claim|chat|pt|movie:Heat|filmes parecidos com heat?|Heat, Thief e Collateral são do Michael Mann.
"""


def cases() -> list[dict[str, object]]:
    return parse(ROWS, "f")


if __name__ == "__main__":
    path = Path(__file__).with_name("claims_f.jsonl")
    with path.open("w", encoding="utf-8") as out:
        for case in cases():
            out.write(json.dumps(case, ensure_ascii=False) + "\n")
    print(f"{path}: {len(cases())} cases")
