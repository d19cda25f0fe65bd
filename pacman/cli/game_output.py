"""What ``play`` and its ``--replay`` show and write: the display of the games, the heat map's
evaluation, and the ``--export`` files (an animation or a web page per game)."""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from typing import Any
from collections.abc import Callable

from pacman.display import make_display, resolve_kind, screen_available
from pacman.display.base import BaseDisplay
from pacman.errors import ConfigurationError
from pacman.engine.game import AgentSpec, GameResult
from pacman.engine.outcome import Outcome


def game_display(args: argparse.Namespace, evaluation: Callable | None = None) -> BaseDisplay:
    """The display ``--display`` asks for (``none`` for ``--json`` with ``auto``), set up from
    the command's options. ``--display window`` where no screen exists (no ``DISPLAY``, as
    over SSH) is a :class:`ConfigurationError`: a window nobody can see would wait for ever."""
    kind = args.display
    if args.json and kind == "auto":
        kind = "none"
    if kind == "window" and not screen_available():
        raise ConfigurationError("--display window: there is no screen here (DISPLAY is not "
                                 "set); use --display text, or leave --display out to choose "
                                 "by itself")
    concrete = resolve_kind(kind)
    frame_time = args.frame_time
    if frame_time is None:
        frame_time = 0.0 if concrete == "none" else 0.1
    options: dict[str, Any] = {}
    if concrete == "text" and args.json:
        options["stream"] = sys.stderr
    if concrete == "window":
        options.update(zoom=args.zoom, overlay=args.overlay, evaluation=evaluation,
                       pause_between=args.pause_between,
                       pause_at_end=getattr(args, "pause_at_end", False))
    return make_display(concrete, frame_time=frame_time, **options)


def pacman_evaluation(spec: AgentSpec) -> Callable | None:
    """The evaluation function Pacman's agent uses (given or default), for the heat map."""
    from pacman.lineup.options import declared_options

    if "evaluation" in spec.options:
        found = spec.options["evaluation"]
    else:
        found = declared_options(spec.factory).get("evaluation", (None, None))[1]
    return found if callable(found) and not isinstance(found, type) else None


def check_export(args: argparse.Namespace) -> None:
    """Refuse a bad ``--export`` target before any game is played."""
    if args.export:
        from pacman.display.export import check_target
        from pacman.display.html import is_html

        if not is_html(args.export):
            check_target(args.export)


def export_game_file(args: argparse.Namespace, result: GameResult, number: int, total: int,
            evaluation: Callable | None) -> None:
    """Write ``result`` as an animation when ``--export`` asks for it."""
    if not args.export:
        return
    from pacman.display.export import export_game
    from pacman.display.html import is_html, write_html

    path = args.export
    if total > 1:
        stem, dot, ending = path.rpartition(".")
        path = f"{stem}-{number + 1}{dot}{ending}"
    if is_html(path):
        size = write_html(result, path)
        print(f"wrote {path} ({size / 1000:.0f} kB)", file=sys.stderr if args.json else sys.stdout,
              flush=True)
        return
    count = export_game(result, path, frame_time=args.frame_time or 0.1,
                        zoom=args.zoom or 1.0,
                        evaluation=evaluation if args.overlay else None)
    print(f"wrote {path} ({count} frames)", file=sys.stderr if args.json else sys.stdout,
          flush=True)


#: Games whose scores and outcomes the classic summary lists one by one (beyond: counted only).
LISTED_GAMES = 1000


class Tally:
    """What the summary after several games needs: wins, scores and crashes, in constant
    memory beyond the first :data:`LISTED_GAMES` games."""

    def __init__(self) -> None:
        self.played = 0
        self.wins = 0
        self.total = 0.0
        #: Games an agent crashed (raised): the run's exit code says so.
        self.crashes = 0
        self.scores: list[float] = []
        self.records: list[bool] = []

    def add(self, result: GameResult) -> None:
        """Count one finished game (an interrupted one too)."""
        self.played += 1
        self.wins += bool(result.won)
        self.total += result.score
        self.crashes += result.failure is not None and result.failure.kind == Outcome.CRASH
        if len(self.scores) < LISTED_GAMES:
            self.scores.append(float(result.score))
            self.records.append(bool(result.won))

    def classic_summary(self) -> str:
        """The lines the classic course prints after its games (``Average Score:``,
        ``Scores:``, ``Win Rate:``, ``Record:``), which its handout quotes."""
        more = (f" (the first {len(self.scores)} of {self.played})"
                if self.played > len(self.scores) else "")
        return "\n".join((
            f"Average Score: {self.total / max(1, self.played)}",
            f"Scores:        {', '.join(str(s) for s in self.scores)}{more}",
            f"Win Rate:      {self.wins}/{self.played} ({self.wins / max(1, self.played):.2f})",
            f"Record:        {', '.join('Win' if w else 'Loss' for w in self.records)}{more}"))


