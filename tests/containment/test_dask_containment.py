"""On the Dask backend too, code from files plays contained (a local cluster started here)."""

from __future__ import annotations

import json
import uuid

from tests.containment.support import plain_cannot_prevent, code, left_behind, live_processes, run_program


def test_dask_workers_contain_file_evaluations_prints_and_new_sessions():
    plain_cannot_prevent("new session outliving the game")
    token = f"{3000 + uuid.uuid4().int % 1000}.{uuid.uuid4().int % 10 ** 6}"
    before = live_processes(token)
    done = run_program("batch", "--backend", "dask", "--workers", "1", "-n", "2",
                       "-p", f"alphabeta depth=1 evaluation={code('interrupts')}",
                       "-p", f"{code('ForksAway')} token={token}", "-g", code("Chatty"),
                       "--layout", "small_classic", "--max-moves", "20", "--no-store",
                       "--no-progress", "--json", timeout=180)
    assert done.returncode == 0, done.stderr
    interrupted, forking = json.loads(done.stdout)["conditions"]
    assert interrupted["causes"]["crash"] == 2 and forking["causes"]["crash"] == 0
    assert not left_behind(before, token, wait=2.0)
