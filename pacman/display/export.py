"""Animated GIF (and MP4) export of any game or recording, without a screen.

Frames are drawn by :class:`pacman.display.renderer.Renderer` on plain pygame Surfaces, which
need no video driver. GIFs are written by Pillow; MP4 needs the optional ``imageio-ffmpeg``
encoder and says so when it is missing.

A GIF uses one palette for all its frames (:func:`shared_palette`: the sprite colours, shades of
text and heat-map colours, then an even spread of all colours), so each frame is only mapped to
it rather than given a palette of its own; the final frame stays up for :data:`FINAL_HOLD`
seconds. Mazes narrower than :data:`~pacman.display.renderer.MIN_WIDTH` get larger cells, so a
frame is the maze without bars beside it.
"""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path
from typing import Any, BinaryIO
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from pacman.display._pygame import pygame
from PIL import Image

from pacman.display import sprites
from pacman.display.overlay import heat_map
from pacman.display.renderer import MIN_WIDTH, Renderer, Status
from pacman.display.sprites import HEAT_ALPHA, heat_colour
from pacman.errors import ConfigurationError
from pacman.engine.game import GameResult, replay_states
from pacman.engine.state import GameState

#: The file endings :func:`export_game` understands.
FORMATS = (".gif", ".mp4")
#: Cell size of exported frames at zoom 1 (smaller than the window's: files stay small).
EXPORT_TILE = 16
#: The widest board an export may ask for, in pixels.
MOST_BOARD_SIZE = 4000
#: Seconds the final frame of an animation stays up before it loops.
FINAL_HOLD = 2.0


