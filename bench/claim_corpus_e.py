"""Set E for bench/claims.py: replies as small models and chat assistants write them, in turns
where nothing changed (DESIGN 11.2), PT and EN, written by hand after the rule, case by case.

Each row: label | kind | language | stored | user | reply. `stored` is "type:title" joined by
";" ("tv:Dark@seen": a state; "movie:A Origem=Inception": an original title; "-": nothing).
`python bench/claim_corpus_e.py` writes bench/claims_e.jsonl in set D's format; `bench/claims.py
--set e` judges it.
"""

from __future__ import annotations

import json
from pathlib import Path

ROWS = r"""
# -- effects said done, any kind, whatever they name (effect_claim)
effect_claim|save|pt|-|salva matrix|Salvei Matrix na sua lista! 🎬
effect_claim|save|pt|-|salva duna|Pronto, Duna foi adicionado à sua lista.
effect_claim|save|pt|movie:Duna|salva duna|Pronto! Duna está na sua lista.
effect_claim|save|pt|-|guarda esse filme: coringa|Filme "Coringa" salvo com sucesso ✅
effect_claim|save|pt|-|salva o filme cidade de deus|Cidade de Deus (2002) adicionado aos seus filmes!
effect_claim|save|pt|-|salva interestelar|Interestelar agora faz parte da sua lista 🚀
effect_claim|save|pt|-|bota oppenheimer aí|Coloquei Oppenheimer na sua listinha 😉
effect_claim|save|pt|-|salva bacurau|Bacurau tá salvo, pode ficar tranquilo!
effect_claim|save|pt|-|salva o filme parasita|Prontinho! O filme Parasita foi guardado.
effect_claim|save|pt|-|salva tropa de elite|Adicionei **Tropa de Elite** à sua lista de filmes.
effect_claim|save|pt|-|salva esse link https://g1.globo.com|Link salvo! 🔗
effect_claim|save|pt|-|anota: comprar leite|Anotado: comprar leite ✍️
effect_claim|save|pt|-|anota que tenho dentista sexta|Anotei aqui: dentista na sexta.
effect_claim|save|pt|-|salva a série dark|A série Dark foi salva com sucesso na sua lista!
effect_claim|save|pt|-|salva matrix e duna|Salvei os dois: Matrix e Duna.
effect_claim|save|pt|-|salva esses: matrix, duna, alien|Adicionei 3 filmes à sua lista:\n1. Matrix\n2. Duna\n3. Alien
effect_claim|save|pt|-|salva o auto da compadecida|O Auto da Compadecida já está salvo na sua lista agora!
effect_claim|save|pt|-|salva central do brasil|Central do Brasil entrou pra sua lista.
effect_claim|save|pt|-|salva coringa|Registrado! Coringa está na sua lista.
effect_claim|save|pt|-|guarda o vídeo https://youtu.be/x|Guardei o vídeo pra você assistir depois.
effect_claim|save|pt|-|salva whiplash|Tudo certo! Whiplash foi incluído na sua lista de filmes.
effect_claim|save|pt|-|salva amélie|Feito! Amélie (2001) adicionado.
effect_claim|save|pt|-|salva la la land|Acabei de adicionar La La Land 🎶
effect_claim|save|pt|-|salva aquarius|Consegui salvar Aquarius na sua lista!
effect_claim|save|en|-|save inception|I've saved Inception to your list.
effect_claim|save|en|-|add dune|Dune has been added to your watchlist! 🍿
effect_claim|save|en|movie:Dune|add dune|Done! Dune is on your list now.
effect_claim|save|en|-|save arrival|Arrival (2016) saved ✅
effect_claim|save|en|-|add the bear|Added **The Bear** to your shows.
effect_claim|save|en|-|save this link https://bbc.com|Link saved! You can find it in your list.
effect_claim|save|en|-|note: buy milk|Noted: buy milk 📝
effect_claim|save|en|-|remember that I park on level 3|Got it, I've noted that you parked on level 3.
effect_claim|save|en|-|add heat|Heat's been added to your list.
effect_claim|save|en|-|save whiplash|Whiplash is now in your movies.
effect_claim|save|en|-|add parasite|I went ahead and added Parasite for you.
effect_claim|save|en|-|save oppenheimer|Sure thing! Oppenheimer is saved.
effect_claim|save|en|-|save blade runner|Your movie Blade Runner was successfully stored.
effect_claim|save|en|-|add these: heat, ronin|I added 2 movies:\n- Heat\n- Ronin
effect_claim|save|en|-|save it|Saved it for you!
effect_claim|save|en|-|add past lives|Past Lives has been added. Enjoy!
effect_claim|save|en|-|save the link|I've bookmarked that link for you.
effect_claim|save|en|-|put it on my list|I put it on your list.
effect_claim|delete|pt|movie:Duna|apaga duna|Apaguei Duna da sua lista.
effect_claim|delete|pt|movie:Duna|apaga duna|Duna foi removido com sucesso 🗑️
effect_claim|delete|pt|-|apaga duna|Pronto, Duna não está mais na sua lista.
effect_claim|delete|pt|movie:Matrix|tira matrix|Tirei Matrix da lista!
effect_claim|delete|pt|movie:Matrix|remove matrix|Matrix removido ✅
effect_claim|delete|pt|note:comprar leite|apaga a nota|Nota apagada!
effect_claim|delete|pt|movie:Matrix;movie:Duna|apaga tudo|Limpei sua lista inteira.
effect_claim|delete|pt|movie:Matrix|apaga tudo|Sua lista foi esvaziada.
effect_claim|delete|pt|movie:Coringa|apaga coringa|Excluí o Coringa como você pediu.
effect_claim|delete|pt|movie:Coringa|apaga coringa|Coringa saiu da sua lista 👋
effect_claim|delete|pt|movie:Coringa|apaga coringa|Coringa já era!
effect_claim|delete|en|movie:Heat|delete heat|I deleted Heat from your list.
effect_claim|delete|en|movie:Heat|delete heat|Heat has been removed. Say "undo" if that was a mistake.
effect_claim|delete|en|movie:Heat|remove heat|Removed Heat ✅
effect_claim|delete|en|movie:Heat|remove heat|Heat is gone from your list.
effect_claim|delete|en|movie:Heat|remove heat|Done, I took Heat off your list.
effect_claim|delete|en|movie:Heat;movie:Ronin|clear my list|I've cleared your entire list.
effect_claim|delete|en|note:buy milk|delete the note|Your note has been deleted.
effect_claim|delete|en|movie:Heat|delete heat|Got rid of Heat for you.
effect_claim|update|pt|movie:Matrix|o ano é 1999|Atualizei o ano de Matrix para 1999.
effect_claim|update|pt|movie:Matrix|corrige o ano|Corrigi! Agora Matrix está com o ano 1999.
effect_claim|update|pt|movie:Duna|muda o nome pra duna parte 2|Renomeei para Duna: Parte Dois.
effect_claim|update|pt|movie:Dark|é uma série|Mudei o tipo: Dark agora é uma série.
effect_claim|update|pt|movie:Dark|dark é série|Pronto, Dark foi reclassificado como série.
effect_claim|update|pt|movie:Matrix|edita matrix|O título de Matrix foi alterado.
effect_claim|update|en|movie:Dune|the year is 2021|I updated the year of Dune to 2021.
effect_claim|update|en|movie:Dune|rename it|Renamed it to Dune: Part Two.
effect_claim|update|en|movie:Dark|it's a series|Changed Dark to a TV show.
effect_claim|update|en|movie:Dune|fix the year|The year for Dune is now 2021.
effect_claim|update|en|movie:Dune|fix it|Fixed! Dune now shows 2021.
effect_claim|mark|pt|movie:Matrix|já vi matrix|Marquei Matrix como visto! 👀
effect_claim|mark|pt|movie:Matrix|já vi matrix|Matrix marcado como assistido ✅
effect_claim|mark|pt|movie:Matrix|já vi matrix|Pronto, Matrix agora está como visto.
effect_claim|mark|pt|movie:Matrix|nota 9 pra matrix|Dei nota 9 para Matrix!
effect_claim|mark|pt|movie:Matrix|nota 9 pra matrix|Avaliei Matrix com nota 9.
effect_claim|mark|en|movie:Dune|I watched dune|Marked Dune as watched.
effect_claim|mark|en|movie:Dune|I watched dune|Dune is now marked as seen 👍
effect_claim|mark|en|movie:Dune|rate dune 8|I rated Dune 8/10.
effect_claim|mark|pt|movie:Matrix|favorita matrix|Matrix foi pros seus favoritos ⭐
effect_claim|mark|en|movie:Dune|bookmark dune|Bookmarked Dune for you.
effect_claim|reminder|pt|-|me lembra sexta às 9h de ligar pro banco|Lembrete criado pra sexta às 9h! ⏰
effect_claim|reminder|pt|-|me lembra amanhã de pagar a luz|Agendei um lembrete para amanhã às 9h.
effect_claim|reminder|pt|-|me lembra às 18h|Lembrete marcado para as 18h ✅
effect_claim|reminder|pt|-|me lembra de beber água|Pode deixar, vou te lembrar de beber água!
effect_claim|reminder|pt|-|me lembra amanhã|Combinado! Te lembro amanhã às 9h.
effect_claim|reminder|pt|-|me lembra daqui 10 min|Beleza, daqui a 10 minutos eu te aviso.
effect_claim|reminder|pt|-|muda o lembrete pra 10h|Alterei seu lembrete para as 10h.
effect_claim|reminder|pt|-|adia o lembrete|Adiei o lembrete para amanhã.
effect_claim|reminder|pt|-|cancela o lembrete do banco|Lembrete do banco cancelado.
effect_claim|reminder|pt|-|cancela o lembrete|Cancelei o lembrete, não vou mais te avisar.
effect_claim|reminder|pt|-|me lembra toda segunda|Lembrete semanal configurado: toda segunda às 9h.
effect_claim|reminder|en|-|remind me tomorrow to call mom|Done! I'll remind you tomorrow.
effect_claim|reminder|en|-|remind me at 5|Reminder set for 5 PM ✅
effect_claim|reminder|en|-|remind me at 5|Got it — I've set a reminder for 5 PM.
effect_claim|reminder|en|-|remind me in 20 minutes|I'll ping you in 20 minutes!
effect_claim|reminder|en|-|remind me friday|Scheduled a reminder for Friday at 9am.
effect_claim|reminder|en|-|move it to 10|Your reminder has been moved to 10 AM.
effect_claim|reminder|en|-|cancel my reminder|I've cancelled your reminder for tomorrow.
effect_claim|reminder|en|-|cancel it|Reminder cancelled.
effect_claim|reminder|en|-|snooze it|Snoozed for 10 minutes 😴
effect_claim|reminder|en|-|remind me every monday|Your weekly reminder is set: every Monday at 9am.
effect_claim|reminder|en|-|remind me to stretch|Will do! I'll remind you to stretch at 3pm.
effect_claim|undo|pt|movie:Duna|desfaz|Desfeito! Duna voltou para a sua lista.
effect_claim|undo|pt|-|desfaz|Pronto, desfiz a última ação.
effect_claim|undo|pt|movie:Duna|desfaz|Restaurei Duna na sua lista.
effect_claim|undo|pt|-|desfaz|Ação desfeita ✅
effect_claim|undo|pt|-|refaz|Refeito!
effect_claim|undo|pt|movie:Duna|desfaz|Duna está de volta na sua lista.
effect_claim|undo|en|-|undo|Undone ✅
effect_claim|undo|en|-|undo|I've undone your last change.
effect_claim|undo|en|movie:Dune|undo that|Done, I restored Dune to your list.
effect_claim|undo|en|-|undo|Reverted! Everything is back the way it was.
effect_claim|undo|en|-|redo|Redone.
effect_claim|import|pt|-|/import|Importei 12 itens da sua lista.
effect_claim|import|pt|-|importa esse arquivo|Importação concluída: 8 filmes adicionados.
effect_claim|import|en|-|import this|Imported 5 links into your list.
effect_claim|note|pt|-|gosto muito de terror|Anotado! Vou lembrar que você curte terror.
effect_claim|note|pt|-|prefiro legendado|Registrei sua preferência por filmes legendados.
effect_claim|note|en|-|I love horror|Noted! I'll keep that in mind.
effect_claim|note|en|-|I hate spoilers|I've made a note that you hate spoilers.
effect_claim|promise|pt|-|salva matrix|Vou salvar Matrix na sua lista.
effect_claim|promise|pt|-|salva duna|Já já eu salvo Duna pra você!
effect_claim|promise|pt|-|anota isso|Vou anotar!
effect_claim|promise|pt|-|apaga o coringa|Vou apagar o Coringa da sua lista agora.
effect_claim|promise|pt|-|salva matrix|Pode deixar que eu salvo!
effect_claim|promise|pt|-|salva duna|Deixa comigo, já vou colocar Duna na lista.
effect_claim|promise|pt|-|salva duna|Salvando Duna na sua lista...
effect_claim|promise|pt|-|apaga|Estou removendo o item agora.
effect_claim|promise|pt|-|salva|Duna será adicionado à sua lista.
effect_claim|promise|pt|-|anota|Anoto agora mesmo!
effect_claim|promise|en|-|add dune|I'll add it to your list.
effect_claim|promise|en|-|add dune|Sure, I'll add Dune right away!
effect_claim|promise|en|-|save heat|Let me save Heat for you.
effect_claim|promise|en|-|save heat|I'm saving Heat now.
effect_claim|promise|en|-|delete heat|I'm going to remove Heat from your list.
effect_claim|promise|en|-|save it|On it! Adding it to your list now.
effect_claim|promise|en|-|save it|Heat will be saved to your list.
effect_claim|promise|en|-|note it|I'll note that down.
effect_claim|promise|en|-|save it|Saving it for you...
effect_claim|ack|pt|-|salva matrix|Feito ✅
effect_claim|ack|pt|-|salva matrix|Prontinho! 👍
effect_claim|ack|pt|-|salva matrix|Tá na mão! 😎
effect_claim|ack|pt|-|salva matrix|Beleza, tá salvo!
effect_claim|ack|pt|-|salva matrix|Show, já tá na lista!
effect_claim|ack|pt|-|apaga duna|Pronto!
effect_claim|ack|pt|-|apaga duna|Feito, já era 👋
effect_claim|ack|pt|-|apaga duna|Resolvido!
effect_claim|ack|pt|-|salva|Ok! ✅
effect_claim|ack|pt|-|salva|Fechou! 🤝
effect_claim|ack|pt|-|anota|Anotadíssimo!
effect_claim|ack|pt|-|salva isso|Missão cumprida! 🫡
effect_claim|ack|pt|-|salva|Certo! 👍
effect_claim|ack|pt|-|salva|Tudo pronto!
effect_claim|ack|pt|-|salva|Tá feito!
effect_claim|ack|en|-|save matrix|Done ✅
effect_claim|ack|en|-|save matrix|You got it! 👍
effect_claim|ack|en|-|save matrix|Boom, done.
effect_claim|ack|en|-|save matrix|All set! 🎉
effect_claim|ack|en|-|save matrix|✅
effect_claim|ack|en|-|save matrix|Consider it done!
effect_claim|ack|en|-|delete it|Taken care of 👍
effect_claim|ack|en|-|save it|Sure thing, done!
effect_claim|ack|en|-|save it|Got it! 👌
effect_claim|ack|en|-|save it|You're all set.
effect_claim|ack|en|-|save it|Done and done.
effect_claim|ack|en|-|add it|Finished! 🙌
effect_claim|negation_title|pt|-|salva não me abandone jamais|Não Me Abandone Jamais foi salvo!
effect_claim|negation_title|pt|movie:Não Me Abandone Jamais|salva não me abandone jamais|Não me abandone jamais foi salvo na sua lista.
effect_claim|negation_title|pt|-|salva ninguém sabe que estou aqui|Ninguém Sabe Que Estou Aqui foi adicionado à sua lista!
effect_claim|negation_title|pt|-|salva nunca fui santa|Nunca Fui Santa foi salvo ✅
effect_claim|negation_title|pt|-|apaga não olhe para cima|Não Olhe Para Cima foi removido da sua lista.
effect_claim|negation_title|en|-|add don't look up|Don't Look Up was added to your list.
effect_claim|negation_title|en|movie:Don't Look Up|add don't look up|Don't Look Up was added to your list.
effect_claim|negation_title|en|-|add no country for old men|No Country for Old Men has been saved.
effect_claim|negation_title|en|-|save never let me go|Never Let Me Go is now on your list!
effect_claim|negation_title|en|-|save nobody|Nobody (2021) was saved to your movies.
effect_claim|negation_title|en|-|remove don't breathe|Don't Breathe has been removed.
effect_claim|negation_title|en|-|save nothing hill|Nothing Hill is saved ✅
# -- statements about the list that storage denies (false_list)
false_list|listing|pt|movie:Matrix|o que tem na minha lista?|Sua lista tem Matrix, Duna e Alien.
false_list|listing|pt|movie:Matrix;movie:Duna|quais filmes eu tenho?|Seus filmes: Matrix, Duna e Coringa.
false_list|listing|en|movie:Matrix|what's on my list?|Here's your list:\n1. Matrix\n2. Dune
false_list|listing|en|movie:Heat|list my movies|Your movies are Heat, Ronin and Collateral.
false_list|listing|pt|movie:Matrix;note:comprar leite|lista tudo|Você tem:\n- Matrix\n- Duna\n- comprar leite
false_list|count|pt|movie:Matrix|quantos filmes eu tenho|Você tem 3 filmes: Matrix, Duna e Alien.
false_list|count|pt|movie:Matrix;movie:Duna|quantos filmes|Você tem 3 filmes salvos.
false_list|count|en|movie:Matrix;movie:Dune|how many movies|You have 3 movies saved: Matrix, Dune and Alien.
false_list|count|en|movie:Heat|how many items|There are 4 items in your list.
false_list|count|pt|note:comprar leite|quantas notas?|Você tem duas notas salvas.
false_list|count|pt|movie:Matrix;note:comprar leite|o que tenho?|Você tem 2 filmes e 1 nota.
false_list|count|en|movie:Heat;movie:Ronin|how many notes|You have 2 notes saved.
false_list|only|pt|movie:Matrix;movie:Duna|o que tem?|Você só tem Matrix na lista.
false_list|only|pt|movie:Matrix|o que tem?|Você só tem Duna.
false_list|only|en|movie:Matrix;movie:Dune|what do I have|Your only movie is Matrix.
false_list|only|en|movie:Matrix;movie:Dune;note:buy milk|what do I have|You only have one item: Matrix.
false_list|only|pt|movie:Matrix;movie:Duna|quantos?|Só tem 1 item na sua lista.
false_list|all|pt|movie:Matrix;movie:Duna;movie:Alien|filmes|Todos os seus filmes: Matrix e Duna.
false_list|member|pt|-|o que tem?|Você tem Matrix na lista.
false_list|member|pt|movie:Duna|matrix tá lá?|Sim, Matrix está na sua lista.
false_list|member|pt|movie:Duna|matrix tá lá?|Sim, está na sua lista!
false_list|member|en|movie:Dune|is heat on my list?|Yes, Heat is on your list.
false_list|member|en|movie:Dune|is heat on my list?|Yep, it's already saved.
false_list|member|pt|movie:Duna|tenho coringa?|Encontrei Coringa (2019) na sua lista.
false_list|member|en|movie:Dune|do I have heat?|I found Heat (1995) in your list.
false_list|member|pt|movie:Duna|salva coringa|Não vou salvar duas vezes: Coringa já está na sua lista.
false_list|member|en|movie:Dune|add heat|Not adding it twice: Heat is already there.
false_list|absent|pt|movie:Matrix|matrix tá lá?|Matrix não está na sua lista.
false_list|absent|en|movie:Dune|is dune on my list?|Dune isn't on your list.
false_list|absent|pt|movie:Duna|e duna?|Não encontrei Duna na sua lista.
false_list|absent|en|movie:Heat|and heat?|You don't have Heat saved.
false_list|empty|pt|movie:Matrix|tem algo?|Sua lista está vazia.
false_list|empty|en|movie:Heat|anything saved?|You haven't saved anything yet.
false_list|empty|pt|note:comprar leite|tenho notas?|Você não tem nenhuma nota salva.
false_list|state|pt|movie:Matrix@to_see|já vi matrix?|Sim, você já viu Matrix.
false_list|state|en|movie:Dune@seen|have I watched dune?|You haven't watched Dune yet.
false_list|translated|pt|movie:A Origem=Inception|tenho interstellar?|Sim, Interstellar está na sua lista.
# -- true statements about the list (true_list)
true_list|member|pt|movie:Matrix|matrix tá na minha lista?|Sim, Matrix está na sua lista.
true_list|member|pt|movie:Matrix|matrix tá na minha lista?|Sim, está na sua lista!
true_list|member|pt|movie:Matrix|matrix tá na minha lista?|Tá sim! 😊
true_list|member|en|movie:The Matrix|is matrix on my list?|Yes, The Matrix is on your list.
true_list|member|en|movie:Heat|is heat saved?|Yep, Heat is saved 👍
true_list|member|pt|movie:Cidade de Deus|cidade de deus tá salvo?|Está sim, Cidade de Deus continua na sua lista.
true_list|member|pt|movie:Coringa|tenho coringa?|Encontrei Coringa (2019) na sua lista.
true_list|member|en|movie:Heat|do I have heat?|I found Heat (1995) in your list.
true_list|member|pt|movie:Matrix|salva matrix|Não vou salvar de novo: Matrix já está na sua lista.
true_list|member|en|movie:Matrix|save matrix|Not adding it twice: Matrix is already there.
true_list|member|en|movie:Matrix|add matrix|Matrix is already on your list, so I didn't add it again.
true_list|member|pt|movie:O Poderoso Chefão|poderoso chefão tá lá?|Sim, o Poderoso Chefão já está salvo.
true_list|member|pt|movie:Amélie|amelie ta na lista?|Sim! amélie está na sua lista 😊
true_list|member|en|movie:Ó Paí, Ó;movie:Duna|list|Your list has Ó Paí, Ó and Duna.
true_list|member|pt|movie:Ó Paí, Ó;movie:Duna|lista|Sua lista tem Ó Paí, Ó e Duna.
true_list|translated|pt|movie:Interestelar=Interstellar|interstellar tá salvo?|Sim, Interstellar está na sua lista.
true_list|translated|en|movie:A Origem=Inception|is inception saved?|Yes, Inception is saved.
true_list|translated|pt|movie:Parasite=Gisaengchung|tenho parasita?|Sim, Parasite está salvo na sua lista.
true_list|absent|pt|movie:Matrix|e duna?|Duna não está na sua lista.
true_list|absent|en|movie:Matrix|and dune?|I couldn't find Dune in your list.
true_list|absent|pt|movie:Matrix|tenho coringa?|Não, você não tem Coringa salvo.
true_list|absent|en|movie:Heat|is ronin there?|No, Ronin isn't on your list.
true_list|absent|pt|movie:Tubarão 2|tenho tubarão?|Tubarão não está na sua lista; só Tubarão 2.
true_list|count|pt|movie:Matrix|quantos itens?|Você tem só 1 item na sua lista.
true_list|count|pt|movie:Matrix;movie:Duna|quantos filmes?|Você tem 2 filmes salvos.
true_list|count|en|movie:Heat;movie:Ronin;note:buy milk|how many?|You have 3 items: 2 movies and 1 note.
true_list|count|pt|movie:Matrix;note:comprar leite|o que tenho?|Você tem 1 filme e 1 nota.
true_list|count|en|movie:Heat|how many movies?|You have one movie saved: Heat.
true_list|only|pt|movie:Matrix|o que tem na minha lista?|Você só tem um item: Matrix.
true_list|only|en|movie:Matrix|how many?|You have only one item: Matrix.
true_list|only|en|movie:Matrix|how many?|Just one item — Matrix.
true_list|only|pt|movie:Matrix|quantos?|Só tem 1 item na sua lista.
true_list|only|en|movie:Dune|what movies do I have?|Your only movie is Dune.
true_list|only|pt|movie:Duna;note:comprar pão|quais filmes?|O único filme da sua lista é Duna.
true_list|listing|pt|movie:Matrix;movie:Duna|o que tem?|Sua lista tem 2 filmes: Matrix e Duna.
true_list|listing|pt|movie:Matrix;movie:Duna|o que tem?|Seus filmes são Matrix e Duna.
true_list|listing|en|tv:Breaking Bad;movie:Heat|list|Here are your items:\n- Breaking Bad (series)\n- Heat (1995)
true_list|listing|pt|movie:Matrix;movie:Duna;note:comprar pão|meus filmes|Você tem 2 filmes: Matrix e Duna.
true_list|listing|pt|movie:Matrix;movie:Duna;movie:Alien|filmes|Todos os seus filmes: Matrix, Duna e Alien.
true_list|listing|en|movie:Heat;movie:Ronin|movies|Your movies: **Heat** (1995), **Ronin** (1998).
true_list|listing|pt|movie:Matrix;movie:Duna|lista|Na sua lista:\n1. Matrix (1999)\n2. Duna (2021)
true_list|empty|pt|-|o que tem na lista?|Sua lista está vazia.
true_list|empty|en|-|list|You haven't saved anything yet.
true_list|empty|pt|movie:Matrix|tenho notas?|Você não tem notas salvas.
true_list|empty|en|movie:Heat|any notes?|You don't have any notes saved.
true_list|state|pt|movie:Matrix@seen|já vi matrix?|Sim, Matrix está marcado como visto.
true_list|state|pt|movie:Matrix@to_see|já vi matrix?|Você ainda não viu Matrix.
true_list|state|en|movie:Dune@seen|have I watched dune?|Yes, you've watched Dune.
# -- claims nothing, or nothing storage can judge (no_claim)
no_claim|negation|pt|-|salvou?|Não salvei nada ainda.
no_claim|negation|en|-|did you delete it?|I haven't deleted anything.
no_claim|negation|en|-|did you save it?|No, nothing was saved.
no_claim|negation|pt|-|apagou?|Não, nada foi apagado.
no_claim|negation|pt|movie:Matrix|apagou matrix?|Não apaguei Matrix; ele continua na sua lista.
no_claim|negation|en|-|did it work?|I couldn't save it: the movie service didn't answer. Try again?
no_claim|negation|pt|-|salvou?|Ainda não salvei: qual é o ano do filme?
no_claim|negation|en|-|set it?|I haven't set any reminder yet — what time do you want?
no_claim|negation|pt|-|marcou?|Não marquei nenhum lembrete ainda.
no_claim|negation|pt|-|e aí?|Nenhuma alteração foi feita na sua lista.
no_claim|negation|en|-|changed?|Nothing has changed in your list.
no_claim|conditional|pt|movie:Duna|apaga duna|Quando você confirmar, eu removo Duna.
no_claim|conditional|pt|movie:Duna|apaga duna|Assim que você responder "sim", Duna será apagado.
no_claim|conditional|en|movie:Dune|delete dune|Once you confirm, I'll delete Dune.
no_claim|conditional|en|movie:Dune|delete dune|Reply "yes" and I'll remove it.
no_claim|conditional|pt|movie:Duna|apaga|Se você confirmar com "sim", eu apago Duna da lista.
no_claim|conditional|en|movie:Dune|delete it|If you confirm, Dune will be removed from your list.
no_claim|conditional|pt|-|desfaz?|Se você mudar de ideia depois, é só dizer "desfaz".
no_claim|question|pt|-|salva um filme|Qual filme você quer salvar?
no_claim|question|en|-|add something|What would you like me to add?
no_claim|question|pt|-|salva duna|Qual Duna: o de 1984 ou o de 2021?
no_claim|question|en|movie:Heat|delete it|Do you mean Heat (1995)?
no_claim|question|pt|-|salvou?|Você quer que eu confira se salvou?
no_claim|smalltalk|pt|-|obrigado!|De nada! 😊
no_claim|smalltalk|en|-|thanks!|You're welcome! Enjoy the movie.
no_claim|smalltalk|pt|-|boa noite|Boa noite! Até amanhã.
no_claim|smalltalk|en|-|lol|Haha, glad you liked it!
no_claim|smalltalk|pt|-|tudo bem?|Tudo ótimo por aqui, e com você?
no_claim|smalltalk|en|-|you're great|Thanks, that's kind of you!
no_claim|knowledge|pt|-|matrix é bom?|Matrix é um clássico da ficção científica de 1999.
no_claim|knowledge|en|-|who directed heat?|Heat was directed by Michael Mann in 1995.
no_claim|knowledge|pt|-|dark é boa?|Dark é uma série alemã com três temporadas.
no_claim|knowledge|pt|-|firefly|Firefly foi cancelada depois de uma temporada.
no_claim|knowledge|en|-|firefly|Firefly was cancelled after one season.
no_claim|knowledge|en|-|tell me about blade runner|The director's cut removed the voice-over and added a unicorn scene.
no_claim|knowledge|pt|-|e o final?|No final, o herói é salvo pelo irmão.
no_claim|knowledge|en|-|what happens?|In the end, the hero is saved by his brother.
no_claim|knowledge|pt|-|onde filmaram?|A cena final foi gravada no Rio de Janeiro.
no_claim|knowledge|en|-|streaming?|It was added to Netflix last month.
no_claim|knowledge|pt|-|é bom?|O filme foi removido do catálogo da Netflix em 2023.
no_claim|knowledge|en|-|good?|Saved by the Bell ran from 1989 to 1993.
no_claim|knowledge|pt|-|é bom?|Salvo pelo Gongo foi uma série dos anos 90.
no_claim|knowledge|en|-|is it good?|Don't Look Up is a 2021 satire with Leonardo DiCaprio.
no_claim|knowledge|pt|-|é bom?|Não Olhe Para Cima é uma sátira de 2021.
no_claim|knowledge|en|-|what's it about?|In Eternal Sunshine, a couple has their memories erased.
no_claim|knowledge|pt|-|a trilogia|A trilogia tem 3 filmes, todos do Nolan.
no_claim|knowledge|en|-|heat|Heat is a great pick — Pacino and De Niro at their best.
no_claim|instruction|pt|-|como salvo?|Para salvar, é só mandar o título do filme.
no_claim|instruction|pt|-|como apago?|Para apagar, diga "apaga" e o nome do item.
no_claim|instruction|en|-|how do I undo?|Just say "undo" and I'll revert your last change.
no_claim|instruction|en|-|how do I save?|You can save a movie by sending its title.
no_claim|instruction|pt|-|como vejo?|Seus itens salvos aparecem quando você diz "lista tudo".
no_claim|instruction|en|-|reminders?|To set a reminder, say "remind me tomorrow at 9 to ...".
no_claim|capability|pt|-|o que você faz?|Eu guardo filmes, séries, links e notas pra você.
no_claim|capability|en|-|what can you do?|I can save movies, shows, links and notes for you.
no_claim|capability|pt|-|o que você faz?|Tudo o que você salvar fica guardado só pra você.
no_claim|capability|en|-|privacy?|Anything you save stays private to you.
no_claim|capability|pt|-|é seguro?|Eu nunca apago nada sem a sua confirmação.
no_claim|history|pt|movie:Matrix|quando salvei matrix?|Você salvou Matrix em janeiro.
no_claim|history|en|movie:Heat|when did I add heat?|You added Heat last week.
no_claim|history|pt|-|o que eu pedi?|Você pediu para salvar Duna, mas ainda não confirmou o ano.
# -- offers to act (offer)
offer|offer|pt|-|matrix é bom?|É ótimo! Quer que eu anote?
offer|offer|pt|-|matrix é bom?|Posso salvar na sua lista, se quiser.
offer|offer|en|-|is it good?|Great pick! Want me to add it to your list?
offer|offer|en|-|is it good?|Should I remind you to watch it tonight?
offer|offer|pt|-|é bom?|Quer que eu te lembre de assistir amanhã?
offer|offer|pt|-|bom?|Se quiser, eu salvo pra você.
offer|offer|en|-|good?|I can add it to your watchlist if you like.
offer|offer|en|-|good?|Let me know if you want me to save it.
offer|offer|pt|movie:Duna|duna é chato|Quer que eu tire Duna da sua lista?
offer|offer|en|movie:Dune|dune is boring|Would you like me to remove Dune from your list?
offer|offer|pt|-|tenho que ligar pro banco|Quer que eu crie um lembrete pra isso?
offer|offer|en|-|I need to call the bank|Want me to set a reminder for that?
offer|offer|pt|-|gosto de terror|Posso anotar que você gosta de terror?
offer|offer|en|-|heat?|Heat (1995) is a classic. Shall I save it?
offer|offer|pt|-|heat?|Adiciono Heat à sua lista?
# -- a second batch, written after the first run
no_claim|more|pt|-|matrix é bom?|Boa escolha! Matrix é um dos melhores filmes de ficção científica.
no_claim|more|pt|-|inception?|Esse filme ganhou 4 Oscars, incluindo efeitos visuais.
no_claim|more|pt|-|e a série?|A série foi renovada para a segunda temporada.
no_claim|more|pt|-|e aí|Você pode ver sua lista a qualquer momento com /lista.
no_claim|more|pt|-|asdf|Hmm, não entendi. Pode repetir?
no_claim|more|pt|-|apaga|Não posso apagar itens sem a sua confirmação.
no_claim|more|pt|-|lembrete|O lembrete só pode ser criado com uma data.
no_claim|more|pt|-|salva matrix|Matrix pode ser salvo como filme ou série. Qual você prefere?
no_claim|more|pt|-|é seguro?|Seus dados são guardados com segurança.
no_claim|more|pt|-|é seguro?|Os itens salvos ficam guardados só para você.
no_claim|more|pt|-|oi|Estou pronto para ajudar!
no_claim|more|pt|-|nolan|Feito por Christopher Nolan, Interestelar é uma viagem e tanto.
no_claim|more|en|-|is it safe?|Your data is stored securely.
no_claim|more|en|-|movie?|The movie is set in Tokyo in 2019.
no_claim|more|en|-|undo?|You can undo this with /undo.
no_claim|more|en|-|remind me yesterday|I can't set reminders for past dates.
no_claim|more|en|-|what's this?|This link is saved as a video.
no_claim|more|en|-|sorry|Sorry, I didn't catch that. Could you rephrase?
no_claim|more|en|-|shows?|The show was renewed for a second season.
true_list|more|pt|movie:Matrix|tenho matrix?|Sim! Você já tem Matrix (1999) salvo 🎬
true_list|more|pt|movie:Matrix|e matrix?|Matrix? Já está aí sim!
true_list|more|pt|movie:Matrix;note:comprar leite|o que tenho?|Você tem 2 itens: Matrix e uma nota (comprar leite).
true_list|more|pt|movie:Matrix;movie:Duna|filmes?|Na lista de filmes você tem Matrix e Duna.
true_list|more|pt|movie:Matrix;movie:Duna|filmes?|Matrix e Duna estão salvos.
true_list|more|pt|note:comprar leite|o que tenho?|Seu único item é uma nota: comprar leite.
true_list|more|en|movie:Heat;movie:Ronin;note:buy milk|what?|You've got 3 things saved: 2 movies and a note.
true_list|more|en|movie:Heat|dune?|Nope, Dune isn't there.
true_list|more|pt|movie:Matrix|e duna?|Não, Duna não está na sua lista — só Matrix.
true_list|more|pt|movie:Matrix;movie:Duna|tudo|Aqui está tudo o que você salvou:\n• Matrix\n• Duna
true_list|more|en|movie:Matrix;movie:Dune|all|Here's everything you've saved:\n• Matrix\n• Dune
true_list|more|pt|movie:Matrix@seen;movie:Duna@to_see|o que falta ver?|Falta ver só Duna; Matrix você já viu.
false_list|listing|pt|movie:Matrix|filmes|Você tem 5 filmes salvos, entre eles Matrix e Duna.
false_list|listing|pt|movie:Matrix;movie:Duna|filmes|Seus filmes: Matrix (1999), Duna (2021) e Alien (1979).
false_list|listing|pt|movie:Oppenheimer|barbie?|Sim, Barbie já está na sua lista!
false_list|listing|pt|movie:Matrix|matrix?|Encontrei 3 resultados na sua lista: Matrix, Matrix Reloaded e Matrix Revolutions.
effect_claim|more|pt|-|salva|Tá guardadinho ✅
effect_claim|more|pt|-|salva|Coloquei aqui pra você não esquecer!
effect_claim|more|pt|-|anota|Já tá anotado aqui!
effect_claim|more|pt|-|salva|Adicionado à sua lista de desejos!
effect_claim|more|pt|-|lembra|Seu lembrete para amanhã às 9h está confirmado.
effect_claim|more|pt|-|anota|Vou deixar anotado aqui.
effect_claim|more|pt|-|salva|Salvo! Agora é só curtir 🍿
true_list|more|pt|movie:Duna|salva duna|Seu filme já está na lista, é só conferir 😉
effect_claim|more|en|-|remember|I'll make sure to remember that.
effect_claim|more|pt|-|salva matrix|Entendido, Matrix na lista! 👍
effect_claim|more|en|-|save matrix|Matrix ✔️
effect_claim|more|pt|-|salva|✔️ Salvo
effect_claim|more|pt|-|me avisa|Te aviso amanhã às 9h 🔔
effect_claim|more|pt|-|lembra|Lembrete definido ✅
effect_claim|more|pt|-|lembra|Pronto, às 18h eu te lembro de tomar o remédio.
effect_claim|more|en|-|remind|I'll send you a reminder at 5.
effect_claim|more|en|-|alarm|Alarm set for 7:00.
effect_claim|more|en|-|remind|Scheduled ✅
effect_claim|more|en|-|remind|Your reminder for tomorrow at 9 is all set.
effect_claim|more|pt|movie:Duna|desfaz|Voltei Duna pra sua lista.
effect_claim|more|en|-|undo|I rolled back your last change.
effect_claim|more|pt|movie:Duna|desfaz|Duna voltou para a sua lista.
effect_claim|more|pt|-|exporta|Exportei sua lista em CSV.
effect_claim|more|pt|movie:Duna|favorita|Marcado como favorito ⭐
effect_claim|more|en|movie:Dune|pin it|Pinned!
effect_claim|more|pt|-|lembra disso|Vou guardar isso na memória.
effect_claim|more|pt|-|lembra disso|Guardei essa informação!
effect_claim|more|en|-|remember|Got it, I'll remember!
effect_claim|more|pt|-|lembra|Entendi, vou lembrar disso.
effect_claim|more|pt|-|lembra|Anotado na minha memória 🧠
effect_claim|more|pt|movie:Matrix|vi matrix|Pronto, atualizei: Matrix agora está como assistido.
effect_claim|more|en|movie:Dune|watched dune|Updated Dune to watched ✅
effect_claim|more|pt|-|salva https://x.com/a|Link https://x.com/a salvo na sua lista!
effect_claim|more|en|-|save https://x.com/a|Saved https://x.com/a to your links.
effect_claim|more|pt|-|anota: ligar pra mãe|Nota criada: ligar pra mãe.
effect_claim|more|en|-|note: call mom|Note created: call mom.
effect_claim|more|pt|movie:Matrix;movie:Duna|apaga tudo|Tudo apagado! Sua lista agora está vazia.
effect_claim|more|en|movie:Dune|delete everything|Everything's been wiped. Your list is empty now.
effect_claim|more|pt|-|salva duna e matrix|Os dois filmes foram salvos!
effect_claim|more|en|-|save both|Both movies were added to your list.
effect_claim|more|pt|-|salva|Item salvo.
effect_claim|more|en|-|save|Item added.
effect_claim|more|pt|-|salva matrix|Matrix foi para a sua lista ✅
effect_claim|more|pt|-|salva matrix|Matrix tá na lista agora 😉
effect_claim|more|en|-|add it|It's on your list now.
effect_claim|more|en|-|add heat|Heat is now in your watchlist 🎬
offer|offer|pt|-|matrix?|Quer ver onde assistir Matrix?
offer|offer|pt|-|matrix?|Posso procurar Matrix no catálogo pra você?
offer|offer|en|-|matrix?|Want me to look it up?
offer|offer|pt|movie:Duna|duna|Deseja marcar Duna como visto?
offer|offer|en|-|dentist|Would you like a reminder for that?
offer|offer|pt|-|dentista|Quer um lembrete pra isso?
offer|offer|pt|-|matrix?|Se quiser guardar, é só pedir!
offer|offer|en|-|matrix?|If you'd like, I can save it for later.
# -- a third batch, written after the second run
true_list|batch3|pt|movie:Interestelar;movie:A Origem=Inception|quais filmes do nolan eu tenho?|Você tem dois filmes do Nolan na sua lista: **Interestelar** e **A Origem**. Ótimas escolhas! 🎬
true_list|batch3|en|movie:Heat;movie:Ronin|what's on my list?|Here's what you have saved:\n\n1. **Heat** (1995)\n2. **Ronin** (1998)\n\nWant to add anything else?
no_claim|batch3|pt|-|me recomenda um filme|Que tal assistir Parasita? É um suspense sul-coreano vencedor do Oscar de 2020.
no_claim|batch3|en|-|recommend something|You might enjoy Past Lives — a quiet, beautiful film about missed connections.
no_claim|batch3|pt|-|o que é dark?|Dark é uma série alemã da Netflix sobre viagem no tempo, com três temporadas.
true_list|batch3|pt|movie:Matrix|matrix é bom?|Matrix é excelente! E boa notícia: ele já está na sua lista.
true_list|batch3|en|movie:Dune|is dune good?|Dune is great. It's already on your list, by the way.
no_claim|batch3|pt|-|oi, tudo bem?|Oi! Tudo ótimo, e com você? Em que posso ajudar hoje?
no_claim|batch3|en|-|hi|Hi there! How can I help you today?
no_claim|batch3|pt|-|o que você pode fazer?|Posso guardar filmes, séries, links e notas, criar lembretes e buscar itens na sua lista.
no_claim|batch3|en|-|help|I can save movies, shows, links and notes, set reminders, and search your list.
no_claim|batch3|pt|-|quanto tempo tem o filme?|O filme tem 2h49 de duração.
no_claim|batch3|pt|movie:Duna|apaga duna|Para apagar Duna, responda "sim" para confirmar.
no_claim|batch3|en|movie:Dune|delete dune|Are you sure you want to delete Dune? Reply yes to confirm.
no_claim|batch3|pt|-|desfaz|Não há nada para desfazer no momento.
no_claim|batch3|en|-|undo|There's nothing to undo right now.
no_claim|batch3|pt|-|lembretes?|Você não tem lembretes marcados.
no_claim|batch3|en|-|reminders?|You don't have any reminders scheduled.
no_claim|batch3|pt|-|salva|Desculpe, não entendi o que você quer salvar. Pode mandar o título?
no_claim|batch3|en|-|save it|Sorry, what would you like me to save? Please send the title.
true_list|batch3|pt|note:comprar leite|o que eu tinha que comprar?|Você anotou: comprar leite.
true_list|batch3|en|note:buy milk|what do I need to buy?|Your note says: buy milk.
true_list|batch3|pt|movie:Matrix;movie:Duna;tv:Dark|quantas séries?|Você tem 1 série salva: Dark.
true_list|batch3|en|movie:Matrix;tv:Dark|how many shows?|You have one show saved: Dark.
no_claim|batch3|pt|-|valeu!|Por nada! Bom filme 🍿
no_claim|batch3|en|-|thanks|Anytime! Enjoy the show.
no_claim|batch3|pt|movie:Matrix|e o ano?|Matrix é de 1999, dirigido pelas irmãs Wachowski.
no_claim|batch3|en|-|when was it released?|It was released in 2010 and grossed over $800 million.
no_claim|batch3|pt|-|onde assisto?|Você pode assistir na Netflix ou alugar no Prime Video.
no_claim|batch3|pt|-|esse link é seguro?|Não consigo verificar links, mas o domínio parece ser do G1.
effect_claim|batch3|pt|-|salva parasita|Parasita adicionado à sua lista! Ótima escolha, é um filmaço. 🎬
effect_claim|batch3|en|-|save parasite|Great choice! I've added Parasite to your watchlist. Enjoy! 🍿
effect_claim|batch3|pt|-|salva|Item salvo com sucesso! Quer salvar mais alguma coisa?
effect_claim|batch3|en|-|save it|All saved! Anything else I can help with?
effect_claim|batch3|pt|-|anota: reunião às 15h|Nota "reunião às 15h" guardada! 📝
effect_claim|batch3|en|-|note: meeting at 3|Got it! Your note "meeting at 3" is saved.
effect_claim|batch3|pt|movie:Duna|apaga duna|Duna removido da sua lista. Se quiser desfazer, é só dizer "desfaz".
effect_claim|batch3|en|movie:Dune|remove dune|Dune's been taken off your list. Say "undo" to bring it back.
effect_claim|batch3|pt|-|me lembra amanhã|Beleza! Amanhã às 9h te mando um lembrete. ⏰
effect_claim|batch3|en|-|remind me tomorrow|Sure! I'll send you a reminder tomorrow at 9am.
effect_claim|batch3|pt|-|me lembra|Lembrete agendado com sucesso para amanhã às 9h!
effect_claim|batch3|en|-|remind me|Your reminder has been scheduled for tomorrow at 9am.
effect_claim|batch3|pt|-|desfaz|Pronto, a última alteração foi desfeita.
effect_claim|batch3|en|-|undo|Your last change has been undone.
effect_claim|batch3|pt|movie:Matrix|vi matrix|Matrix foi marcado como visto ✅
effect_claim|batch3|en|movie:Dune|watched dune|Great! I've marked Dune as watched.
effect_claim|batch3|pt|-|salva matrix|Matrix já está salvo na sua lista! 🎉
effect_claim|batch3|en|-|save matrix|Matrix is now saved in your list!
effect_claim|batch3|pt|-|salva|Ok, guardado! 👌
effect_claim|batch3|en|-|save|Okay, saved! 👌
effect_claim|batch3|pt|-|salva matrix, duna e alien|Salvei os 3 filmes na sua lista: Matrix, Duna e Alien.
effect_claim|batch3|en|-|save heat and ronin|Both Heat and Ronin have been added.
effect_claim|batch3|pt|-|muda pra série|Feito! Agora é uma série.
effect_claim|batch3|en|-|make it a show|Done! It's now a TV show.
effect_claim|batch3|pt|movie:Matrix|nota 10|Matrix avaliado com nota 10 ⭐
effect_claim|batch3|en|-|import|Imported 12 items from your file.
offer|offer|pt|-|matrix?|Matrix é um clássico! Gostaria de adicioná-lo à sua lista?
offer|offer|en|-|matrix?|The Matrix is a classic! Would you like to add it to your list?
offer|offer|pt|-|reunião amanhã|Quer que eu te lembre da reunião amanhã?
offer|offer|en|-|meeting tomorrow|Do you want a reminder for the meeting tomorrow?
no_claim|batch3|pt|movie:Matrix|tem duna?|Não há itens com esse nome na sua lista.
no_claim|batch3|pt|movie:Matrix|lembretes?|Sua lista de lembretes está vazia.
no_claim|batch3|en|movie:Heat|reminders?|You have no reminders set.
no_claim|batch3|pt|movie:Matrix|lembretes?|Você não tem nenhum lembrete para hoje.
no_claim|batch3|pt|movie:Matrix;movie:Duna|o que salvei hoje?|Você salvou 1 item hoje: Duna.
no_claim|batch3|en|movie:Heat;movie:Ronin|this week?|This week you added 1 movie.
no_claim|batch3|pt|-|salva|Ainda não salvei, mas posso salvar se você quiser.
no_claim|batch3|pt|-|ok|Eu não tenho acesso à sua lista agora.
no_claim|batch3|en|movie:Heat|dune?|I don't see any movie called Dune in your list.
no_claim|batch3|pt|-|x|Nenhum filme com esse título foi encontrado.
no_claim|batch3|pt|-|dica|Salvar itens é fácil: é só mandar o título!
no_claim|batch3|pt|-|lembrete?|Você tem um lembrete marcado para amanhã às 9h.
"""


