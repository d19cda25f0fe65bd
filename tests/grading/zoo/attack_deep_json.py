"""Hostile: writes a JSON array nested 200,000 deep to the worker's pipe before the worker
answers, hoping the grader's decoder recurses until it crashes."""

import sys
from multiprocessing.connection import Connection

Connection(int(sys.argv[1])).send_bytes(b"[" * 200_000 + b"]" * 200_000)


class MinimaxAgent:
    def getAction(self, gameState):
        return "Stop"
