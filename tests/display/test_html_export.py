"""Games as self-contained web pages: what the page holds, its size, the command line, the
notebook views, and the page playing in a real headless browser (Chromium, when installed)."""

from __future__ import annotations

import html
import io
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile

import pytest
from display_support import random_game
from PIL import Image

from pacman.display import html as page
from pacman.display import sprites
from pacman.display.notebook import MAX_PLAYERS, Recording, result_html, state_png
from pacman.display.renderer import Renderer
from pacman.engine.game import AgentSpec, GameResult, replay_states
from pacman.engine.game_loop import run_game
from pacman.engine.layout import load_layout
from pacman.lineup.build import lineup
from tests.cli_support import run_cli

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine")


class Cautious:
    """Random moves that keep out of every ghost's reach: long games, for the size bound."""

    def __init__(self, index: int = 0, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    def get_action(self, state):
        layout = state.layout
        safe = [a for a in state.legal_actions() if a != "Stop" and all(
            layout.maze_distance(state.successor(a).pacman_position, ghost) > 2
            for ghost in state.ghost_positions)]
        return self.rng.choice(safe or list(state.legal_actions()))


def long_game(layout_name: str, moves: int) -> GameResult:
    """The first seeded game of exactly ``moves`` Pacman moves on ``layout_name``."""
    layout = load_layout(layout_name)
    ghosts = lineup(layout, "random", "random")[1:]
    for seed in range(40):
        result = run_game(layout, [AgentSpec("cautious", Cautious)] + ghosts, seed,
                          max_moves=moves)
        if result.moves == moves:
            return result
    raise AssertionError("no game lasted long enough")


@pytest.fixture(scope="module")
def game():
    return random_game("small_classic", seed=21, max_moves=40)


@pytest.fixture
def recording(tmp_path, game):
    result, _ = game
    path = tmp_path / "games.jsonl"
    path.write_text(result.to_json() + "\n", encoding="utf-8")
    return path




def embedded(document: str) -> dict:
    found = re.search(r'<script type="application/json" id="game">(.*?)</script>', document,
                      re.S)
    assert found, "the page holds no game"
    return json.loads(found.group(1))


# --- what the page holds ------------------------------------------------------------------------
def test_page_is_self_contained(game):
    document = page.game_html(game[0])
    assert not re.search(r"https?:|//[a-z]", document, re.I)
    assert not re.search(r"<(link|img|iframe)\b|\bsrc\s*=|@import|url\(", document, re.I)
    assert document.count("<script") == 2  # the game's data and the player, both inline


def test_page_holds_every_state_of_the_game(game):
    result, states = game
    data = embedded(page.game_html(result))
    stride = 2 + 2 * result.num_ghosts
    assert len(data["frames"]) == stride * len(states)
    for number, state in enumerate(states):
        frame = data["frames"][number * stride:(number + 1) * stride]
        assert frame == [state.score, *state.positions, *state.scared_timers]
    assert len(data["actions"]) == len(result.actions)
    assert data["maze"] == result.layout_text.split("\n")


@pytest.mark.parametrize("layout_name, seed", [("capsule_rich", 2), ("medium_classic", 5)])
def test_food_follows_from_pacmans_path(layout_name, seed):
    """The player derives food and capsules from where Pacman has been; that must be exact."""
    result, states = random_game(layout_name, seed=seed, max_moves=120)
    visited = 0
    for state in states:
        visited |= 1 << state.pacman_cell
        assert state.food == state.layout.food & ~visited
        assert state.capsules == state.layout.capsules & ~visited


def test_names_cannot_break_out_of_the_page(game):
    result = GameResult.from_dict({**game[0].to_dict(), "agents": [
        {"name": "</script><script>alert(1)</script>", "options": {}}] + game[0].agents[1:]})
    document = page.game_html(result)
    assert "<script>alert" not in document
    assert embedded(document)["agents"][0] == "</script><script>alert(1)</script>"


def test_a_300_move_game_is_small_enough_to_mail():
    size = len(page.game_html(long_game("medium_classic", 300)).encode())
    assert size < 100_000, f"{size} bytes"


@pytest.mark.slow
def test_a_1000_move_game_with_four_ghosts_stays_under_400_kb():
    size = len(page.game_html(long_game("large_classic", 1000)).encode())
    assert size < 400_000, f"{size} bytes"


# --- the command line ---------------------------------------------------------------------------
def test_export_writes_the_page(capsys, tmp_path, recording):
    target = tmp_path / "game.html"
    code, out, err = run_cli(capsys, "export", recording, target)
    assert code == 0 and err == ""
    assert out.startswith(f"wrote {target} (") and "kB" in out
    assert embedded(target.read_text("utf-8"))["seed"] == 21


def test_play_export_writes_a_page_per_game(capsys, tmp_path):
    target = tmp_path / "game.html"
    code, _, _ = run_cli(capsys, "--display", "none", "--seed", "4", "--games", "2",
                         "--max-moves", "20", "--pacman", "random", "--export", target)
    assert code == 0
    seeds = [embedded((tmp_path / f"game-{n}.html").read_text("utf-8"))["seed"] for n in (1, 2)]
    assert seeds == [4, 5]


def test_a_tampered_recording_is_refused(capsys, tmp_path, game):
    data = game[0].to_dict()
    data["score"] += 10
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(data) + "\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "export", path, tmp_path / "game.html")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "score" in err
    assert not (tmp_path / "game.html").exists()


# --- notebooks ----------------------------------------------------------------------------------
def test_a_result_shows_as_the_player_in_an_iframe(game):
    fragment = result_html(game[0])
    found = re.fullmatch(r'<iframe srcdoc="([^"]*)".*</iframe>', fragment, re.S)
    assert found, fragment[:200]
    inner = html.unescape(found.group(1))
    assert inner == page.game_html(game[0], autoplay=False)


NOTEBOOK = """
import sys
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
from pacman.engine.game import GameResult
from pacman.engine.layout import load_layout
from pacman.engine.state import ClassicSpeedState, GameState
layout = load_layout("tiny")
shown = {}
for name, thing in [("result", GameResult.from_json(sys.stdin.read())),
                    ("state", GameState.initial(layout)),
                    ("classic", ClassicSpeedState.initial(layout))]:
    data, _ = shell.display_formatter.format(thing)
    shown[name] = sorted(data)
print(shown)
"""


def test_inside_ipython_results_and_states_show_through_its_formatters(game):
    """Jupyter's journey: IPython runs first, then the package is imported; IPython's own
    formatters then give the player for a result and a picture for a state of either class."""
    pytest.importorskip("IPython")
    done = subprocess.run([sys.executable, "-c", NOTEBOOK], input=game[0].to_json(),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert eval(done.stdout) == {"result": ["text/html", "text/plain"],  # noqa: S307
                                 "state": ["image/png", "text/plain"],
                                 "classic": ["image/png", "text/plain"]}


def test_outside_ipython_importing_the_engine_loads_no_display():
    code = ("import sys, pacman.engine.game, pacman.engine.state, pacman.engine.game_loop; "
            "print(sorted(m for m in sys.modules if m.startswith(('pacman.display', 'IPython'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stdout + done.stderr


def test_a_recording_shows_each_game_up_to_a_limit(recording, game):
    shown = Recording.load(str(recording))
    assert len(shown) == 1 and shown[0].seed == 21
    assert shown._repr_html_().count("<iframe") == 1
    many = Recording([game[0]] * (MAX_PLAYERS + 3), source="many.jsonl")
    text = many._repr_html_()
    assert text.count("<iframe") == MAX_PLAYERS and f"the first {MAX_PLAYERS}" in text


def test_a_state_shows_as_a_picture(game):
    state = game[1][7]
    picture = Image.open(io.BytesIO(state_png(state)))
    assert picture.format == "PNG"
    assert picture.size == Renderer.natural_size(state.layout, 20)
    assert sprites.PACMAN in {colour for _, colour in picture.convert("RGB").getcolors(1 << 16)}


# --- a real browser -----------------------------------------------------------------------------
def chromium(*arguments: str) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={profile}", *arguments],
            capture_output=True, text=True, timeout=25, check=False)


@needs_chromium
def test_the_page_plays_in_a_browser(tmp_path):
    result = long_game("small_classic", 60)
    target = tmp_path / "game.html"
    page.write_html(result, str(target))
    done = chromium("--virtual-time-budget=2500", "--dump-dom", target.as_uri())
    root = re.search(r'<div id="player"[^>]*>', done.stdout)
    assert root, done.stderr[-500:]
    attributes = dict(re.findall(r'data-(\w+)="(\d+)"', root.group(0)))
    states = len(list(replay_states(result)))
    assert attributes["frames"] == str(states)
    assert 3 < int(attributes["frame"]) < states  # it started playing by itself ...
    assert int(attributes["drawn"]) >= int(attributes["frame"])  # ... drawing every move
    assert "score " in done.stdout and "move " in done.stdout


@needs_chromium
def test_a_link_to_a_move_opens_there_paused(tmp_path, game):
    target = tmp_path / "game.html"
    page.write_html(game[0], str(target))
    done = chromium("--virtual-time-budget=1500", "--dump-dom", target.as_uri() + "#move=5")
    root = re.search(r'<div id="player"[^>]*>', done.stdout)
    assert root, done.stderr[-500:]
    attributes = dict(re.findall(r'data-(\w+)="(\d+)"', root.group(0)))
    assert attributes["frame"] == str(5 * (game[0].num_ghosts + 1))
    assert attributes["playing"] == "0"
    assert "move 5/" in done.stdout


@needs_chromium
def test_the_browser_draws_the_maze_and_the_agents(tmp_path, game):
    target = tmp_path / "game.html"
    page.write_html(game[0], str(target))
    shot = tmp_path / "shot.png"
    chromium(f"--screenshot={shot}", "--window-size=900,700", "--virtual-time-budget=500",
             target.as_uri())
    colours = {colour for _, colour in Image.open(shot).convert("RGB").getcolors(1 << 20)}
    for expected in (sprites.PACMAN, sprites.WALL, sprites.GHOSTS[0], sprites.FOOD):
        assert expected in colours, expected
