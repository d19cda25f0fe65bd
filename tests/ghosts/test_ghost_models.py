"""Expectimax ghost models: objects built at the boundary, drawing from seed-derived generators."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from pacman.agents.base import DistributionAgent
from pacman.agents.ghost_model import UNIFORM, GhostModel
from pacman.agents.ghosts import DirectionalGhost
from pacman.agents.smart_ghosts import AdversarialGhost
from pacman.agents.search_agents import ExpectimaxAgent
from pacman.errors import ConfigurationError
from pacman.engine.game import AgentSpec, agent_rng, replay_states
from pacman.engine.game_loop import run_game
from pacman.engine.layout import load_layout
from pacman.lineup.build import agent_spec
from pacman.engine.state import GameState


class NoisyGhost(DistributionAgent):
    """A model whose distribution draws from its own generator: every call, new weights."""

    def distribution(self, state: GameState) -> Mapping[str, float]:
        actions = state.legal_actions(self.index)
        weights = [self.rng.random() + 0.01 for _ in actions]
        return {a: w / sum(weights) for a, w in zip(actions, weights)}


NOISY = GhostModel("noisy", NoisyGhost)


def first_draws(agent: ExpectimaxAgent, ghosts=(1, 2), count: int = 3) -> list[float]:
    return [agent.model_agent(g).rng.random() for g in ghosts for _ in range(count)]


def test_model_generators_derive_from_the_game_seed():
    same = [first_draws(ExpectimaxAgent(0, agent_rng(7, 0), model=NOISY)) for _ in range(2)]
    other = first_draws(ExpectimaxAgent(0, agent_rng(8, 0), model=NOISY))
    assert same[0] == same[1]
    assert other != same[0]
    # Not a generator fixed by the ghost's index alone (the old ``Random(ghost)``).
    assert same[0][0] != random.Random(1).random() and other[0] != random.Random(1).random()
    # Each ghost's model has a stream of its own.
    assert same[0][:3] != same[0][3:]


def test_building_the_model_draws_nothing_from_the_agents_own_generator():
    rng = agent_rng(7, 0)
    before = rng.getstate()
    agent = ExpectimaxAgent(0, rng, model=NOISY)
    first_draws(agent)
    assert rng.getstate() == before


def play(seed: int, model: GhostModel = NOISY, ghost=DirectionalGhost, options=None,
         depth: int = 1):
    layout = load_layout("small_classic")
    specs = [AgentSpec("expectimax", ExpectimaxAgent, {"model": model, "depth": depth}),
             AgentSpec("ghost", ghost, options or {}), AgentSpec("ghost", ghost, options or {})]
    return run_game(layout, specs, seed, max_moves=40)


def test_the_same_seed_gives_the_same_game_and_a_recording_replays():
    first, second = play(3), play(3)
    assert first.actions == second.actions and first.score == second.score
    assert list(replay_states(first))[-1].score == first.score


def test_a_different_seed_gives_different_model_draws_in_play():
    # Deterministic ghosts and Pacman: with the uniform model every seed plays one game, so
    # the games differ between seeds only because the model's draws do.
    uniform = {tuple(play(seed, UNIFORM, AdversarialGhost, {"depth": 1}, depth=2).actions)
               for seed in range(3)}
    noisy = {tuple(play(seed, NOISY, AdversarialGhost, {"depth": 1}, depth=2).actions)
             for seed in range(3)}
    assert len(uniform) == 1
    assert len(noisy) > 1


def test_the_boundary_builds_the_model_object_from_text():
    spec = agent_spec("expectimax", "pacman", {"model": "directional",
                                               "model_options": "attack=0.5"})
    model = spec.options["model"]
    assert isinstance(model, GhostModel) and model.factory is DirectionalGhost
    assert model.options == {"attack": 0.5}
    assert spec.raw_options == {"model": "directional", "model_options": "attack=0.5"}
    assert agent_spec("expectimax", "pacman", {"model": "uniform"}).options["model"] is UNIFORM
    # The classic class name works for the model too.
    assert agent_spec("expectimax", "pacman", {"model": "DirectionalGhost"}).options[
        "model"].factory is DirectionalGhost


@pytest.mark.parametrize("options, needle", [
    ({"model": "directionl"}, "did you mean directional?"),
    ({"model": "pacman.agents.basic:GreedyPacman"}, "does not expose a move distribution"),
    ({"model_options": "p=0.5"}, "ghost model 'uniform' takes no options"),
    ({"model": "mixed", "model_options": "q=1"}, "ghost model 'mixed' has no option 'q'"),
    ({"model": "mixed", "model_options": "p=lots"}, "expects a number"),
    ({"evaluation_options": "x=1"}, "evaluation function 'better' takes no options"),
])
def test_bad_model_text_is_one_clear_error(options, needle):
    with pytest.raises(ConfigurationError) as caught:
        agent_spec("expectimax", "pacman", options)
    assert needle in str(caught.value) and "\n" not in str(caught.value)


def test_an_object_model_checks_its_factory():
    with pytest.raises(ConfigurationError, match="does not expose a move distribution"):
        GhostModel("greedy", object)
    with pytest.raises(ConfigurationError, match="takes no options"):
        GhostModel("uniform", None, {"p": 1})


def test_a_bad_model_name_on_the_command_line_is_one_line_with_exit_code_2(capsys):
    from pacman.cli import main

    code = main(["--layout", "tiny", "--pacman", "expectimax", "--display", "none",
                 "--pacman-opt", "model=directionl"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "unknown ghost model 'directionl'; did you mean directional?" in err
