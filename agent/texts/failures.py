"""Failures and caveats, each naming its cause (DESIGN 9.2)."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "unknown_item": {
        "pt": "Não encontrei esse item entre os seus. Nada foi alterado.",
        "en": "That item is not one of yours. Nothing was changed.",
    },
    "pipeline_violation": {
        "pt": "Não posso fazer isso por este caminho. Nada foi alterado.",
        "en": "I cannot do that this way. Nothing was changed.",
    },
    "planner_failed": {
        "pt": "Não consegui entender o pedido com segurança. Nada foi alterado; tente reformular.",
        "en": "I could not understand the request safely. Nothing was changed; try rephrasing.",
    },
    "model_timeout": {
        "pt": "O assistente demorou demais para responder. Nada foi feito; tente de novo.",
        "en": "The assistant took too long to answer. Nothing was done; please try again.",
    },
    "model_unavailable": {
        "pt": "O assistente está indisponível agora. Nada foi feito; tente de novo em instantes.",
        "en": "The assistant is unavailable right now. Nothing was done; please try again shortly.",
    },
    "noop": {
        "pt": "Não há nada a fazer com essa mensagem.",
        "en": "There is nothing to do with that message.",
    },
    "write_blocked": {
        "pt": "Não salvei nada: não tive confiança suficiente nesta resposta. Tente dizer de outro jeito.",
        "en": "I saved nothing: I was not confident enough in this answer. Try saying it another way.",
    },
    "invalid_url": {"pt": "Endereço inválido: {reason}.", "en": "Invalid address: {reason}."},
    "link_refused": {
        "pt": "Não vou abrir esse endereço: {reason}.",
        "en": "I will not open that address: {reason}.",
    },
    "url_reason_credentials": {
        "pt": "links com usuário ou senha não são aceitos",
        "en": "links with a user name or password are not accepted",
    },
    "url_reason_scheme": {
        "pt": "só aceito links http e https",
        "en": "only http and https links are accepted",
    },
    "url_reason_too_long": {"pt": "o link é longo demais", "en": "the link is too long"},
    "url_reason_private": {
        "pt": "ele aponta para um endereço que não é público",
        "en": "it points to an address that is not public",
    },
    "url_reason_redirects": {
        "pt": "ele redireciona vezes demais",
        "en": "it redirects too many times",
    },
    "url_reason_invalid": {
        "pt": "não parece um endereço da web",
        "en": "it does not look like a web address",
    },
    "link_unavailable": {
        "pt": "Não consegui abrir a página agora.",
        "en": "I could not open the page right now.",
    },
    "tool_failed": {"pt": "Não foi possível: {reason}", "en": "That did not work: {reason}"},
    "quota_exceeded": {
        "pt": "Você atingiu o limite diário de uso do assistente. Comandos como «lista» continuam funcionando; o limite renova à meia-noite.",
        "en": "You reached today's assistant usage limit. Commands like «list» still work; the limit resets at midnight.",
    },
    "quota_exceeded_global": {
        "pt": "O assistente atingiu o limite diário de uso. Comandos como «lista» continuam funcionando.",
        "en": "The assistant reached its daily usage limit. Commands like «list» still work.",
    },
    "caveat_tmdb_unavailable": {
        "pt": "TMDB indisponível agora: salvo sem detalhes.",
        "en": "TMDB unavailable right now: saved without details.",
    },
    "caveat_tmdb_unavailable_read": {
        "pt": "TMDB indisponível agora: não consegui buscar detalhes.",
        "en": "TMDB unavailable right now: could not fetch details.",
    },
    "caveat_tmdb_no_match": {
        "pt": "Não encontrado no TMDB: salvo como escrito.",
        "en": "Not found on TMDB: saved as written.",
    },
    "caveat_link_unavailable": {
        "pt": "Página indisponível: salvo sem título.",
        "en": "Page unavailable: saved without a title.",
    },
    "caveat_planner_retry": {
        "pt": "Precisei de mais de uma tentativa para entender o pedido.",
        "en": "It took more than one attempt to understand the request.",
    },
    "caveat_coerced": {
        "pt": "Ajustei o formato de um dado ({detail}).",
        "en": "I adjusted the format of a value ({detail}).",
    },
    "caveat_implicit_match": {
        "pt": "Escolhi o item mais parecido com «{query}».",
        "en": "I picked the item closest to «{query}».",
    },
    "caveat_tmdb_not_configured": {
        "pt": "TMDB não configurado — defina TMDB_API_KEY: salvo sem detalhes.",
        "en": "TMDB not configured — set TMDB_API_KEY: saved without details.",
    },
    "caveat_tmdb_not_configured_read": {
        "pt": "TMDB não configurado — defina TMDB_API_KEY: sem detalhes.",
        "en": "TMDB not configured — set TMDB_API_KEY: no details.",
    },
    "tmdb_not_configured_lookup": {
        "pt": "Não consigo consultar o TMDB sobre «{query}»: ele não está configurado (falta TMDB_API_KEY).",
        "en": "I cannot look «{query}» up on TMDB: it is not configured (TMDB_API_KEY is missing).",
    },
    "model_key_rejected": {
        "pt": "O assistente não está configurado corretamente: a chave do modelo foi recusada. Nada foi feito; avise quem administra o Lembra.",
        "en": "The assistant is not configured correctly: the model key was refused. Nothing was done; tell whoever runs Lembra.",
    },
}
