"""A small driver for headless Chromium over its DevTools pipe, with the standard library only.

Chromium started with ``--remote-debugging-pipe`` reads DevTools commands (JSON, each ended by a
NUL byte) from its file descriptor 3 and answers on 4. :class:`Browser` opens one page, presses
keys as a user does (``Input.dispatchKeyEvent``), evaluates expressions and takes screenshots.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
import time
from typing import Any

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

_KEYS = {"ArrowRight": 39, "ArrowLeft": 37, "Home": 36, "End": 35, " ": 32, "c": 67}


class Browser:
    """One headless Chromium showing one page; use as a context manager."""

    def __init__(self, url: str, width: int = 1024, height: int = 768) -> None:
        if CHROMIUM is None:
            raise RuntimeError("no chromium on this machine")
        to_browser_read, self._to_browser = os.pipe()
        self._from_browser, from_browser_write = os.pipe()

        def wire() -> None:  # in the child: the pipe's ends become descriptors 3 and 4
            # (through copies above 4: a pipe end may itself be 3 or 4)
            reading = os.dup2(to_browser_read, 100)
            writing = os.dup2(from_browser_write, 101)
            os.dup2(reading, 3)
            os.dup2(writing, 4)

        self.process = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--hide-scrollbars", "--remote-debugging-pipe", f"--window-size={width},{height}",
             "about:blank"],
            preexec_fn=wire, close_fds=False, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._buffer = b""
        self._next = 0
        self.session: str | None = None
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        self.send("Page.bringToFront")
        self.send("Emulation.setFocusEmulationEnabled", {"enabled": True})
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        self.goto(url)

    def goto(self, url: str) -> None:
        """Open ``url`` and wait until its document has loaded."""
        self.evaluate("window.leftBehind = true")
        self.send("Page.navigate", {"url": url})
        deadline = time.monotonic() + 20
        # until the new document commits, the old one (marked) answers
        while not self.evaluate('!window.leftBehind && document.readyState === "complete"'):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} did not load")
            time.sleep(0.05)

    def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send one command and return its result (events that arrive meanwhile are skipped)."""
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if self.session is not None and not method.startswith("Target."):
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._read()
            if answer.get("id") == self._next:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})

    def _read(self) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("the browser closed its pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                  "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def press(self, key: str) -> None:
        """Press and release ``key`` as a keyboard does."""
        code = _KEYS[key]
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "windowsVirtualKeyCode": code,
                                                 "nativeVirtualKeyCode": code})

    def screenshot(self, path: str) -> None:
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as handle:
            handle.write(base64.b64decode(data))

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, OSError):  # it may be gone already
            self.send("Browser.close")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
