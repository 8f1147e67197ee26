"""The `lembra` command line (DESIGN section 6).

Each command imports what it runs when it runs: the parser itself loads no settings,
database or model code, so `lembra --version` and `--help` answer at once.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import io
import json
import os
import signal
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from bot.cli.datacmds import add_commands as add_data_commands
from config.errors import LembraError
from config.version import lembra_version

if TYPE_CHECKING:
    from agent.conversation.runtime import Runtime
    from config.logging import LogFormat
    from config.settings import Settings
    from storage.ledger import Head

Command = Callable[[argparse.Namespace, "Settings"], Awaitable[int]]


def _announce_planner(runtime: Runtime) -> Runtime:
    """Say at start when no model is configured (DESIGN 7), on stderr so stdout stays scriptable."""
    if runtime.offline:
        print(
            "lembra: no model configured: the offline rule-based planner is active",
            file=sys.stderr,
            flush=True,
        )
    elif runtime.deps.settings.llm_output_mode == "auto" and runtime.deps.model is not None:
        print(
            f"lembra: LLM_OUTPUT_MODE=auto: the model server gets {runtime.deps.model.output_mode}",
            file=sys.stderr,
            flush=True,
        )
    return runtime


def _user_arg(value: str) -> str:
    """`--user` of every command: a bare id is a console user (`u1` -> `cli:u1`), `tg:123` is kept."""
    from agent.types import namespaced_user_id

    try:
        return namespaced_user_id(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive_int(value: str) -> int:
    """A count from 1 up; anything else is a usage error naming the value."""
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1 up, got {value!r}")
    return int(value)


def _console_user_arg(value: str) -> str:
    """`lembra chat --user`: resolved like every `--user`, and it must be a console user."""
    from bot.cli.console import console_user_id

    try:
        return console_user_id(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


async def _chat(args: argparse.Namespace, settings: Settings) -> int:
    from agent.assembly import open_deps
    from agent.conversation.runtime import Runtime
    from bot.cli.console import run_console

    async with open_deps(settings) as deps:
        await deps.db.ping()
        runtime = _announce_planner(Runtime(deps))
        return await run_console(runtime, user=args.user, show_meta=args.show_meta)


async def _classify(args: argparse.Namespace, settings: Settings) -> int:
    """One message a line on stdin -> one JSON object a line on stdout; no database, no model."""
    # a stateless filter: let SIGTERM end it at once, even while it waits for input
    with contextlib.suppress(NotImplementedError, RuntimeError):
        asyncio.get_running_loop().remove_signal_handler(signal.SIGTERM)
    from agent.understanding.intent import IntentClassifier

    if isinstance(sys.stdin, io.TextIOWrapper):  # bytes that are not UTF-8 become U+FFFD
        sys.stdin.reconfigure(encoding="utf-8", errors="replace")
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(encoding="utf-8")
    classifier = IntentClassifier()
    try:
        for line in iter(sys.stdin.readline, ""):
            intent = classifier.classify(line.rstrip("\r\n"))
            record = {
                "text": intent.text,
                "action": intent.action,
                "entities": dict(intent.entities),
                "score": intent.score,
            }
            print(json.dumps(record, ensure_ascii=False), flush=True)
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


async def _serve(args: argparse.Namespace, settings: Settings) -> int:
    from agent.assembly import open_deps
    from agent.conversation.access import warn_if_open
    from agent.conversation.runtime import Runtime
    from bot.telegram.setup import use_timedelta_periods
    from bot.web.app import serve

    settings.require_channels()
    warn_if_open(settings)
    use_timedelta_periods()
    # SIGTERM is the normal way to stop a service: a clean shutdown, then exit 0
    stop = asyncio.Event()
    with contextlib.suppress(NotImplementedError, RuntimeError):
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with open_deps(settings) as deps:
        runtime = _announce_planner(Runtime(deps))
        keep_start_up_out_of_collections()
        await serve(deps, runtime.handle, stop=stop)
    return 0


def keep_start_up_out_of_collections() -> None:
    """What start-up made stays out of every later full garbage collection (`gc.freeze`).

    A full collection walks every tracked object: with the libraries a serving process
    loads, one took 140-235 ms, holding every chat (issue 47, measured beside a catch-up);
    frozen, it walks only what turns made since.
    """
    gc.collect()
    gc.freeze()


async def _telegram(args: argparse.Namespace, settings: Settings) -> int:
    from agent.assembly import open_deps
    from agent.conversation.access import warn_if_open
    from agent.conversation.runtime import Runtime
    from bot.delivery.lifecycle import UpdateLifecycle
    from bot.telegram.channel import run_polling
    from bot.telegram.setup import set_webhook, use_timedelta_periods, webhook_info

    settings.require_telegram()
    use_timedelta_periods()
    if args.info:
        print("\n".join(await webhook_info(settings)))
        return 0
    if args.set_webhook:
        url = await set_webhook(settings, drop_pending_updates=args.drop_pending_updates)
        print(f"lembra: webhook registered at {url} (and the command menus)", file=sys.stderr)
        return 0
    warn_if_open(settings)
    async with open_deps(settings) as deps:
        lifecycle = UpdateLifecycle(deps, _announce_planner(Runtime(deps)).handle)
        keep_start_up_out_of_collections()
        await run_polling(deps, lifecycle, drop_pending_updates=args.drop_pending_updates)
    return 0


async def _check(args: argparse.Namespace, settings: Settings) -> int:
    """One line per service (DESIGN 11.6); 1 when any fails, each failure naming its setting."""
    from bot.probes import run_probes

    probes = await run_probes(settings, serving=args.serve)
    for probe in probes:
        print(probe.line(), flush=True)
    return 1 if any(not probe.ok for probe in probes) else 0


async def _users(args: argparse.Namespace, settings: Settings) -> int:
    """`lembra users allow CODE|ID`, `deny ID`, `list`: approvals beside ALLOWED_USER_IDS."""
    from agent.assembly import open_deps
    from agent.conversation.access import approve, revoke

    async with open_deps(settings) as deps:
        if args.users_command == "list":
            for user_id in sorted(settings.admins):
                print(f"{user_id}  admin (ADMIN_USER_IDS)")
            for user_id in sorted(settings.allowed - settings.admins):
                print(f"{user_id}  listed (ALLOWED_USER_IDS)")
            for doc in await deps.db.allowed.all():
                print(f"{doc.id}  approved by {doc.added_by}")
            if not settings.allowed:
                print("note: ALLOWED_USER_IDS is empty, so anyone may use the bot")
            return 0
        if args.users_command == "allow":
            change = await approve(deps, args.who, by="cli")
        else:
            change = await revoke(deps, args.who)
    said = {
        "added": "may use the bot from now on",
        "already": "was already approved",
        "listed": "is in ALLOWED_USER_IDS: change it there (and restart)",
        "admin": "is an admin (ADMIN_USER_IDS): always allowed",
        "removed": "may no longer use the bot",
        "absent": "was not approved",
    }
    if change.outcome == "unknown_code":
        print(
            f"lembra: {args.who!r} is no pairing code given in the last 24 hours", file=sys.stderr
        )
        return 1
    if change.outcome == "invalid":
        wanted = "a pairing code (ABCD-EFGH) or an id" if args.users_command == "allow" else "an id"
        print(f"lembra: {args.who!r} is not {wanted} (tg:123, wa:5511...)", file=sys.stderr)
        return 2
    print(f"{change.user_id} {said[change.outcome]}")
    return 0


async def _dream(args: argparse.Namespace, settings: Settings) -> int:
    from agent.assembly import open_deps
    from agent.conversation.background import background_llm
    from agent.memory.consolidation import consolidate_now

    async with open_deps(settings) as deps:
        targets = [args.user] if args.user else await deps.db.users.all_ids()
        skipped = 0
        for user_id in targets:
            ran, line = await consolidate_now(deps, user_id, use_model=background_llm(deps))
            skipped += not ran
            print(line)
    return 1 if skipped else 0


async def _handovers(args: argparse.Namespace, settings: Settings) -> int:
    from zoneinfo import ZoneInfo

    from agent.assembly import open_deps
    from agent.memory.handoverlist import describe, last_handovers

    async with open_deps(settings) as deps:
        user = await deps.db.users.get(args.user)
        if user is None:
            print(f"{args.user}: unknown user (no such user id)", file=sys.stderr)
            return 1
        docs = await last_handovers(deps, args.user, args.limit)
        if not docs:
            print(f"{args.user}: no handovers yet")
        for doc in docs:
            print(describe(doc, ZoneInfo(user.timezone)))
    return 0


async def _stats(args: argparse.Namespace, settings: Settings) -> int:
    from zoneinfo import ZoneInfo

    from agent.assembly import open_deps
    from agent.conversation.commands import stats_text

    async with open_deps(settings) as deps:
        day = deps.clock.now().astimezone(ZoneInfo(settings.default_timezone)).date().isoformat()
        print(await stats_text(deps, day))
    return 0


async def _replay(args: argparse.Namespace, settings: Settings) -> int:
    from bot.cli.replay import replay_files

    return await replay_files(args.files)


async def _ledger_verify(args: argparse.Namespace, settings: Settings) -> int:
    from agent.assembly import storage_config
    from storage import open_storage

    heads: dict[str, Head] = {}
    if args.against:
        heads = _read_heads(Path(args.against))
    # verifying never makes a key: without one, signatures cannot be checked and we say so
    config = replace(storage_config(settings), create_signing_key=False)
    async with open_storage(config) as db:
        if db.ledger.signer is None:
            print("no ledger signing key found: signatures not checked")
        streams = [args.user] if args.user else sorted(set(await db.ledger.streams()) | set(heads))
        failures = 0
        for stream in streams:
            result = await db.ledger.verify(stream, against=heads.get(stream))
            print(result.describe())
            failures += 0 if result.ok else 1
    return 1 if failures else 0


async def _doctor(args: argparse.Namespace, settings: Settings) -> int:
    from agent.assembly import open_deps
    from agent.trust.audit import audit_user, repair_user

    async with open_deps(settings) as deps:
        targets = [args.user] if args.user else await deps.db.users.all_ids()
        bad = 0
        for user_id in targets:
            found = await audit_user(deps, user_id)
            if not found.ok and args.repair:
                found = await repair_user(deps, found)
            bad += not found.ok
            if not found.ok or args.user:
                print(json.dumps(found.to_json(), sort_keys=True))
        print(json.dumps({"ok": bad == 0, "users": len(targets), "with_problems": bad}))
    return 1 if bad else 0


HEADS_SHAPE = '{"<user id>": {"seq": <int>, "hash": "<sha256 hex>"}, ...}'


def _read_heads(path: Path) -> dict[str, Head]:
    """The saved heads `lembra ledger head` printed; a clear error naming that shape otherwise."""
    from storage.ledger import Head
    from storage.signing import head_signature_ok

    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise LembraError(f"cannot read saved heads from {path}: {exc.strerror or exc}") from None
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError
        raise LembraError(f"cannot read saved heads from {path}: not JSON ({exc})") from None
    expected = f"expected the output of `lembra ledger head`, {HEADS_SHAPE}"
    if not isinstance(raw, dict):
        raise LembraError(
            f"cannot read saved heads from {path}: {expected}; got a JSON {_json_kind(raw)}"
        )
    heads: dict[str, Head] = {}
    for stream, head in raw.items():
        seq = head.get("seq") if isinstance(head, dict) else None
        digest = head.get("hash") if isinstance(head, dict) else None
        if (
            not isinstance(seq, int)
            or isinstance(seq, bool)
            or seq < 0
            or not isinstance(digest, str)
        ):
            raise LembraError(
                f"cannot read saved heads from {path}: {expected}; "
                f"the entry for {stream!r} is {json.dumps(head)[:80]}"
            )
        if isinstance(head.get("sig"), str) and not head_signature_ok(
            str(head.get("key", "")), stream, seq, digest, head["sig"]
        ):
            raise LembraError(
                f"the saved head for {stream!r} in {path} does not match its signature (edited)"
            )
        heads[stream] = Head(stream, seq, digest)
    return heads


def _json_kind(value: object) -> str:
    kinds = {list: "array", str: "string", bool: "boolean", int: "number", float: "number"}
    return "null" if value is None else kinds.get(type(value), type(value).__name__)


async def _ledger_head(args: argparse.Namespace, settings: Settings) -> int:
    from agent.assembly import storage_config
    from storage import open_storage

    config = replace(storage_config(settings), create_signing_key=False)
    async with open_storage(config) as db:
        heads = await db.ledger.heads()
        signer = db.ledger.signer
    if args.signed and signer is None:
        raise LembraError(
            "no ledger signing key: set LEDGER_SIGNING_KEY_FILE or start Lembra once to make one"
        )
    shown: dict[str, dict[str, object]] = {}
    for h in heads:
        shown[h.stream] = h.to_json()
        if args.signed and signer is not None:
            sig = signer.sign_head(h.stream, h.seq, h.hash)
            shown[h.stream] |= {"sig": sig, "key": signer.public_hex}
    print(json.dumps(shown, indent=2, sort_keys=True))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lembra", description="Lembra, a personal memory assistant."
    )
    parser.add_argument("--version", action="version", version=f"lembra {lembra_version()}")
    sub = parser.add_subparsers(dest="command", required=True)

    chat = sub.add_parser("chat", help="talk to Lembra in the console")
    chat.add_argument(
        "--user",
        type=_console_user_arg,
        default="cli:local",
        help="console user: `alice` or `cli:alice` (default cli:local)",
    )
    chat.add_argument(
        "--show-meta", action="store_true", help="print state, score and tools per reply"
    )
    chat.set_defaults(run=_chat)

    sub.add_parser(
        "serve",
        help="run the web app: Telegram and WhatsApp webhooks, /healthz, /readyz, /metrics",
        description="Serve the webhooks of the configured channels on HOST:PORT. At start the "
        "command menus are set and every service is checked (as `lembra check`); each "
        "failure is one warning line naming the setting to change.",
    ).set_defaults(run=_serve)
    check = sub.add_parser(
        "check",
        help="check every configured service, one line each; exit 1 when one fails",
        description="Probe Telegram (getMe, getWebhookInfo), WhatsApp, the model, TMDB and "
        "transcription with one small request each. Exit 0 when all pass, 1 when one fails; "
        "each failure names the setting to change.",
    )
    check.add_argument(
        "--serve",
        action="store_true",
        help="check as `lembra serve` needs it (a Telegram webhook must be set)",
    )
    check.set_defaults(run=_check)
    telegram = sub.add_parser("telegram", help="Telegram polling or webhook registration")
    mode = telegram.add_mutually_exclusive_group(required=True)
    mode.add_argument(
        "--polling",
        action="store_true",
        help="receive updates by long polling (local development; removes the webhook)",
    )
    mode.add_argument(
        "--set-webhook",
        action="store_true",
        help="register TELEGRAM_WEBHOOK_URL with TELEGRAM_WEBHOOK_SECRET, and the command menus",
    )
    mode.add_argument("--info", action="store_true", help="print what getWebhookInfo says")
    telegram.add_argument(
        "--drop-pending-updates",
        action="store_true",
        help="discard the updates Telegram holds for the bot (with --polling or --set-webhook)",
    )
    telegram.set_defaults(run=_telegram)

    users = sub.add_parser(
        "users",
        help="who may use the bot: approve a pairing code or an id, revoke, list",
        description="Approvals live in the database beside ALLOWED_USER_IDS and hold at once, "
        "without a restart. A sender not allowed gets a pairing code in the refusal.",
    )
    users_sub = users.add_subparsers(dest="users_command", required=True)
    allow = users_sub.add_parser("allow", help="let in the sender of a pairing code, or an id")
    allow.add_argument("who", help="the code the sender got (ABCD-EFGH), or tg:123 / wa:5511...")
    allow.set_defaults(run=_users)
    deny = users_sub.add_parser("deny", help="take an approval back")
    deny.add_argument("who", help="the id: tg:123 or wa:5511...")
    deny.set_defaults(run=_users)
    users_sub.add_parser("list", help="admins, ALLOWED_USER_IDS and approvals").set_defaults(
        run=_users
    )

    sub.add_parser(
        "classify",
        help="classify messages from stdin (one a line) into JSON lines",
        description="One message a line on stdin; one JSON object a line on stdout: "
        '{"text", "action", "entities", "score"}. No database, no model.',
    ).set_defaults(run=_classify)
    replay = sub.add_parser("replay", help="run transcript files")
    replay.add_argument("files", nargs="+", help="transcript YAML files (tests/transcripts/)")
    replay.set_defaults(run=_replay)

    ledger = sub.add_parser("ledger", help="verify the ledger or print its heads")
    ledger_sub = ledger.add_subparsers(dest="ledger_command", required=True)
    verify = ledger_sub.add_parser("verify", help="verify every chain (or one user's)")
    verify.add_argument(
        "--user", type=_user_arg, help="one user's chain: `u1` (= cli:u1) or `tg:123`"
    )
    verify.add_argument("--against", help="a JSON file of saved heads (from `lembra ledger head`)")
    verify.set_defaults(run=_ledger_verify)
    head = ledger_sub.add_parser("head", help="print each stream's head")
    head.add_argument(
        "--signed",
        action="store_true",
        help="sign each head with the ledger's key, to keep elsewhere",
    )
    head.set_defaults(run=_ledger_head)

    doctor = sub.add_parser(
        "doctor",
        help="items without their ledger event, counters that disagree, unfinished effects",
    )
    doctor.add_argument("--user", type=_user_arg, help="one user: `u1` (= cli:u1) or `tg:123`")
    doctor.add_argument("--repair", action="store_true", help="finish, record and recount")
    doctor.set_defaults(run=_doctor)

    dream = sub.add_parser("dream", help="run memory consolidation now")
    dream.add_argument("--user", type=_user_arg, help="one user: `u1` (= cli:u1) or `tg:123`")
    dream.set_defaults(run=_dream)
    handovers = sub.add_parser("handovers", help="a user's last session handovers, newest first")
    handovers.add_argument(
        "--user", type=_user_arg, required=True, help="`u1` (= cli:u1) or `tg:123`"
    )
    handovers.add_argument("--limit", type=_positive_int, default=5, help="how many (default 5)")
    handovers.set_defaults(run=_handovers)
    sub.add_parser(
        "stats",
        help="usage, confidence and calibration figures",
        description="Users, items, today's messages and tokens, confidence states and the "
        "model's calibration, as the admin's /stats shows them.",
    ).set_defaults(run=_stats)
    add_data_commands(sub)
    return parser


async def _run_cancellable(coro: Awaitable[int]) -> int:
    """Run `coro`, turning SIGTERM and Ctrl+C into a cancellation so cleanup (`finally`)
    runs; the exit status is the shell's 128 + signal number (143, 130)."""
    task: asyncio.Task[int] = asyncio.ensure_future(coro)
    loop = asyncio.get_running_loop()
    received: list[int] = []

    def stop(signum: int) -> None:
        received.append(signum)
        task.cancel()

    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop, sig)
        except (NotImplementedError, RuntimeError):
            pass
    try:
        return await task
    except asyncio.CancelledError:
        return 128 + (received[0] if received else signal.SIGTERM)


def _log_setup(args: argparse.Namespace, settings: Settings) -> tuple[str, LogFormat]:
    """JSON for `serve` (a service's logs), human lines for everything run at a terminal.

    At a terminal only warnings and errors are shown (no migrations, no start-up chatter),
    whatever LOG_LEVEL says below WARNING, unless it is DEBUG (someone is debugging).
    `serve` keeps its level in either form: LOG_FORMAT changes how lines look, not which.
    """
    service = args.command == "serve"
    form: LogFormat = settings.log_format or ("json" if service else "text")
    if args.command == "check" and settings.log_level != "DEBUG":
        return "ERROR", form  # its lines say it all: the clients' own warnings would repeat them
    if form == "text" and not service and settings.log_level == "INFO":
        return "WARNING", form
    return settings.log_level, form


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from config.logging import setup_logging
    from config.settings import load_settings

    try:
        settings = load_settings()
        level, form = _log_setup(args, settings)
        setup_logging(level, form=form)
        run: Command = args.run
        return asyncio.run(_run_cancellable(run(args, settings)))
    except KeyboardInterrupt:
        return 130
    except LembraError as exc:
        print(f"lembra: error: {exc}", file=sys.stderr)
        return 2
