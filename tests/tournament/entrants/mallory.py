# Neither ContestAgent nor ExpectimaxAgent: only a reflex agent.
from game import Agent


class ReflexAgent(Agent):
    def getAction(self, gameState):
        return gameState.getLegalActions(0)[0]
