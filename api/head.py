"""HEAD answered as GET without the body: FastAPI's routes answer GET only, so ``curl -I``, link checkers and
browsers probing a download would get 405."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadAsGet:
    """Run a HEAD request as a GET and send its status and headers only; a streamed answer (a download) is
    stopped once its headers are out, so a HEAD costs no more than the first piece of the body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] != "http.response.body":
                await send(message)
                return
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            raise _HeadersSent

        try:
            await self.app({**scope, "method": "GET"}, receive, headers_only)
        except _HeadersSent:
            pass


class _HeadersSent(Exception):
    """Raised into the app once a HEAD answer's headers are sent, to stop making its body."""
