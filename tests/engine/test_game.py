"""The game loop: failures, time limits, results as JSON, seeds and replays."""

from __future__ import annotations

import json
import random
import signal
import time

import pytest

from pacman.engine.game import (OUTCOMES, AgentSpec, GameInterrupted, GameResult, ReplayError,
                         agent_rng, load_result, load_results, replay_states)
from pacman.engine.game_loop import run_game
from pacman.engine.layout import parse_layout
from pacman.engine.state import GameState

from .helpers import RandomAgent, RecordingDisplay

MAZE = parse_layout("%%%%%%%%%\n"
                    "%P..o..G%\n"
                    "%.%%%%%.%\n"
                    "%...G...%\n"
                    "%%%%%%%%%\n", name="loop")


class Scripted:
    """Plays the given actions, then Stop (or the first legal action for a ghost)."""

    def __init__(self, *actions):
        self.actions = list(actions)

    def get_action(self, state):
        if self.actions:
            return self.actions.pop(0)
        return state.legal_actions()[-1]


class Crasher:
    def __init__(self, after=0):
        self.after = after

    def get_action(self, state):
        if self.after == 0:
            raise RuntimeError("boom at the crossing")
        self.after -= 1
        return state.legal_actions()[0]


class Returns:
    def __init__(self, value):
        self.value = value

    def get_action(self, state):
        return self.value


class Sleeper:
    def __init__(self, seconds):
        self.seconds = seconds

    def get_action(self, state):
        time.sleep(self.seconds)
        return state.legal_actions()[0]


class Spinner:
    """An endless loop that even swallows ordinary exceptions."""

    def get_action(self, state):
        while True:
            try:  # noqa: SIM105  (the shape of the agent under test)
                pass
            except Exception:
                pass


def random_specs(n):
    return [AgentSpec(name="random", factory=RandomAgent) for _ in range(n)]


# --- failures -------------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [0, 1, 2])
def test_agent_that_raises_crashes_the_game(bad):
    agents = [Scripted(), RandomAgent(1, random.Random(1)), RandomAgent(2, random.Random(2))]
    agents[bad] = Crasher(after=2)
    result = run_game(MAZE, agents, max_moves=50)
    assert result.outcome == "crash"
    assert result.failure is not None and result.failure.agent == bad
    assert result.failure.kind == "crash"
    assert "boom at the crossing" in result.failure.message
    assert "RuntimeError" in result.failure.message
    assert "boom at the crossing" in result.failure.traceback
    assert result.decisions[bad] == 2
    assert len(result.actions) == 3 * 2 + bad  # everything before the crash was played


def test_crash_in_start_game():
    class BadStart(Scripted):
        def start_game(self, state):
            raise ValueError("no map")

    result = run_game(MAZE, [Scripted(), BadStart()], max_moves=5)
    assert result.outcome == "crash" and result.failure.agent == 1
    assert "no map" in result.failure.message and result.actions == []


@pytest.mark.parametrize("value", ["Jump", "north", "West", "", None, 3, ["North"], b"North"])
def test_illegal_or_non_string_action(value):
    result = run_game(MAZE, [Returns(value), Scripted()], max_moves=5)
    assert result.outcome == "illegal"
    assert result.failure.agent == 0 and result.failure.kind == "illegal"
    assert repr(value) in result.failure.message
    assert result.actions == [] and result.score == 0


def test_illegal_ghost_action_names_the_ghost():
    result = run_game(MAZE, [Scripted("Stop"), Scripted(), Returns("Stop")], max_moves=5)
    assert result.outcome == "illegal" and result.failure.agent == 2
    assert result.actions == ["Stop", "West"]


def test_slow_move_times_out():
    result = run_game(MAZE, [Scripted(), Sleeper(0.3)], max_moves=5, move_time_limit=0.05)
    assert result.outcome == "timeout"
    assert result.failure.agent == 1 and result.failure.kind == "timeout"
    assert result.actions == ["Stop"]
    assert result.think_time[1] >= 0.3


def test_fast_enough_agents_do_not_time_out():
    result = run_game(MAZE, [Sleeper(0.01), Scripted()], max_moves=3, move_time_limit=0.5)
    assert result.outcome == "move_limit" and result.failure is None


