# A ContestAgent that wanders: the first legal move that is not Stop, turning when it can.
from game import Agent, Directions


class ContestAgent(Agent):
    def __init__(self, evalFn='scoreEvaluationFunction', depth='2'):
        self.index = 0

    def getAction(self, gameState):
        legal = [a for a in gameState.getLegalActions(0) if a != Directions.STOP]
        return sorted(legal)[0]
