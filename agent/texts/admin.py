"""Admin replies over chat (/stats, /users, /quota, /ledger, /dream, /constitution), in the admin's
language; `lembra stats` and `lembra dream` print the English ones."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "admin_stats_users": {"pt": "usuários: {n}", "en": "users: {n}"},
    "admin_stats_items": {"pt": "itens: {n}", "en": "items: {n}"},
    "admin_stats_index_ready": {"pt": "índice de busca: pronto", "en": "search index: ready"},
    "admin_stats_index_catching_up": {
        "pt": "índice de busca: indexando, {done} de {of} itens ({share}); a busca lê o resto",
        "en": "search index: catching up, {done} of {of} items ({share}); searches read the rest",
    },
    "admin_stats_messages": {"pt": "mensagens hoje: {n}", "en": "messages today: {n}"},
    "admin_stats_no_model": {
        "pt": "respondidas sem o modelo: {share}",
        "en": "answered without the model: {share}",
    },
    "admin_stats_fallbacks": {
        "pt": "modelo fora do ar hoje: {served} turnos atendidos pelo planejador offline, {unserved} não",
        "en": "model down today: {served} turns served by the offline planner, {unserved} not",
    },
    "admin_stats_tokens": {"pt": "tokens hoje: {n}", "en": "tokens today: {n}"},
    "admin_stats_states": {"pt": "estados hoje: {states}", "en": "states today: {states}"},
    "admin_stats_kinds": {
        "pt": "sessões hoje: chat {chat} ({chat_tokens} tokens de prompt), admin {admin}, "
        "segundo plano {calls} ao modelo ({tokens} tokens)",
        "en": "sessions today: chat {chat} ({chat_tokens} prompt tokens), admin {admin}, "
        "background {calls} ({tokens} tokens)",
    },
    "admin_stats_calibration": {
        "pt": "calibração ({model}): média |palpite-real| {mean}, dentro da margem {within} "
        "em {n} primeiras tentativas",
        "en": "calibration ({model}): mean |guess-real| {mean}, within margin {within} "
        "over {n} first attempts",
    },
    "admin_stats_model_cost": {
        "pt": "modelo {model} hoje: {requests} pedidos; por pedido {evaluated} tokens de prompt "
        "avaliados (de {sent} enviados, {cached} do cache do servidor), {generated} gerados",
        "en": "model {model} today: {requests} requests; per request {evaluated} prompt tokens "
        "evaluated (of {sent} sent, {cached} from the server's cache), {generated} generated",
    },
    "admin_user_line": {
        "pt": "{user} · {user_language} · {items} · {status}",
        "en": "{user} · {user_language} · {items} · {status}",
    },
    "admin_active": {"pt": "ativo", "en": "active"},
    "admin_inactive": {"pt": "inativo", "en": "inactive"},
    "admin_quota_usage": {
        "pt": "/quota <id do usuário> <tokens>",
        "en": "/quota <user id> <tokens>",
    },
    "admin_quota_set": {"pt": "{user}: {tokens} tokens/dia", "en": "{user}: {tokens} tokens/day"},
    "admin_unknown_user": {"pt": "{user}: usuário desconhecido", "en": "{user}: unknown user"},
    "admin_ledger_empty": {
        "pt": "{stream}: nenhum evento (nada a verificar)",
        "en": "{stream}: no events (nothing to verify)",
    },
    "admin_ledger_ok": {"pt": "{stream}: ok ({events})", "en": "{stream}: ok ({events})"},
    "admin_ledger_broken": {
        "pt": "{stream}: QUEBRADO na seq {seq} ({event}): {reason}",
        "en": "{stream}: BROKEN at seq {seq} ({event}): {reason}",
    },
    "admin_dream_done": {
        "pt": "{user}: consolidado ({trigger}): {conversations}, {pending}, contadores {counters}",
        "en": "{user}: consolidated ({trigger}): {conversations}, {pending}, counters {counters}",
    },
    "admin_dream_repaired": {"pt": "corrigidos", "en": "repaired"},
    "admin_dream_busy": {
        "pt": "{user}: ocupado (um turno ou outra consolidação tem a vez), não consolidado; "
        "tente de novo em instantes",
        "en": "{user}: busy (a turn or another consolidation holds the lease), not consolidated; "
        "try again shortly",
    },
    "admin_dream_unknown": {
        "pt": "{user}: usuário desconhecido (esse id não existe), não consolidado",
        "en": "{user}: unknown user (no such user id), not consolidated",
    },
    "admin_constitution_unchanged": {
        "pt": "Constituição inalterada: {reason}\n{usage}",
        "en": "constitution unchanged: {reason}\n{usage}",
    },
    "admin_constitution_usage": {
        "pt": "/constitution [<texto> | set <json> | rollback]",
        "en": "/constitution [<text> | set <json> | rollback]",
    },
    "admin_constitution_structure": {"pt": "estrutura", "en": "structure"},
}
