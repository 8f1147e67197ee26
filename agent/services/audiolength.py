"""The duration of an OGG voice note (Opus or Vorbis) read from its pages, without decoding.

WhatsApp announces no duration: the length limit is checked on the downloaded bytes
before anything is sent to a transcription backend. An OGG file's last page carries
the granule position (samples since the start); Opus counts at 48 kHz after its
pre-skip, Vorbis at the rate in its identification header.
"""

from __future__ import annotations

import struct

_CAPTURE = b"OggS"
_HEADER = struct.Struct("<4sBBqIIIB")  # capture, version, type, granule, serial, seq, crc, segments


def ogg_seconds(data: bytes) -> float | None:
    """Seconds of audio in an OGG Opus or Vorbis stream; None when it cannot be told."""
    first = data.find(_CAPTURE)
    if first < 0:
        return None
    rate, skip = _codec(data, first)
    if rate is None:
        return None
    granule = _last_granule(data)
    if granule is None or granule < 0:
        return None
    return max(granule - skip, 0) / rate


def _codec(data: bytes, page: int) -> tuple[int | None, int]:
    """(sample rate of the granule positions, samples to skip) from the first page's packet."""
    if page + _HEADER.size > len(data):
        return None, 0
    segments = data[page + _HEADER.size - 1]
    body = page + _HEADER.size + segments
    packet = data[body : body + 30]
    if packet.startswith(b"OpusHead") and len(packet) >= 12:
        return 48_000, struct.unpack_from("<H", packet, 10)[0]
    if packet.startswith(b"\x01vorbis") and len(packet) >= 16:
        rate = struct.unpack_from("<I", packet, 12)[0]
        return (rate, 0) if rate > 0 else (None, 0)
    return None, 0


def _last_granule(data: bytes) -> int | None:
    """The granule position of the last complete page header that has one."""
    end = len(data)
    while (page := data.rfind(_CAPTURE, 0, end)) >= 0:
        if page + _HEADER.size <= len(data):
            granule = _HEADER.unpack_from(data, page)[3]
            if granule != -1:  # -1: no packet ends on this page
                return int(granule)
        end = page
    return None
