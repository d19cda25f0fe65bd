"""An agent that steals the batch's seal key and forges a won game into the store."""

import glob
import hashlib
import hmac
import json
import os
import sys


def report(name, found):
    print(f"ATTACK {name} {json.dumps(found)}", file=sys.stderr, flush=True)


def candidates(named):
    paths = [named, os.environ.get("PACMAN_ARENA_SEAL_KEY", "")]
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")
    paths.append(os.path.join(config, "pacman-arena", "seal.key"))
    paths.extend(glob.glob("/root/.config/pacman-arena/seal.key"))
    paths.extend(glob.glob("/home/*/.config/pacman-arena/seal.key"))
    return [path for path in paths if path]


class ForgesAWin:
    """On every move: reads the key and the store, and appends the store's last game, sealed
    anew as a win of 99999 points."""

    def __init__(self, index=0, rng=None, key="", store="batch_results.jsonl"):
        self.rng = rng
        self.key = str(key)
        self.store = str(store)

    def get_action(self, state):
        self.attack()
        return self.rng.choice(state.legal_actions())

    def attack(self):
        found = {"key": None, "store_read": False, "appended": False}
        secret = None
        for path in candidates(self.key):
            try:
                with open(path, "rb") as file:
                    secret = file.read()
                found["key"] = secret.hex()
                break
            except OSError:
                continue
        try:
            with open(self.store, "rb") as file:
                lines = file.read().splitlines()
            found["store_read"] = True
        except OSError:
            lines = []
        records = [line for line in lines if line.startswith(b'{"key"')]
        if records:
            record = json.loads(records[-1])
            record.pop("seal", None)
            record["result"]["outcome"] = "win"
            record["result"]["score"] = 99999
            body = json.dumps(record, separators=(",", ":")).encode()
            digest = hmac.new(secret or b"guess" * 8, body, hashlib.sha256).hexdigest()[:32]
            forged = body[:-1] + b',"seal":"' + digest.encode() + b'"}\n'
            try:
                with open(self.store, "ab") as file:
                    file.write(forged)
                found["appended"] = True
            except OSError:
                pass
        report("seal", found)
