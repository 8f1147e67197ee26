"""The duration of an OGG voice note (Opus or Vorbis), measured on every page, without decoding.

A sender can say anything about a note's length: Telegram's announced `duration`, and
the granule position an OGG page carries, are both written by whoever made the file
(issue 46: a last page claiming 2 s let a 3,000 s note through). What a decoder plays
is the packets, so the length is counted from every packet of every page:

    Opus     each packet's TOC byte names its frame size and frame count (RFC 6716 3.1):
             the samples it decodes to, at 48 kHz, minus the stream's pre-skip
    Vorbis   each audio packet's mode names a short or long block (the modes are read
             at the end of the setup header, as FFmpeg's parser does); a packet after
             the first decodes to a quarter of each of the two blocks' sizes

The length is the larger of that count and the highest granule any page names. Data
that is not OGG is `None` (its caller bounds it by bytes); OGG whose packets cannot be
counted (an unknown codec, a damaged header, several streams) is `UNREADABLE`.
Counting stops once `stop_after_s` is passed: a note already too long is not read on.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

_CAPTURE = b"OggS"
_HEADER = struct.Struct("<4sBBqIIIB")  # capture, version, type, granule, serial, seq, crc, segments
_OPUS_RATE = 48_000
# samples of one frame at 48 kHz by TOC configuration (RFC 6716 table 2): SILK 10/20/40/60 ms,
# hybrid 10/20 ms, CELT 2.5/5/10/20 ms
_OPUS_FRAME = (
    *[(480, 960, 1920, 2880)[c % 4] for c in range(12)],
    *[(480, 960)[c % 2] for c in range(12, 16)],
    *[(120, 240, 480, 960)[c % 4] for c in range(16, 32)],
)
_OPUS_MAX_PACKET = 5760  # 120 ms: the most one packet may hold
_OPUS_EMPTY = 120  # a packet with no byte is played as a lost one: counted as the shortest frame


class _Unreadable:
    def __repr__(self) -> str:
        return "UNREADABLE"


UNREADABLE: Final = _Unreadable()  # OGG whose length cannot be told from its packets


def ogg_seconds(data: bytes, *, stop_after_s: float | None = None) -> float | _Unreadable | None:
    """Seconds of audio in an OGG Opus or Vorbis stream, counted packet by packet.

    Returns None when `data` holds no OGG stream Lembra knows, UNREADABLE when it is OGG
    but its packets cannot be counted. With `stop_after_s`, returns as soon as the count
    passes it. Pages are read twice, as a decoder that checks each page's CRC (and skips
    to the next page when one fails) and as one that does not; the longer count stands.
    """
    counts = []
    for check_crc in (True, False):
        found = _count(data, stop_after_s, check_crc=check_crc)
        if found is UNREADABLE:
            return UNREADABLE
        if isinstance(found, float):
            if stop_after_s is not None and found > stop_after_s:
                return found
            counts.append(found)
    return max(counts) if counts else None


def _count(
    data: bytes, stop_after_s: float | None, *, check_crc: bool
) -> float | _Unreadable | None:
    stream: _Stream | None = None
    ignored: set[int] = set()  # streams of a codec not counted (a decoder skips them too)
    for serial, granule, packet in _packets(data, check_crc=check_crc):
        if serial in ignored:
            continue
        if stream is None or serial != stream.serial:
            opened = _Stream.opening(serial, packet)
            if opened is None:
                ignored.add(serial)
            elif stream is not None:
                return UNREADABLE  # two audio streams: which one is played is not ours to guess
            else:
                stream = opened
            continue
        if not stream.take(packet, granule):
            return UNREADABLE
        if stop_after_s is not None and stream.seconds > stop_after_s:
            return stream.seconds
    if stream is None:
        return UNREADABLE if data.startswith(_CAPTURE) else None
    return stream.seconds if stream.started else UNREADABLE


def _packets(data: bytes, *, check_crc: bool) -> Iterator[tuple[int, int, bytes]]:
    """(serial, granule of the page a packet ends on, packet) for every packet of every page.

    Bytes that are not a whole page (or, with `check_crc`, a page whose CRC fails) are
    skipped to the next capture pattern, as a demuxer resynchronizes; a packet continued
    across pages is joined within its stream.
    """
    at, size = 0, len(data)
    pending: dict[int, bytes] = {}
    while at + _HEADER.size <= size:
        if data[at : at + 4] != _CAPTURE:
            at = data.find(_CAPTURE, at + 1)
            if at < 0:
                return
            continue
        _, _, flags, granule, serial, _, crc, count = _HEADER.unpack_from(data, at)
        lacing = data[at + _HEADER.size : at + _HEADER.size + count]
        body = at + _HEADER.size + count
        end = body + sum(lacing)
        if len(lacing) < count or end > size or (check_crc and _crc(data, at, end) != crc):
            at += 1  # not a page: look for the next one
            continue
        carried = pending.pop(serial, b"") if flags & 0x01 else b""
        start = body
        for value in lacing:
            body += value
            if value < 255:
                yield serial, granule, carried + data[start:body]
                carried, start = b"", body
        if start < body or carried:
            pending[serial] = carried + data[start:body]
        at = end


_REVERSED_BITS = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))


def _crc(data: bytes, start: int, end: int) -> int:
    """The page's Ogg CRC (CRC-32, polynomial 0x04C11DB7, unreflected, initial 0, CRC field as 0).

    zlib computes the reflected CRC in C: on bit-reversed bytes, with its initial and final
    inversions undone, it is the unreflected one bit-reversed.
    """
    page = data[start : start + 22] + b"\x00\x00\x00\x00" + data[start + 26 : end]
    raw = zlib.crc32(page.translate(_REVERSED_BITS), 0xFFFFFFFF) ^ 0xFFFFFFFF
    return int(f"{raw:032b}"[::-1], 2)


@dataclass
class _Stream:
    """One logical stream's codec and its count of decoded samples."""

    serial: int
    rate: int
    headers_left: int  # header packets after the first (Opus tags; Vorbis comment and setup)
    skip: int = 0  # Opus pre-skip
    blocks: tuple[int, int] = (0, 0)  # Vorbis short and long block sizes
    long_modes: tuple[bool, ...] = ()  # Vorbis: which modes use the long block
    samples: int = 0
    granule: int = 0
    previous_block: int = 0
    started: bool = False  # an audio packet was seen

    @classmethod
    def opening(cls, serial: int, packet: bytes) -> _Stream | None:
        if packet.startswith(b"OpusHead") and len(packet) >= 19:
            skip = struct.unpack_from("<H", packet, 10)[0]
            return cls(serial, _OPUS_RATE, headers_left=1, skip=skip)
        if packet.startswith(b"\x01vorbis") and len(packet) >= 29:
            rate = struct.unpack_from("<I", packet, 12)[0]
            sizes = packet[28]
            short, long = 1 << (sizes & 0x0F), 1 << (sizes >> 4)
            if rate <= 0 or not 64 <= short <= long <= 8192:
                return None
            return cls(serial, rate, headers_left=2, blocks=(short, long))
        return None

    @property
    def seconds(self) -> float:
        counted = max(self.samples, self.granule) - self.skip
        return max(counted, 0) / self.rate

    def take(self, packet: bytes, granule: int) -> bool:
        """Count one packet; False when the stream cannot be counted."""
        if granule != -1 and granule > self.granule:  # -1: no packet ends on the page
            self.granule = granule
        if self.headers_left:
            self.headers_left -= 1
            if self.blocks != (0, 0) and self.headers_left == 0:  # Vorbis setup
                modes = vorbis_long_modes(packet)
                if modes is None:
                    return False
                self.long_modes = modes
            return True
        self.started = True
        if self.blocks == (0, 0):
            self.samples += opus_samples(packet)
            return True
        return self._vorbis(packet)

    def _vorbis(self, packet: bytes) -> bool:
        if not packet:
            return True  # an empty packet decodes to nothing
        if packet[0] & 0x01:
            return False  # a header after the headers
        bits = max(len(self.long_modes) - 1, 0).bit_length()
        mode = (packet[0] >> 1) & ((1 << bits) - 1) if bits else 0
        if mode >= len(self.long_modes):
            return False
        block = self.blocks[1] if self.long_modes[mode] else self.blocks[0]
        if self.previous_block:
            self.samples += self.previous_block // 4 + block // 4
        self.previous_block = block
        return True


