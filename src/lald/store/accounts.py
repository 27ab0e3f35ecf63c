"""The community's part of the database: accounts and their sessions, the table chat,
ratings (issue 24).

Like the rest of the store it keeps what it is given and knows no rule: names arrive
checked and with their lookalike key made (:mod:`lald.web.people.accounts`), passwords arrive
hashed (argon2id), session and CSRF tokens arrive as their digests or as random text,
ratings arrive computed. Every call is one transaction, synchronous (the server calls
it from a worker thread).

>>> from lald.store import Store
>>> store = Store("sqlite://")
>>> accounts = Accounts(store)
>>> ann = accounts.create("Ann", "ann", "$argon2id$...", 1.0)
>>> accounts.by_skeleton("ann").name
'Ann'
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterable
from typing import Any

from sqlalchemy import (
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    delete,
    false,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.sql import Executable

from . import NewChat, Store, _Action, _Base, _Seat, _Table

__all__ = ["Account", "Accounts", "ChatLine", "NameTaken", "RatingRow", "chat_insert", "chat_rows"]

ChatLine = NewChat
"""One chat line or laugh of a table, as written and as read back."""


class _Account(_Base):
    __tablename__ = "lald_accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    skeleton: Mapped[str] = mapped_column(String(255), unique=True)
    """The name's lookalike key: two names with one key are one name."""
    password: Mapped[str] = mapped_column(Text)
    """The argon2id hash of the password (PHC string), never the password."""
    created: Mapped[float] = mapped_column(Float)
    failed_logins: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Wrong passwords given for it since its last login (told to its owner then)."""
    share_name: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether its owner agreed that its name be given in the site's public dataset of
    finished games (``lald db export-games``); off until they say so."""


