"""The status bar under the maze: four lines, never cut.

1. the score, Pacman's move, the food left, the outcome and notes (paused, speed, thinking);
2. the agents and what is shown (which game, which seed);
3. and 4. with the search overlay, its legend: the value of each of Pacman's moves, labelled
   with the move (``N 12  E 8  W -3  stop 5``; the chosen one in Pacman's colour), or why there
   are none; a colour bar of the heat map (by percentile, from the worst to the best value,
   with a tick where Pacman stands) and what the lines mean; otherwise a hint of the keys.

In a replay the lines sit below a strip kept for the slider (:mod:`pacman.display.slider`).
Lines 1 and 2 too wide for the frame are drawn in a smaller font; the legend wraps onto its
second line first and only then gets smaller.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol
from collections.abc import Mapping, Sequence

from pacman.display._pygame import pygame

from pacman.display import sprites
from pacman.display.overlay import HeatScale, format_value
from pacman.engine.state import GameState



class StatusCanvas(Protocol):
    """What the status bar draws with: the frame's renderer
    (:class:`pacman.display.renderer.Renderer`), its fonts and its caches."""

    status_rect: pygame.Rect
    last_status: list[tuple[str, pygame.Rect]]
    font_size: int
    legend_size: int
    slider_room: int
    widths: dict[tuple[str, int], int]
    text_cache: dict[tuple[str, tuple[int, int, int], int], pygame.Surface]

    def font_of(self, size: int) -> pygame.font.Font: ...

    def text(self, text: str, colour: tuple[int, int, int], font: pygame.font.Font
             ) -> pygame.Surface: ...

#: Lines of the status bar (the last two hold the legend).
LINES = 4
#: The smallest font a line shrinks to (pixels).
SMALLEST_FONT = 10
#: The smallest font size of the window's text at its default size (pygame's default font at
#: this size is 11 pixels high): the status bar's base size and the end banner's lines.
LEGIBLE_SIZE = 16
#: Width of the heat map's colour bar, in multiples of the font size.
BAR_LENGTH = 5
#: What the overlay's move values mean (after them in the legend).
OVERLAY_NOTE = "(yellow: chosen; ring: where he chose)"
#: How each of Pacman's moves is named beside its value, in the order shown.
MOVE_LETTERS = {"North": "N", "East": "E", "South": "S", "West": "W", "Stop": "stop"}
#: The legend's values item when there are none, before the first move and after it.
NO_VALUES_YET = "move values: after Pacman's first move"
NO_VALUES = "move values: none (no search reported for this move)"
PATHS_NOTE = ("lines: the moves expected (each agent in its colour)",)
#: Status text below this size is drawn this many times larger and scaled down: the default
#: font's hinting at small sizes puts gaps inside words ("pacm an", "thi nk").
SMOOTH_BELOW, SUPERSAMPLE = 64, 3
#: The keys, when the overlay is off.
KEYS_HINT = "space pause   right step   +/- speed   s overlay   r restart   q quit"


@dataclass
class Status:
    """What the status bar says besides the state's own score and food.

    ``move`` is Pacman's move number; ``agents`` the names, Pacman first; ``outcome`` the end
    of the game (or ``None`` while it goes on); ``note`` free text such as ``paused``;
    ``extra`` more items for the second line. ``legend`` is the heat map's scale when the
    overlay shows it, ``overlay`` whether the overlay is shown (its legend replaces ``hint``),
    ``paths`` whether principal variations are drawn, ``hint`` the third line otherwise.
    ``values`` are the values of Pacman's moves in his last decision (``None``: his agent
    reported none), ``chosen`` the move he took.
    """

    move: int = 0
    agents: Sequence[str] = ()
    outcome: str | None = None
    note: str = ""
    extra: list[str] = field(default_factory=list)
    legend: HeatScale | None = None
    overlay: bool = False
    paths: bool = False
    hint: str = ""
    values: Mapping[str, float] | None = None
    chosen: str | None = None


@dataclass(frozen=True)
class Chosen:
    """An item of a status line drawn in Pacman's colour: the value of the move he chose."""

    text: str


@dataclass(frozen=True)
class ColourBar:
    """An item of a status line: the heat map's colour bar, ``tick`` the fraction marked."""

    tick: float | None


Item = str | ColourBar | Chosen


