"""Save files and exported game records, in one directory.

A save is the session's snapshot (replayed through the engine on resume) and the seats;
an export is one finished deal as a game record (RECORD.md).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..core import State
from ..record import Record
from .game import Game

#: Where saves go unless ``--save-dir`` or ``LALD_SAVE_DIR`` says otherwise.
DEFAULT_DIR = "lald-saves"


def save_dir(explicit: str | None = None) -> Path:
    """The save directory: the flag, else ``LALD_SAVE_DIR``, else ``./lald-saves``."""
    return Path(explicit or os.environ.get("LALD_SAVE_DIR") or DEFAULT_DIR)


class Store:
    """Saves and records of one save directory."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def save_path(self, game: Game) -> Path:
        """The save file of ``game`` (one per session seed)."""
        return self.root / f"session-{game.session.seed}.json"

    def save(self, game: Game) -> Path:
        """Write the game's save file; its path."""
        path = self.save_path(game)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(game.snapshot(), indent=1) + "\n", encoding="utf-8")
        tmp.replace(path)
        return path

    def latest(self) -> Path | None:
        """The most recently written save file, if any."""
        saves = sorted(self.root.glob("session-*.json"), key=lambda p: p.stat().st_mtime)
        return saves[-1] if saves else None

    @staticmethod
    def load(path: Path) -> Game:
        """A saved game, replayed; ``ValueError`` with one line if the file is no save."""
        try:
            data: Any = json.loads(path.read_text(encoding="utf-8"))
            return Game.restore(data)
        except (OSError, KeyError, TypeError, json.JSONDecodeError) as e:
            raise ValueError(f"cannot resume from {path}: {e}") from None

    def export(self, game: Game, deal: State) -> Path:
        """Write a finished deal as a game record; its path."""
        number = game.session.deals.index(deal) + 1
        path = self.root / "records" / f"session-{game.session.seed}-deal-{number}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(Record.from_state(deal).dumps(), encoding="utf-8")
        return path
