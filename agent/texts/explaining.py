"""`/why` in plain words: what the last reply was, how it was decided, what was done."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "why_head": {
        "pt": "Sobre a minha última resposta: {outcome} (confiança {score}/100).",
        "en": "About my last answer: {outcome} (confidence {score}/100).",
    },
    "why_state_OK": {"pt": "feita", "en": "done"},
    "why_state_OK_warn": {"pt": "feita, com um aviso", "en": "done, with a warning"},
    "why_state_PARTIAL": {"pt": "feita em parte", "en": "partly done"},
    "why_state_AMBIGUOUS": {"pt": "esperando a sua escolha", "en": "waiting for your choice"},
    "why_state_FAIL": {"pt": "não feita", "en": "not done"},
    "why_caveats": {"pt": "Ressalvas: {caveats}", "en": "Caveats: {caveats}"},
    "why_done": {"pt": "O que fiz: {done}.", "en": "What I did: {done}."},
    "why_nothing_done": {
        "pt": "O que fiz: nada além de responder.",
        "en": "What I did: just answer.",
    },
    "why_how": {"pt": "Como decidi: {how}.", "en": "How I decided: {how}."},
    "why_no_model": {
        "pt": "Não consultei o modelo de linguagem.",
        "en": "I did not ask the language model.",
    },
    "why_model": {
        "pt": "Pedidos ao modelo de linguagem: {count}.",
        "en": "Requests to the language model: {count}.",
    },
    "why_belief_noted": {"pt": "anotar uma preferência sua", "en": "note a preference of yours"},
    "why_checked": {
        "pt": "O que conferi: o que a resposta diz da sua lista bate com os seus itens salvos.",
        "en": "What I checked: what the answer says about your list matches your saved items.",
    },
    "why_unchecked": {
        "pt": "O que não conferi: a resposta traz opinião, conversa ou fatos que o modelo sabe "
        "por conta própria; isso não dá para conferir com os seus itens.",
        "en": "What I did not check: the answer has opinion, conversation or facts the model "
        "knows on its own; those cannot be checked against your items.",
    },
    "why_stopped": {"pt": "Impedi: {blocks}.", "en": "I stopped: {blocks}."},
    "why_receipt": {
        "pt": "Ficou no registro verificável: {receipts}.",
        "en": "Kept in the verifiable record: {receipts}.",
    },
    "why_reasoning": {"pt": "Minha nota: «{note}»", "en": "My note: «{note}»"},
    # what each tool does, as a user would say it
    "tool_save_note": {"pt": "salvar uma nota", "en": "save a note"},
    "tool_save_movie": {"pt": "salvar um filme", "en": "save a movie"},
    "tool_save_tv_show": {"pt": "salvar uma série", "en": "save a TV show"},
    "tool_save_video": {"pt": "salvar um vídeo", "en": "save a video"},
    "tool_save_link": {"pt": "salvar um link", "en": "save a link"},
    "tool_enrich_movie": {"pt": "procurar o filme no TMDB", "en": "look the movie up on TMDB"},
    "tool_enrich_tv_show": {"pt": "procurar a série no TMDB", "en": "look the show up on TMDB"},
    "tool_tmdb_unanswered": {
        "pt": "tentar procurar no TMDB, que não respondeu",
        "en": "try to look it up on TMDB, which did not answer",
    },
    "tool_enrich_link": {"pt": "abrir a página do link", "en": "open the link's page"},
    "tool_search_items": {"pt": "procurar nos seus itens", "en": "search your items"},
    "tool_delete_item": {"pt": "apagar um item", "en": "delete an item"},
    "tool_delete_all_memories": {"pt": "apagar tudo", "en": "delete everything"},
    "tool_update_item": {"pt": "corrigir um item", "en": "correct an item"},
    "tool_remember": {"pt": "anotar algo sobre você", "en": "note something about you"},
    "tool_bookmark": {"pt": "marcar um item", "en": "bookmark an item"},
    "tool_request_clarification": {"pt": "perguntar a você", "en": "ask you"},
    "tool_simulate": {"pt": "simular uma ação", "en": "simulate an action"},
    "tool_log_reasoning": {
        "pt": "anotar por que escolhi o passo",
        "en": "note why I chose the step",
    },
    # the rules a turn kept, in words (anything not listed here is not shown)
    "rule_deterministic_intent": {
        "pt": "entendi pelas regras do programa",
        "en": "I understood it by the program's rules",
    },
    "rule_explicit_confirmation": {
        "pt": "só agi depois do seu «sim»",
        "en": "I acted only after your «yes»",
    },
    "rule_confirmation_required": {
        "pt": "pedi confirmação antes de agir",
        "en": "I asked you to confirm first",
    },
    "rule_dry_run_preview": {
        "pt": "mostrei antes o que seria apagado",
        "en": "I showed what would be deleted first",
    },
    "rule_dedup": {"pt": "conferi se já estava salvo", "en": "I checked it was not saved already"},
    "rule_user_scope": {
        "pt": "procurei só entre os seus itens",
        "en": "I searched only your items",
    },
    "rule_save_when_asked": {
        "pt": "salvei porque você pediu",
        "en": "I saved it because you asked",
    },
    "rule_choice_resolved_in_code": {
        "pt": "usei a opção que você escolheu",
        "en": "I used the option you chose",
    },
    "rule_public_address_only": {
        "pt": "só abro endereços públicos",
        "en": "I only open public addresses",
    },
    "rule_argument_coerced": {
        "pt": "ajustei o formato de um dado",
        "en": "I adjusted the format of a value",
    },
    "rule_url_scheme_added": {
        "pt": "completei o endereço com https://",
        "en": "I completed the address with https://",
    },
    "rule_video_url_as_video": {
        "pt": "guardei o link de vídeo como vídeo",
        "en": "I kept the video link as a video",
    },
    "rule_pending_answered_by_planner": {
        "pt": "sua mensagem respondeu à pergunta em aberto",
        "en": "your message answered the open question",
    },
    "rule_undo_in_code": {
        "pt": "desfiz pelo registro, sem o modelo",
        "en": "I undid it from the record, without the model",
    },
    "rule_reminder_in_code": {
        "pt": "li o lembrete pelas regras do programa",
        "en": "I read the reminder by the program's rules",
    },
    "rule_risk_policy": {"pt": "avaliei o risco antes de agir", "en": "I weighed the risk first"},
    "rule_save_offered_not_done": {
        "pt": "não salvei sem você pedir; ofereci guardar",
        "en": "I saved nothing you did not ask for; I offered to keep it",
    },
    "rule_type_guessed": {
        "pt": "escolhi o tipo pelas palavras (dá para corrigir)",
        "en": "I picked the type from the words (you can correct it)",
    },
    "rule_type_corrected_in_code": {
        "pt": "mudei o tipo como você disse",
        "en": "I changed the type as you said",
    },
    "rule_clarification_asked": {"pt": "perguntei antes de agir", "en": "I asked before acting"},
    "rule_clarification_answered": {"pt": "usei a sua resposta", "en": "I used your answer"},
    "rule_emoji_removed": {
        "pt": "tirei emojis do texto do modelo",
        "en": "I removed emojis from the model's text",
    },
    "rule_data_tag_removed": {
        "pt": "tirei marcações internas do texto do modelo",
        "en": "I removed internal tags from the model's text",
    },
    "rule_offer_to_act_asked": {
        "pt": "o modelo ofereceu algo que só faço se você pedir, então perguntei com opções",
        "en": "the model offered something I only do when you ask, so I asked with options",
    },
    "rule_tmdb_language": {"pt": "busquei no TMDB em {value}", "en": "I searched TMDB in {value}"},
    "rule_ungrounded": {
        "pt": "descartei {value} que não estava na conversa",
        "en": "I dropped {value} that was not in the conversation",
    },
    "rule_model_fallback": {
        "pt": "o modelo falhou e usei o modo simples",
        "en": "the model failed, so I used simple mode",
    },
    "rule_planner_timeout": {"pt": "o modelo demorou demais", "en": "the model took too long"},
    "rule_planner_unavailable": {
        "pt": "o modelo estava fora do ar",
        "en": "the model was unavailable",
    },
    "rule_planner_quota": {"pt": "o limite de uso acabou", "en": "the usage limit ran out"},
    "rule_planner_failed": {
        "pt": "o modelo não deu uma resposta válida",
        "en": "the model gave no valid answer",
    },
    "rule_planner_violation": {
        "pt": "o modelo pediu algo não permitido",
        "en": "the model asked for something not allowed",
    },
    "rule_planner_blocked": {
        "pt": "o modelo apontou um item que não é seu",
        "en": "the model pointed at an item that is not yours",
    },
    "rule_ignored": {"pt": "não consegui seguir uma regra", "en": "I could not keep a rule"},
    # a fact dropped because nobody said it (ungrounded:FIELD)
    "field_year": {"pt": "um ano", "en": "a year"},
    "field_tmdb_id": {"pt": "um id do TMDB", "en": "a TMDB id"},
    "field_title": {"pt": "um título", "en": "a title"},
    "field_description": {"pt": "uma descrição", "en": "a description"},
    "field_other": {"pt": "um dado", "en": "a value"},
    # what stopped a reply (absolute blocks)
    "block_pipeline_violation": {
        "pt": "um pedido do modelo que não é permitido",
        "en": "a request of the model that is not allowed",
    },
    "block_unknown_item": {"pt": "um item que não é seu", "en": "an item that is not yours"},
    "block_undefined_argument": {
        "pt": "um dado que o pedido não tem",
        "en": "a value the request does not have",
    },
    "block_cross_user": {
        "pt": "dados de outra pessoa",
        "en": "someone else's data",
    },
    # committed effects, by ledger event
    "event_item_saved": {"pt": "item salvo", "en": "item saved"},
    "event_item_deleted": {"pt": "item apagado", "en": "item deleted"},
    "event_all_deleted": {"pt": "tudo apagado", "en": "everything deleted"},
    "event_item_updated": {"pt": "item alterado", "en": "item changed"},
    "event_item_marked": {
        "pt": "item marcado (visto, lido, feito)",
        "en": "item marked (seen, read, done)",
    },
    "event_undone": {"pt": "desfeito", "en": "undone"},
    "event_reminder_set": {"pt": "lembrete marcado", "en": "reminder set"},
    "event_reminder_cancelled": {"pt": "lembrete cancelado", "en": "reminder cancelled"},
    "event_reminder_changed": {"pt": "lembrete mudado", "en": "reminder changed"},
    "event_bookmark_set": {"pt": "marcador", "en": "bookmark"},
    "event_memory_noted": {"pt": "anotação sobre você", "en": "note about you"},
    "event_constitution_updated": {"pt": "regras atualizadas", "en": "rules updated"},
    "event_user_forgotten": {"pt": "conta apagada", "en": "account deleted"},
    "event_other": {"pt": "efeito", "en": "effect"},
}
