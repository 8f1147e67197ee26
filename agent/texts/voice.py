"""What voice notes get when they cannot become a message (DESIGN 10.3).

A heard voice note's reply begins with `HEARD_MARK «transcript»`, built in code; the
texts here are for the notes that are not heard. "Try again" is said only where it
can help: the server was busy, or nothing was heard.
"""

from __future__ import annotations

from agent.types import Language

HEARD_MARK = "🎤"

TEXTS: dict[str, dict[Language, str]] = {
    "voice_too_long": {
        "pt": "Esse áudio tem {seconds} s e eu transcrevo até {limit} s. Mande um áudio mais curto ou escreva a mensagem.",
        "en": "That audio is {seconds} s long and I transcribe up to {limit} s. Send a shorter one or type the message.",
    },
    "voice_over_limit": {
        "pt": "Esse áudio passa de {limit} s, o máximo que eu transcrevo. Mande um áudio mais curto ou escreva a mensagem.",
        "en": "That audio is longer than {limit} s, the most I transcribe. Send a shorter one or type the message.",
    },
    "voice_too_large": {
        "pt": "Esse arquivo de áudio é grande demais para eu baixar. Mande um áudio mais curto ou escreva a mensagem.",
        "en": "That audio file is too large for me to download. Send a shorter one or type the message.",
    },
    "voice_unsupported_format": {
        "pt": "Não consigo ler esse formato de áudio. Mande uma mensagem de voz ou escreva.",
        "en": "I can't read that audio format. Send a voice message or type it.",
    },
    "voice_unavailable": {
        "pt": "Não consegui transcrever o áudio agora. Tente de novo em instantes.",
        "en": "I couldn't transcribe the audio right now. Please try again in a moment.",
    },
    "voice_unreadable": {
        "pt": "Não consegui entender esse arquivo de áudio. Escreva a mensagem, por favor.",
        "en": "I couldn't make sense of that audio file. Please type the message.",
    },
    "voice_broken": {
        "pt": "A transcrição de áudios não está funcionando agora. Por enquanto, escreva a mensagem.",
        "en": "Voice transcription isn't working right now. For now, please type the message.",
    },
    "voice_empty": {
        "pt": "Não ouvi nenhuma fala nesse áudio. Grave de novo ou escreva a mensagem.",
        "en": "I didn't hear any speech in that audio. Record it again or type the message.",
    },
    "voice_not_configured_admin": {
        "pt": "Para eu entender áudios, defina TRANSCRIBE_BASE_URL (um servidor compatível com a OpenAI) ou TRANSCRIBE_MODEL_DIR (faster-whisper local); veja docs/voice.md.",
        "en": "To make me understand voice notes, set TRANSCRIBE_BASE_URL (an OpenAI-compatible server) or TRANSCRIBE_MODEL_DIR (local faster-whisper); see docs/voice.md.",
    },
}
