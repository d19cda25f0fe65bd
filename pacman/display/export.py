"""Animated GIF (and MP4) export of any game or recording, without a screen.

Frames are drawn by :class:`pacman.display.renderer.Renderer` on plain pygame Surfaces, which
need no video driver. GIFs are written by Pillow; MP4 needs the optional ``imageio-ffmpeg``
encoder and says so when it is missing.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Callable, Iterator, Sequence

from pacman.display._pygame import pygame
from PIL import Image

from pacman.display.overlay import heat_map
from pacman.display.renderer import Renderer, Status
from pacman.errors import ConfigurationError
from pacman.game import GameResult, replay_states
from pacman.state import GameState

#: The file endings :func:`export_game` understands.
FORMATS = (".gif", ".mp4")
#: Cell size of exported frames at zoom 1 (smaller than the window's: files stay small).
EXPORT_TILE = 16


def check_target(path: str) -> str:
    """The format (``.gif`` or ``.mp4``) of ``path``; a clear error for anything else, or for
    MP4 without its encoder."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise ConfigurationError(f"{path}: can only export {' or '.join(FORMATS)} files")
    if suffix == ".mp4" and not mp4_available():
        raise ConfigurationError(f"{path}: writing MP4 needs the imageio-ffmpeg package "
                                 "(pip install imageio-ffmpeg); a .gif needs nothing more")
    return suffix


def mp4_available() -> bool:
    """Whether an MP4 encoder (imageio with imageio-ffmpeg) is installed."""
    return all(importlib.util.find_spec(name) is not None
               for name in ("imageio", "imageio_ffmpeg"))


def shown_positions(states: Sequence[GameState], every_move: bool = False) -> list[int]:
    """Indices of the states that become frames: the first, then the end of every round
    (Pacman to move again, or the game over), or every state with ``every_move``."""
    if every_move:
        return list(range(len(states)))
    return [i for i, s in enumerate(states) if i == 0 or s.turn == 0 or s.is_terminal]


def frames(states: Sequence[GameState], agents: Sequence[str], outcome: str | None, *,
           zoom: float = 1.0, every_move: bool = False, smooth: int = 0,
           evaluation: Callable[[GameState], float] | None = None) -> Iterator[Image.Image]:
    """RGB images of the game, one per shown state (see :func:`shown_positions`), with
    ``smooth`` in-between images per step; ``evaluation`` adds its heat map."""
    if not 0 < zoom <= 5:
        raise ConfigurationError(f"--zoom must be above 0 and at most 5, got {zoom}")
    renderer = Renderer(states[0].layout, max(4, min(128, round(EXPORT_TILE * zoom))))
    surface = pygame.Surface(renderer.size)
    positions = shown_positions(states, every_move)
    num_agents = states[0].num_agents
    facing = "East"
    for number, index in enumerate(positions):
        state = states[index]
        previous = states[positions[number - 1]] if number else None
        status = Status(move=(index + num_agents - 1) // num_agents, agents=agents,
                        outcome=outcome if index == len(states) - 1 else None)
        heat = heat_map(state, evaluation) if evaluation is not None else None
        if state[2][0] != "Stop":
            facing = state[2][0]
        steps = [(k + 1) / (smooth + 1) for k in range(smooth)] if previous is not None else []
        for progress in steps + [1.0]:
            renderer.draw(surface, state, previous=previous, progress=progress, status=status,
                          facing=facing, heat=heat)
            yield Image.frombytes("RGB", renderer.size, pygame.image.tobytes(surface, "RGB"))


def write(images: Iterator[Image.Image], path: str, seconds_per_frame: float) -> int:
    """Write ``images`` to ``path`` (GIF or MP4 by its ending); returns the number written."""
    suffix = check_target(path)
    count = 0

    def counted() -> Iterator[Image.Image]:
        nonlocal count
        for image in images:
            count += 1
            yield image

    stream = counted()
    try:
        if suffix == ".gif":
            first = next(stream)
            # GIF delays are in hundredths of a second; browsers treat under 2 as 10.
            delay = max(20, round(seconds_per_frame * 100) * 10)
            first.save(path, save_all=True, append_images=stream, duration=delay, loop=0)
        else:
            _write_mp4(stream, path, seconds_per_frame)
    except OSError as error:
        raise ConfigurationError(f"{path}: cannot write ({error.strerror or error})") from None
    return count


def _write_mp4(images: Iterator[Image.Image], path: str, seconds_per_frame: float) -> None:
    import imageio.v2 as imageio
    import numpy as np

    fps = max(1.0, 1.0 / max(seconds_per_frame, 1e-3))
    with imageio.get_writer(path, fps=fps, codec="libx264", macro_block_size=1) as writer:
        for image in images:
            # H.264 wants even sides.
            width, height = image.size
            if width % 2 or height % 2:
                padded = Image.new("RGB", (width + width % 2, height + height % 2))
                padded.paste(image)
                image = padded
            writer.append_data(np.asarray(image))


def export_game(result: GameResult, path: str, *, frame_time: float = 0.1, zoom: float = 1.0,
                every_move: bool = False, smooth: int = 0,
                evaluation: Callable[[GameState], float] | None = None) -> int:
    """Export the recorded game ``result`` to ``path`` (.gif or .mp4); returns the frames
    written. ``frame_time`` is the seconds per round (per agent move with ``every_move``),
    shared among the ``smooth`` in-between frames."""
    check_target(path)
    if smooth < 0:
        raise ConfigurationError(f"smooth must be 0 or more, got {smooth}")
    states = list(replay_states(result))
    agents = [a.get("name", "?") for a in result.agents]
    images = frames(states, agents, result.outcome, zoom=zoom, every_move=every_move,
                    smooth=smooth, evaluation=evaluation)
    return write(images, path, frame_time / (smooth + 1))
