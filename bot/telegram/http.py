"""python-telegram-bot's network transport over aiohttp (PTB's documented BaseRequest seam).

PTB's default transport (httpx) cost 2-4 ms of CPU per Bot API call here, against
about 0.3 ms for aiohttp, which the web app already uses (bench/webhook.py). PTB
still builds every request, parses every answer and raises its own errors; only
the HTTP round trip changes. Errors are mapped as PTB's own transport maps them:
timeouts become `TimedOut`, other client failures `NetworkError`.
"""

from __future__ import annotations

from collections.abc import Sequence

import aiohttp
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

# PTB marks a timeout the caller did not give with a sentinel of its private DefaultValue
# class; its type is taken from the public BaseRequest.DEFAULT_NONE instead of importing
# telegram._utils (issue 30).
_NOT_GIVEN = type(BaseRequest.DEFAULT_NONE)


def _given(value: object, default: float | None) -> float | None:
    """A timeout PTB passed: the caller's value, or ours when it gave none."""
    if isinstance(value, _NOT_GIVEN):
        return default
    return float(value) if isinstance(value, int | float) else None


class AiohttpRequest(BaseRequest):
    def __init__(
        self,
        *,
        connection_pool_size: int = 16,
        connect_timeout: float = 10.0,
        read_timeout: float = 10.0,
        write_timeout: float = 10.0,
        pool_timeout: float = 10.0,
        media_write_timeout: float = 30.0,
        trace_configs: Sequence[aiohttp.TraceConfig] = (),
    ) -> None:
        self._trace_configs = list(trace_configs)
        self._pool_size = connection_pool_size
        self._connect_timeout = connect_timeout
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._pool_timeout = pool_timeout
        self._media_write_timeout = media_write_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._pool_size),
                headers={"User-Agent": self.USER_AGENT},
                trace_configs=self._trace_configs,
            )

    async def shutdown(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: object = BaseRequest.DEFAULT_NONE,
        write_timeout: object = BaseRequest.DEFAULT_NONE,
        connect_timeout: object = BaseRequest.DEFAULT_NONE,
        pool_timeout: object = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if self._session is None or self._session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        files = request_data is not None and request_data.contains_files
        read = _given(read_timeout, self._read_timeout)
        connect = _given(connect_timeout, self._connect_timeout)
        pool = _given(pool_timeout, self._pool_timeout)
        write = _given(write_timeout, self._media_write_timeout if files else self._write_timeout)
        # aiohttp has no separate write timeout: it bounds the whole exchange instead.
        total = None if read is None or write is None else read + write + (connect or 0)
        timeout = aiohttp.ClientTimeout(
            total=total, connect=pool, sock_connect=connect, sock_read=read
        )
        data: aiohttp.FormData | dict[str, str] | None = None
        if request_data is not None:
            data = _form(request_data) if files else request_data.json_parameters
        try:
            async with self._session.request(method, url, data=data, timeout=timeout) as response:
                return response.status, await response.read()
        except aiohttp.SocketTimeoutError as err:  # written in full, the answer never came
            raise AnswerLost from err
        except TimeoutError as err:
            raise TimedOut from err
        except aiohttp.ClientError as err:
            raise NetworkError(f"aiohttp.{type(err).__name__}: {err}") from err


class AnswerLost(TimedOut):
    """The request was written in full but its answer timed out: it may have taken effect."""


def _form(request_data: RequestData) -> aiohttp.FormData:
    form = aiohttp.FormData(quote_fields=False)
    for name, value in request_data.json_parameters.items():
        form.add_field(name, value)
    for name, field in request_data.multipart_data.items():
        filename, content, mime_type = field[0], field[1], field[2] if len(field) > 2 else None
        form.add_field(name, content, filename=filename, content_type=mime_type)
    return form
