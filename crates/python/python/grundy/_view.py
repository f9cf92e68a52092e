"""The handle of a served table explorer (``grundy.view``)."""

from __future__ import annotations

import html
from typing import Any


class View:
    """A table explorer in the browser, served on this machine (``grundy view``): the page at
    ``url`` shows a zoomable map of the table (a heap game's sequence as a plot), each cell's
    value on hover, a clicked cell's moves and the mex, a claim's counterexamples and the
    periodic rows and columns. In a notebook the object displays the page inline.

    ``stop()`` ends the server (so does leaving a ``with`` block, or losing the last reference).
    """

    def __init__(self, server: Any, height: int) -> None:
        self._server = server
        self.height = height

    @property
    def url(self) -> str:
        """The page's address with its token (127.0.0.1 only; over SSH, forward the port). The
        server answers only requests that carry the token: another web page cannot read the
        table."""
        return str(self._server.url)

    @property
    def token(self) -> str:
        """The token every request needs: in the address (``?token=``) or in the header
        ``X-Grundy-Token``."""
        return str(self._server.token)

    @property
    def running(self) -> bool:
        """Whether the server still serves."""
        return bool(self._server.running)

    def stop(self) -> None:
        """Stops the server within about a second (work under way is cancelled); stopping
        twice does nothing."""
        self._server.stop()

    def __enter__(self) -> "View":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "serving at " + self.url if self.running else "stopped"
        return f"<grundy.View {state}>"

    def _repr_html_(self) -> str:
        return (
            f'<iframe src="{html.escape(self.url)}" width="100%" height="{self.height}" '
            'style="border: 1px solid #ccc" title="grundy view"></iframe>'
        )