def value_items(status: Status) -> list[Item]:
    """Each of Pacman's move values with its move's letter, in compass order (the chosen one
    as :class:`Chosen`), or one item saying why there are none."""
    if not status.values:
        return [NO_VALUES_YET if status.move == 0 else NO_VALUES]
    items: list[Item] = ["move values:"]
    known = [m for m in MOVE_LETTERS if m in status.values]
    others = sorted(m for m in status.values if m not in MOVE_LETTERS)
    for move in known + others:
        text = f"{MOVE_LETTERS.get(move, move)} {format_value(status.values[move])}"
        items.append(Chosen(text) if move == status.chosen else text)
    return items


def status_items(state: GameState, status: Status) -> list[list[Item]]:
    """The items of the status bar, line by line; the first item is always ``score N``."""
    first: list[Item] = [f"score {state.score}", f"move {status.move}",
                         f"food {state.food_count}"]
    if status.outcome:
        first.append(status.outcome.replace("_", " ").upper())
    if status.note:
        first.append(status.note)
    agents = list(status.agents)
    second: list[Item] = []
    if agents:
        ghosts = ", ".join(agents[1:]) if len(agents) > 1 else "no ghosts"
        second = [f"pacman: {agents[0]}", f"ghosts: {ghosts}"]
    second += list(status.extra)
    return [first, second, legend_items(status) if status.overlay else
            ([status.hint] if status.hint else [])]


def legend_items(status: Status) -> list[Item]:
    """The overlay's legend: the colour bar between the worst and best values, then what the
    numbers and lines mean."""
    items: list[Item] = value_items(status)
    if status.values:
        items.append(OVERLAY_NOTE)
    scale = status.legend
    if scale is not None:
        if scale.flat:
            items.append(f"heat: every cell {format_value(scale.low)} (flat)")
        else:
            tick = scale.fraction(scale.here) if scale.here is not None else None
            items += [f"heat: worst {format_value(scale.low)}", ColourBar(tick),
                      f"best {format_value(scale.high)}"]
            if scale.here is not None:
                items.append(f"here {format_value(scale.here)}")
    if status.paths:
        items += PATHS_NOTE
    return items


def bar_height(font_size: int, slider_room: int = 0) -> int:
    """The bar's height: :data:`LINES` lines at ``font_size`` below a strip of ``slider_room``
    pixels kept for a slider."""
    return slider_room + LINES * font_size + 10


def draw_status(renderer: StatusCanvas, surface: pygame.Surface, state: GameState,
                status: Status) -> None:
    """Draw the bar into ``renderer.status_rect``, the text below the strip kept for a slider
    (``renderer.slider_room`` pixels, left empty); record the texts in ``last_status``."""
    bar = renderer.status_rect
    surface.fill(sprites.STATUS_BACKGROUND, bar)
    renderer.last_status = []
    base = renderer.font_size
    room = bar.width - 16
    first, second, legend = status_items(state, status)
    rows = [(first, _fitting_size(renderer, first, base, room)),
            (second, _fitting_size(renderer, second, base, room))]
    size = base
    while True:
        wrapped = _wrap(renderer, legend, size, room)
        if len(wrapped) <= LINES - 2 or size <= SMALLEST_FONT:
            break
        size -= 1
    rows += [(line, size) for line in wrapped[:LINES - 2]]
    renderer.legend_size = size
    y = bar.top + renderer.slider_room + 5
    for line, size in rows:
        _draw_line(renderer, surface, line, size, bar.left + 8, y)
        y += base


def _wrap(renderer: StatusCanvas, items: list[Item], size: int, room: int) -> list[list[Item]]:
    """``items`` in lines of at most ``room`` pixels at font ``size`` (a line holds at least
    one phrase). A phrase is never cut: the colour bar stays with the items on both sides of
    it (``heat: worst -3 [bar] best 9``), and a label ending in ``:`` with the item after it
    (``move values: N 12``)."""
    phrases: list[list[Item]] = []
    for index, item in enumerate(items):
        before = items[index - 1] if index else None
        joins = phrases and (isinstance(item, ColourBar) or isinstance(before, ColourBar)
                             or (isinstance(before, str) and before.endswith(":")))
        if joins:
            phrases[-1].append(item)
        else:
            phrases.append([item])
    lines: list[list[Item]] = [[]]
    for phrase in phrases:
        if lines[-1] and _width(renderer, lines[-1] + phrase, size) > room:
            lines.append([])
        lines[-1].extend(phrase)
    return lines