class _Session(_Base):
    __tablename__ = "lald_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    """The SHA-256 digest of the session's cookie, never the cookie."""
    account_id: Mapped[int] = mapped_column(ForeignKey("lald_accounts.id"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[float] = mapped_column(Float)
    seen_at: Mapped[float] = mapped_column(Float)
    wrong_passwords: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Wrong passwords given through it (changing the password, deleting the account)."""


class _KnownClient(_Base):
    __tablename__ = "lald_known_clients"

    account_id: Mapped[int] = mapped_column(ForeignKey("lald_accounts.id"), primary_key=True)
    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    """A device cookie's digest, or the digest of the account's id and an address."""
    kind: Mapped[str] = mapped_column(String(8))
    """``device`` or ``address``."""
    created: Mapped[float] = mapped_column(Float)
    seen_at: Mapped[float] = mapped_column(Float)


class _NameHold(_Base):
    __tablename__ = "lald_name_holds"

    skeleton: Mapped[str] = mapped_column(String(255), primary_key=True)
    """A deleted account's lookalike key, which no one may take before ``until``."""
    until: Mapped[float] = mapped_column(Float)


class _Chat(_Base):
    __tablename__ = "lald_chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("lald_tables.id"), index=True)
    deal: Mapped[int] = mapped_column(Integer)
    """The deal it was said in (-1: before the first)."""
    after: Mapped[int] = mapped_column(Integer)
    """How many actions of the deal had been played."""
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The speaker's seat (None: a spectator)."""
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    kind: Mapped[str] = mapped_column(String(8))
    """``chat`` or ``laugh``."""
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


class _Rating(_Base):
    __tablename__ = "lald_ratings"

    account_id: Mapped[int] = mapped_column(ForeignKey("lald_accounts.id"), primary_key=True)
    reading: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated: Mapped[float] = mapped_column(Float)


class _RatingEvent(_Base):
    __tablename__ = "lald_rating_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("lald_accounts.id"), index=True)
    reading: Mapped[str] = mapped_column(String(64))
    table_id: Mapped[str] = mapped_column(String(32))
    rank: Mapped[int] = mapped_column(Integer)
    players: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float)


class _Rated(_Base):
    __tablename__ = "lald_rated"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    at: Mapped[float] = mapped_column(Float)


class NameTaken(ValueError):
    """An account with a name of the same lookalike key exists, or had it lately."""


KNOWN_CLIENTS = 20
"""The browsers and the addresses an account is known to log in from: the latest this many
of each."""


@dataclasses.dataclass(frozen=True)
class Account:
    """One account as stored."""

    id: int
    name: str
    skeleton: str
    password: str
    created: float
    share_name: bool = False
    """Whether its name may be given in the site's public dataset of finished games."""


@dataclasses.dataclass(frozen=True)
class RatingRow:
    """An account's rating in one reading."""

    account: int
    name: str
    reading: str
    mu: float
    sigma: float
    games: int


def chat_insert(line: NewChat) -> Executable:
    """The statement that stores one chat line (the store's writer runs it in its batch)."""
    return insert(_Chat).values(table_id=line.table_id, deal=line.deal, after=line.after, seat=line.seat,
                                name=line.name, account_id=line.account, kind=line.kind, text=line.text,
                                at=line.at)


def chat_rows(conn: Connection, table_ids: Iterable[str]) -> list[NewChat]:
    """Every chat line of these tables, in the order said."""
    return [NewChat(c.table_id, c.deal, c.after, c.seat, c.name, c.account_id, c.kind, c.text, c.at)
            for c in conn.execute(select(_Chat).where(_Chat.table_id.in_(list(table_ids)))
                                  .order_by(_Chat.id))]


def _account(row: Any) -> Account:
    return Account(row.id, row.name, row.skeleton, row.password, row.created, bool(row.share_name))


class Accounts:
    """Accounts, sessions, chat lines and ratings in ``store``'s database."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    # -- accounts -----------------------------------------------------------------------

    def create(self, name: str, skeleton: str, password: str, now: float) -> Account:
        """A new account; raise :class:`NameTaken` if its lookalike key is taken or held."""
        try:
            with self.engine.begin() as conn:
                held = conn.execute(select(_NameHold.until).where(_NameHold.skeleton == skeleton)).first()
                if held is not None and held.until > now:
                    raise NameTaken(name)
                conn.execute(delete(_NameHold).where(_NameHold.skeleton == skeleton))
                new = conn.execute(insert(_Account).values(name=name, skeleton=skeleton, password=password,
                                                           created=now)).inserted_primary_key
        except IntegrityError:
            raise NameTaken(name) from None
        assert new is not None
        return Account(int(new[0]), name, skeleton, password, now)

    def by_skeleton(self, skeleton: str) -> Account | None:
        """The account whose name has this lookalike key."""
        with self.engine.connect() as conn:
            row = conn.execute(select(_Account).where(_Account.skeleton == skeleton)).first()
        return None if row is None else _account(row)

    def by_id(self, account: int) -> Account | None:
        """The account with this id."""
        with self.engine.connect() as conn:
            row = conn.execute(select(_Account).where(_Account.id == account)).first()
        return None if row is None else _account(row)

    def skeletons(self, skeletons: Iterable[str], now: float | None = None) -> set[str]:
        """Which of these lookalike keys are accounts' names, or deleted accounts' names
        still held at ``now``."""
        wanted = list(set(skeletons))
        if not wanted:
            return set()
        now = time.time() if now is None else now
        with self.engine.connect() as conn:
            names = set(conn.execute(select(_Account.skeleton).where(
                _Account.skeleton.in_(wanted))).scalars())
            return names | set(conn.execute(select(_NameHold.skeleton).where(
                _NameHold.skeleton.in_(wanted), _NameHold.until > now)).scalars())

    def set_share_name(self, account: int, share: bool) -> None:
        """Whether the account's name may be given in the site's public dataset of
        finished games (its owner's choice; off until they make it)."""
        with self.engine.begin() as conn:
            conn.execute(update(_Account).where(_Account.id == account).values(share_name=share))

    def shared_names(self, accounts: Iterable[int]) -> dict[int, str]:
        """The names of those of these accounts whose owners agreed to be named in the
        public dataset of finished games."""
        ids = list(set(accounts))
        if not ids:
            return {}
        with self.engine.connect() as conn:
            return {r.id: r.name for r in conn.execute(select(_Account.id, _Account.name).where(
                _Account.id.in_(ids), _Account.share_name.is_(True)))}

    def set_password(self, account: int, password: str, keep_session: str | None) -> None:
        """A new password hash; every session of the account but ``keep_session`` ends."""
        with self.engine.begin() as conn:
            conn.execute(update(_Account).where(_Account.id == account).values(password=password))
            query = delete(_Session).where(_Session.account_id == account)
            if keep_session is not None:
                query = query.where(_Session.id != keep_session)
            conn.execute(query)

    def delete(self, account: int, hold_until: float = 0.0) -> None:
        """Delete the account, its sessions, its ratings and its chat lines; its seats
        keep their records, under "deleted player" (their name and account are erased).
        Its name's lookalike key is held from everyone until ``hold_until``."""
        with self.engine.begin() as conn:
            key = conn.execute(select(_Account.skeleton).where(_Account.id == account)).scalar()
            if key is not None and hold_until:
                conn.execute(delete(_NameHold).where(_NameHold.skeleton == key))
                conn.execute(insert(_NameHold).values(skeleton=key, until=hold_until))
            conn.execute(delete(_KnownClient).where(_KnownClient.account_id == account))
            conn.execute(update(_Seat).where(_Seat.account == account).values(
                account=None, name=None, erased=True))
            conn.execute(delete(_Chat).where(_Chat.account_id == account))
            conn.execute(delete(_Session).where(_Session.account_id == account))
            conn.execute(delete(_Rating).where(_Rating.account_id == account))
            conn.execute(delete(_RatingEvent).where(_RatingEvent.account_id == account))
            conn.execute(delete(_Account).where(_Account.id == account))

    def data(self, account: int) -> dict[str, Any]:
        """Everything stored about an account, as JSON-able values (no hash, no token)."""
        with self.engine.connect() as conn:
            acc = conn.execute(select(_Account).where(_Account.id == account)).first()
            if acc is None:
                return {}
            sessions = [{"created": s.created, "last_used": s.seen_at} for s in conn.execute(
                select(_Session).where(_Session.account_id == account).order_by(_Session.created))]
            seats = conn.execute(select(_Seat.table_id, _Seat.seat, _Seat.name, _Table.created, _Table.config,
                                        _Table.status)
                                 .join(_Table, _Table.id == _Seat.table_id)
                                 .where(_Seat.account == account).order_by(_Table.created)).all()
            tables = []
            for row in seats:
                actions = [json.loads(a) for (a,) in conn.execute(
                    select(_Action.action).where(_Action.table_id == row.table_id)
                    .order_by(_Action.deal, _Action.seq))]
                tables.append({"table": row.table_id, "seat": row.seat, "name": row.name,
                               "created": row.created, "rules": json.loads(row.config).get("rules"),
                               "status": row.status,
                               "own_actions": [a for a in actions if a.get("seat") == row.seat]})
            chat = [{"table": c.table_id, "deal": c.deal, "kind": c.kind, "text": c.text, "at": c.at}
                    for c in conn.execute(select(_Chat).where(_Chat.account_id == account)
                                          .order_by(_Chat.id))]
            ratings = [{"reading": r.reading, "mu": r.mu, "sigma": r.sigma, "games": r.games,
                        "updated": r.updated}
                       for r in conn.execute(select(_Rating).where(_Rating.account_id == account))]
            history = [{"reading": e.reading, "table": e.table_id, "rank": e.rank, "players": e.players,
                        "mu": e.mu, "sigma": e.sigma, "at": e.at}
                       for e in conn.execute(select(_RatingEvent).where(_RatingEvent.account_id == account)
                                             .order_by(_RatingEvent.id))]
            known = [{"kind": k.kind, "first": k.created, "last": k.seen_at} for k in conn.execute(
                select(_KnownClient).where(_KnownClient.account_id == account)
                .order_by(_KnownClient.created))]
        return {"account": {"name": acc.name, "created": acc.created, "failed_logins": acc.failed_logins,
                            "share_name": bool(acc.share_name)},
                "sessions": sessions, "known_clients": known, "tables": tables, "chat": chat,
                "ratings": ratings,
                "rating_history": history}

    # -- logging in ---------------------------------------------------------------------

    def knows(self, account: int, digests: Iterable[str]) -> bool:
        """Whether the account has logged in from one of these clients (a device cookie's
        digest, an address's: :meth:`logged_in`)."""
        wanted = [d for d in digests if d]
        if not wanted:
            return False
        with self.engine.connect() as conn:
            return conn.execute(select(_KnownClient.digest).where(
                _KnownClient.account_id == account, _KnownClient.digest.in_(wanted))).first() is not None

    def login_failed(self, account: int) -> None:
        """A wrong password was given for the account."""
        with self.engine.begin() as conn:
            conn.execute(update(_Account).where(_Account.id == account).values(
                failed_logins=_Account.failed_logins + 1))

    def logged_in(self, account: int, clients: dict[str, str], now: float) -> int:
        """The account logged in from these clients (kind: digest), which it is now known
        by (the latest :data:`KNOWN_CLIENTS` of each kind kept): the wrong passwords given
        for it since its last login, counted from zero again."""
        with self.engine.begin() as conn:
            failed = conn.execute(select(_Account.failed_logins).where(_Account.id == account)).scalar() or 0
            if failed:
                conn.execute(update(_Account).where(_Account.id == account).values(failed_logins=0))
            for kind, digest in clients.items():
                where = (_KnownClient.account_id == account, _KnownClient.digest == digest)
                if conn.execute(update(_KnownClient).where(*where).values(seen_at=now)).rowcount == 0:
                    conn.execute(insert(_KnownClient).values(account_id=account, digest=digest, kind=kind,
                                                             created=now, seen_at=now))
                old = select(_KnownClient.digest).where(
                    _KnownClient.account_id == account, _KnownClient.kind == kind).order_by(
                    _KnownClient.seen_at.desc()).offset(KNOWN_CLIENTS)
                stale = list(conn.execute(old).scalars())
                if stale:
                    conn.execute(delete(_KnownClient).where(_KnownClient.account_id == account,
                                                            _KnownClient.digest.in_(stale)))
        return int(failed)

    def wrong_password(self, digest: str) -> int:
        """A wrong password given through a session: how many it has given now."""
        with self.engine.begin() as conn:
            conn.execute(update(_Session).where(_Session.id == digest).values(
                wrong_passwords=_Session.wrong_passwords + 1))
            found = conn.execute(select(_Session.wrong_passwords).where(_Session.id == digest)).scalar()
            return int(found or 0)

    # -- sessions -----------------------------------------------------------------------

    def add_session(self, digest: str, account: int, csrf: str, now: float) -> None:
        """A new session (its cookie's digest) of ``account``."""
        with self.engine.begin() as conn:
            conn.execute(insert(_Session).values(id=digest, account_id=account, csrf=csrf, created=now,
                                                 seen_at=now))

    def session(self, digest: str, now: float, idle: float) -> tuple[Account, str] | None:
        """The account and CSRF token of the session with this digest, if it has been used
        within ``idle`` seconds (then it is marked used now); an older one is ended."""
        with self.engine.begin() as conn:
            session = conn.execute(select(_Session).where(_Session.id == digest)).first()
            if session is None:
                return None
            if now - session.seen_at > idle:
                conn.execute(delete(_Session).where(_Session.id == digest))
                return None
            acc = conn.execute(select(_Account).where(_Account.id == session.account_id)).first()
            if acc is None:
                return None
            if now - session.seen_at > 60:  # not a write per request
                conn.execute(update(_Session).where(_Session.id == digest).values(seen_at=now))
            return _account(acc), session.csrf

    def end_session(self, digest: str) -> None:
        """End one session."""
        with self.engine.begin() as conn:
            conn.execute(delete(_Session).where(_Session.id == digest))

    def sessions_of(self, account: int) -> list[str]:
        """The digests of an account's sessions."""
        with self.engine.connect() as conn:
            return list(conn.execute(select(_Session.id).where(_Session.account_id == account)).scalars())

    # -- chat ---------------------------------------------------------------------------

    def chat(self, table_ids: Iterable[str]) -> dict[str, list[NewChat]]:
        """Every chat line of these tables, in the order said."""
        ids = list(table_ids)
        out: dict[str, list[NewChat]] = {t: [] for t in ids}
        if ids:
            with self.engine.connect() as conn:
                for line in chat_rows(conn, ids):
                    out[line.table_id].append(line)
        return out

    # -- ratings ------------------------------------------------------------------------

    def ratings(self, accounts: Iterable[int], reading: str) -> dict[int, tuple[float, float, int]]:
        """``(mu, sigma, games)`` of each of these accounts that has a rating in ``reading``."""
        ids = list(accounts)
        if not ids:
            return {}
        with self.engine.connect() as conn:
            return {r.account_id: (r.mu, r.sigma, r.games) for r in conn.execute(
                select(_Rating).where(_Rating.account_id.in_(ids), _Rating.reading == reading))}

    def rated(self, table_id: str) -> bool:
        """Whether a table's ratings are applied."""
        with self.engine.connect() as conn:
            found = conn.execute(select(_Rated.table_id).where(_Rated.table_id == table_id)).first()
        return found is not None

    def apply_ratings(self, table_id: str, reading: str, players: int,
                      updates: dict[int, tuple[float, float, int]], now: float | None = None) -> bool:
        """Store a rated session's new ratings (account: mu, sigma, rank), once per table:
        False (nothing written) if this table's ratings were applied already."""
        now = time.time() if now is None else now
        with self.engine.begin() as conn:
            if conn.execute(select(_Rated.table_id).where(_Rated.table_id == table_id)).first() is not None:
                return False
            conn.execute(insert(_Rated).values(table_id=table_id, at=now))
            known = {r.account_id: r.games for r in conn.execute(
                select(_Rating).where(_Rating.account_id.in_(list(updates)), _Rating.reading == reading))}
            existing = set(conn.execute(select(_Account.id).where(_Account.id.in_(list(updates)))).scalars())
            for account, (mu, sigma, rank) in updates.items():
                if account not in existing:  # deleted since the session: nothing of theirs is kept
                    continue
                row = {"mu": mu, "sigma": sigma, "updated": now}
                if account in known:
                    conn.execute(update(_Rating).values(games=known[account] + 1, **row).where(
                        _Rating.account_id == account, _Rating.reading == reading))
                else:
                    conn.execute(insert(_Rating).values(account_id=account, reading=reading, games=1, **row))
                conn.execute(insert(_RatingEvent).values(
                    account_id=account, reading=reading, table_id=table_id, rank=rank, players=players,
                    mu=mu, sigma=sigma, at=now))
        return True

    def readings(self) -> list[str]:
        """The readings in which some account has a rating."""
        with self.engine.connect() as conn:
            return sorted(conn.execute(select(_Rating.reading).distinct()).scalars())

    def unrated_tables(self) -> list[str]:
        """The finished rated tables whose ratings are not applied."""
        with self.engine.connect() as conn:
            rated = select(_Rated.table_id)
            return list(conn.execute(select(_Table.id).where(
                _Table.status == "over", _Table.config.like('%"rated": true%'),
                _Table.id.not_in(rated))).scalars())

    def leaderboard(self, reading: str, limit: int = 100) -> list[RatingRow]:
        """The best ``limit`` ratings of ``reading`` by their ordinal (mu - 3 sigma)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(_Rating.account_id, _Rating.reading, _Rating.mu, _Rating.sigma,
                                       _Rating.games, _Account.name)
                                .join(_Account, _Account.id == _Rating.account_id)
                                .where(_Rating.reading == reading)
                                .order_by((_Rating.mu - 3 * _Rating.sigma).desc(), _Account.name)
                                .limit(limit)).all()
        return [RatingRow(r.account_id, r.name, r.reading, r.mu, r.sigma, r.games) for r in rows]

    def profile(self, account: int) -> dict[str, Any]:
        """An account's ratings, rating history and tables (public: what a profile shows)."""
        with self.engine.connect() as conn:
            ratings = [{"reading": r.reading, "mu": r.mu, "sigma": r.sigma, "games": r.games}
                       for r in conn.execute(select(_Rating).where(_Rating.account_id == account)
                                             .order_by(_Rating.reading))]
            history = [{"reading": e.reading, "table": e.table_id, "rank": e.rank, "players": e.players,
                        "mu": e.mu, "sigma": e.sigma, "at": e.at}
                       for e in conn.execute(select(_RatingEvent).where(_RatingEvent.account_id == account)
                                             .order_by(_RatingEvent.id))]
            tables = [{"table": r.table_id, "seat": r.seat, "deals": r.deals_started, "status": r.status,
                       "created": r.created, "rules": json.loads(r.config).get("rules"),
                       "rated": bool(json.loads(r.config).get("rated"))}
                      for r in conn.execute(select(_Seat.table_id, _Seat.seat, _Table.deals_started,
                                                   _Table.status, _Table.created, _Table.config)
                                            .join(_Table, _Table.id == _Seat.table_id)
                                            .where(_Seat.account == account)
                                            .order_by(_Table.created.desc()).limit(200)).all()]
        return {"ratings": ratings, "history": history, "tables": tables}

    def open_seats(self, account: int) -> list[dict[str, Any]]:
        """The seats ``account`` plays at tables not yet over or closed, newest first: each
        table's id, the seat, the table's status, title, rules and deals begun (no token,
        no card: what a list of one's own tables shows)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(_Seat.table_id, _Seat.seat, _Table.status, _Table.created,
                                       _Table.deals_started, _Table.config)
                                .join(_Table, _Table.id == _Seat.table_id)
                                .where(_Seat.account == account, _Seat.human.is_(True),
                                       _Table.status.in_(("waiting", "playing")))
                                .order_by(_Table.created.desc()).limit(50)).all()
        out = []
        for r in rows:
            config = json.loads(r.config)
            out.append({"table": r.table_id, "seat": r.seat, "status": r.status, "created": r.created,
                        "deals": r.deals_started, "rules": config.get("rules"), "title": config.get("title"),
                        "rated": bool(config.get("rated"))})
        return out
