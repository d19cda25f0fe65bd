# Moves into walls: an illegal move in every game.
from game import Agent


class ContestAgent(Agent):
    def __init__(self, evalFn='scoreEvaluationFunction', depth='2'):
        self.index = 0

    def getAction(self, gameState):
        legal = gameState.getLegalActions(0)
        for action in ("North", "South", "East", "West"):
            if action not in legal:
                return action
        return "Jump"
