"""docs/deploy.md's backup and restore: pg_dump of a site being played, pg_restore into a
new database, and a site on the restored database plays the tables on."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path
from typing import Any

import psycopg

from lald.store import Store

from .site import Player, Site


def test_a_backup_made_during_play_restores_and_plays_on(postgres: Any, tmp_path: Path) -> None:
    db = postgres.database()
    Store(db).close()
    site = Site(db, ["b1"], tmp_path)
    where = ["-h", "127.0.0.1", "-p", str(postgres.port), "-U", "lald"]
    try:
        site.start()
        answer = site.create(deals=3)
        bots = site.create(humans=0, deals=50)["table"]["id"]
        player = Player(site, answer)
        asyncio.run(player.play(lambda m: m["v"] >= 12, 60))
        dump = tmp_path / "lald.dump"
        done = subprocess.run([str(postgres.bin / "pg_dump"), "--format=custom", f"--file={dump}", *where,
                               db.rsplit("/", 1)[1]], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        seen = player.last_v
    finally:
        site.stop()
    restored = postgres.database()
    name = restored.rsplit("/", 1)[1]
    done = subprocess.run([str(postgres.bin / "pg_restore"), "--no-owner", *where, "--dbname", name,
                           str(dump)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    with psycopg.connect(f"host=127.0.0.1 port={postgres.port} user=lald dbname={name}") as c:
        assert c.execute("SELECT count(*) FROM lald_tables").fetchone() == (2,)
    again = Site(restored, ["b2"], tmp_path / "again")
    (tmp_path / "again").mkdir()
    try:
        again.start()
        player = Player(again, answer)  # the same link, on the restored site
        asyncio.run(player.play(lambda m: m["v"] >= seen + 5, 60))
        assert player.frames[0]["v"] >= seen and player.errors == []
        assert again.holder(bots) == "b2"  # the tables of bots are played on too
    finally:
        again.stop()
