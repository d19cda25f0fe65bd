# Crashes while being imported: the module's top level divides by zero.
from game import Agent

RATIO = 1 / 0


class ContestAgent(Agent):
    def getAction(self, gameState):
        return gameState.getLegalActions(0)[0]