def render_text(renderer: StatusCanvas, text: str, colour: tuple[int, int, int],
                size: int) -> pygame.Surface:
    """``text`` as the status bar draws it at font ``size`` (cached on the renderer); small
    sizes are drawn :data:`SUPERSAMPLE` times larger and scaled down, evenly spaced."""
    if size >= SMOOTH_BELOW:
        return renderer.text(text, colour, renderer.font_of(size))
    key = (text, colour, -size)  # negative: apart from the plain renderings' font ids
    cache = renderer.text_cache
    rendered = cache.get(key)
    if rendered is None:
        if len(cache) > 512:
            cache.clear()
        large = renderer.font_of(size * SUPERSAMPLE).render(text, True, colour)
        rendered = pygame.transform.smoothscale(large, _smooth_size(large.get_size()))
        cache[key] = rendered
    return rendered


def _smooth_size(size: tuple[int, int]) -> tuple[int, int]:
    return (max(1, -(-size[0] // SUPERSAMPLE)), max(1, -(-size[1] // SUPERSAMPLE)))


def _draw_line(renderer: StatusCanvas, surface: pygame.Surface, line: list[Item], size: int,
               x: int, y: int) -> None:
    gap = _text_width(renderer, "   ", size)
    for item in line:
        if isinstance(item, ColourBar):
            rect = _draw_colour_bar(surface, item, pygame.Rect(
                x, y + size // 5, BAR_LENGTH * size, max(4, size * 3 // 5)))
            renderer.last_status.append(("<colour bar>", rect))
        elif isinstance(item, Chosen):
            rect = surface.blit(render_text(renderer, item.text, sprites.PACMAN, size), (x, y))
            renderer.last_status.append((item.text, rect))
        else:
            is_score = item.startswith("score ") and not renderer.last_status
            colour = sprites.STATUS_SCORE if is_score else sprites.STATUS_TEXT
            rect = surface.blit(render_text(renderer, item, colour, size), (x, y))
            renderer.last_status.append((item, rect))
        x = rect.right + gap


def _width(renderer: StatusCanvas, line: list[Item], size: int) -> int:
    widths = [BAR_LENGTH * size if isinstance(item, ColourBar) else
              _text_width(renderer, item.text if isinstance(item, Chosen) else item, size)
              for item in line]
    return sum(widths) + _text_width(renderer, "   ", size) * max(0, len(widths) - 1)


def _text_width(renderer: StatusCanvas, text: str, size: int) -> int:
    """The width of ``text`` at font ``size`` (cached on the renderer: frames repeat texts)."""
    key = (text, size)
    width = renderer.widths.get(key)
    if width is None:
        if len(renderer.widths) > 4096:
            renderer.widths.clear()
        if size >= SMOOTH_BELOW:
            width = renderer.font_of(size).size(text)[0]
        else:
            width = _smooth_size(renderer.font_of(size * SUPERSAMPLE).size(text))[0]
        renderer.widths[key] = width
    return width


def _fitting_size(renderer: StatusCanvas, line: list[Item], base: int, room: int) -> int:
    """The largest font size up to ``base`` at which ``line`` fits ``room`` pixels."""
    size = base
    while size > SMALLEST_FONT and _width(renderer, line, size) > room:
        size -= 1
    return size


def _draw_colour_bar(surface: pygame.Surface, bar: ColourBar, rect: pygame.Rect
                     ) -> pygame.Rect:

    for dx in range(rect.width):
        colour = sprites.heat_colour(dx / max(1, rect.width - 1))
        surface.fill(colour, (rect.left + dx, rect.top, 1, rect.height))
    pygame.draw.rect(surface, sprites.STATUS_TEXT, rect, 1)
    if bar.tick is not None:
        x = rect.left + round(bar.tick * (rect.width - 1))
        pygame.draw.polygon(surface, sprites.PACMAN, [(x, rect.top + 2), (x - 4, rect.top - 4),
                                                      (x + 4, rect.top - 4)])
        surface.fill(sprites.PACMAN, (x - 1, rect.top, 2, rect.height))
    return rect
