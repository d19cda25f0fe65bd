"""Tests that pin the behaviour of the game engine (layout, state, rules, game loop, CLI)."""
