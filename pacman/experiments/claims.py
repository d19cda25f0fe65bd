"""A claim of the lecture as an experiment states it, and its verdict from a run's numbers
(the tests that decide it are :mod:`pacman.experiments.power`'s)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pacman.experiments.power import HOLDS, NOT_BORNE_OUT, NOT_LECTURE_SIZE, SMALLER, UNDECIDED, Decision


@dataclass
class Claim:
    """A statement of the lecture, whether this run bears it out, the numbers that say so,
    the test that decided it and, when it does not hold, the most likely reason.
    ``decision`` (when the claim has one) carries the interval and whether it decided."""

    text: str
    holds: bool
    evidence: str
    statistic: str = ""
    reason: str = ""
    decision: Decision | None = None
    games: int = 0
    #: what ``games`` counts, in the verdict ("undecided at 3 trees")
    samples: str = "games"

    @property
    def decided(self) -> bool:
        return self.holds or self.decision is None or self.decision.decided

    @property
    def kind(self) -> str:
        """The verdict without its sizes (one of :mod:`pacman.experiments.power`'s)."""
        if self.decision is not None:
            return self.decision.kind
        return HOLDS if self.holds else NOT_BORNE_OUT

    @property
    def verdict(self) -> str:
        kind = self.kind
        if kind == UNDECIDED:
            needed = self.decision.needed if self.decision is not None else None
            return (f"{UNDECIDED} at {self.games} {self.samples}"
                    + (f" (needs about {needed})" if needed else ""))
        return kind

    def line(self) -> str:
        """The claim as one Markdown list item."""
        parts = [f"- **{self.verdict}**: {self.text}."]
        if self.statistic:
            parts.append(f"Test: {self.statistic}.")
        parts.append(f"Result: {self.evidence}.")
        kind, d = self.kind, self.decision
        if kind == UNDECIDED:
            # a point (every pair alike) is not too wide: there are too few pairs to read
            why = ("Too few distinct results to decide" if d is not None and d.low == d.high
                   else "The interval is too wide to decide")
            parts.append(f"{why}: more {self.samples}, not a verdict.")
        elif kind == SMALLER and d is not None:
            parts.append(f"The interval lies above {d.threshold:g} and below the lecture's "
                         "effect: the effect is real but smaller than the lecture implies.")
        elif kind == NOT_LECTURE_SIZE and d is not None:
            sign = (f"; whether it lies above {d.threshold:g} at all would take about "
                    f"{d.needed} games per condition at the measured size" if d.needed else "")
            parts.append(f"The interval excludes the lecture's effect but not {d.threshold:g}: "
                         f"any effect is smaller than the lecture implies{sign}.")
        if not self.holds and kind != UNDECIDED and self.reason:
            parts.append(f"Most likely reason: {self.reason}")
        return " ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        data = {"text": self.text, "holds": self.holds, "verdict": self.verdict,
                "kind": self.kind, "decided": self.decided, "evidence": self.evidence,
                "statistic": self.statistic, "reason": self.reason}
        if self.decision is not None:
            d = self.decision
            data["interval"] = {"estimate": d.estimate, "low": d.low, "high": d.high,
                                "threshold": d.threshold, "effect": d.effect,
                                "needed": d.needed}
        return data
