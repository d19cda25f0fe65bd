"""The cup's leaderboard as one self-contained web page, and a replay page per game.

The page (``leaderboard.html``) needs no server and makes no network request: its style and
script are inline. Clicking a column's heading sorts the table by it (again: the other way).
Each entrant's row links its best and worst game; its details list every game it played and,
for each game it lost by failing, the failure in its own words (the exception's message and
the traceback of the student's code). A game's link opens its replay in the panel beside the
table: the project's web page player (:func:`pacman.display.html.game_html`) for that game,
written to ``games/`` beside the page, itself one self-contained file.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any
from collections.abc import Iterable, Sequence

from pacman.batch.jobs import GameJob
from pacman.display.html import game_html
from pacman.engine.game import GameResult
from pacman.tournament.ranking import TIE_RULE, Game, Standing
from pacman.tournament.results import rank_text, student_words
from pacman.tournament.schedule import parse_label


def page_name(pacman: str, ghosts: str | None, maze: str, seed: int) -> str:
    """The file name of a game's replay page in ``games/``."""
    who = pacman if ghosts is None else f"{pacman}-vs-{ghosts}"
    return re.sub(r"[^A-Za-z0-9._-]", "_", f"{who}-{maze}-{seed}").lstrip(".") + ".html"


def _game_page_name(game: Game) -> str:
    return page_name(game.pacman, game.ghosts, game.maze, game.seed)


def game_pages(games: Iterable[tuple[int, GameJob, GameResult]], two_sided: bool | None = None
               ) -> dict[str, str]:
    """One replay page per cup game, by file name (``two_sided``: how labels are read)."""
    pages = {}
    for _, job, result in games:
        pairing = parse_label(job.condition, two_sided)
        if pairing is None:
            continue
        against = pairing.ghosts or "the house ghosts"
        title = (f"{pairing.pacman} against {against} on {pairing.maze}, seed {result.seed}: "
                 f"{result.outcome}, score {result.score}")
        name = page_name(pairing.pacman, pairing.ghosts, pairing.maze, result.seed)
        pages[name] = game_html(result, title=title, autoplay=False)
    return pages


_STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:0;display:flex;height:100vh;color:#111}
#board{flex:1 1 60%;overflow:auto;padding:12px}
#panel{flex:1 1 40%;border-left:1px solid #ccc;display:flex;flex-direction:column}
#panel iframe{flex:1;border:0;width:100%}
#panel p{margin:8px}
table{border-collapse:collapse;width:100%}
th{cursor:pointer;background:#eee;text-align:left;position:sticky;top:0}
th,td{padding:3px 6px;border-bottom:1px solid #ddd;vertical-align:top}
th.sorted-asc::after{content:" \\25B2"}th.sorted-desc::after{content:" \\25BC"}
tr.tied td.rank{color:#a60}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.small{color:#555;font-size:12px}
pre{white-space:pre-wrap;background:#f6f6f6;padding:4px;margin:2px 0;max-height:12em;overflow:auto}
details summary{cursor:pointer}
"""

_SCRIPT = """
function sortBy(th){
  var table=th.closest('table'),col=+th.dataset.col,type=th.dataset.type;
  var asc=!th.classList.contains('sorted-asc');
  table.querySelectorAll('th').forEach(function(h){h.classList.remove('sorted-asc','sorted-desc');});
  th.classList.add(asc?'sorted-asc':'sorted-desc');
  var bodies=Array.prototype.slice.call(table.querySelectorAll('tbody'));
  bodies.sort(function(a,b){
    var x=a.rows[0].cells[col].dataset.sort,y=b.rows[0].cells[col].dataset.sort;
    if(type==='num'){x=parseFloat(x);y=parseFloat(y);
      if(isNaN(x))x=Infinity;if(isNaN(y))y=Infinity;}
    var c=x<y?-1:x>y?1:0;return asc?c:-c;});
  bodies.forEach(function(b){table.appendChild(b);});
}
document.querySelectorAll('th').forEach(function(th){
  th.addEventListener('click',function(){sortBy(th);});});
document.querySelectorAll('a.game').forEach(function(a){
  a.addEventListener('click',function(){
    document.getElementById('playing').textContent=a.title||a.textContent;});});
"""

_COLUMNS = (("Rank", "num"), ("Entrant", "text"), ("Games", "num"), ("Win rate", "num"),
            ("Mean score", "num"), ("vs leader", "num"), ("Failed", "num"), ("Best", "num"),
            ("Worst", "num"), ("Plays / status", "text"))


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _link(game: Game | None, pages: set[str], text: str) -> str:
    if game is None:
        return ""
    name = _game_page_name(game)
    label = f"{text} ({game.maze}, seed {game.seed}, {game.outcome})"
    if name not in pages:
        return _e(f"{game.score} {label}")
    return (f'<a class="game" href="games/{_e(name)}" target="replay" title="{_e(label)}">'
            f"{game.score}</a> <span class=small>{_e(game.outcome)}</span>")


def _interval(pair: Sequence[float] | None, digits: int) -> str:
    return "" if pair is None else f"[{pair[0]:.{digits}f}, {pair[1]:.{digits}f}]"


def _body(standing: Standing, pages: set[str]) -> str:
    best, worst = standing.best_and_worst()
    rank_sort = standing.rank if standing.rank is not None else ""
    versus = standing.versus_leader
    played = standing.played > 0
    cells = [
        (rank_sort, _e(rank_text(standing)), "num rank"),
        (standing.id, _e(standing.id), ""),
        (standing.played, standing.played, "num"),
        (standing.win_rate if played else "",
         f"{standing.win_rate:.2f} <span class=small>{_interval(standing.win_interval, 2)}"
         "</span>" if played else "", "num"),
        (standing.mean_score if played else "",
         f"{standing.mean_score:.1f} <span class=small>"
         f"{_interval(standing.score_interval, 1)}</span>" if played else "", "num"),
        ("" if versus is None else versus["difference"],
         "" if versus is None else f"{versus['difference']:+.1f} <span class=small>"
         f"{_interval(versus['interval'], 1)}</span>", "num"),
        (standing.failures if played else "", standing.failures if played else "", "num"),
        ("" if best is None else best.score,
         _link(best, pages, f"{standing.id}: best game"), "num"),
        ("" if worst is None else worst.score,
         _link(worst, pages, f"{standing.id}: worst game"), "num"),
        (standing.status or standing.plays, _e(standing.status or standing.plays), ""),
    ]
    row = "".join(f'<td class="{cls}" data-sort="{_e(sort)}">{shown}</td>'
                  for sort, shown, cls in cells)
    tied = ' class="tied"' if standing.tied else ""
    details = _details(standing, pages)
    return (f'<tbody data-id="{_e(standing.id)}"><tr{tied}>{row}</tr>'
            f'<tr class="more"><td></td><td colspan="{len(_COLUMNS) - 1}">{details}</td></tr>'
            "</tbody>")


def _details(standing: Standing, pages: set[str]) -> str:
    if not standing.games:
        return ""
    games = []
    for game in standing.games:
        name = _game_page_name(game)
        who = game.ghosts if standing.side == "pacman" else game.pacman
        label = (f"{standing.id}: {game.maze} seed {game.seed}" + (f" vs {who}" if who else "")
                 + f": {game.outcome} {game.score}")
        if name in pages:
            games.append(f'<a class="game" href="games/{_e(name)}" target="replay" '
                         f'title="{_e(label)}">{_e(label)}</a>')
        else:
            games.append(_e(label))
    failures = []
    for game in standing.failed_games():
        failure = game.failure or {}
        words = failure.get("message", "")
        trace = student_words(failure.get("traceback", ""))
        failures.append(f"<div>{_e(game.maze)} seed {game.seed}: <b>{_e(game.outcome)}</b>"
                        f"<pre>{_e(words)}" + (f"\n\n{_e(trace)}" if trace else "")
                        + "</pre></div>")
    failed = (f"<div class=failures>{''.join(failures)}</div>" if failures else "")
    return (f"<details><summary>{len(standing.games)} games"
            f"{f', {len(failures)} failed' if failures else ''}</summary>"
            f"<div class=small>{' · '.join(games)}</div>{failed}</details>")


def _table(side: str, rows: Sequence[Standing], pages: set[str]) -> str:
    head = "".join(f'<th data-col="{i}" data-type="{kind}">{_e(name)}</th>'
                   for i, (name, kind) in enumerate(_COLUMNS))
    title = "Pacman" if side == "pacman" else "Ghost teams (a lower Pacman score is better)"
    return (f'<h2>{_e(title)}</h2><table id="{_e(side)}"><thead><tr>{head}</tr></thead>'
            + "".join(_body(s, pages) for s in rows) + "</table>")


def page(tables: dict[str, list[Standing]], settings: dict[str, Any], pages: set[str]) -> str:
    """The leaderboard page: each side's table, the cup's settings and the tie rule."""
    shown = {k: settings[k] for k in ("mazes", "games", "seed", "ghosts", "max_moves",
                                      "move_time_limit", "game_time_limit", "entrants") if k in settings}
    summary = ", ".join(f"{k.replace('_', ' ')}: {json.dumps(v)}" for k, v in shown.items())
    body = "".join(_table(side, rows, pages) for side, rows in tables.items())
    return ("<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
            f"<title>Cup leaderboard</title><style>{_STYLE}</style></head><body>"
            f'<div id="board"><h1>Cup leaderboard</h1><p class=small>{_e(summary)}</p>'
            f"<p class=small>Ties: {_e(TIE_RULE)}. Click a heading to sort; a score to watch "
            f"the game.</p>{body}</div>"
            '<div id="panel"><p id="playing" class=small>Click a game to watch it here.</p>'
            '<iframe name="replay" id="replay" title="replay"></iframe></div>'
            f"<script>{_SCRIPT}</script></body></html>\n")