def show_failure(result: GameResult, first: bool) -> bool:
    """For a game an agent crashed, print on stderr the agent's own traceback: the frames of
    its file's folder, named by file name and line, and the exception's line (only for the
    ``first`` failure of a run: one traceback is enough to act on). Returns whether the game
    failed."""
    failure = result.failure
    if failure is None or failure.kind != Outcome.CRASH:
        return False
    if first and failure.traceback:
        name = str(result.agents[failure.agent].get("name", ""))
        shown = own_traceback(failure.traceback, name.rpartition(":")[0])
        if shown:
            print(shown, file=sys.stderr, flush=True)
    return True


_FRAME = re.compile(r'^  File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<name>.+)$')


def own_traceback(trace: str, agent_file: str) -> str:
    """``trace`` (a formatted traceback) cut to the frames in the folder of ``agent_file``
    (the student's file and its neighbours), each named by its file name, then the
    exception's last line; ``""`` when no frame is theirs."""
    frames = own_frames(trace, agent_file)
    if not frames:
        return ""
    shown: list[str] = []
    for file, line, name, source in frames:
        shown.append(f'  File "{file}", line {line}, in {name}')
        if source:
            shown.append("    " + source)
    lines = trace.rstrip("\n").splitlines()
    last = next((t for t in reversed(lines) if t.strip() and not t.startswith(" ")), "")
    return "\n".join(["Traceback (your code, most recent call last):", *shown, last])


def own_frames(trace: str, agent_file: str) -> list[tuple[str, int, str, str]]:
    """The frames of ``trace`` (a formatted traceback) in the folder of ``agent_file``, outermost
    first, as ``(file name, line, function, source line or "")``."""
    if not agent_file:
        return []
    folder = os.path.dirname(os.path.realpath(agent_file))
    frames: list[tuple[str, int, str, str]] = []
    keep = False
    for text in trace.rstrip("\n").splitlines():
        frame = _FRAME.match(text)
        if frame:
            path = os.path.realpath(frame["file"])
            keep = os.path.dirname(path) == folder
            if keep:
                frames.append((os.path.basename(path), int(frame["line"]), frame["name"], ""))
        elif keep and text.startswith("    ") and text.strip("^~ ").strip():
            frames[-1] = (*frames[-1][:3], text.strip())
            keep = False  # the source line only, not the markers under it
    return frames


def late_place(result: GameResult) -> str:
    """For a game an agent lost by timeout with where its code was (an agent from a file),
    `` in multiAgents.py line 153, in getAction``: the innermost frame of its own files;
    else ``""``."""
    failure = result.failure
    if failure is None or failure.kind != Outcome.TIMEOUT or not failure.traceback:
        return ""
    name = str(result.agents[failure.agent].get("name", ""))
    frames = own_frames(failure.traceback, name.rpartition(":")[0])
    if not frames:
        return ""
    file, line, function, _ = frames[-1]
    return f" in {file} line {line}, in {function}"


def draws_in_terminal(args: argparse.Namespace) -> bool:
    """Whether ``play`` draws its games in this terminal (the text display on a terminal),
    where anything else written to it would land inside the board."""
    kind = "none" if args.json and args.display == "auto" else args.display
    try:
        concrete = resolve_kind(kind)
    except ConfigurationError:
        return False
    return concrete == "text" and sys.stdout.isatty() and sys.stderr.isatty()


class HeldOutput:
    """What is written to stderr (file descriptor 2) while the terminal display draws: an
    agent's prints (its process writes there, and its processes start while this is held)
    are kept in a file and shown whole between games (:meth:`release`), under a heading,
    instead of inside the board. Inactive, it holds nothing and releases nothing."""

    HEADING = "printed while the game was drawn:"

    def __init__(self, active: bool) -> None:
        self.active = active
        self._saved = -1
        self._file: Any = None
        self._shown = 0

    def __enter__(self) -> HeldOutput:
        if self.active:
            sys.stderr.flush()
            self._saved = os.dup(2)
            self._file = tempfile.TemporaryFile()
            os.dup2(self._file.fileno(), 2)
        return self

    def release(self, heading: str | None = HEADING) -> None:
        """Show what was written since the last release (after ``heading`` when given)."""
        if not self.active or self._file is None:
            return
        sys.stderr.flush()
        self._file.seek(self._shown)
        data = self._file.read()
        self._shown += len(data)
        if data:
            text = data.decode("utf-8", errors="replace")
            text = (f"{heading}\n" if heading else "") + text + ("" if text.endswith("\n") else "\n")
            os.write(self._saved, text.encode("utf-8"))

    def __exit__(self, *exc: object) -> None:
        if not self.active or self._file is None:
            return
        self.release()
        os.dup2(self._saved, 2)
        os.close(self._saved)
        self._file.close()
        self._file = None


def held_output(active: bool) -> HeldOutput:
    """A :class:`HeldOutput` for a ``with`` block (active only when ``active``)."""
    return HeldOutput(active)
