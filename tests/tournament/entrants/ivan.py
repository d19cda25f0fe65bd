# Crashes in the middle of a game, in the student's own code (an empty list's max).
from game import Agent, Directions


class ContestAgent(Agent):
    def __init__(self, evalFn='scoreEvaluationFunction', depth='2'):
        self.index = 0
        self.moves = 0

    def getAction(self, gameState):
        self.moves += 1
        if self.moves == 3:
            distances = [d for d in [] if d > 0]
            return max(distances)  # the student's bug: max() of an empty list
        legal = [a for a in gameState.getLegalActions(0) if a != Directions.STOP]
        return legal[0]
