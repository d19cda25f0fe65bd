# A classic-API submission with the mini-contest's ContestAgent: a greedy one-step lookahead.
from game import Agent, Directions
from util import manhattanDistance


class ContestAgent(Agent):
    def __init__(self, evalFn='scoreEvaluationFunction', depth='2'):
        self.index = 0

    def getAction(self, gameState):
        best, bestAction = None, Directions.STOP
        for action in gameState.getLegalActions(0):
            if action == Directions.STOP:
                continue
            nxt = gameState.generatePacmanSuccessor(action)
            food = nxt.getFood().asList()
            pos = nxt.getPacmanPosition()
            near = min((manhattanDistance(pos, f) for f in food), default=0)
            danger = min((manhattanDistance(pos, g) for g in nxt.getGhostPositions()),
                         default=99)
            value = nxt.getScore() - near - (200 if danger < 2 else 0)
            if best is None or value > best:
                best, bestAction = value, action
        return bestAction
