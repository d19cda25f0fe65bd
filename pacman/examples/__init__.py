"""Runnable examples, shipped in the wheel: ``python -m pacman.examples.train_masked_ppo``."""
