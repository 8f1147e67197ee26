"""Print what the local faster-whisper backend costs and how well it hears (issue 29).

Clips are generated here: everyday Lembra messages (English and Brazilian Portuguese)
spoken by espeak-ng, encoded as OGG/Opus at 24 kbit/s mono, as Telegram and WhatsApp
send voice notes; short (one message), medium (four) and long (eight) clips. Each goes
through `LocalTranscriber`, the code `TRANSCRIBE_MODEL_DIR` runs (beam 5, temperature 0,
the user's language as the hint), one at a time, with `--threads` CPU threads.

Figures: word error rate (edits over reference words, on lower-cased words without
punctuation, number words and digits folded to one form) and seconds of compute per
second of audio (wall time of each transcription over the clip's length; and CPU time,
all threads, which a busy machine inflates less), per language and length; model load
apart. The load average is printed: on a shared machine, wall times grow with it. Goals: <= 0.3 s per second of audio and WER <= 15% on
clear English. espeak-ng is a formant synthesizer, far from a human voice: its
Portuguese especially is hard for the base model, so the PT figures are a floor.

Needs: `pip install 'lembra[voice]'`, espeak-ng on PATH, and a Whisper model folder
(`../shared/tools/local-whisper/setup.sh` assembles the base model). Run from the repo
root: `.venv/bin/python bench/voice.py [--model DIR] [--threads 2] [--beam 1] [--window fit|full]`.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rapidfuzz.distance import Levenshtein  # noqa: E402

from agent.services.audiolength import ogg_seconds  # noqa: E402
from agent.services.transcribe import LocalTranscriber  # noqa: E402

DEFAULT_MODEL = Path.home() / ".cache" / "lembra-whisper-base"
VOICES = {"en": "en-us", "pt": "pt-br"}

MESSAGES: dict[str, list[str]] = {
    "en": [
        "save the movie inception",
        "remind me tomorrow at nine to call the bank",
        "delete everything",
        "list my movies",
        "note: buy milk, bread and coffee for the weekend",
        "remind me in ten minutes to take the chicken out of the oven",
        "save the series breaking bad that my brother recommended",
        "what did I save about the trip to lisbon",
        "keep a note that the wifi password is on the fridge",
        "remind me on friday evening to pay the electricity bill",
        "cancel the reminder about the dentist",
        "save this book: the pragmatic programmer",
    ],
    "pt": [
        "salva o filme a origem",
        "me lembra amanhã às nove de ligar pro banco",
        "apaga tudo",
        "lista meus filmes",
        "anota: comprar leite, pão e café para o fim de semana",
        "me lembra daqui a dez minutos de tirar o frango do forno",
        "salva a série cidade de deus que meu irmão recomendou",
        "o que eu salvei sobre a viagem para lisboa",
        "anota que a senha do wifi está na geladeira",
        "me lembra na sexta à noite de pagar a conta de luz",
        "cancela o lembrete do dentista",
        "guarda esse livro: o pequeno príncipe",
    ],
}

NUMBERS = {
    "en": "zero one two three four five six seven eight nine ten eleven twelve".split(),
    "pt": "zero um dois três quatro cinco seis sete oito nove dez onze doze".split(),
}


@dataclass(frozen=True)
class Clip:
    language: str
    length: str  # short, medium, long
    words: str
    audio: bytes
    seconds: float


@dataclass(frozen=True)
class Result:
    clip: Clip
    heard: str
    compute_s: float
    cpu_s: float  # CPU time of the process (all threads) during the transcription
    edits: int
    reference_words: int


def clips(language: str, rate: int) -> list[Clip]:
    """Every message alone, then groups of four and of eight read as one voice note."""
    messages = MESSAGES[language]
    groups: list[tuple[str, list[str]]] = [("short", [m]) for m in messages]
    groups += [("medium", messages[i : i + 4]) for i in range(0, len(messages), 4)]
    groups += [("long", messages[:8]), ("long", messages[4:])]
    made = []
    for length, parts in groups:
        words = ". ".join(parts)
        audio = ogg_opus(speak(words, VOICES[language], rate))
        seconds = ogg_seconds(audio)
        assert isinstance(seconds, float)
        made.append(Clip(language, length, words, audio, seconds))
    return made


def speak(words: str, voice: str, rate: int) -> bytes:
    """WAV bytes of espeak-ng reading `words` at `rate` words a minute."""
    with tempfile.NamedTemporaryFile(suffix=".wav") as wav:
        command = ["espeak-ng", "-v", voice, "-s", str(rate), "-w", wav.name, words]
        subprocess.run(command, check=True)
        return Path(wav.name).read_bytes()


def ogg_opus(wav: bytes) -> bytes:
    """The WAV as a voice note: OGG/Opus, 48 kHz mono, 24 kbit/s."""
    import av

    out_buffer = io.BytesIO()
    with av.open(io.BytesIO(wav)) as source, av.open(out_buffer, "w", format="ogg") as out:
        stream = out.add_stream("libopus", rate=48_000)
        stream.bit_rate = 24_000
        resampler = av.AudioResampler(format="s16", layout="mono", rate=48_000)
        for frame in source.decode(audio=0):
            for resampled in resampler.resample(frame):
                for packet in stream.encode(resampled):
                    out.mux(packet)
        for resampled in resampler.resample(None):
            for packet in stream.encode(resampled):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    return out_buffer.getvalue()


def words_of(text: str, language: str) -> list[str]:
    """Lower-cased words without punctuation; digits 0-12 written out; accents kept."""
    text = unicodedata.normalize("NFC", text.lower())
    text = re.sub(r"(\d+):00\b", r"\1", text)  # "9:00" is "nine"
    tokens = re.findall(r"[\w']+", text)
    numbers = NUMBERS[language]
    return [numbers[int(t)] if t.isdigit() and int(t) < len(numbers) else t for t in tokens]


async def run(
    model: Path, threads: int, beam: int, rounds: int, fit: bool, rate: int, min_window: float
) -> dict[str, object]:
    transcriber = LocalTranscriber(
        model, threads=threads, beam_size=beam, fit_window=fit, min_window_s=min_window
    )
    started = time.perf_counter()
    await transcriber.transcribe(
        ogg_opus(speak("hello", "en-us", rate)), mime_type="audio/ogg", language="en"
    )
    load_s = time.perf_counter() - started  # the first call loads the model
    results: list[Result] = []
    for language in ("en", "pt"):
        for clip in clips(language, rate):
            for _ in range(rounds):
                begin, begin_cpu = time.perf_counter(), time.process_time()
                heard = await transcriber.transcribe(
                    clip.audio, mime_type="audio/ogg", language=language
                )
                compute_s = time.perf_counter() - begin
                cpu_s = time.process_time() - begin_cpu
                reference = words_of(clip.words, language)
                hypothesis = words_of(heard.text, language)
                edits = Levenshtein.distance(reference, hypothesis)
                results.append(Result(clip, heard.text, compute_s, cpu_s, edits, len(reference)))
    await transcriber.aclose()
    return {"load_s": load_s, "results": results}


def summary(results: list[Result]) -> dict[str, float | int]:
    audio = sum(r.clip.seconds for r in results)
    compute = sum(r.compute_s for r in results)
    return {
        "clips": len(results),
        "audio_s": round(audio, 1),
        "compute_s": round(compute, 1),
        "compute_per_audio_s": round(compute / audio, 3),
        "cpu_per_audio_s": round(sum(r.cpu_s for r in results) / audio, 3),
        "median_clip_ratio": round(
            statistics.median(r.compute_s / r.clip.seconds for r in results), 3
        ),
        "wer": round(sum(r.edits for r in results) / sum(r.reference_words for r in results), 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--beam", type=int, default=5, help="5 is what Lembra runs")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument(
        "--min-window", type=float, default=6.0, help="seconds: the smallest fitted window"
    )
    parser.add_argument(
        "--rate", type=int, default=150, help="words a minute (150: a clear conversational pace)"
    )
    parser.add_argument(
        "--window",
        choices=("fit", "full"),
        default="fit",
        help="fit: the encoder window fitted to short notes (what Lembra runs); full: 30 s always",
    )
    parser.add_argument("--show", action="store_true", help="print every clip's transcript")
    args = parser.parse_args()
    if shutil.which("espeak-ng") is None:
        print("bench/voice.py needs espeak-ng (apt-get install espeak-ng)", file=sys.stderr)
        return 2
    if not (args.model / "model.bin").is_file():
        print(f"no Whisper model in {args.model} (see docs/voice.md)", file=sys.stderr)
        return 2
    load_before = os.getloadavg()[0]
    fit = args.window == "fit"
    measured = asyncio.run(
        run(args.model, args.threads, args.beam, args.rounds, fit, args.rate, args.min_window)
    )
    results: list[Result] = measured["results"]  # type: ignore[assignment]
    print(
        f"model {args.model.name}, {args.threads} threads, beam {args.beam}, "
        f"{args.window} window (at least {args.min_window:g} s), {args.rate} words/min; "
        f"load {measured['load_s']:.2f} s; load average {load_before:.1f} -> {os.getloadavg()[0]:.1f}"
    )
    figures: dict[str, object] = {}
    print(
        f"{'':12} {'clips':>5} {'audio s':>8} {'compute s':>9} {'s/s audio':>9} {'median':>7} {'cpu s/s':>7} {'WER':>6}"
    )
    for language in ("en", "pt"):
        for length in ("short", "medium", "long", "all"):
            chosen = [
                r
                for r in results
                if r.clip.language == language and length in ("all", r.clip.length)
            ]
            row = summary(chosen)
            figures[f"{language}_{length}"] = row
            print(
                f"{language + ' ' + length:12} {row['clips']:>5} {row['audio_s']:>8} "
                f"{row['compute_s']:>9} {row['compute_per_audio_s']:>9} "
                f"{row['median_clip_ratio']:>7} {row['cpu_per_audio_s']:>7} {row['wer']:>6.1%}"
            )
    if args.show:
        for r in results:
            print(f"[{r.clip.language} {r.clip.length} {r.clip.seconds:.1f}s] {r.heard}")
    print(
        json.dumps(
            {
                "threads": args.threads,
                "beam": args.beam,
                "window": args.window,
                "rate": args.rate,
                **figures,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
