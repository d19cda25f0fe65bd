"""GIF export of games and recordings, without a screen, and its command-line errors."""

from __future__ import annotations

import pytest
from display_support import random_game
from PIL import Image, ImageSequence

from pacman.display import export, sprites
from pacman.display.renderer import Renderer
from pacman.errors import ConfigurationError
from tests.cli_support import run_cli


@pytest.fixture(scope="module")
def game():
    return random_game("small_classic", seed=21, max_moves=15)


@pytest.fixture
def recording(tmp_path, game):
    result, _ = game
    path = tmp_path / "games.jsonl"
    path.write_text(result.to_json() + "\n", encoding="utf-8")
    return str(path)




def near(colour, expected, tolerance=8):
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected))


def test_gif_holds_one_frame_per_round_showing_each_state(tmp_path, game):
    result, states = game
    path = str(tmp_path / "game.gif")
    count = export.export_game(result, path, frame_time=0.2)
    shown = [states[i] for i in export.shown_positions(states)]
    assert count == len(shown) == result.moves + 1 + (states[-1].turn != 0)
    renderer = Renderer(states[0].layout, export.export_tile(states[0].layout.width))
    with Image.open(path) as gif:
        assert gif.info["loop"] == 0
        frames, durations = [], []
        for frame in ImageSequence.Iterator(gif):
            frames.append(frame.convert("RGB"))
            durations.append(frame.info["duration"])
    # every round 0.2 s; the final position held for two seconds
    assert durations[:-1] == [200] * (count - 1) and durations[-1] == 2000
    assert len(frames) == count
    assert frames[0].size == renderer.size
    def dot_centre(cell):  # where the dot sprite's centre pixel lands
        rect = renderer.cell_rect(cell)
        return rect.left + renderer.tile // 2, rect.top + renderer.tile // 2

    for image, state in zip(frames, shown):
        for cell in state.layout.cells_of(state.food):
            if cell not in state.positions:
                assert near(image.getpixel(dot_centre(cell)), sprites.FOOD)
        eaten = states[0].food & ~state.food
        for cell in state.layout.cells_of(eaten):
            if cell not in state.positions:
                assert near(image.getpixel(dot_centre(cell)), sprites.BACKGROUND)


def test_every_move_and_smooth_frames(tmp_path, game):
    result, states = game
    path = str(tmp_path / "smooth.gif")
    assert export.export_game(result, path, every_move=True) == len(states)
    rounds = len(export.shown_positions(states))
    assert export.export_game(result, path, smooth=2) == 1 + 3 * (rounds - 1)


def test_bad_targets_are_configuration_errors(tmp_path, game, monkeypatch):
    result, _ = game
    with pytest.raises(ConfigurationError, match=r"\.gif, \.mp4 or \.html"):
        export.export_game(result, str(tmp_path / "game.png"))
    monkeypatch.setattr(export, "mp4_available", lambda: False)
    with pytest.raises(ConfigurationError, match="imageio-ffmpeg"):
        export.export_game(result, str(tmp_path / "game.mp4"))
    with pytest.raises(ConfigurationError, match="cannot write"):
        export.export_game(result, str(tmp_path / "missing" / "game.gif"))


def test_export_command_writes_the_chosen_game(capsys, tmp_path, recording, game):
    out_path = tmp_path / "out.gif"
    code, out, err = run_cli(capsys, "export", recording, str(out_path), "--frame-time", "0.05")
    assert code == 0, err
    assert out.startswith(f"wrote {out_path} (") and "seed 21" in out
    with Image.open(out_path) as gif:
        assert gif.n_frames == len(export.shown_positions(game[1]))


@pytest.mark.parametrize("argv, needle", [
    (["RECORDING", "out.png"], "can only export"),
    (["RECORDING", "out.gif", "--game", "2"], "holds 1 game; there is no game 2"),
    (["missing.jsonl", "out.gif"], "cannot be read"),
    (["RECORDING", "out.gif", "--zoom", "0"], "--zoom"),
])
def test_export_command_errors_are_one_line(capsys, tmp_path, recording, argv, needle):
    argv = [recording if a == "RECORDING" else a for a in argv]
    argv = [str(tmp_path / a) if a.startswith(("out", "missing")) else a for a in argv]
    code, out, err = run_cli(capsys, "export", *argv)
    assert code == 2 and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and needle in err


