"""lald.store.accounts on SQLite and PostgreSQL: accounts and their unique lookalike keys,
sessions and their idle end, chat lines with their tables, ratings applied once per table,
the leaderboard's order, and an account's deletion (its seats keep their records)."""

from __future__ import annotations

import pytest

from lald.store import NewChat, SeatData, Store, TableData, token_hash
from lald.store.accounts import Accounts, NameTaken


def test_accounts_sessions_chat_ratings_and_deletion(db_url: str) -> None:
    store = Store(db_url)
    accounts = Accounts(store)
    ann = accounts.create("Ann", "ann", "$argon2id$a", 1.0)
    ben = accounts.create("Ben", "ben", "$argon2id$b", 2.0)
    with pytest.raises(NameTaken):
        accounts.create("ANN", "ann", "$argon2id$c", 3.0)
    assert accounts.skeletons(["ann", "zed"]) == {"ann"}
    # Sessions: found while used, ended after their idle time.
    accounts.add_session(token_hash("s1"), ann.id, "csrf1", 10.0)
    found = accounts.session(token_hash("s1"), 20.0, idle=100.0)
    assert found is not None and found[0].name == "Ann" and found[1] == "csrf1"
    assert accounts.session(token_hash("s1"), 500.0, idle=100.0) is None
    assert accounts.sessions_of(ann.id) == []
    # A table with Ann in seat 0, a chat line of hers and one of a spectator.
    store.create_table(TableData("t1", 5.0, {"rules": {"preset": "survivor", "players": 3, "variants": [],
                                                       "options": {}}, "rated": True}, 0, 1, "over",
                                 [SeatData(0, token_hash("x" * 22), True, "random", "Ann", True, 0, ann.id),
                                  SeatData(1, token_hash("y" * 22), True, "random", "Ben", True, 0, ben.id),
                                  SeatData(2, token_hash("z" * 22), False, "random", None, False)]))
    store.write([NewChat("t1", 0, 3, 0, "Ann", ann.id, "chat", "hello", 6.0),
                 NewChat("t1", 0, 4, None, "#1", None, "chat", "hi", 7.0)])
    assert [c.text for c in store.load_tables(ids=["t1"])[0].chat] == ["hello", "hi"]
    assert accounts.unrated_tables() == ["t1"]
    assert accounts.apply_ratings("t1", "survivor/3", 3, {ann.id: (27.0, 8.0, 1), ben.id: (23.0, 8.0, 2)})
    assert not accounts.apply_ratings("t1", "survivor/3", 3, {ann.id: (99.0, 1.0, 1)})  # once per table
    assert accounts.unrated_tables() == []
    assert [r.name for r in accounts.leaderboard("survivor/3")] == ["Ann", "Ben"]
    assert accounts.readings() == ["survivor/3"]
    assert accounts.profile(ann.id)["history"][0]["mu"] == 27.0
    # Deleting Ann: her seat keeps its record, erased; her chat, ratings and account go.
    accounts.delete(ann.id)
    [table] = store.load_tables(ids=["t1"])
    assert (table.seats[0].name, table.seats[0].account, table.seats[0].erased) == (None, None, True)
    assert [c.text for c in table.chat] == ["hi"]
    assert accounts.by_id(ann.id) is None and accounts.data(ann.id) == {}
    assert [r.name for r in accounts.leaderboard("survivor/3")] == ["Ben"]
    store.close()


def test_a_name_is_shared_only_once_its_owner_agrees(db_url: str) -> None:
    store = Store(db_url)
    accounts = Accounts(store)
    ann = accounts.create("Ann", "ann", "$argon2id$a", 1.0)
    ben = accounts.create("Ben", "ben", "$argon2id$b", 2.0)
    assert not ann.share_name  # off until the owner says so
    assert accounts.shared_names([ann.id, ben.id]) == {}
    accounts.set_share_name(ann.id, True)
    assert accounts.shared_names([ann.id, ben.id, 999]) == {ann.id: "Ann"}
    found = accounts.by_id(ann.id)
    assert found is not None and found.share_name
    assert accounts.data(ann.id)["account"]["share_name"] is True
    accounts.set_share_name(ann.id, False)
    assert accounts.shared_names([ann.id]) == {}
    store.close()
