"""Colours and shapes of the window: walls, dots, capsules, Pacman and the ghosts.

Every function draws onto any :class:`pygame.Surface` at pixel coordinates it is given; none
knows about states or windows. Sizes are fractions of the cell size ``tile`` (in pixels), so the
drawing scales with the window.
"""

from __future__ import annotations

import math

from pacman.display._pygame import pygame

Colour = tuple[int, int, int]

BACKGROUND: Colour = (0, 0, 0)
#: The outline of the walls, and their inside.
WALL: Colour = (33, 33, 222)
WALL_FILL: Colour = (6, 6, 48)
FOOD: Colour = (255, 200, 170)
CAPSULE: Colour = (255, 200, 170)
PACMAN: Colour = (255, 255, 0)
#: Ghost 1, 2, 3, 4 (then again from the first).
GHOSTS: tuple[Colour, ...] = ((255, 0, 0), (255, 184, 255), (0, 255, 255), (255, 184, 82))
SCARED: Colour = (33, 33, 255)
#: A scared ghost about to recover alternates between :data:`SCARED` and this.
SCARED_FLASH: Colour = (255, 255, 255)
EYE_WHITE: Colour = (255, 255, 255)
PUPIL: Colour = (30, 30, 160)
SCARED_FACE: Colour = (255, 200, 170)
STATUS_BACKGROUND: Colour = (20, 20, 28)
STATUS_TEXT: Colour = (235, 235, 235)
STATUS_SCORE: Colour = (255, 255, 0)

#: Scared ghosts flash during their last this many scared moves.
FLASH_MOVES = 10

#: Unit vectors on screen (y grows downwards) of each action.
SCREEN_VECTORS = {"North": (0, -1), "South": (0, 1), "East": (1, 0), "West": (-1, 0),
                  "Stop": (0, 0)}
_ANGLES = {"East": 0.0, "North": 90.0, "West": 180.0, "South": 270.0}


def ghost_colour(ghost: int) -> Colour:
    """The colour of ghost ``ghost`` (1-based agent index) when it is not scared."""
    return GHOSTS[(ghost - 1) % len(GHOSTS)]


def scared_colour(timer: int) -> Colour:
    """A scared ghost's body colour: blue, flashing white on every other move at the end."""
    if timer <= FLASH_MOVES and timer % 2 == 0:
        return SCARED_FLASH
    return SCARED