def test_endless_loop_is_interrupted_at_the_hard_limit():
    before = signal.getsignal(signal.SIGALRM)
    began = time.perf_counter()
    result = run_game(MAZE, [Scripted(), Scripted(), Spinner()], max_moves=5,
                      move_time_limit=0.2)
    spent = time.perf_counter() - began
    assert result.outcome == "timeout" and result.failure.agent == 2
    assert 0.2 < spent < 0.2 + 1.0 + 0.8
    assert signal.getsignal(signal.SIGALRM) == before      # handler restored
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # timer disarmed


def test_endless_start_game_is_interrupted():
    class SpinStart(Scripted):
        def start_game(self, state):
            while True:
                pass

    began = time.perf_counter()
    result = run_game(MAZE, [SpinStart()], max_moves=5, move_time_limit=0.1)
    assert result.outcome == "timeout" and result.failure.agent == 0
    assert time.perf_counter() - began < 0.1 + 1.0 + 0.8


def test_display_can_interrupt_the_game():
    class Quitter(RecordingDisplay):
        def update(self, state, move):
            super().update(state, move)
            if len(self.states) == 4:
                raise GameInterrupted()

    display = Quitter()
    result = run_game(MAZE, [Scripted(), Scripted(), Scripted()], max_moves=50, display=display)
    assert result.outcome == "interrupted" and len(result.actions) == 3
    assert display.finished


def test_agent_receives_each_state_and_result_counts_moves():
    seen = []

    class Watcher:
        def get_action(self, state):
            seen.append(state)
            return "Stop"

    display = RecordingDisplay()
    result = run_game(MAZE, [Watcher(), Scripted(), Scripted()], max_moves=4, display=display)
    assert result.outcome == "move_limit" and result.moves == 4
    assert seen == display.states[0::3][:4]
    assert result.decisions == [4, 4, 4]
    assert result.score == -4 and result.num_ghosts == 2
    assert result.outcome in OUTCOMES


# --- results as JSON ------------------------------------------------------------------------------
def test_result_round_trips_through_json():
    for agents in ([Scripted(), Scripted(), Scripted()],
                   [Scripted(), Crasher(after=1)],
                   random_specs(3)):
        result = run_game(MAZE, agents, seed=5, max_moves=20, move_time_limit=2.0)
        text = result.to_json()
        json.loads(text)
        again = GameResult.from_json(text)
        assert again == result
        assert again.to_json() == text


def test_summary_fields():
    result = run_game(MAZE, random_specs(3), seed=3, max_moves=10)
    summary = result.summary()
    assert {"seed": 3, "outcome": result.outcome, "score": result.score,
            "moves": result.moves}.items() <= summary.items()
    assert json.loads(json.dumps(summary)) == summary


# --- seeds and random streams ---------------------------------------------------------------------
def without_times(result: GameResult) -> dict:
    data = result.to_dict()
    for key in ("think_time", "max_move_time"):
        data.pop(key)
    return data


def test_same_seed_gives_the_identical_game():
    first = run_game(MAZE, random_specs(3), seed=42, max_moves=200)
    second = run_game(MAZE, random_specs(3), seed=42, max_moves=200)
    assert without_times(first) == without_times(second)
    games = {tuple(run_game(MAZE, random_specs(3), seed=s, max_moves=200).actions)
             for s in range(6)}
    assert len(games) > 1  # and the seed matters


def test_each_agent_gets_its_own_random_stream():
    drawn = {}

    class Drawer:
        def __init__(self, index, rng):
            drawn[index] = [rng.random() for _ in range(3)]
            self.rng = rng

        def get_action(self, state):
            return self.rng.choice(state.legal_actions())

    spec = AgentSpec(name="drawer", factory=Drawer)
    run_game(MAZE, [spec, spec, spec], seed=9, max_moves=1)
    assert len({tuple(v) for v in drawn.values()}) == 3
    for index, values in drawn.items():
        rng = agent_rng(9, index)
        assert values == [rng.random() for _ in range(3)]
    first = dict(drawn)
    run_game(MAZE, [spec, spec, spec], seed=10, max_moves=1)
    assert all(first[i] != drawn[i] for i in drawn)


def test_agents_are_built_fresh_per_game():
    built = []

    def factory(index, rng):
        agent = RandomAgent(index, rng)
        built.append(agent)
        return agent

    spec = AgentSpec(name="r", factory=factory)
    run_game(MAZE, [spec], seed=1, max_moves=3)
    run_game(MAZE, [spec], seed=1, max_moves=3)
    assert len(built) == 2 and built[0] is not built[1]


# --- replays and their errors ---------------------------------------------------------------------
def recorded(tmp_path, *results: GameResult):
    path = tmp_path / "games.jsonl"
    path.write_text("".join(r.to_json() + "\n" for r in results), encoding="utf-8")
    return path


