"""The slash commands, one row each: the one table `ajuda`'s command line and the chat menus
(Telegram's `setMyCommands`, per language and for admins apart) are built from.

A row's `menu` is the menu's line; its `help` is how `ajuda` names it (None: in the menu
only, because the help already shows it in words or it is the help itself). Admin rows
are shown to admins alone; whether a command is allowed is decided in code
(agent/conversation/commands.py), never by a menu.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from agent.types import Language


@dataclass(frozen=True, slots=True)
class Command:
    name: str  # Telegram's rule: 1-32 of a-z, 0-9 and _
    menu: Mapping[Language, str]
    help: Mapping[Language, str] | None = None
    admin: bool = False


COMMANDS: tuple[Command, ...] = (
    Command("start", {"pt": "Começar e aviso de privacidade", "en": "Start and privacy notice"}),
    Command("help", {"pt": "O que eu sei fazer", "en": "What I can do"}),
    Command(
        "list",
        {"pt": "Listar o que guardei", "en": "List what I saved"},
    ),
    Command(
        "search",
        {"pt": "Procurar nos meus itens", "en": "Search my items"},
    ),
    Command(
        "undo",
        {"pt": "Desfazer a última ação", "en": "Undo the last action"},
        {"pt": "/undo (desfaz)", "en": "/undo"},
    ),
    Command(
        "remind",
        {"pt": "Criar um lembrete", "en": "Set a reminder"},
        {"pt": "/remind amanhã 9h pagar a conta", "en": "/remind tomorrow 9am pay the bill"},
    ),
    Command(
        "lembretes",
        {"pt": "Ver meus lembretes", "en": "See my reminders"},
        {"pt": "/lembretes", "en": "/lembretes (your reminders)"},
    ),
    Command(
        "tz",
        {"pt": "Trocar o fuso horário", "en": "Change the time zone"},
        {"pt": "/tz America/Sao_Paulo (fuso)", "en": "/tz Europe/Lisbon (time zone)"},
    ),
    Command(
        "pais",
        {"pt": "País de onde assistir (BR, US...)", "en": "Country for where to watch"},
        {"pt": "/pais US (onde assistir)", "en": "/pais US (where to watch)"},
    ),
    Command(
        "lang",
        {"pt": "Trocar o idioma (pt/en)", "en": "Change the language (pt/en)"},
        {"pt": "/lang en (idioma)", "en": "/lang pt (language)"},
    ),
    Command(
        "export",
        {"pt": "Baixar todos os meus dados", "en": "Download all my data"},
        {"pt": "/export (seus dados)", "en": "/export (your data)"},
    ),
    Command(
        "import",
        {"pt": "Importar uma lista ou um arquivo", "en": "Import a list or a file"},
        {"pt": "/import e uma lista de links", "en": "/import and a list of links"},
    ),
    Command(
        "memory",
        {"pt": "O que anotei sobre você", "en": "What I noted about you"},
        {"pt": "/memory (o que anotei sobre você)", "en": "/memory (what I noted about you)"},
    ),
    Command(
        "why",
        {"pt": "Por que respondi assim", "en": "Why I answered that way"},
        {"pt": "/why (por que respondi assim)", "en": "/why (why I answered so)"},
    ),
    Command(
        "id",
        {"pt": "Meu id, para o administrador", "en": "My id, for the admin"},
        {"pt": "/id (seu id)", "en": "/id (your id)"},
    ),
    Command(
        "cancel",
        {"pt": "Cancelar a ação pendente", "en": "Cancel the pending action"},
        {"pt": "/cancel", "en": "/cancel"},
    ),
    Command(
        "end",
        {"pt": "Encerrar a sessão", "en": "End the session"},
        {"pt": "/end", "en": "/end"},
    ),
    Command(
        "delete_all", {"pt": "Apagar tudo (com confirmação)", "en": "Delete everything (confirmed)"}
    ),
    Command(
        "forget",
        {"pt": "Apagar minha conta e dados", "en": "Delete my account and data"},
        {"pt": "/forget (apaga sua conta)", "en": "/forget (deletes your account)"},
    ),
    Command(
        "stats",
        {"pt": "Números de uso e confiança", "en": "Usage and confidence figures"},
        admin=True,
    ),
    Command("users", {"pt": "Usuários recentes", "en": "Recent users"}, admin=True),
    Command(
        "quota", {"pt": "Definir a cota de um usuário", "en": "Set a user's quota"}, admin=True
    ),
    Command(
        "ledger",
        {"pt": "Verificar o ledger de um usuário", "en": "Verify a user's ledger"},
        admin=True,
    ),
    Command(
        "dream", {"pt": "Consolidar a memória agora", "en": "Consolidate memory now"}, admin=True
    ),
    Command(
        "constitution",
        {"pt": "Ver ou trocar a constituição", "en": "Show or replace the constitution"},
        admin=True,
    ),
    Command(
        "allow", {"pt": "Aprovar um código de acesso", "en": "Approve an access code"}, admin=True
    ),
    Command(
        "deny", {"pt": "Tirar o acesso de alguém", "en": "Revoke someone's access"}, admin=True
    ),
)

USER_COMMANDS: tuple[Command, ...] = tuple(c for c in COMMANDS if not c.admin)
ADMIN_COMMANDS: tuple[Command, ...] = tuple(c for c in COMMANDS if c.admin)


def commands_line(language: Language) -> str:
    """`ajuda`'s last line: every user command the help names, in the table's order."""
    named = [c.help[language] for c in USER_COMMANDS if c.help is not None]
    head = "Comandos" if language == "pt" else "Commands"
    return f"{head}: " + ", ".join(named)
