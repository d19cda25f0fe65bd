"""The grader's own search playing with the submission's evaluation function.

A game test with ``search = NAME`` grades an evaluation function: the shipped search agent
``NAME`` plays Pacman in the grader's process (the submission's process never holds it), and
each state it evaluates is evaluated by the submission, in its worker. To keep that fast, a
decision is made twice: first with every evaluation answered 0 to learn which states the search
reaches, then, after one ``evaluate`` request for all of them, for real with their values; a
state the second pass reaches that the first did not (a search whose path depends on values,
such as alpha-beta) is asked for on its own. Values are remembered for the decision.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from pacman.agents.catalog import PACMAN_AGENTS
from pacman.engine.game import agent_rng
from pacman.grading.state_api import state_fields, state_of_fields
from pacman.engine.layout import parse_layout
from pacman.lineup.build import CONVERTERS
from pacman.lineup.options import bind_options
from pacman.engine.state import GameState, state_class



class Exchanges(Protocol):
    """What the search needs of a worker (:class:`pacman.grading.sandbox.Worker`): one request
    and its answer within ``timeout`` seconds."""

    def exchange(self, message: dict[str, Any], timeout: float) -> dict[str, Any]: ...


class _EvaluationFailed(Exception):
    def __init__(self, reply: dict[str, Any]) -> None:
        super().__init__("the evaluation function failed")
        self.reply = reply


class SearchPlayer:
    """The search of a game message (``search``, ``options``, ``seed``, ``layout``, ``state``)
    with the worker's evaluation function; :meth:`move` answers a ``move`` request."""

    def __init__(self, worker: Exchanges, message: dict[str, Any]) -> None:
        self.worker = worker
        self.layout = parse_layout(message["layout"], name=message["layout_name"])
        self.state_class = state_class(message.get("rules", "default"))
        self.values: dict[Any, float] = {}
        self.collecting = False
        self.pending: list[GameState] = []
        self.output: list[str] = []
        self.violations: list[str] = []
        self.until = 0.0
        factory = PACMAN_AGENTS[message["search"]]
        text = {k: str(v).lower() if isinstance(v, bool) else str(v)  # TOML values, as typed
                for k, v in (message.get("options") or {}).items()}
        options = bind_options(factory, text, f"search {message['search']!r}", CONVERTERS)
        self.agent = factory(index=0, rng=agent_rng(message["seed"], 0),
                             evaluation=self.evaluate, **options)

    def state(self, fields: list[Any]) -> GameState:
        return state_of_fields(self.layout, fields, self.state_class)

    def evaluate(self, state: GameState) -> float:
        key = state.key
        if key in self.values:
            return self.values[key]
        if self.collecting:
            self.pending.append(state)
            return 0.0
        self._ask([state])
        return self.values[key]

    def _ask(self, states: list[GameState]) -> None:
        unique = list({s.key: s for s in states}.values())
        fields = [state_fields(s) for s in unique]
        reply = self.worker.exchange({"cmd": "evaluate", "states": fields},
                                     max(0.0, self.until - time.monotonic()))
        if isinstance(reply.get("output"), str) and reply["output"]:
            self.output.append(reply["output"])
        self.violations.extend(v for v in reply.get("violations") or [] if isinstance(v, str))
        values = reply.get("values")
        if reply.get("error") or not isinstance(values, list) or len(values) != len(unique) or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
            raise _EvaluationFailed(reply)
        self.values.update((s.key, float(v)) for s, v in zip(unique, values))

    def move(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """One decision of the search (the worker evaluates); the answer of a ``move``."""
        self.until = time.monotonic() + timeout
        self.values, self.output, self.violations = {}, [], []
        state = self.state(message["state"])
        try:
            saved = self.agent.rng.getstate()
            self.collecting, self.pending = True, []
            try:
                self.agent.get_action(state)
            finally:
                self.collecting = False
            self.agent.rng.setstate(saved)
            if self.pending:
                self._ask(self.pending)
            action = self.agent.get_action(state)
        except _EvaluationFailed as failed:
            error = failed.reply.get("error") or {"type": "TypeError", "message":
                                                  "the evaluation function did not return numbers",
                                                  "traceback": ""}
            return self._answer({"action": None, "error": error})
        return self._answer({"action": action, "error": None})

    def _answer(self, reply: dict[str, Any]) -> dict[str, Any]:
        reply.update(output="".join(self.output)[:2000], violations=self.violations[:20])
        return reply
