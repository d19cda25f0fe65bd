# A two-sided entrant: a Pacman (ContestAgent) and a ghost team (GhostTeam, one agent per ghost).
from game import Agent, Directions
import random


class ContestAgent(Agent):
    def getAction(self, gameState):
        legal = [a for a in gameState.getLegalActions(0) if a != Directions.STOP]
        return sorted(legal)[-1]


class GhostTeam(Agent):
    def getAction(self, gameState):
        return random.choice(gameState.getLegalActions(self.index))