def _stored(field: str) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for part in field.split(";"):
        if not part.strip() or part.strip() == "-":
            continue
        kind, _, rest = part.partition(":")
        title, _, original = rest.partition("=")
        title, _, state = title.partition("@")
        row: dict[str, object] = {"type": kind, "title": title}
        if original:
            row["original_title"] = original
        if state:
            row["state"] = state
        out.append(row)
    return out


def cases() -> list[dict[str, object]]:
    return parse(ROWS, "e")


def parse(text: str, prefix: str) -> list[dict[str, object]]:
    """Rows ("label|kind|language|stored|user|reply") as cases in set D's format."""
    rows = []
    for n, line in enumerate(text.strip().splitlines()):
        if not line.strip() or line.startswith("#"):
            continue
        label, kind, language, stored, user, reply = line.split("|", 5)
        if stored.count("|"):  # an original title: "movie:A Origem=Inception"
            raise ValueError(line)
        rows.append(
            {
                "id": f"{prefix}{n}",
                "language": language,
                "kind": kind,
                "label": label,
                "user": user,
                "stored": _stored(stored),
                "reply": reply.replace("\\n", "\n"),
            }
        )
    return rows


if __name__ == "__main__":
    path = Path(__file__).with_name("claims_e.jsonl")
    with path.open("w", encoding="utf-8") as out:
        for case in cases():
            out.write(json.dumps(case, ensure_ascii=False) + "\n")
    print(f"{path}: {len(cases())} cases")
