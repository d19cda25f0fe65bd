# A folder of its own with the contest class in a file that is not multiAgents.py.
from game import Agent, Directions
import random


class ContestAgent(Agent):
    def __init__(self, evalFn='scoreEvaluationFunction', depth='2'):
        self.index = 0

    def getAction(self, gameState):
        legal = [a for a in gameState.getLegalActions(0) if a != Directions.STOP]
        return random.choice(legal)
