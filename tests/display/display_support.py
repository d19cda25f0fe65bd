"""Helpers of the display tests: key events, pixels, recorded games."""

from __future__ import annotations

from pacman.display._pygame import pygame
from pacman.display.null import NullDisplay
from pacman.engine.game import AgentSpec
from pacman.engine.game_loop import run_game
from pacman.engine.layout import load_layout, parse_layout


def press(*keys: int) -> None:
    """Queue key presses as the window would receive them, in order."""
    if not pygame.display.get_init():
        pygame.display.init()
    for key in keys:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0,
                                             unicode=pygame.key.name(key)
                                             if len(pygame.key.name(key)) == 1 else ""))


def pixel(surface, point) -> tuple[int, int, int]:
    colour = surface.get_at((round(point[0]), round(point[1])))
    return (colour.r, colour.g, colour.b)


class Recorder(NullDisplay):
    """Keeps every state the game loop shows, the initial one first."""

    def __init__(self):
        self.states = []

    def start(self, state, agents):
        self.states = [state]

    def update(self, state, move):
        self.states.append(state)


def random_game(layout_name: str = "small_classic", seed: int = 4, max_moves: int = 60):
    """A short seeded game of random agents: (result, every state shown)."""
    from pacman.agents.basic import RandomPacman
    from pacman.agents.ghosts import RandomGhost

    layout = load_layout(layout_name)
    specs = [AgentSpec("random", RandomPacman)] + [
        AgentSpec("random", RandomGhost) for _ in range(layout.num_ghosts)]
    recorder = Recorder()
    result = run_game(layout, specs, seed, max_moves=max_moves, display=recorder)
    return result, recorder.states


CORRIDOR = parse_layout("%%%%%%%%\n"
                        "%.  P .%\n"
                        "%%%%%%%%\n", name="corridor_test")
