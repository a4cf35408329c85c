"""Load a page in real headless Chromium over the DevTools protocol (test helper).

Chromium is Debian's package (``/usr/bin/chromium``; `.ci/run` installs it when absent).
A test that needs it calls `require_chromium` first: where Chromium is missing the test is
skipped with its reason (pytest's ``-ra`` summary prints it), unless
``BOMBSOLVE_REQUIRE_BROWSER=1`` (set by `.ci/run`) makes the missing browser a failure.
The protocol is spoken over a WebSocket with tornado (already installed with Dask), so
the tests need no browser driver package. Flags as this machine needs them: no sandbox
(root), no GPU, no background networking (the closed network refuses it).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
#: Set to 1 where a missing Chromium must fail the browser tests rather than skip them (CI).
REQUIRE_ENV = "BOMBSOLVE_REQUIRE_BROWSER"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-port=0",
)


def require_chromium() -> str:
    """Return Chromium's path; without it, skip the calling test with the reason, or fail
    it when the environment variable `REQUIRE_ENV` is 1 (CI, whose browser test must run)."""
    import pytest

    if CHROMIUM:
        return CHROMIUM
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"Debian's chromium is not installed and {REQUIRE_ENV}=1 requires it")
    pytest.skip(
        "Debian's chromium is not installed (apt-get install chromium; "
        f"CI sets {REQUIRE_ENV}=1, where its absence fails)"
    )


async def _load(
    url: str, expression: str, timeout: float, width: int | None = None
) -> tuple[Any, list[str]]:
    from tornado.websocket import websocket_connect

    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        # its own session, so that its helper processes end with it (by its group id)
        proc = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        try:
            ws_url = None
            loop = asyncio.get_running_loop()
            while ws_url is None:
                line = await asyncio.wait_for(
                    loop.run_in_executor(None, proc.stderr.readline), timeout
                )
                if not line:
                    raise RuntimeError("chromium exited before its DevTools address")
                m = re.search(r"DevTools listening on (ws://\S+)", line)
                ws_url = m.group(1) if m else None
            conn = await websocket_connect(ws_url)
            ids = itertools.count(1)
            requests: list[str] = []

            async def call(method: str, params: dict | None = None, session: str | None = None):
                msg_id = next(ids)
                msg = {"id": msg_id, "method": method, "params": params or {}}
                if session:
                    msg["sessionId"] = session
                await conn.write_message(json.dumps(msg))
                while True:
                    raw = await asyncio.wait_for(conn.read_message(), timeout)
                    if raw is None:
                        raise RuntimeError("DevTools connection closed")
                    reply = json.loads(raw)
                    _note(reply)
                    if reply.get("id") == msg_id:
                        if "error" in reply:
                            raise RuntimeError(f"{method}: {reply['error']}")
                        return reply.get("result", {})

            loaded = asyncio.Event()

            def _note(event: dict) -> None:
                if event.get("method") == "Network.requestWillBeSent":
                    requests.append(event["params"]["request"]["url"])
                if event.get("method") == "Page.loadEventFired":
                    loaded.set()

            target = await call("Target.createTarget", {"url": "about:blank"})
            attached = await call(
                "Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}
            )
            session = attached["sessionId"]
            await call("Network.enable", {}, session)
            await call("Page.enable", {}, session)
            if width is not None:
                # a window `width` CSS pixels wide; under 500 as a phone lays a page out
                await call(
                    "Emulation.setDeviceMetricsOverride",
                    {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 500},
                    session,
                )
            await call("Page.navigate", {"url": url}, session)
            while not loaded.is_set():
                raw = await asyncio.wait_for(conn.read_message(), timeout)
                if raw is None:
                    raise RuntimeError("DevTools connection closed")
                _note(json.loads(raw))
            result = await call(
                "Runtime.evaluate", {"expression": expression, "returnByValue": True}, session
            )
            conn.close()
            return result["result"].get("value"), requests
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)


def load_page(
    path: Path, expression: str, timeout: float = 60.0, width: int | None = None
) -> tuple[Any, list[str]]:
    """Open `path` in headless Chromium (in a window `width` CSS pixels wide, when given),
    wait for its load event, evaluate `expression` (JavaScript) and return its value and the
    address of every request the page made."""
    return asyncio.run(_load(path.resolve().as_uri(), expression, timeout, width))
