"""What every lecture experiment shares: its settings, its report, and how a report is written.

An experiment is a function ``Settings -> Report``. The report holds Markdown sections, PNG
figures, *claims* and ``data``: every deterministic number of the run. A claim is a test that
can fail: the lecture's statement, the statistic that decides it (a paired test on shared
seeds, a bound on an interval), the verdict ("holds", "holds, but smaller than the lecture's
effect", "no effect of the lecture's size", "not borne out", or "undecided at N games (needs
about M)" when the interval is too wide to decide: see :mod:`pacman.experiments.power`) and,
when it does not hold, the most likely reason.
``write_report`` puts ``report.md`` and ``results.json`` into the output folder, with the
exact command, the seeds, the software version and commit, and the commands that replay a
representative game of every cell, so that a run can be checked, watched and repeated.
Timings are shown in the Markdown but kept out of ``results.json``: two runs with the same
seed give the same ``results.json``.
"""

from __future__ import annotations

import json
import platform
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Callable

from pacman.version import __version__
from pacman.experiments.claims import Claim
from pacman.experiments.invocation import program_name, software_version
from pacman.experiments.power import (HOLDS, NOT_BORNE_OUT, NOT_LECTURE_SIZE, SMALLER, UNDECIDED,
                                      Decision)


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
    #: the least width in pixels of the board in the report's GIF (``None``: the default cells)
    board_size: int | None = None

    @property
    def seeds(self) -> str:
        return f"{self.seed}..{self.seed + self.games - 1}"


#: How every report counts (shown in each report; see :mod:`pacman.experiments.power`).
COUNTING_RULE = (
    "Counting rule: every seed is an independent draw of every random choice in a game "
    "(tie-breaks, random ghosts, varied starts), so win rates and paired tests count seeds; "
    "the number of *distinct* games stands beside them, and a cell whose seeds all play one "
    "game is marked deterministic (its outcome is exact: more seeds add nothing). A claim "
    "*holds* when its 95 % interval lies above its threshold (*but smaller than the "
    "lecture's effect* when it also lies below the effect the lecture implies), is *not "
    "borne out* when the interval lies below the threshold, shows *no effect of the "
    "lecture's size* when it straddles the threshold below that effect, and is otherwise "
    "*undecided* with the games per condition that would give its test 80 % power at the "
    "lecture's effect. Only *holds* at one seed range against *not borne out* at another "
    "would contradict; every other difference between ranges is one of power.")


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

    watch: list[tuple[str, str]] = field(default_factory=list)
    gif: tuple[str, str] | None = None

    def claim(self, text: str, holds: bool, evidence: str, statistic: str = "",
              reason: str = "", decision: Decision | None = None, games: int = 0,
              samples: str = "games") -> Claim:
        """Record a claim; ``reason`` is shown only if it does not hold. With a ``decision``
        the verdict follows it (``holds`` must agree) and may be "undecided at ``games``
        ``samples``" (games, trees, positions)."""
        if decision is not None and decision.holds != bool(holds):
            raise ValueError(f"claim {text!r}: holds={holds} but its decision says "
                             f"{decision.holds}")
        claim = Claim(text, bool(holds), evidence, statistic, reason, decision, games, samples)
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


def verdict_counts(claims: list[Claim]) -> str:
    """How many claims reached each verdict, in the order of the verdicts."""
    counts = [(sum(c.kind == kind for c in claims), kind) for kind in
              (HOLDS, SMALLER, NOT_LECTURE_SIZE, NOT_BORNE_OUT, UNDECIDED)]
    return (f"of {len(claims)} claims: " + ", ".join(
        f"{n} {kind}" + (" at this size" if kind == UNDECIDED else "")
        for n, kind in counts if n) + " (see below)")


def claim_figure(claim: Claim, number: int, out: Path) -> str:
    """Draw the claim's interval as ``claims/claim-NN.png`` in ``out``; returns its relative
    path ('' for a claim without an interval)."""
    if claim.decision is None:
        return ""
    from pacman.experiments.figures import claims_figure  # matplotlib: only when drawing

    name = f"claims/claim-{number:02d}.png"
    claims_figure([claim], out / name, claim.decision.unit)
    return name


def write_report(report: Report, settings: Settings) -> Path:
    """Write ``report.md`` and ``results.json`` into ``settings.out``; returns the Markdown path."""
    out = Path(settings.out)
    out.mkdir(parents=True, exist_ok=True)
    verdict = ("every claim holds" if report.all_hold and all(
        c.kind == HOLDS for c in report.claims) else verdict_counts(report.claims))
    lines = [
        f"# {report.title}",
        "",
        report.intro.strip(),
        "",
        f"- command: `{settings.command or program_name() + ' experiment ' + report.name}`",
        f"- games per condition: {settings.games}; seeds {settings.seeds} (game *i* of every "
        f"condition plays seed {settings.seed}+*i*, so any game can be replayed alone)",
        f"- software: {software_version()}, Python {platform.python_version()} on "
        f"{sys.platform}",
        f"- verdict: {verdict}",
        "",
        "## Claims",
        "",
        COUNTING_RULE,
        "",
    ]
    for number, claim in enumerate(report.claims, start=1):
        figure = claim_figure(claim, number, out)
        lines.append(claim.line() + (f" [Figure]({figure})" if figure else ""))
    lines.append("")
    for section in report.sections:
        lines += [section, ""]
    if report.watch:
        lines += ["## Watch a game of each cell", "",
                  "Each command replays the cell's representative game (its median score; the "
                  "lowest seed among equals). `--game K` selects the record of the results "
                  "store whose `index` field is K: the game's position in this experiment's "
                  "batch, the same in every run and resume (not its line in the file). The "
                  "store is named by its absolute path: the commands work from any folder.",
                  ""]
        lines += [f"- {cell}: `{command}`" for cell, command in report.watch]
        lines.append("")
    if report.gif is not None:
        lines += [f"![{report.gif[1]}]({report.gif[0]})", "", f"*{report.gif[1]}*", ""]
    for filename, caption in report.figures:
        lines += [f"![{caption}]({filename})", "", f"*{caption}*", ""]
    path = out / "report.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    data = {"experiment": report.name, "games": settings.games, "seed": settings.seed,
            "version": __version__,
            "claims": [c.to_dict() for c in report.claims],
            **report.data}
    (out / "results.json").write_text(json.dumps(data, indent=2, sort_keys=True) + "\n",
                                      encoding="utf-8")
    return path