def opus_samples(packet: bytes) -> int:
    """Samples (48 kHz) one Opus packet decodes to, from its TOC byte (RFC 6716 3.1)."""
    if not packet:
        return _OPUS_EMPTY
    toc = packet[0]
    frame = _OPUS_FRAME[toc >> 3]
    code = toc & 0x03
    if code == 0:
        frames = 1
    elif code in (1, 2):
        frames = 2
    elif len(packet) >= 2:
        frames = packet[1] & 0x3F
    else:
        frames = 1  # malformed: a decoder conceals one frame
    return min(frame * max(frames, 1), _OPUS_MAX_PACKET)


def vorbis_long_modes(setup: bytes) -> tuple[bool, ...] | None:
    """Which of a Vorbis stream's modes use the long block, read back from the setup header's end.

    The modes are the last fields before the framing bit: each is a block flag (1 bit),
    window and transform types (16 bits each, always 0) and a mapping (8 bits), after
    the mode count less one (6 bits). What comes before them cannot be skipped without
    decoding the codebooks, so the modes are found backwards, keeping the largest count
    whose entries all look like modes and whose count field agrees (FFmpeg, liboggz).
    """
    if not setup.startswith(b"\x05vorbis") or len(setup) < 12 or setup[-1] == 0:
        return None
    bits = int.from_bytes(setup, "little")
    framing = 8 * (len(setup) - 1) + setup[-1].bit_length() - 1
    floor = 8 * 7  # the modes come after the packet type and "vorbis"

    def field_at(position: int, width: int) -> int:
        return (bits >> position) & ((1 << width) - 1)

    best = 0
    for count in range(1, 65):
        start = framing - 41 * count
        if start - 6 < floor:
            break
        mode = start  # the first mode of a count of `count` is the count-th from the end
        if field_at(mode + 1, 16) or field_at(mode + 17, 16) or field_at(mode + 33, 8) > 63:
            break
        if field_at(start - 6, 6) == count - 1:
            best = count
    if not best:
        return None
    start = framing - 41 * best
    return tuple(bool(field_at(start + 41 * n, 1)) for n in range(best))
