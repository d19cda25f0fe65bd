"""The engine: mazes, the immutable state, the rules, the game loop and recordings.

It imports nothing from the agents, the displays, the contained wing or the apps.
"""
