"""The display that shows nothing: the default for batches and tests."""

from __future__ import annotations

from typing import Any
from collections.abc import Sequence


class NullDisplay:
    """Accepts every call and draws nothing."""

    def start(self, state: Any, agents: Sequence[str]) -> None:
        pass

    def update(self, state: Any, move: Any) -> None:
        pass

    def finish(self, state: Any, result: Any) -> None:
        pass
