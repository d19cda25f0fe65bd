"""The environments' tests: skipped as a whole without the rl extra; pictures drawn headless."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra is not installed")
pytest.importorskip("gymnasium", reason="the rl extra is not installed")


@pytest.fixture(autouse=True)
def headless(monkeypatch):
    """SDL's dummy video driver, so that ``render_mode="human"`` opens an invisible window."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_NO_SIGNAL_HANDLERS", "1")
    yield
    import sys

    if "pygame" in sys.modules:
        sys.modules["pygame"].display.quit()
