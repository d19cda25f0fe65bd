"""A cup's table as text, CSV and JSON, and the ``leaderboard`` field of Gradescope's results.

Every form holds the same rows in the same order (:func:`pacman.tournament.ranking.rank`):
rank (``=1`` for an entrant tied with the leader), id, what it played, games, wins, win rate
with its Wilson interval, mean score with its Student-t interval, the paired difference with
the leader, failed games by kind, and a status for entrants that played nothing. Nothing in
them depends on think times, so the same games give the same files, byte for byte.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import sys
from typing import Any
from collections.abc import Sequence

from pacman.engine.outcome import Outcome
from pacman.tournament.ranking import TIE_RULE, Game, Standing


_FRAME = re.compile(r'^  File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<where>.*)$')
_PROGRAM = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_RUNTIME = tuple({os.path.realpath(p) for p in (sys.prefix, sys.base_prefix,
                                                  sys.exec_prefix)})


def student_words(traceback_text: str) -> str:
    """The part of a failed game's traceback the student wrote: the frames in files that are
    neither this program's nor Python's, each named by its file name, and the error's last
    line; ``""`` when no frame is the student's."""
    lines = traceback_text.rstrip("\n").split("\n")
    kept: list[str] = []
    keep = False
    for line in lines:
        frame = _FRAME.match(line)
        if frame:
            path = os.path.realpath(frame["file"])
            keep = not (path.startswith(_PROGRAM + os.sep) or path.startswith(_RUNTIME)
                        or frame["file"].startswith("<"))
            if keep:
                kept.append(f'  File "{os.path.basename(path)}", line {frame["line"]}, '
                            f'in {frame["where"]}')
        elif keep and line.startswith("    "):
            kept.append(line)
    if not kept:
        return ""
    return "\n".join(kept + [lines[-1]])


_SECONDS = r"\d+(?:\.\d+)? s"
#: What a timeout's message measured: how long the move took, how long the agent had thought
#: in the game (the limit, in parentheses, stays).
_MEASURED = re.compile(rf" after {_SECONDS}(?:, with {_SECONDS} of thinking in this game)?"
                       rf"|\b(?P<verb>took|thought for) {_SECONDS}")


def steady_message(game: Game) -> str:
    """A failed game's message without what was measured (``still thinking after 1.52 s``,
    ``thought for 181.3 s in this game``: ``still thinking``, ``thought too long in this
    game``), naming the limit it broke, so that the same games give the same files."""
    message = (game.failure or {}).get("message", "")
    if game.outcome != Outcome.TIMEOUT:
        return message
    return _MEASURED.sub(lambda m: "" if m["verb"] is None
                         else f"{m['verb'].removesuffix(' for')} too long", message)


def rank_text(standing: Standing) -> str:
    """``"1"``, ``"=1"`` (tied with the leader), ``"3"`` or ``"-"`` (unranked)."""
    if standing.rank is None:
        return "-"
    return f"={standing.rank}" if standing.tied else str(standing.rank)


def _interval(pair: Sequence[float] | None, digits: int = 1) -> str:
    if pair is None:
        return "n/a"
    return f"[{pair[0]:.{digits}f}, {pair[1]:.{digits}f}]"


def row(standing: Standing) -> dict[str, Any]:
    """One entrant's row as JSON data."""
    best, worst = standing.best_and_worst()
    data: dict[str, Any] = {
        "rank": rank_text(standing), "id": standing.id, "side": standing.side,
        "plays": standing.plays, "games": standing.played, "wins": standing.wins,
        "win_rate": round(standing.win_rate, 6),
        "win_interval": [round(x, 6) for x in standing.win_interval],
        "mean_score": round(standing.mean_score, 6),
        "score_interval": (None if standing.score_interval is None
                           else [round(x, 6) for x in standing.score_interval]),
        "tied_with_leader": standing.tied, "failed": dict(standing.failed),
        "status": standing.status or ("played" if standing.played else "no games yet"),
    }
    if standing.versus_leader is not None:
        versus = dict(standing.versus_leader)
        versus["difference"] = round(versus["difference"], 6)
        if versus["interval"] is not None:
            versus["interval"] = [round(x, 6) for x in versus["interval"]]
        if versus["p"] is not None:
            versus["p"] = round(versus["p"], 6)
        data["versus_leader"] = versus
    for name, game in (("best", best), ("worst", worst)):
        if game is not None:
            data[name] = {"maze": game.maze, "seed": game.seed, "score": game.score,
                          "outcome": str(game.outcome), "pacman": game.pacman,
                          "ghosts": game.ghosts}
    data["failures"] = [{"maze": g.maze, "seed": g.seed, "kind": str(g.outcome),
                         "message": steady_message(g),
                         "traceback": student_words((g.failure or {}).get("traceback", ""))}
                        for g in standing.failed_games()]
    return data


