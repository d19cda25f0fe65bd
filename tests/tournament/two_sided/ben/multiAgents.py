# A two-sided entrant: a Pacman (ContestAgent) and a ghost team (GhostTeam, one agent per ghost).
from game import Agent, Directions
from util import manhattanDistance


class ContestAgent(Agent):
    def getAction(self, gameState):
        best, choice = None, Directions.STOP
        for action in gameState.getLegalActions(0):
            if action == Directions.STOP:
                continue
            nxt = gameState.generatePacmanSuccessor(action)
            if best is None or nxt.getScore() > best:
                best, choice = nxt.getScore(), action
        return choice


class GhostTeam(Agent):
    def getAction(self, gameState):
        pacman = gameState.getPacmanPosition()
        best, choice = None, None
        for action in gameState.getLegalActions(self.index):
            nxt = gameState.generateSuccessor(self.index, action)
            d = manhattanDistance(nxt.getGhostPosition(self.index), pacman)
            if best is None or d < best:
                best, choice = d, action
        return choice
