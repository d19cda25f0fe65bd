"""The cup's leaderboard in headless Chromium: sorting by a column, a replay opening in the
panel, and not one request that leaves the machine."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.display.browser import CHROMIUM, Browser

needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine")


class WatchingBrowser(Browser):
    """The project's driver, keeping the events it would skip (the requests the page makes)."""

    def __init__(self, url: str) -> None:
        self.events: list[dict[str, Any]] = []
        super().__init__("about:blank", width=1400, height=900)
        self.send("Network.enable")
        self.send("Page.enable")
        self.goto(url)

    def _read(self) -> dict[str, Any]:
        message = super()._read()
        if "method" in message:
            self.events.append(message)
        return message

    def requested(self) -> list[str]:
        return [e["params"]["request"]["url"] for e in self.events
                if e["method"] == "Network.requestWillBeSent"]


def column(browser: Browser, number: int) -> list[str]:
    return browser.evaluate(
        "Array.from(document.querySelectorAll('#pacman tbody')).map("
        f"b => b.rows[0].cells[{number}].dataset.sort)")


@needs_chromium
def test_the_leaderboard_sorts_plays_replays_and_stays_offline(small_cup):
    page = small_cup["out"] / "leaderboard.html"
    with WatchingBrowser(page.as_uri()) as browser:
        ids = column(browser, 1)
        assert ids[0] == "bob.py" and len(ids) == 16  # in rank order at first
        # Sorting by entrant (text), then the other way.
        browser.evaluate("document.querySelectorAll('#pacman th')[1].click()")
        assert column(browser, 1) == sorted(ids)
        browser.evaluate("document.querySelectorAll('#pacman th')[1].click()")
        assert column(browser, 1) == sorted(ids, reverse=True)
        # Sorting by mean score (numbers: -502 before -477, unplayed last).
        browser.evaluate("document.querySelectorAll('#pacman th')[4].click()")
        scores = [float(s) for s in column(browser, 4) if s != ""]
        assert scores == sorted(scores) and column(browser, 4)[-1] == ""
        # The worst game of the leader opens in the panel and plays there.
        browser.evaluate("document.querySelector('tbody[data-id=\"bob.py\"] td:nth-child(9) "
                         "a').click()")
        deadline = time.monotonic() + 20
        player = None
        while player is None:
            assert time.monotonic() < deadline, "the replay did not open"
            time.sleep(0.2)
            tree = browser.send("Page.getFrameTree")["frameTree"]
            children = [c["frame"]["url"] for c in tree.get("childFrames", [])]
            if not any(url.endswith(".html") and "/games/bob.py-" in url for url in children):
                continue
            document = browser.send("DOM.getDocument", {"depth": -1, "pierce": True})
            player = find(document["root"], "player")
        assert int(player["data-frames"]) > 1
        assert "bob.py" in browser.evaluate("document.getElementById('playing').textContent")
        requested = browser.requested()
    assert any(url.endswith("leaderboard.html") for url in requested)
    assert any("/games/bob.py-" in url for url in requested)
    assert all(url.startswith(("file://", "data:", "about:")) for url in requested), requested


def find(node: dict, element_id: str) -> dict[str, str] | None:
    """The attributes of the element with ``element_id`` under ``node`` (iframes included)."""
    attributes = node.get("attributes", [])
    pairs = dict(zip(attributes[::2], attributes[1::2]))
    if pairs.get("id") == element_id:
        return pairs
    for child in [*node.get("children", []), *([node["contentDocument"]]
                                               if "contentDocument" in node else [])]:
        found = find(child, element_id)
        if found is not None:
            return found
    return None
