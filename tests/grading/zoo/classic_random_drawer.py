# multiAgents.py in the classic course's style whose ReflexAgent draws from Python's global random:
# a number of draws that grows with the games it has started (it keeps count across games, so a
# fresh object for each game plays other games), then a uniform choice among its legal moves.
# With RESEED set to a number it reseeds random on every move; with FORGE it sets a made-up state.

import random

from game import Agent

RESEED = None
FORGE = False


class ReflexAgent(Agent):
    def __init__(self):
        self.started = 0

    def registerInitialState(self, gameState):
        self.started += 1
        random.random()  # a draw at the start of each game, as an agent may make

    def getAction(self, gameState):
        if RESEED is not None:
            random.seed(RESEED)
        if FORGE:
            random.setstate((3, tuple([12345] * 624 + [0]), None))
        for _ in range(self.started):
            random.random()
        legal = sorted(gameState.getLegalActions())
        return random.choice(legal)