def test_play_export_writes_one_file_per_game(capsys, tmp_path):
    target = tmp_path / "run.gif"
    code, out, err = run_cli(capsys, "--layout", "tiny", "--pacman", "greedy", "--ghosts",
                             "random", "--display", "none", "--seed", "5", "--games", "2",
                             "--max-moves", "10", "--export", str(target), "--overlay")
    assert code == 0, err
    assert (tmp_path / "run-1.gif").exists() and (tmp_path / "run-2.gif").exists()
    assert out.count("wrote ") == 2


def test_play_export_checks_the_target_before_playing(capsys, tmp_path):
    code, out, err = run_cli(capsys, "--layout", "tiny", "--display", "none",
                             "--export", str(tmp_path / "x.avi"))
    assert code == 2 and out == "" and "can only export" in err



def test_mp4_holds_the_same_frames_as_the_gif(tmp_path, game):
    """The test extra installs the encoder, so this runs the real MP4 writer."""
    import imageio.v3 as iio

    result, _ = game
    frames = export.export_game(result, str(tmp_path / "game.gif"))
    assert export.export_game(result, str(tmp_path / "game.mp4")) == frames
    video = iio.imread(tmp_path / "game.mp4")
    gif = Image.open(tmp_path / "game.gif")
    # the final frame is repeated for two seconds at 10 frames per second
    assert video.shape[0] == frames + round(export.FINAL_HOLD * 10)
    assert abs(video[-1].astype(int) - video[frames - 1].astype(int)).mean() < 2
    # The encoder may pad each side to an even number of pixels.
    assert abs(video.shape[1] - gif.height) <= 1 and abs(video.shape[2] - gif.width) <= 1


def colour_tables(data: bytes) -> tuple[bool, int, int]:
    """(has a global colour table, image count, images with a local colour table) of a GIF."""
    flags = data[10]
    index = 13 + (3 * 2 ** ((flags & 7) + 1) if flags & 0x80 else 0)
    images = local = 0
    while data[index] != 0x3B:
        if data[index] == 0x21:  # an extension: label, then sub-blocks
            index += 2
        else:
            assert data[index] == 0x2C, hex(data[index])
            images += 1
            packed = data[index + 9]
            index += 10
            if packed & 0x80:
                local += 1
                index += 3 * 2 ** ((packed & 7) + 1)
            index += 1  # LZW minimum code size
        while data[index]:
            index += data[index] + 1
        index += 1
    return bool(flags & 0x80), images, local


def test_gif_frames_share_one_global_palette_and_show_the_drawn_frames(tmp_path, game):
    result, states = game
    path = tmp_path / "shared.gif"
    count = export.export_game(result, str(path), smooth=1)
    has_global, images, local = colour_tables(path.read_bytes())
    assert has_global and local == 0 and 1 < images <= count
    palette = export.shared_palette()
    drawn = list(export.frames(states, [a["name"] for a in result.agents], result.outcome,
                               smooth=1))
    with Image.open(path) as gif:
        shown = [frame.convert("RGB") for frame in ImageSequence.Iterator(gif)]
    expected = [image.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
                for image in drawn]
    # identical consecutive frames are merged into one longer frame
    distinct = [e for i, e in enumerate(expected) if i == 0 or e.tobytes() != expected[i - 1].tobytes()]
    assert [s.tobytes() for s in shown] == [d.tobytes() for d in distinct]


def test_the_old_way_gives_every_frame_its_own_palette(tmp_path, game):
    """The comparison the benchmark makes: Pillow's own palette per frame."""
    result, states = game
    images = export.frames(states, ["a", "b", "c"], result.outcome)
    path = tmp_path / "own.gif"
    export.write(images, str(path), 0.1, one_palette=False)
    _, images_written, local = colour_tables(path.read_bytes())
    assert local == images_written - 1 > 0


def test_small_mazes_export_without_side_bars():
    from pacman.display.renderer import MIN_WIDTH
    from pacman.engine.layout import load_layout, shipped_layout_names

    for name in shipped_layout_names():
        width = load_layout(name).width
        tile = export.export_tile(width)
        assert width * tile >= MIN_WIDTH and tile >= export.EXPORT_TILE
    assert export.export_tile(40) == export.EXPORT_TILE
