"""What goes on the wire (lald.web.wire): a table's status is a closed word list whose
words the pages, the lobby, the database and the OpenAPI document all read unchanged."""

from __future__ import annotations

import json

from lald.core import Rules
from lald.store import SeatData, Store, TableData
from lald.web.server.openapi import spec
from lald.web.settings import Settings
from lald.web.table.journal import Journal
from lald.web.table.tables import Table
from lald.web.wire import Status, dumps


def test_a_tables_status_is_the_same_word_on_the_wire() -> None:
    assert [s.value for s in Status] == ["waiting", "playing", "over", "closed"]
    for status in Status:
        assert dumps({"status": status}) == f'{{"status":"{status.value}"}}'
        assert json.dumps(status) == f'"{status.value}"'
        assert Status(status.value) is status
    assert [s for s in Status if s.open] == [Status.WAITING, Status.PLAYING]


def test_the_openapi_document_names_the_statuses() -> None:
    summary = spec()["components"]["schemas"]["Table"]
    assert summary["properties"]["status"] == {"enum": ["waiting", "playing", "over", "closed"]}


def _table(status: str, deals_started: int) -> Table:
    rules = Rules.make(players=3)
    seats = [SeatData(s, "", False, "random", None, True) for s in range(3)]
    data = TableData("t", 0.0, {"rules": rules.spec()}, 1, deals_started, status, seats,
                     actions=[[]] * deals_started)
    return Table(data, Journal(Store("sqlite://"), threaded=False), Settings(threaded_bots=False))


def test_a_table_restored_from_its_words_says_them_again() -> None:
    for word, started, expected in [("waiting", 0, Status.WAITING), ("playing", 1, Status.PLAYING),
                                    ("closed", 1, Status.CLOSED)]:
        table = _table(word, started)
        assert table.status is expected
        assert json.loads(dumps(table.summary()))["status"] == word
    table = _table("playing", 1)
    table.close()
    assert table.status is Status.CLOSED and not table.open
    assert json.loads(dumps(table.summary()))["status"] == "closed"
