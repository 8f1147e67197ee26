"""A local web site on loopback for link-fetching tests: titles, charsets, huge and slow bodies, redirects."""

from __future__ import annotations

import asyncio

from aiohttp import web
from aiohttp.typedefs import Handler

ARTICLE_HTML = """<!doctype html>
<html><head>
<meta charset="utf-8">
<title>  Plain   title
  of the page </title>
<meta name="description" content="A page about   remembering things.">
<meta property="og:title" content="Lembra &amp; the art of memory">
<meta property="og:site_name" content="Example Site">
<svg><title>icon</title></svg>
</head><body><p>Hello</p></body></html>
"""

PLAIN_HTML = """<html><head><title>Only a title</title>
<meta name="description" content="Only a description"></head><body></body></html>"""

# html.parser raises on "<![foo ...]>"; what came before it still counts.
BROKEN_HTML = """<html><head><title>Broken but titled</title>
<meta name="description" content="Before the break"><![foo bar]><meta property="og:title" content="After">"""


class PageServer:
    """Serve the test pages; `hits` records each path requested, in order."""

    def __init__(self) -> None:
        self.hits: list[str] = []
        self.base_url = ""
        self._runner: web.AppRunner | None = None
        self._closing: asyncio.Event | None = None

    async def start(self) -> str:
        app = web.Application()
        app.middlewares.append(self._record)
        routes = [
            web.get("/article", self._html(ARTICLE_HTML)),
            web.get("/plain", self._html(PLAIN_HTML)),
            web.get("/broken-markup", self._html(BROKEN_HTML)),
            web.get("/latin1", self._latin1),
            web.get("/meta-charset", self._meta_charset),
            web.get("/no-charset", self._no_charset),
            web.get("/huge", self._huge),
            web.get("/endless", self._endless),
            web.get("/slow", self._slow),
            web.get("/file.pdf", self._pdf),
            web.get("/status/{code:\\d+}", self._status),
            web.get("/redirect/{n:\\d+}", self._redirect_chain),
            web.get("/relative-redirect", self._relative_redirect),
            web.get("/to-private", self._redirect_to("http://10.0.0.1/")),
            web.get("/to-metadata", self._redirect_to("http://169.254.169.254/latest/meta-data/")),
            web.get("/to-ftp", self._redirect_to("ftp://example.com/file")),
            web.get("/to-credentials", self._redirect_to("http://user:pass@example.com/")),
            web.get("/no-location", self._no_location),
            web.get("/loop", self._redirect_to("/loop")),
        ]
        app.add_routes(routes)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        self._runner = runner
        self._closing = asyncio.Event()
        self.base_url = f"http://127.0.0.1:{runner.addresses[0][1]}"
        return self.base_url

    async def close(self) -> None:
        if self._runner is not None:
            assert self._closing is not None
            self._closing.set()
            runner, self._runner = self._runner, None
            await runner.cleanup()

    def url(self, path: str) -> str:
        return self.base_url + path

    @web.middleware
    async def _record(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        self.hits.append(request.path)
        return await handler(request)

    @staticmethod
    def _html(body: str) -> Handler:
        async def handler(request: web.Request) -> web.StreamResponse:
            return web.Response(text=body, content_type="text/html", charset="utf-8")

        return handler

    @staticmethod
    def _redirect_to(location: str, status: int = 302) -> Handler:
        async def handler(request: web.Request) -> web.StreamResponse:
            return web.Response(status=status, headers={"Location": location})

        return handler

    async def _latin1(self, request: web.Request) -> web.StreamResponse:
        body = "<html><head><title>Ação e reação</title></head></html>".encode("iso-8859-1")
        return web.Response(body=body, content_type="text/html", charset="iso-8859-1")

    async def _meta_charset(self, request: web.Request) -> web.StreamResponse:
        body = '<html><head><meta charset="windows-1252"><title>Café “quoted”</title></head></html>'
        return web.Response(body=body.encode("windows-1252"), headers={"Content-Type": "text/html"})

    async def _no_charset(self, request: web.Request) -> web.StreamResponse:
        body = "<html><head><title>Olá</title></head></html>".encode() + b"\xff\xfe"
        return web.Response(body=body, headers={"Content-Type": "text/html"})

    async def _huge(self, request: web.Request) -> web.StreamResponse:
        # The title sits after 2 MB of padding: past any sensible cap.
        padding = "<!-- " + "x" * 2_000_000 + " -->"
        body = f"<html><head>{padding}<title>Too far</title></head></html>"
        return web.Response(text=body, content_type="text/html")

    async def _endless(self, request: web.Request) -> web.StreamResponse:
        """A title, then padding for ever: only a reader that stops early gets an answer."""
        response = web.StreamResponse(headers={"Content-Type": "text/html; charset=utf-8"})
        await response.prepare(request)
        await response.write(b"<html><head><title>Endless page</title></head><body>")
        chunk = b"<p>" + b"y" * 16_000 + b"</p>"
        assert self._closing is not None
        try:
            while not self._closing.is_set():
                await response.write(chunk)
                await asyncio.sleep(0)
        except (ConnectionResetError, ConnectionError):
            pass  # the reader hung up, as it should
        return response

    async def _slow(self, request: web.Request) -> web.StreamResponse:
        """Headers at once, then a body that never finishes (until the server closes)."""
        response = web.StreamResponse(headers={"Content-Type": "text/html; charset=utf-8"})
        await response.prepare(request)
        await response.write(b"<html><head>")
        assert self._closing is not None
        await self._closing.wait()
        return response

    async def _pdf(self, request: web.Request) -> web.StreamResponse:
        return web.Response(
            body=b"%PDF-1.4 <title>not html</title>", content_type="application/pdf"
        )

    async def _status(self, request: web.Request) -> web.StreamResponse:
        return web.Response(status=int(request.match_info["code"]), text="error")

    async def _redirect_chain(self, request: web.Request) -> web.StreamResponse:
        n = int(request.match_info["n"])
        location = "/plain" if n <= 1 else f"/redirect/{n - 1}"
        return web.Response(status=301 if n % 2 else 307, headers={"Location": location})

    async def _relative_redirect(self, request: web.Request) -> web.StreamResponse:
        return web.Response(status=303, headers={"Location": "article#section"})

    async def _no_location(self, request: web.Request) -> web.StreamResponse:
        return web.Response(status=302)