def check_target(path: str) -> str:
    """The format (``.gif`` or ``.mp4``) of ``path``; a clear error for anything else, or for
    MP4 without its encoder."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise ConfigurationError(f"{path}: can only export .gif, .mp4 or .html files")
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


def export_tile(maze_width: int, zoom: float = 1.0, board_size: int | None = None) -> int:
    """Cell size of exported frames: ``EXPORT_TILE * zoom``, larger for a maze so narrow that
    the status bar would be wider than the maze (no bars beside it), and large enough for a
    board at least ``board_size`` pixels wide when asked (for a projector); at most 128."""
    wanted = max(4, round(EXPORT_TILE * zoom))
    if board_size is not None:
        wanted = max(wanted, math.ceil(board_size / max(1, maze_width)))
    return min(128, max(wanted, math.ceil(MIN_WIDTH / max(1, maze_width))))


def shared_palette() -> Image.Image:
    """The one palette of every exported GIF, as a ``P`` image to quantize frames with.

    It holds the exact colours of the sprites and the status bar, shades between the text
    colours and their backgrounds (anti-aliased letters), the heat-map colours as drawn over
    the floor, and fills the rest of the 256 entries with an even 6x6x6 spread of colours so
    that anything else drawn maps to a near colour.
    """
    exact = [sprites.BACKGROUND, sprites.WALL, sprites.WALL_FILL, sprites.FOOD,
             sprites.CAPSULE, sprites.PACMAN, *sprites.GHOSTS, sprites.SCARED,
             sprites.SCARED_FLASH, sprites.EYE_WHITE, sprites.PUPIL, sprites.SCARED_FACE,
             sprites.STATUS_BACKGROUND, sprites.STATUS_TEXT, sprites.STATUS_SCORE]
    back = sprites.STATUS_BACKGROUND
    for text in (sprites.STATUS_TEXT, sprites.STATUS_SCORE):
        exact += [_mix(back, text, k / 6) for k in range(1, 6)]
    alpha = HEAT_ALPHA / 255
    exact += [_mix(sprites.BACKGROUND, heat_colour(k / 8), alpha) for k in range(9)]
    colours = list(dict.fromkeys(exact))
    steps = (0, 51, 102, 153, 204, 255)
    colours += [c for c in ((r, g, b) for r in steps for g in steps for b in steps)
                if c not in colours]
    colours = colours[:256]
    flat = [channel for colour in colours for channel in colour]
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat + [0] * (768 - len(flat)))
    return palette


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], f: float) -> tuple[int, int, int]:
    return tuple(round(x + (y - x) * f) for x, y in zip(a, b))  # type: ignore[return-value]


def frames(states: Sequence[GameState], agents: Sequence[str], outcome: str | None, *,
           zoom: float = 1.0, every_move: bool = False, smooth: int = 0,
           evaluation: Callable[[GameState], float] | None = None,
           board_size: int | None = None) -> Iterator[Image.Image]:
    """RGB images of the game, one per shown state (see :func:`shown_positions`), with
    ``smooth`` in-between images per step; ``evaluation`` adds its heat map; ``board_size``:
    the least width of the board in pixels (cells grow to reach it; see :func:`export_tile`)."""
    if not 0 < zoom <= 5:
        raise ConfigurationError(f"--zoom must be above 0 and at most 5, got {zoom}")
    check_board_size(board_size)
    renderer = Renderer(states[0].layout,
                        export_tile(states[0].layout.width, zoom, board_size))
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
        if state.directions[0] != "Stop":
            facing = state.directions[0]
        steps = [(k + 1) / (smooth + 1) for k in range(smooth)] if previous is not None else []
        for progress in steps + [1.0]:
            renderer.draw(surface, state, previous=previous, progress=progress, status=status,
                          facing=facing, heat=heat)
            yield Image.frombytes("RGB", renderer.size, pygame.image.tobytes(surface, "RGB"))


def write(images: Iterator[Image.Image], path: str, seconds_per_frame: float, *,
          one_palette: bool = True) -> int:
    """Write ``images`` to ``path`` (GIF or MP4 by its ending); returns the number written.

    A GIF's frames are mapped to :func:`shared_palette` (``one_palette=False``: Pillow chooses
    a palette per frame, the slow way kept for comparison) and its last frame is held for
    :data:`FINAL_HOLD` seconds.
    """
    suffix = check_target(path)
    try:
        if suffix == ".gif":
            return _write_gif(images, path, seconds_per_frame, one_palette)
        return _write_mp4(images, path, seconds_per_frame)
    except OSError as error:
        raise ConfigurationError(f"{path}: cannot write ({error.strerror or error})") from None


def gif_delay(seconds_per_frame: float) -> int:
    """A GIF frame delay in milliseconds: whole hundredths of a second, at least 0.02 s
    (browsers show shorter delays as 0.1 s)."""
    return max(20, round(seconds_per_frame * 100) * 10)


def _write_gif(images: Iterator[Image.Image], path: str, seconds_per_frame: float,
               one_palette: bool) -> int:
    if not one_palette:
        kept = list(images)
        if not kept:
            raise ConfigurationError(f"{path}: no frames to write")
        durations = _durations(len(kept), seconds_per_frame)
        kept[0].save(path, save_all=True, append_images=kept[1:], duration=durations, loop=0)
        return len(kept)
    palette = shared_palette()
    kept = [image.quantize(palette=palette, dither=Image.Dither.NONE) for image in images]
    if not kept:
        raise ConfigurationError(f"{path}: no frames to write")
    with open(path, "wb") as out:
        write_shared_palette_gif(out, kept, _durations(len(kept), seconds_per_frame))
    return len(kept)


def _durations(count: int, seconds_per_frame: float) -> list[int]:
    delay = gif_delay(seconds_per_frame)
    return [delay] * (count - 1) + [max(delay, round(FINAL_HOLD * 1000))]


def write_shared_palette_gif(out: BinaryIO, frames: Sequence[Image.Image],
                             durations: Sequence[int]) -> None:
    """Write ``frames`` (``P`` images sharing one palette) as a looping GIF whose only colour
    table is the global one: each frame stores just the rectangle that changed since the
    previous one, and a frame equal to the previous one lengthens its delay instead."""
    from PIL import GifImagePlugin

    header, _ = GifImagePlugin.getheader(frames[0], info={"loop": 0})
    out.write(b"".join(header))
    pending: list[Any] = []  # [image to write, offset, duration]
    previous = None
    for frame, duration in zip(frames, durations):
        pixels = np.asarray(frame)
        if previous is None:
            box = (0, 0, frame.width, frame.height)
        else:
            changed = pixels != previous
            if not changed.any():
                pending[2] += duration
                continue
            rows, columns = np.flatnonzero(changed.any(axis=1)), np.flatnonzero(changed.any(axis=0))
            box = (int(columns[0]), int(rows[0]), int(columns[-1]) + 1, int(rows[-1]) + 1)
        if pending:
            _write_frame(out, *pending)
        pending = [frame.crop(box) if box != (0, 0, frame.width, frame.height) else frame,
                   box[:2], duration]
        previous = pixels
    _write_frame(out, *pending)
    out.write(b";")


def _write_frame(out: BinaryIO, image: Image.Image, offset: tuple[int, int],
                 duration: int) -> None:
    from PIL import GifImagePlugin

    for chunk in GifImagePlugin.getdata(image, offset, duration=duration):
        out.write(chunk)


def _write_mp4(images: Iterator[Image.Image], path: str, seconds_per_frame: float) -> int:
    import imageio.v2 as imageio
    import numpy as np

    fps = max(1.0, 1.0 / max(seconds_per_frame, 1e-3))
    count = 0
    writer: Any = imageio.get_writer(path, fps=fps, codec="libx264", macro_block_size=1)
    with writer:
        for image in images:
            # H.264 wants even sides.
            width, height = image.size
            if width % 2 or height % 2:
                padded = Image.new("RGB", (width + width % 2, height + height % 2))
                padded.paste(image)
                image = padded
            writer.append_data(np.asarray(image))
            count += 1
        for _ in range(round(FINAL_HOLD * fps)):  # hold the final frame
            if count:
                writer.append_data(np.asarray(image))
    return count


def check_board_size(board_size: int | None) -> None:
    """Refuse a board size no frame can have (below 1 or above :data:`MOST_BOARD_SIZE`)."""
    if board_size is not None and not 1 <= board_size <= MOST_BOARD_SIZE:
        raise ConfigurationError(f"--board-size must be 1 to {MOST_BOARD_SIZE} pixels, got "
                                 f"{board_size}")


def export_game(result: GameResult, path: str, *, frame_time: float = 0.1, zoom: float = 1.0,
                every_move: bool = False, smooth: int = 0,
                evaluation: Callable[[GameState], float] | None = None,
                board_size: int | None = None) -> int:
    """Export the recorded game ``result`` to ``path`` (.gif or .mp4); returns the frames
    written. ``frame_time`` is the seconds per round (per agent move with ``every_move``),
    shared among the ``smooth`` in-between frames; ``board_size``: the board at least that
    many pixels wide (a projector's GIF: 800 or more)."""
    check_target(path)
    check_board_size(board_size)
    if smooth < 0:
        raise ConfigurationError(f"smooth must be 0 or more, got {smooth}")
    states = list(replay_states(result))
    agents = [a.get("name", "?") for a in result.agents]
    images = frames(states, agents, result.outcome, zoom=zoom, every_move=every_move,
                    smooth=smooth, evaluation=evaluation, board_size=board_size)
    return write(images, path, frame_time / (smooth + 1))
