"""Draws one game state onto any pygame Surface: the window, a test surface or a GIF frame.

A :class:`Renderer` is made for one maze, one cell size (``tile`` pixels) and one frame size;
it caches what never changes (the walls, the dot sprites, rendered text), so a frame costs a
blit of the maze plus the dots and agents. It needs no window: ``pygame.Surface`` and the fonts
work without a video driver.

Frame layout: the maze, centred horizontally, above a status bar that spans the frame's width.
Cell ``c`` (``y`` counted from the bottom) is drawn at row ``height - 1 - y`` from the top.
"""

from __future__ import annotations

import math
from dataclasses import replace
from collections.abc import Callable, Mapping

from pacman.display._pygame import pygame

from pacman.display import sprites
from pacman.display.sprites import heat_colour
from pacman.display.overlay import HeatScale, SearchView
from pacman.display.slider import ROOM as SLIDER_ROOM
from pacman.display.statusbar import (LEGIBLE_SIZE, Status, bar_height, draw_status, render_text,
                                      status_items)
from pacman.engine.layout import Layout
from pacman.engine.state import GameState

#: Narrowest frame, so that the status bar has room for its text even on a tiny maze.
MIN_WIDTH = 420
#: Cell sizes a renderer accepts.
MIN_TILE, MAX_TILE = 4, 128
__all__ = ["Renderer", "Status", "status_items", "heat_colour", "heat_surface", "MIN_WIDTH"]