def wall_layer(walls: list[list[bool]], tile: int) -> pygame.Surface:
    """The static maze: walls as filled shapes with a bright outline, on the background.

    ``walls[row][column]`` is True for a wall, row 0 at the top. Each wall cell is drawn as
    up to nine blocks (centre, the four sides that join a wall neighbour, the four corners that
    join three walls), once inset from the floor by the outline's outer margin in the outline
    colour and once inset further in the fill colour; what remains visible of the first pass is
    the outline. Outside the maze counts as wall, so the border is a single line.
    """
    rows, columns = len(walls), len(walls[0])
    surface = pygame.Surface((columns * tile, rows * tile))
    surface.fill(BACKGROUND)
    line = max(1, tile // 10)
    outer = max(1, tile // 4)

    def is_wall(row: int, column: int) -> bool:
        return not (0 <= row < rows and 0 <= column < columns) or walls[row][column]

    for colour, inset in ((WALL, outer), (WALL_FILL, outer + line)):
        for row in range(rows):
            for column in range(columns):
                if walls[row][column]:
                    _wall_blocks(surface, colour, column * tile, row * tile, tile, inset,
                                 lambda dr, dc, r=row, c=column: is_wall(r + dr, c + dc))
    return surface


def _wall_blocks(surface: pygame.Surface, colour: Colour, left: int, top: int, tile: int,
                 inset: int, wall_at) -> None:
    inner = tile - 2 * inset
    spans = {-1: (0, inset), 0: (inset, inner), 1: (tile - inset, inset)}
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr and dc:
                drawn = wall_at(dr, 0) and wall_at(0, dc) and wall_at(dr, dc)
            else:
                drawn = (dr, dc) == (0, 0) or wall_at(dr, dc)
            if drawn:
                x, w = spans[dc]
                y, h = spans[dr]
                surface.fill(colour, (left + x, top + y, w, h))


def food_sprite(tile: int) -> pygame.Surface:
    """A food dot centred on a transparent cell-sized square."""
    surface = pygame.Surface((tile, tile), pygame.SRCALPHA)
    pygame.draw.circle(surface, FOOD, (tile // 2, tile // 2), max(1, round(tile * 0.1)))
    return surface


def capsule_sprite(tile: int) -> pygame.Surface:
    """A capsule (power pellet) centred on a transparent cell-sized square."""
    surface = pygame.Surface((tile, tile), pygame.SRCALPHA)
    pygame.draw.circle(surface, CAPSULE, (tile // 2, tile // 2), max(2, round(tile * 0.3)))
    return surface


def draw_pacman(surface: pygame.Surface, centre: tuple[float, float], tile: int,
                facing: str, mouth: float) -> None:
    """Pacman as a disc with a wedge-shaped mouth.

    ``facing`` is the action he looks towards (``Stop`` faces East); ``mouth`` in [0, 1] is how
    far the mouth is open (1 is a 90 degree wedge).
    """
    radius = tile * 0.45
    cx, cy = centre
    half = 45.0 * max(0.0, min(1.0, mouth))
    if half < 2:
        pygame.draw.circle(surface, PACMAN, (round(cx), round(cy)), round(radius))
        return
    heading = _ANGLES.get(facing, 0.0)
    points = [(cx, cy)]
    steps = 24
    for step in range(steps + 1):
        angle = math.radians(heading + half + (360.0 - 2 * half) * step / steps)
        points.append((cx + radius * math.cos(angle), cy - radius * math.sin(angle)))
    pygame.draw.polygon(surface, PACMAN, points)


def draw_ghost(surface: pygame.Surface, centre: tuple[float, float], tile: int,
               colour: Colour, facing: str, scared: bool, wave: float = 0.0) -> None:
    """A ghost: round head, straight sides, a wavy hem; eyes looking along ``facing``.

    A scared ghost has no pupils but a small frightened face. ``wave`` in [0, 1) shifts the
    hem so that a moving ghost seems to float.
    """
    cx, cy = centre
    r = tile * 0.42
    top, bottom = cy - r * 0.15, cy + r
    body = [(cx - r, bottom)]
    steps = 12
    for step in range(steps + 1):
        angle = math.pi * step / steps
        body.append((cx - r * math.cos(angle), top - r * math.sin(angle)))
    body.append((cx + r, bottom))
    feet = 3
    phase = 1 if wave >= 0.5 else 0
    for point in range(1, 2 * feet):
        x = cx + r - 2 * r * point / (2 * feet)
        y = bottom - (r * 0.3 if (point + phase) % 2 else 0.0)
        body.append((x, y))
    pygame.draw.polygon(surface, colour, body)
    eye_y = top - r * 0.1
    if scared:
        dot = max(1, round(r * 0.12))
        for side in (-1, 1):
            pygame.draw.circle(surface, SCARED_FACE,
                               (round(cx + side * r * 0.35), round(eye_y)), dot)
        mouth_y = cy + r * 0.45
        zig = [(cx - r * 0.6 + r * 0.3 * i, mouth_y - (r * 0.12 if i % 2 else 0.0))
               for i in range(5)]
        pygame.draw.lines(surface, SCARED_FACE, False, zig, max(1, tile // 16))
        return
    dx, dy = SCREEN_VECTORS.get(facing, (0, 0))
    eye_w, eye_h = r * 0.5, r * 0.62
    for side in (-1, 1):
        ex = cx + side * r * 0.38 + dx * r * 0.1
        ey = eye_y + dy * r * 0.1
        pygame.draw.ellipse(surface, EYE_WHITE, (ex - eye_w / 2, ey - eye_h / 2, eye_w, eye_h))
        pr = max(1.0, r * 0.15)
        pygame.draw.circle(surface, PUPIL, (round(ex + dx * r * 0.12), round(ey + dy * r * 0.15)),
                           round(pr))


#: Opacity of the heat map over the floor (0-255): dim enough that dots stay bright on it.
HEAT_ALPHA = 150
#: The heat map's colours from the worst (0) to the best (1) percentile.
HEAT_STOPS = ((0.0, (50, 70, 230)), (0.25, (40, 170, 230)), (0.5, (60, 190, 80)),
              (0.75, (240, 200, 40)), (1.0, (240, 50, 40)))


def heat_colour(fraction: float) -> tuple[int, int, int]:
    """The heat map's colour at ``fraction`` in [0, 1]: blue (worst), cyan, green, yellow,
    red (best), as drawn over the dark floor."""
    f = max(0.0, min(1.0, fraction))
    full: tuple[float, ...] = HEAT_STOPS[-1][1]
    for (f0, c0), (f1, c1) in zip(HEAT_STOPS, HEAT_STOPS[1:]):
        if f <= f1:
            t = (f - f0) / (f1 - f0)
            full = tuple(a + (b - a) * t for a, b in zip(c0, c1))
            break
    alpha = HEAT_ALPHA / 255
    return tuple(round(channel * alpha + background * (1 - alpha))  # type: ignore[return-value]
                 for channel, background in zip(full, BACKGROUND))
