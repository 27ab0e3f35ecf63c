"""Save files and exported game records, in one directory: by default the user's data
folder (platformdirs' ``user_data_path("lald") / "saves"``), so that a session saved
anywhere resumes from anywhere; ``--save-dir`` or ``LALD_SAVE_DIR`` chooses another.

A save is the session's snapshot (replayed through the engine on resume) and the seats;
an export is one finished deal as a game record (docs/record.md#the-json-record-lald-record1).
A finished session's save is *closed*: every deal is kept as its record and the save is
removed, so that only sessions still in play are offered for resume.

Nothing here stops a game: a save that cannot be written raises :class:`SaveError`,
which the table shows in words while play goes on; a file that is no save (or a save of
another format version) raises ``ValueError`` with one line.
"""

from __future__ import annotations

import json
import os
import shlex
import tempfile
from pathlib import Path
from typing import Any

from ..core import State
from ..i18n import Catalog
from ..record import Record
from .game import Game

#: The environment variable naming the save directory (``--save-dir`` has the last word).
SAVE_DIR_VARIABLE = "LALD_SAVE_DIR"

#: A save larger than this is no save of ours (a 50-deal session is about 150 KB).
MAX_SAVE_BYTES = 4 << 20


def default_dir() -> Path:
    """Where saves go unless ``--save-dir`` or ``LALD_SAVE_DIR`` says otherwise: the
    user's data folder for lald (``~/.local/share/lald/saves`` on Linux, or under
    ``$XDG_DATA_HOME``), the same from every directory."""
    try:
        from platformdirs import user_data_path
    except ImportError:  # a bare install without the play extra: the XDG place by hand
        base = os.environ.get("XDG_DATA_HOME", "").strip()
        return (Path(base) if base else Path.home() / ".local" / "share") / "lald" / "saves"
    return user_data_path("lald", appauthor=False) / "saves"


def save_dir(explicit: str | None = None) -> Path:
    """The save directory, as an absolute path (a relative one is named whole, so that
    the resume command works from anywhere): the flag, else ``LALD_SAVE_DIR``, else
    :func:`default_dir`."""
    chosen = explicit or os.environ.get(SAVE_DIR_VARIABLE)
    return Path(chosen).expanduser().absolute() if chosen else default_dir()


class SaveError(Exception):
    """A save or record could not be written; the message says where and why (``reason``
    is None when the save folder is a file)."""

    def __init__(self, path: Path, reason: str | None) -> None:
        super().__init__(f"cannot write {path}: {reason or 'the save folder is a file, not a folder'}")
        self.path, self.reason = path, reason

    def words(self, catalog: Catalog) -> str:
        """Where and why, in the table's language."""
        return catalog.t("save_problem", path=str(self.path),
                         reason=self.reason or catalog.t("save_not_folder"))


def _reason(e: OSError, root: Path) -> str | None:
    if root.exists() and not root.is_dir():
        return None
    return e.strerror or str(e)


def fallback_dir() -> Path:
    """Where saves go when the chosen folder cannot be written (so no game is lost)."""
    return Path(tempfile.gettempdir()) / "lald-saves"


class Store:
    """Saves and records of one save directory; if that cannot be written, saves move to
    ``fallback`` and :attr:`moved` says from where and why. A session resumed from a file
    named on the command line is saved back to that file (:meth:`keep_in`)."""

    def __init__(self, root: Path, fallback: Path | None = None) -> None:
        self.root = root
        self.fallback = fallback if fallback is not None else fallback_dir()
        self.moved: SaveError | None = None
        self._files: dict[int, Path] = {}

    def save_path(self, game: Game) -> Path:
        """The save file of ``game``: the file it was resumed from if one was named, else
        one per session seed in the save folder."""
        return self._files.get(game.session.seed) or self.root / f"session-{game.session.seed}.json"

    def keep_in(self, game: Game, path: Path) -> None:
        """Save ``game`` to ``path`` (the file it was resumed from), named whole."""
        self._files[game.session.seed] = path.expanduser().absolute()

    def _write(self, path: Path, text: str) -> Path:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(path)
        except OSError as e:
            raise SaveError(path, _reason(e, self.root)) from None
        return path

    def save(self, game: Game) -> Path:
        """Write the game's save file; its path.  If the save folder cannot be written,
        the store moves to its fallback folder (and :attr:`moved` says why); only if that
        fails too does :class:`SaveError` reach the caller."""
        text = json.dumps(game.snapshot(), indent=1) + "\n"
        try:
            return self._write(self.save_path(game), text)
        except SaveError as e:
            if self.root == self.fallback and not self._files:
                raise
            self.moved, self.root, self._files = e, self.fallback, {}
            return self._write(self.save_path(game), text)

    def saved_words(self, path: Path, catalog: Catalog) -> str:
        """Where the save went and how to resume it, in words (and why it moved)."""
        said = catalog.t("saved_to", path=str(path), command=self.resume_command(path))
        if self.moved is not None:
            said = catalog.t("save_moved", problem=self.moved.words(catalog)) + " " + said
        return said

    def resume_command(self, path: Path) -> str:
        """The command that resumes the save at ``path``, from any directory."""
        if path in self._files.values():
            return f"lald play --resume {shlex.quote(str(path))}"
        if self.root == default_dir():
            return "lald play --resume"
        return f"lald play --save-dir {shlex.quote(str(self.root))} --resume"

    def latest(self) -> Path | None:
        """The most recently written save of a session still in play, if any (a finished
        session's save found on the way is closed)."""
        try:
            saves = sorted(self.root.glob("session-*.json"), key=lambda p: p.stat().st_mtime)
        except OSError:
            return None
        for path in reversed(saves):
            try:
                game = self.load(path)
            except ValueError:
                continue
            if not game.session.over:
                return path
            try:
                self.close(game)
            except SaveError:
                pass
        return None

    @staticmethod
    def load(path: Path) -> Game:
        """A saved game, replayed; ``ValueError`` with one line if the file is no save."""
        try:
            size = path.stat().st_size
        except OSError as e:
            raise ValueError(f"cannot resume from {path}: {e.strerror or e}") from None
        if size > MAX_SAVE_BYTES:
            raise ValueError(f"cannot resume from {path}: it is too large to be a saved game")
        try:
            data: Any = json.loads(path.read_bytes().decode("utf-8"))
        except OSError as e:
            raise ValueError(f"cannot resume from {path}: {e.strerror or e}") from None
        except UnicodeDecodeError:
            raise ValueError(f"cannot resume from {path}: it is not a saved game (not UTF-8 text)") from None
        except RecursionError:
            raise ValueError(f"cannot resume from {path}: it is not a saved game (nested too deep)") from None
        except ValueError:
            raise ValueError(f"cannot resume from {path}: it is not a saved game (broken JSON)") from None
        try:
            return Game.restore(data)
        except ValueError as e:
            raise ValueError(f"cannot resume from {path}: {e}") from None

    def export(self, game: Game, deal: State) -> Path:
        """Write a finished deal as a game record; its path."""
        number = game.session.deals.index(deal) + 1
        path = self.root / "records" / f"session-{game.session.seed}-deal-{number}.json"
        return self._write(path, Record.from_state(deal, names=game.names).dumps())

    def close(self, game: Game) -> Path:
        """Keep a finished session as its records and remove its save; the records' folder."""
        assert game.session.over
        for deal in game.session.deals:
            self.export(game, deal)
        try:
            self.save_path(game).unlink(missing_ok=True)
        except OSError as e:
            raise SaveError(self.save_path(game), _reason(e, self.root)) from None
        return self.root / "records"