class Renderer:
    """Draws states of ``layout`` with cells of ``tile`` pixels on frames of ``size`` pixels.

    ``size`` defaults to :meth:`natural_size`; a larger size centres the maze above the bar.
    With ``slider`` the status bar is :data:`pacman.display.slider.ROOM` pixels taller and
    its text starts below that strip (:attr:`slider_area`), which is left for a replay's
    slider to be drawn in.
    """

    def __init__(self, layout: Layout, tile: int, size: tuple[int, int] | None = None, *,
                 slider: bool = False) -> None:
        if not MIN_TILE <= tile <= MAX_TILE:
            raise ValueError(f"cell size must be {MIN_TILE} to {MAX_TILE} pixels, got {tile}")
        self.layout = layout
        self.tile = tile
        if not pygame.font.get_init():
            pygame.font.init()
        self.font_size = self.status_font_size(tile, layout.width * tile)
        self._fonts: dict[int, pygame.font.Font] = {}
        #: Widths of status texts by (text, font size), see :mod:`pacman.display.statusbar`.
        self.widths: dict[tuple[str, int], int] = {}
        self.font = self.font_of(self.font_size)
        self.label_font = self.font_of(max(14, min(30, round(tile * 0.7))))
        #: Pixels at the top of the status bar kept for a slider (0: none).
        self.slider_room = slider_room(slider)
        self.status_height = self.bar_height(tile, layout.width * tile, slider=slider)
        natural = self.natural_size(layout, tile, slider=slider)
        self.size = size or natural
        maze_w, maze_h = layout.width * tile, layout.height * tile
        self.origin = (max(0, (self.size[0] - maze_w) // 2),
                       max(0, (self.size[1] - self.status_height - maze_h) // 2))
        self.status_rect = pygame.Rect(0, self.size[1] - self.status_height, self.size[0],
                                       self.status_height)
        #: The strip kept for a slider (``None`` without one).
        self.slider_area = (pygame.Rect(self.status_rect.topleft,
                                        (self.size[0], self.slider_room)) if slider else None)
        self._walls: pygame.Surface | None = None
        self._food = sprites.food_sprite(tile)
        self._capsule = sprites.capsule_sprite(tile)
        self._ringed_food = _ringed(self._food, tile, max(1, round(tile * 0.1)))
        self._ringed_capsule = _ringed(self._capsule, tile, max(2, round(tile * 0.3)))
        self.text_cache: dict[tuple[str, tuple[int, int, int], int], pygame.Surface] = {}
        self._heat_key: object = None
        self._heat_surface: pygame.Surface | None = None
        #: The status texts drawn in the last frame, with where they were drawn.
        self.last_status: list[tuple[str, pygame.Rect]] = []
        #: The font size the legend (the bar's last two lines) was drawn at in the last frame.
        self.legend_size = self.font_size
        top = layout.height - 1
        self._centres = tuple(
            (self.origin[0] + (x + 0.5) * tile, self.origin[1] + (top - y + 0.5) * tile)
            for x, y in layout.cell_xy)

    # --- geometry ----------------------------------------------------------------------------
    @staticmethod
    def status_font_size(tile: int, width: int | None = None) -> int:
        """The status bar's font size for cells of ``tile`` pixels in a maze ``width`` pixels
        wide (narrow frames get a smaller font, so the bar's lines fit)."""
        size = max(16, min(26, round(tile * 0.9)))
        return size if width is None else max(LEGIBLE_SIZE, min(size, max(MIN_WIDTH, width) // 28))

    @classmethod
    def bar_height(cls, tile: int, width: int | None = None, *, slider: bool = False) -> int:
        """The status bar's height for cells of ``tile`` pixels, a maze ``width`` pixels wide
        and, with ``slider``, the slider's strip."""
        return bar_height(cls.status_font_size(tile, width), slider_room(slider))

    def font_of(self, size: int) -> pygame.font.Font:
        """The status font at ``size`` pixels (cached)."""
        font = self._fonts.get(size)
        if font is None:
            font = self._fonts[size] = pygame.font.Font(None, size)
        return font

    @classmethod
    def natural_size(cls, layout: Layout, tile: int, *, slider: bool = False
                     ) -> tuple[int, int]:
        """The frame size that fits the maze with cells of ``tile`` pixels and the bar (with
        the slider's strip when ``slider``)."""
        return (max(MIN_WIDTH, layout.width * tile),
                layout.height * tile + cls.bar_height(tile, layout.width * tile, slider=slider))

    @classmethod
    def fit(cls, layout: Layout, size: tuple[int, int], largest: int = MAX_TILE, *,
            slider: bool = False) -> Renderer:
        """The renderer with the largest cell size (up to ``largest``) whose frame fits ``size``.

        The frame is exactly ``size`` (the maze centred) unless even the smallest cells do not
        fit, in which case it is the smallest natural size. ``slider`` as for the constructor.
        """
        tile = max(MIN_TILE, min(largest, MAX_TILE))
        while tile > MIN_TILE:
            width, height = cls.natural_size(layout, tile, slider=slider)
            if width <= size[0] and height <= size[1]:
                break
            tile -= 1
        natural = cls.natural_size(layout, tile, slider=slider)
        return cls(layout, tile, (max(size[0], natural[0]), max(size[1], natural[1])),
                   slider=slider)

    def cell_centre(self, cell: int) -> tuple[float, float]:
        """Pixel coordinates of the centre of ``cell``."""
        return self._centres[cell]

    def cell_rect(self, cell: int) -> pygame.Rect:
        """The square of ``cell`` in the frame."""
        cx, cy = self._centres[cell]
        half = self.tile / 2
        return pygame.Rect(round(cx - half), round(cy - half), self.tile, self.tile)

    # --- drawing -----------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, state: GameState, *,
             previous: GameState | None = None, progress: float = 1.0,
             status: Status | None = None, facing: str | None = None,
             view: SearchView | None = None, heat: Mapping[int, float] | None = None) -> None:
        """Draw ``state`` onto ``surface`` (whose size should be :attr:`size`).

        With ``previous`` and ``progress`` in [0, 1), every agent that moved to a neighbouring
        cell is drawn that fraction of the way from its old cell (smooth movement); agents that
        jumped (a ghost sent home) are drawn where they are now. ``facing`` overrides the way
        Pacman looks (his direction in ``state``, East when he stopped). ``view`` draws the
        search overlay (root values and principal variation), ``heat`` a heat map over cells.
        """
        surface.fill(sprites.BACKGROUND)
        surface.blit(self._wall_layer(), self.origin)
        if heat:
            self._draw_heat(surface, heat)
        self._draw_items(surface, state.food, self._ringed_food if heat else self._food)
        self._draw_items(surface, state.capsules, self._ringed_capsule if heat else self._capsule)
        if view is not None:
            self._draw_paths(surface, view)
        progress = max(0.0, min(1.0, progress))
        positions = state.positions
        scared = state.scared_timers
        directions = state.directions
        for ghost in range(len(positions) - 1, 0, -1):
            centre = self._agent_centre(ghost, state, previous, progress)
            timer = scared[ghost - 1]
            colour = sprites.scared_colour(timer) if timer else sprites.ghost_colour(ghost)
            sprites.draw_ghost(surface, centre, self.tile, colour, directions[ghost],
                               scared=bool(timer), wave=progress % 1.0)
        looking = facing or (directions[0] if directions[0] != "Stop" else "East")
        moving = previous is not None and previous.positions[0] != positions[0]
        mouth = 0.2 + 0.8 * abs(math.cos(math.pi * progress)) if moving else 0.7
        sprites.draw_pacman(surface, self._agent_centre(0, state, previous, progress), self.tile,
                            looking, mouth)
        if view is not None:
            self._draw_root_values(surface, view, state)
        status = status or Status()
        if view is not None and status.overlay and status.values is None:
            status = replace(status, values=view.root_values, chosen=view.chosen)
        draw_status(self, surface, state, status)

    def _wall_layer(self) -> pygame.Surface:
        if self._walls is None:
            layout = self.layout
            grid = [[bool(layout.walls >> (y * layout.width + x) & 1) for x in range(layout.width)]
                    for y in range(layout.height - 1, -1, -1)]
            self._walls = sprites.wall_layer(grid, self.tile)
        return self._walls

    def _draw_items(self, surface: pygame.Surface, mask: int, sprite: pygame.Surface) -> None:
        half = self.tile / 2
        centres = self._centres
        placed = []
        while mask:
            low = mask & -mask
            cx, cy = centres[low.bit_length() - 1]
            placed.append((sprite, (round(cx - half), round(cy - half))))
            mask ^= low
        if placed:
            surface.blits(placed, doreturn=False)

    def _agent_centre(self, agent: int, state: GameState, previous: GameState | None,
                      progress: float) -> tuple[float, float]:
        now = state.positions[agent]
        x1, y1 = self._centres[now]
        if previous is None or progress >= 1.0 or agent >= len(previous.positions):
            return x1, y1
        before = previous.positions[agent]
        if before == now or now not in self.layout.neighbours[before].values():
            return x1, y1
        x0, y0 = self._centres[before]
        return x0 + (x1 - x0) * progress, y0 + (y1 - y0) * progress

    def _draw_heat(self, surface: pygame.Surface, heat: Mapping[int, float]) -> None:
        if self._heat_key is not heat:
            self._heat_surface = heat_surface(self, heat)
            self._heat_key = heat
        assert self._heat_surface is not None
        surface.blit(self._heat_surface, (0, 0))

    def _draw_paths(self, surface: pygame.Surface, view: SearchView) -> None:
        for agent in range(len(view.paths) - 1, -1, -1):
            path = view.paths[agent]
            if len(path) < 2:
                continue
            colour = sprites.PACMAN if agent == 0 else sprites.ghost_colour(agent)
            width = max(2, self.tile // 7) if agent == 0 else max(1, self.tile // 12)
            points = [self._centres[c] for c in path]
            pygame.draw.lines(surface, colour, False, points, width)
            end = points[-1]
            pygame.draw.circle(surface, colour, (round(end[0]), round(end[1])), width + 1)

    def _draw_root_values(self, surface: pygame.Surface, view: SearchView,
                          state: GameState) -> None:
        """A ring on the cell the values are from, once Pacman has moved on. The values
        themselves, each with its move, are in the status bar's legend: labels in the maze
        landed on walls or cells away from the move they valued."""
        if view.cell != state.positions[0]:
            centre = self._centres[view.cell]
            pygame.draw.circle(surface, sprites.PACMAN, (round(centre[0]), round(centre[1])),
                               round(self.tile * 0.4), max(1, self.tile // 16))

    def text(self, text: str, colour: tuple[int, int, int], font: pygame.font.Font
             ) -> pygame.Surface:
        """``text`` rendered in ``font`` (cached)."""
        return self._text(text, colour, font)

    def _text(self, text: str, colour: tuple[int, int, int], font: pygame.font.Font
              ) -> pygame.Surface:
        key = (text, colour, id(font))
        rendered = self.text_cache.get(key)
        if rendered is None:
            if len(self.text_cache) > 512:
                self.text_cache.clear()
            rendered = font.render(text, True, colour)
            self.text_cache[key] = rendered
        return rendered

    def render_text(self, text: str, colour: tuple[int, int, int] = sprites.STATUS_TEXT
                    ) -> pygame.Surface:
        """``text`` rendered as the status bar renders it (for tests and legends)."""
        return render_text(self, text, colour, self.font_size)


def slider_room(slider: bool) -> int:
    """The pixels a status bar keeps for a slider: :data:`pacman.display.slider.ROOM` or 0."""
    return SLIDER_ROOM if slider else 0


def heat_surface(renderer: Renderer, heat: Mapping[int, float],
                 colour: Callable[[float], tuple[int, int, int]] = heat_colour,
                 scale: HeatScale | None = None) -> pygame.Surface:
    """A frame-sized layer (transparent where nothing is coloured) colouring each cell of
    ``heat`` by its value's percentile among all of them (``scale``, default: of ``heat``)."""
    layer = pygame.Surface(renderer.size, pygame.SRCALPHA)
    scale = scale or HeatScale.of(heat)
    for cell, value in heat.items():
        layer.fill((*colour(scale.fraction(value)), 255), renderer.cell_rect(cell))
    return layer


def _ringed(sprite: pygame.Surface, tile: int, radius: int) -> pygame.Surface:
    """``sprite`` (a dot of ``radius`` centred in its cell) on a dark ring, to stand out on
    the heat map."""
    ringed = pygame.Surface((tile, tile), pygame.SRCALPHA)
    pygame.draw.circle(ringed, sprites.BACKGROUND, (tile // 2, tile // 2),
                       radius + max(1, tile // 12))
    ringed.blit(sprite, (0, 0))
    return ringed
