"""What every lecture experiment shares: its settings, its report, and how a report is written.

An experiment is a function ``Settings -> Report``. The report holds Markdown sections, PNG
figures, *claims* (the lecture's statement, whether our numbers bear it out, and the evidence)
and ``data``: every deterministic number of the run. ``write_report`` puts ``report.md`` and
``results.json`` into the output folder, with the exact command, the seeds and the software
version, so that a run can be checked and repeated. Timings are shown in the Markdown but kept
out of ``results.json``: two runs with the same seed give the same ``results.json``.
"""

from __future__ import annotations

import json
import platform
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from pacman import __version__


@dataclass(frozen=True)
class Settings:
    """How to run an experiment: ``games`` per condition (seeds ``seed .. seed+games-1``),
    ``workers`` processes (``None``: every core), the output folder and the command line that
    asked for it (quoted in the report)."""

    games: int
    seed: int
    out: Path
    workers: int | None = None
    command: str = ""
    progress: bool = False

    @property
    def seeds(self) -> str:
        return f"{self.seed}..{self.seed + self.games - 1}"


@dataclass
class Claim:
    """A statement of the lecture, whether this run bears it out, and the numbers that say so."""

    text: str
    holds: bool
    evidence: str


@dataclass
class Report:
    """The outcome of one experiment run (see the module docstring)."""

    name: str
    title: str
    intro: str
    sections: list[str] = field(default_factory=list)
    figures: list[tuple[str, str]] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)

    def add(self, markdown: str) -> None:
        self.sections.append(markdown.strip("\n"))

    def figure(self, filename: str, caption: str) -> None:
        self.figures.append((filename, caption))

    def claim(self, text: str, holds: bool, evidence: str) -> Claim:
        claim = Claim(text, bool(holds), evidence)
        self.claims.append(claim)
        return claim

    @property
    def all_hold(self) -> bool:
        return all(c.holds for c in self.claims)


@dataclass(frozen=True)
class Experiment:
    """A named experiment: ``run`` plays and measures; ``games`` is the full size per
    condition and ``ci_games`` the reduced size the test suite runs."""

    name: str
    title: str
    summary: str
    games: int
    ci_games: int
    run: Callable[[Settings], Report]


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown table (cells are text; ``|`` escaped)."""
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

    return "\n".join([line(header), "|" + "|".join("---" for _ in header) + "|",
                      *(line(r) for r in rows)])


def write_report(report: Report, settings: Settings) -> Path:
    """Write ``report.md`` and ``results.json`` into ``settings.out``; returns the Markdown path."""
    out = Path(settings.out)
    out.mkdir(parents=True, exist_ok=True)
    verdict = ("every claim holds" if report.all_hold else
               f"{sum(not c.holds for c in report.claims)} of {len(report.claims)} claims "
               "do not hold (see below)")
    lines = [
        f"# {report.title}",
        "",
        report.intro.strip(),
        "",
        f"- command: `{settings.command or 'run.py experiment ' + report.name}`",
        f"- games per condition: {settings.games}; seeds {settings.seeds} (game *i* of every "
        f"condition plays seed {settings.seed}+*i*, so any game can be replayed alone)",
        f"- software: pacman-arena {__version__}, Python {platform.python_version()} on "
        f"{sys.platform}",
        f"- verdict: {verdict}",
        "",
        "## Claims",
        "",
    ]
    for claim in report.claims:
        mark = "holds" if claim.holds else "DOES NOT HOLD"
        lines.append(f"- **{mark}**: {claim.text} ({claim.evidence})")
    lines.append("")
    for section in report.sections:
        lines += [section, ""]
    for filename, caption in report.figures:
        lines += [f"![{caption}]({filename})", "", f"*{caption}*", ""]
    path = out / "report.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    data = {"experiment": report.name, "games": settings.games, "seed": settings.seed,
            "version": __version__,
            "claims": [{"text": c.text, "holds": c.holds, "evidence": c.evidence}
                       for c in report.claims],
            **report.data}
    (out / "results.json").write_text(json.dumps(data, indent=2, sort_keys=True) + "\n",
                                      encoding="utf-8")
    return path