def a_game(seed=7, moves=40) -> GameResult:
    return run_game(MAZE, random_specs(3), seed=seed, max_moves=moves)


def test_load_results_reads_every_game(tmp_path):
    games = [a_game(1), a_game(2)]
    path = recorded(tmp_path, *games)
    assert load_results(str(path)) == games
    assert load_result(str(path)) == games[0]


def test_replay_states_start_from_the_initial_state():
    result = a_game()
    states = list(replay_states(result))
    assert states[0].key == GameState.initial(MAZE, 2).key
    assert len(states) == len(result.actions) + 1


@pytest.mark.parametrize("content", [
    "",
    "\n\n",
    "not json at all\n",
    '{"seed": 1}\n',
    "[1, 2, 3]\n",
    "42\n",
    '"text"\n',
    "null\n",
])
def test_corrupted_recording_raises_replay_error(tmp_path, content):
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ReplayError):
        load_results(str(path))


def test_truncated_recording_raises_replay_error(tmp_path):
    text = a_game().to_json()
    path = tmp_path / "cut.jsonl"
    path.write_text(text[: len(text) // 2] + "\n", encoding="utf-8")
    with pytest.raises(ReplayError):
        load_results(str(path))


def test_missing_recording_raises_replay_error(tmp_path):
    with pytest.raises(ReplayError):
        load_results(str(tmp_path / "absent.jsonl"))


def test_second_line_corrupted_names_the_line(tmp_path):
    path = tmp_path / "two.jsonl"
    path.write_text(a_game().to_json() + "\n{oops\n", encoding="utf-8")
    with pytest.raises(ReplayError) as info:
        load_results(str(path))
    assert ":2:" in str(info.value)


def tampered(**changes) -> GameResult:
    data = a_game().to_dict()
    for key, value in changes.items():
        data[key] = value(data[key]) if callable(value) else value
    return GameResult.from_dict(data)


@pytest.mark.parametrize("change", [
    pytest.param({"score": lambda s: s + 10}, id="score"),
    pytest.param({"actions": lambda a: ["Jump"] + a[1:]}, id="unknown-action"),
    pytest.param({"actions": lambda a: a + ["North"] * 5 + ["West"] * 5}, id="extra-actions"),
    pytest.param({"actions": lambda a: a[:1] + ["Stop"] + a[2:]}, id="ghost-stops"),
    pytest.param({"actions": lambda a: [None] + a[1:]}, id="action-null"),
    pytest.param({"actions": lambda a: [["North"]] + a[1:]}, id="action-list"),
    pytest.param({"actions": None}, id="actions-null"),
    pytest.param({"layout_text": lambda t: t.replace("P", "x")}, id="maze-bad-char"),
    pytest.param({"layout_text": "%%%\n% %\n%%%"}, id="maze-no-pacman"),
    pytest.param({"layout_text": 5}, id="maze-not-text"),
    pytest.param({"num_ghosts": 7}, id="too-many-ghosts"),
    pytest.param({"num_ghosts": -1}, id="negative-ghosts"),
    pytest.param({"num_ghosts": "2"}, id="ghosts-as-text"),
    pytest.param({"actions": lambda a: a[:-1]}, id="last-action-removed"),
    pytest.param({"actions": lambda a: a[:-2]}, id="last-two-actions-removed"),
    pytest.param({"outcome": "win"}, id="outcome-edited-to-win"),
    pytest.param({"outcome": "move_limit"}, id="outcome-edited-to-move-limit"),
    pytest.param({"outcome": "banana"}, id="unknown-outcome"),
    pytest.param({"outcome": "crash"}, id="failure-without-failing-agent"),
    pytest.param({"score": "NaN"}, id="score-as-text"),
    pytest.param({"score": float("nan")}, id="score-nan"),
    pytest.param({"moves": lambda m: m - 1}, id="moves-edited"),
    pytest.param({"agents": "abc"}, id="agents-as-text"),
    pytest.param({"agents": lambda a: a[:-1]}, id="agent-missing"),
    pytest.param({"seed": True}, id="seed-as-bool"),
    pytest.param({"think_time": [float("inf")] * 3}, id="think-time-infinite"),
    pytest.param({"failure": {"agent": 9, "kind": "crash", "message": ""}}, id="failure-bad"),
])
def test_tampered_recording_raises_replay_error(change):
    with pytest.raises(ReplayError):
        list(replay_states(tampered(**change)))


def test_untampered_recording_replays(tmp_path):
    """The counterpart of the tampering tests: the same game unchanged is accepted."""
    assert list(replay_states(tampered()))[-1][6] == a_game().score


def test_tampering_message_names_the_first_move_that_differs():
    game = a_game()
    with pytest.raises(ReplayError, match=f"at move {len(game.actions)}, but the recording "
                                          "says 'win'"):
        list(replay_states(tampered(outcome="win")))
    extra = tampered(actions=lambda a: a + ["Stop"])
    with pytest.raises(ReplayError, match=f"move {len(game.actions) + 1} of the recording"):
        list(replay_states(extra))


def test_a_game_cut_at_its_move_cap_replays_and_is_refused_as_anything_else():
    capped = run_game(MAZE, random_specs(3), seed=3, max_moves=2)
    assert capped.outcome == "move_limit"
    data = capped.to_dict()
    assert list(replay_states(GameResult.from_dict(data)))
    for outcome in ("win", "loss", "interrupted"):
        changed = dict(data, outcome=outcome)
        if outcome == "interrupted":  # a game may be interrupted at any point
            assert list(replay_states(GameResult.from_dict(changed)))
            continue
        with pytest.raises(ReplayError, match="move cap"):
            list(replay_states(GameResult.from_dict(changed)))
    shorter = dict(data, actions=data["actions"][:-1])
    with pytest.raises(ReplayError):
        list(replay_states(GameResult.from_dict(shorter)))


def test_replay_reads_a_results_store_and_skips_its_header(tmp_path):
    games = [a_game(), a_game()]
    path = tmp_path / "games.jsonl"
    lines = [json.dumps({"store": "pacman-arena results", "format": 1})]
    lines += [json.dumps({"key": f"k{i}", "index": i, "job": {}, "result": g.to_dict()})
              for i, g in enumerate(games)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert load_results(str(path)) == games


def test_tampered_recording_file_raises_replay_error(tmp_path):
    data = a_game().to_dict()
    data["score"] += 1
    path = tmp_path / "tampered.jsonl"
    path.write_text(json.dumps(data) + "\n", encoding="utf-8")
    [result] = load_results(str(path))
    with pytest.raises(ReplayError):
        list(replay_states(result))


def test_agent_whose_last_report_raises_crashes_the_game_not_the_loop():
    """``last_report`` is part of the agent protocol: its failure is the agent's failure."""

    class BadReporter(Scripted):
        def last_report(self):
            raise KeyError("no report today")

    display = RecordingDisplay()
    result = run_game(MAZE, [Scripted(), BadReporter()], max_moves=5, display=display)
    assert result.outcome == "crash"
    assert result.failure.agent == 1 and "no report today" in result.failure.message


def test_last_report_reaches_the_display():
    class Reporter(Scripted):
        def last_report(self):
            return {"depth": 2}

    reports = []

    class Display(RecordingDisplay):
        def update(self, state, move):
            super().update(state, move)
            reports.append((move.agent, move.action, move.report))

    run_game(MAZE, [Reporter("Stop", "East"), Scripted()], max_moves=2, display=Display())
    assert reports[0] == (0, "Stop", {"depth": 2})
    assert reports[1][0] == 1 and reports[1][2] is None
    assert reports[2] == (0, "East", {"depth": 2})


@pytest.mark.parametrize("stop", [GameInterrupted, KeyboardInterrupt])
@pytest.mark.parametrize("after", [1, 4, 8])
def test_a_quit_reports_the_game_so_far(stop, after):
    """A quit (a key in a display, Ctrl-C) reports the score, moves and state of its moment,
    and the recording of the quit game replays to that state."""
    from pacman.agents.basic import GreedyPacman
    from pacman.agents.ghosts import RandomGhost

    class QuitsAfter(RecordingDisplay):
        def update(self, state, move):
            super().update(state, move)
            if len(self.states) == after + 1:
                raise stop()

        def finish(self, state, result):
            self.finished_state = state

    display = QuitsAfter()
    specs = [AgentSpec("greedy", GreedyPacman), AgentSpec("random", RandomGhost),
             AgentSpec("random", RandomGhost)]
    result = run_game(MAZE, specs, 3, max_moves=50, display=display)
    shown = display.states[-1]
    assert result.outcome == "interrupted" and len(result.actions) == after
    assert result.score == shown.score and result.moves == -(-after // 3)
    assert display.finished_state == shown
    *_, last = replay_states(GameResult.from_json(result.to_json()))
    assert last == shown