def to_json(tables: dict[str, list[Standing]], settings: dict[str, Any]) -> str:
    """The cup as one JSON document: its settings, the tie rule and each side's rows."""
    document = {"cup": settings, "tie_rule": TIE_RULE,
                "tables": {side: [row(s) for s in rows] for side, rows in tables.items()}}
    return json.dumps(document, indent=1, sort_keys=True)


CSV_COLUMNS = ("side", "rank", "id", "plays", "games", "wins", "win_rate", "win_low",
               "win_high", "mean_score", "score_low", "score_high", "difference_to_leader",
               "difference_low", "difference_high", "p_value", "crash", "illegal", "timeout",
               "move_limit", "status")


def to_csv(tables: dict[str, list[Standing]]) -> str:
    """One CSV line per entrant and side (columns: :data:`CSV_COLUMNS`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for rows in tables.values():
        for standing in rows:
            data = row(standing)
            versus = data.get("versus_leader") or {}
            interval = versus.get("interval") or ["", ""]
            score = data["score_interval"] or ["", ""]
            writer.writerow([data["side"], data["rank"], data["id"], data["plays"],
                             data["games"], data["wins"], f"{standing.win_rate:.4f}",
                             f"{standing.win_interval[0]:.4f}",
                             f"{standing.win_interval[1]:.4f}", f"{standing.mean_score:.2f}",
                             *(f"{x:.2f}" if x != "" else "" for x in score),
                             "" if not versus else f"{versus['difference']:.2f}",
                             *(f"{x:.2f}" if x != "" else "" for x in interval),
                             "" if versus.get("p") is None else f"{versus['p']:.4f}",
                             data["failed"].get("crash", 0), data["failed"].get("illegal", 0),
                             data["failed"].get("timeout", 0),
                             data["failed"].get("move_limit", 0), data["status"]])
    return out.getvalue()


def to_text(tables: dict[str, list[Standing]]) -> str:
    """The table for a terminal, one block per side, the tie rule under it."""
    blocks = []
    for side, rows in tables.items():
        head = ("rank", "entrant", "games", "win rate [95%]", "mean score [95%]",
                "vs leader [95%]", "failed", "plays / status")
        lines = [head]
        for standing in rows:
            versus = standing.versus_leader
            lines.append((
                rank_text(standing), standing.id, str(standing.played),
                (f"{standing.win_rate:.2f} {_interval(standing.win_interval, 2)}"
                 if standing.played else ""),
                (f"{standing.mean_score:.1f} {_interval(standing.score_interval)}"
                 if standing.played else ""),
                ("" if versus is None else
                 f"{versus['difference']:+.1f} {_interval(versus['interval'])}"),
                str(standing.failures) if standing.played else "",
                standing.status or standing.plays))
        widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
        title = "Pacman" if side == "pacman" else "Ghost teams (lower Pacman score is better)"
        text = [title] + ["  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip()
                          for line in lines]
        blocks.append("\n".join(text))
    return "\n\n".join(blocks) + f"\n\nties: {TIE_RULE}"


def gradescope_leaderboard(standing: Standing) -> list[dict[str, Any]]:
    """The ``leaderboard`` field of an entrant's Gradescope ``results.json``: its rank, mean
    score and win rate (Gradescope sorts by the first entry's ``order``)."""
    rank_value = standing.rank if standing.rank is not None else 0
    return [
        {"name": "Rank", "value": rank_value, "order": "asc"},
        {"name": "Mean score", "value": round(standing.mean_score, 2),
         "order": "desc" if standing.side == "pacman" else "asc"},
        {"name": "Win rate", "value": round(100 * standing.win_rate, 1), "order": "desc"},
        {"name": "Failed games", "value": standing.failures, "order": "asc"},
    ]
