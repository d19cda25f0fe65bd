# Never answers: an endless loop in getAction (a timeout in every game).
from game import Agent


class ContestAgent(Agent):
    def __init__(self, evalFn='scoreEvaluationFunction', depth='2'):
        self.index = 0

    def getAction(self, gameState):
        while True:
            pass
