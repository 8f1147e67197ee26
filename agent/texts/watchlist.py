"""The watchlist: marking seen/read/done, lists by state, where to watch, what to watch tonight."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    # states (DESIGN 11.5), as a reply names them
    "state_to_see": {"pt": "para ver", "en": "to see"},
    "state_seen": {"pt": "visto", "en": "seen"},
    "state_to_read": {"pt": "para ler", "en": "to read"},
    "state_read": {"pt": "lido", "en": "read"},
    "state_open": {"pt": "em aberto", "en": "open"},
    "state_done": {"pt": "feito", "en": "done"},
    # marking
    "marked": {"pt": "Marquei {label} como {state}.", "en": "Marked {label} as {state}."},
    "unmarked": {
        "pt": "Desmarquei {label}: de volta a «{state}».",
        "en": "Unmarked {label}: back to «{state}».",
    },
    "marked_rating": {"pt": " Nota: {rating}/10.", "en": " Rating: {rating}/10."},
    "marked_day_1": {"pt": " (ontem)", "en": " (yesterday)"},
    "marked_day_2": {"pt": " (anteontem)", "en": " (2 days ago)"},
    "mark_already": {
        "pt": "{label} já estava marcado como {state}: nada mudou.",
        "en": "{label} was already marked {state}: nothing changed.",
    },
    # "is Dune still on my to-watch list?", "já vi Duna?": the state, from storage
    "state_asked_left": {
        "pt": "{label} está na sua lista, ainda {state}.",
        "en": "{label} is on your list, still {state}.",
    },
    "state_asked_done": {
        "pt": "{label} está na sua lista, já marcado como {state}{rating}.",
        "en": "{label} is on your list, already marked {state}{rating}.",
    },
    # "what rating did I give Dune?", "o que eu achei de Duna?": what the user's marks kept
    "said_rated": {
        "pt": "Você deu nota {rating}/10 a {label}{when}{comment}.",
        "en": "You gave {label} {rating}/10{when}{comment}.",
    },
    "said_comment": {"pt": " e disse: «{comment}»", "en": " and said: «{comment}»"},
    "said_commented": {
        "pt": "Sobre {label}{when}, você disse: «{comment}».",
        "en": "Of {label}{when}, you said: «{comment}».",
    },
    "said_unrated": {
        "pt": "{label} está marcado como {state}{when}, sem nota: não guardei o que você achou.",
        "en": "{label} is marked {state}{when}, with no rating: I kept nothing of what you thought.",
    },
    "said_left": {
        "pt": "{label} ainda está {state} na sua lista: nenhuma nota guardada.",
        "en": "{label} is still {state} on your list: no rating kept.",
    },
    "said_missing": {
        "pt": "«{query}» não está na sua lista: não guardei nota nem comentário dele.",
        "en": "«{query}» is not on your list: I kept no rating or comment of it.",
    },
    "said_when": {"pt": " (visto em {day})", "en": " (seen on {day})"},
    "said_when_done": {"pt": " (em {day})", "en": " (on {day})"},
    "state_asked_missing": {
        "pt": "«{query}» não está na sua lista.",
        "en": "«{query}» is not on your list.",
    },
    "mark_not_found": {
        "pt": "Não achei «{query}» na sua lista: nada foi marcado.",
        "en": "I did not find «{query}» on your list: nothing was marked.",
    },
    # a title said seen that is not on the list: offered, saved seen on the user's yes
    "offer_seen": {
        "pt": "{label} não está na sua lista. Quer que eu salve como visto{rating}? (sim/não)",
        "en": "{label} isn't on your list. Save it as seen{rating}? (yes/no)",
    },
    "offer_seen_declined": {"pt": "Ok, não salvei nada.", "en": "OK, nothing was saved."},
    "offer_seen_rating": {"pt": ", com nota {rating}", "en": ", rating {rating}"},
    "offer_seen_button": {"pt": "Salvar como visto", "en": "Save as seen"},
    "offer_seen_saved": {
        "pt": "Salvei {label} como visto.",
        "en": "Saved {label} as seen.",
    },
    "mark_choose": {
        "pt": "Mais de um item combina com «{query}». Qual? Diga «vi o 1», «vi o 2»...",
        "en": "More than one item matches «{query}». Which one? Say «watched 1», «watched 2»...",
    },
    "mark_button": {"pt": "{mark} {number}. {label}", "en": "{mark} {number}. {label}"},
    "mark_button_stale": {
        "pt": "Esse botão é de uma lista antiga. Envie «lista tudo» e marque de novo.",
        "en": "That button belongs to an older list. Send «list» and mark it again.",
    },
    # lists by state
    "left_heading": {"pt": "Falta ver ({count}):", "en": "Left to watch ({count}):"},
    # "então X é o único que falta?": the yes or no, then the list that says why
    # "dos dois, qual ganhou nota maior?"
    "rated_highest": {"pt": "A maior nota: {label}.", "en": "Rated highest: {label}."},
    "rated_lowest": {"pt": "A menor nota: {label}.", "en": "Rated lowest: {label}."},
    "rated_none": {
        "pt": "Nenhum deles tem nota: {labels}.",
        "en": "None of them has a rating: {labels}.",
    },
    "unrated": {"pt": "sem nota", "en": "no rating"},
    "only_yes": {"pt": "Sim, só esse.", "en": "Yes, just that one."},
    "only_no_more": {"pt": "Não, tem mais.", "en": "No, there are more."},
    "only_no_other": {"pt": "Não, esse não está nela.", "en": "No, that one isn't on it."},
    "left_heading_link": {"pt": "Falta ler ({count}):", "en": "Left to read ({count}):"},
    "done_heading": {"pt": "Já vistos ({count}):", "en": "Seen ({count}):"},
    "done_heading_link": {"pt": "Já lidos ({count}):", "en": "Read ({count}):"},
    "done_heading_note": {"pt": "Feitas ({count}):", "en": "Done ({count}):"},
    "done_heading_period": {
        "pt": "Marcados {period} ({count}):",
        "en": "Marked {period} ({count}):",
    },
    "left_none": {
        "pt": "Nada por ver: você já marcou {what} ({count}) como visto.",
        "en": "Nothing left: you have marked {what} ({count}) as seen.",
    },
    "left_none_read": {
        "pt": "Nada por ler: você já marcou {what} ({count}) como lido.",
        "en": "Nothing left to read: you have marked {what} ({count}) as read.",
    },
    "left_none_saved": {
        "pt": "Você ainda não salvou {what}.",
        "en": "You have not saved {what} yet.",
    },
    "done_none": {
        "pt": "Você ainda não marcou {what} como visto.",
        "en": "You have not marked {what} as seen yet.",
    },
    "done_none_read": {
        "pt": "Você ainda não marcou {what} como lido.",
        "en": "You have not marked {what} as read yet.",
    },
    "done_none_period": {
        "pt": "Nada marcado como visto {period}.",
        "en": "Nothing marked as seen {period}.",
    },
    "what_all": {"pt": "tudo", "en": "everything"},
    "what_any": {"pt": "nenhum item", "en": "anything"},
    "what_watchable": {"pt": "filmes, séries ou vídeos", "en": "movies, shows or videos"},
    "what_watchable_all": {
        "pt": "todos os filmes, séries e vídeos",
        "en": "all your movies, shows and videos",
    },
    "count_done": {"pt": "Você já viu {items}.", "en": "You have seen {items}."},
    "count_done_read": {"pt": "Você já leu {items}.", "en": "You have read {items}."},
    "count_done_period": {
        "pt": "Você marcou {items} como visto {period}.",
        "en": "You marked {items} as seen {period}.",
    },
    "count_left": {"pt": "Falta ver {items}.", "en": "{items} left to watch."},
    "count_left_read": {"pt": "Falta ler {items}.", "en": "{items} left to read."},
    "period_today": {"pt": "hoje", "en": "today"},
    "period_yesterday": {"pt": "ontem", "en": "yesterday"},
    "period_this_week": {"pt": "esta semana", "en": "this week"},
    "period_last_7_days": {"pt": "nos últimos 7 dias", "en": "in the last 7 days"},
    "period_this_month": {"pt": "este mês", "en": "this month"},
    # the typed list when some are seen: the unseen first, then these
    "list_heading_seen": {
        "pt": "{heading} ({total}; {state}: {done}):",
        "en": "{heading} ({total}; {state}: {done}):",
    },
    "list_state_seen": {"pt": "vistos", "en": "seen"},
    "list_state_read": {"pt": "lidos", "en": "read"},
    "list_state_done": {"pt": "feitas", "en": "done"},
    "list_seen_part": {"pt": "Já vistos:", "en": "Seen:"},
    "list_read_part": {"pt": "Já lidos:", "en": "Read:"},
    "list_done_part": {"pt": "Feitas:", "en": "Done:"},
    # where to watch (JustWatch's data through TMDB: attribution required)
    "where_heading": {
        "pt": "Onde assistir {label} ({country}):",
        "en": "Where to watch {label} ({country}):",
    },
    "where_flatrate": {"pt": "Streaming", "en": "Stream"},
    "where_free": {"pt": "Grátis", "en": "Free"},
    "where_ads": {"pt": "Grátis com anúncios", "en": "Free with ads"},
    "where_rent": {"pt": "Alugar", "en": "Rent"},
    "where_buy": {"pt": "Comprar", "en": "Buy"},
    "where_heading_paid": {
        "pt": "Para alugar ou comprar {label} ({country}):",
        "en": "To rent or buy {label} ({country}):",
    },
    "where_no_paid": {
        "pt": "{label}: nada para alugar ou comprar no país {country}, segundo o JustWatch (via TMDB).",
        "en": "{label}: nothing to rent or buy in {country}, according to JustWatch (via TMDB).",
    },
    # "tem Dark na Netflix?": the answer first, then every offer
    "where_service_yes": {
        "pt": "Sim: {service} tem {label} ({country}).",
        "en": "Yes: {label} is on {service} ({country}).",
    },
    "where_service_no": {
        "pt": "{service} não tem {label} ({country}), segundo o JustWatch.",
        "en": "{label} is not on {service} in {country}, according to JustWatch.",
    },
    "where_source": {"pt": "Fonte: JustWatch, via TMDB.", "en": "Source: JustWatch, via TMDB."},
    "where_saved": {
        "pt": "Onde assistir ({country}): {offers} (JustWatch, via TMDB)",
        "en": "Where to watch ({country}): {offers} (JustWatch, via TMDB)",
    },
    "where_nowhere": {
        "pt": "{label}: nenhum streaming, aluguel ou compra no país {country}, segundo o JustWatch (via TMDB).",
        "en": "{label}: no streaming, rent or buy in {country}, according to JustWatch (via TMDB).",
    },
    "where_not_configured": {
        "pt": "Não consigo ver onde assistir: o TMDB não está configurado (TMDB_API_KEY). Nada mudou na sua lista.",
        "en": "I can't look up where to watch: TMDB is not configured (TMDB_API_KEY). Nothing on your list changed.",
    },
    "where_unavailable": {
        "pt": "Não consegui ver onde assistir agora: o TMDB não respondeu. Tente de novo daqui a pouco.",
        "en": "I could not look up where to watch now: TMDB did not answer. Try again in a moment.",
    },
    "where_no_match": {
        "pt": "Não achei «{label}» no TMDB para saber onde assistir.",
        "en": "I could not find «{label}» on TMDB to tell where to watch it.",
    },
    "where_not_watchable": {
        "pt": "{label} não é filme nem série: não sei onde assistir.",
        "en": "{label} is not a movie or a show: I can't tell where to watch it.",
    },
    # what to watch tonight, from the user's own unseen items
    "suggest_heading": {"pt": "Da sua lista, para ver:", "en": "From your list, to watch:"},
    "suggest_oldest": {"pt": "na lista há mais tempo", "en": "waiting longest on your list"},
    "suggest_seasons": {"pt": "{count} temporadas", "en": "{count} seasons"},
    "suggest_season": {"pt": "1 temporada", "en": "1 season"},
    "suggest_episode": {"pt": "episódios de {minutes}", "en": "{minutes} episodes"},
    "suggest_nothing_saved": {
        "pt": "Sua lista não tem filmes, séries nem vídeos para sugerir.",
        "en": "Your list has no movies, shows or videos to suggest.",
    },
    "suggest_nothing_unseen": {
        "pt": "Você já viu todos os filmes, séries e vídeos da sua lista: nada para sugerir.",
        "en": "You have seen every movie, show and video on your list: nothing to suggest.",
    },
    "suggest_nothing_fits": {
        "pt": "Nada na sua lista combina com isso ({count} para ver).",
        "en": "Nothing on your list fits that ({count} left to watch).",
    },
    # a filter the items saved without TMDB cannot be checked on: said, with the items
    "suggest_unchecked": {
        "pt": "Não sei {what} destes itens para ver (salvos sem TMDB), então não consigo conferir se combinam ({count}):",
        "en": "I don't know {what} of these items left to watch (saved without TMDB), so I can't check whether they fit ({count}):",
    },
    "suggest_unknown_genre": {"pt": "o gênero", "en": "the genre"},
    "suggest_unknown_length": {"pt": "a duração", "en": "the length"},
    "suggest_unknown_both": {"pt": "a duração nem o gênero", "en": "the length or genre"},
    "suggest_checked_none": {
        "pt": "Dos que eu sei, nenhum combina ({count}).",
        "en": "Of those I know about, none fits ({count}).",
    },
    # a type asked for with nothing unseen: the other types' unseen items instead
    "suggest_none_of_type": {
        "pt": "Não há {what} para ver na sua lista.",
        "en": "There are no {what} left to watch on your list.",
    },
    "suggest_none_fit": {
        "pt": "Entre {what} para ver, nada combina com isso.",
        "en": "None of the {what} left to watch fits that.",
    },
    "suggest_heading_instead": {
        "pt": "Do resto da sua lista, para ver:",
        "en": "From the rest of your list, to watch:",
    },
    # /pais
    "country_set": {
        "pt": "País para onde assistir: {country}.",
        "en": "Where-to-watch country: {country}.",
    },
    "country_usage": {
        "pt": "Use /pais seguido de duas letras (ex.: /pais BR, /pais US). Agora: {country}.",
        "en": "Use /country followed by two letters (e.g. /country US, /country BR). Now: {country}.",
    },
    # undo of a mark
    "undo_unmarked": {
        "pt": "Desfeito: {label} está de novo como «{state}».",
        "en": "Undone: {label} is «{state}» again.",
    },
}
