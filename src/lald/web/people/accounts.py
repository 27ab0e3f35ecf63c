"""Accounts, optional: a name (:mod:`.names`) and a password, and a session in a cookie.

Anyone plays without an account. An account is needed for rated tables and keeps a rating
and a profile (:mod:`.ratings`).

- **Passwords** are hashed with argon2id (argon2-cffi's :class:`~argon2.PasswordHasher`,
  its defaults: RFC 9106's low-memory profile), in a worker thread, at most
  :data:`HASHING_AT_ONCE` at a time; the database keeps only the hash.
- **Sessions**: logging in (or registering) makes a new session, 256 random bits in the
  cookie ``lald_session`` (``HttpOnly``, ``SameSite=Strict``, ``Secure`` when the request
  came over HTTPS, ``Path=/``), of which the database keeps only the SHA-256 digest. A
  session unused for :attr:`Settings.session_days` ends; logging out ends it; changing the
  password ends every other session of the account and gives this one a new cookie.
  A cookie the server did not make is never taken (a session is made only at login), so
  no one can fix a victim's session in advance.
- **CSRF**: every session has its token (random, kept beside it; ``GET /api/session``
  gives it to the page); every request but GET, HEAD and OPTIONS that carries a live
  session's cookie must carry it in ``X-CSRF-Token``, or it is refused (403, ``csrf``)
  before anything is done: the :class:`SessionGuard` in front of the whole application. A
  cookie of no live session carries no authority and is ignored (so logging in again
  works). (Requests without the cookie
  borrow no one's authority; the guard of :mod:`lald.web.server.app` refuses other sites' pages and any
  body but JSON besides.)
- **Logging in** answers the same (401, ``login``) for a name no account has and for a
  wrong password, after the same work (a wrong name is checked against a dummy hash).
  Failures are limited per address and per name (its lookalike key, whether an account
  has it or not): :class:`LoginLimits`, 429 ``login_limit`` with ``Retry-After``. The
  per-name limit backs off rather than locks, and holds back only clients the account has
  not logged in from: a login gives the browser a device cookie (``lald_device``, a year,
  sent only to ``/api/account/``), and the account keeps the digests of the latest browsers
  and addresses it logged in from, so a stranger's guesses never keep its owner out. The
  owner is told at their next login how many wrong passwords were given
  (``failed_logins`` in the answer).
- **A password given through a session** (changing it, deleting the account) counts like
  a login: a wrong one against the address's limit and as a failed login of the account,
  and the session's :data:`WRONG_PASSWORDS`-th wrong one ends the session (401,
  ``password_logged_out``).
- **Your data**: ``GET /api/account/data`` is everything kept about the account, as JSON;
  ``POST /api/account/delete`` (with the password) deletes the account, its sessions,
  ratings and chat lines; its seats keep their records, under "deleted player"; its name
  is held from everyone for :data:`NAME_HELD_DAYS` days.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import math
import secrets
import time
from collections.abc import Callable
from http.cookies import SimpleCookie
from typing import TYPE_CHECKING, Any

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from ...store import token_hash
from ...store.accounts import Account, Accounts, NameTaken
from ..endpoint import refuse
from ..settings import Buckets
from .names import NameRefused, check_name

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

COOKIE = "lald_session"
"""The session cookie's name."""
DEVICE_COOKIE = "lald_device"
"""The cookie that tells a browser an account has logged in from before (random, a year)."""
WRONG_PASSWORDS = 5
"""Wrong passwords a session may give (changing the password, deleting the account) before
it is ended."""
NAME_HELD_DAYS = 90
"""How long a deleted account's name is kept from everyone."""
CSRF_HEADER = "x-csrf-token"
HASHING_AT_ONCE = 2
"""Password hashes being made at once in the whole server (each takes 64 MiB for a moment)."""
SHORTEST_PASSWORD = 8
LONGEST_PASSWORD = 256
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class AccountError(ValueError):
    """A request about an account refused: ``status``, ``code``, and the words."""

    def __init__(self, status: int, message: str, code: str, values: dict[str, Any] | None = None,
                 retry: float | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.values = status, code, values or {}
        self.retry = retry
        """Seconds after which to try again (a 429's ``Retry-After``)."""


@dataclasses.dataclass(frozen=True)
class LoggedIn:
    """A login that succeeded: the account, the wrong passwords given for it since its last
    login (None: it was just made), and the device cookie to give the browser."""

    account: Account
    failed: int | None
    device: str


class Passwords:
    """argon2id hashes, made and checked in worker threads, a few at a time."""

    def __init__(self, time_cost: int | None = None, memory_cost: int | None = None) -> None:
        from argon2 import PasswordHasher

        defaults = PasswordHasher()
        self.hasher = PasswordHasher(time_cost=time_cost or defaults.time_cost,
                                     memory_cost=memory_cost or defaults.memory_cost)
        self.dummy = self.hasher.hash(secrets.token_urlsafe(16))
        """A hash no password matches: a wrong name is checked against it (the same work)."""
        self.gate = asyncio.Semaphore(HASHING_AT_ONCE)
        self.verified = 0
        """Checks made (a test counts them)."""

    async def hash(self, password: str) -> str:
        """The argon2id hash of ``password``."""
        async with self.gate:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one of ``stored`` (None: no account; checked against the
        dummy all the same, so both take as long)."""
        from argon2.exceptions import InvalidHashError, VerificationError

        def check() -> bool:
            try:
                return bool(self.hasher.verify(stored or self.dummy, password)) and stored is not None
            except (VerificationError, InvalidHashError):
                return False

        async with self.gate:
            self.verified += 1
            return await asyncio.to_thread(check)


class LoginLimits:
    """Failed logins, limited per client address (a token bucket: ten, then one a minute)
    and per name (its lookalike key, whether an account has it or not): a back-off, not a
    lock. After :attr:`free` failures at a name, each try waits twice as long as the last
    (2 s, 4 s... at most :attr:`longest`) after the latest failure, and an hour without one
    forgets them. A client the account has logged in from before (:meth:`Sessions.login`)
    is not held back by its name's failures, so no stranger can lock its owner out."""

    def __init__(self, per_address: tuple[float, float] = (1 / 60, 10.0), free: int = 5,
                 longest: float = 300.0, forget: float = 3600.0, size: int = 10_000) -> None:
        self.addresses = Buckets(*per_address)
        self.free, self.longest, self.forget, self.size = free, longest, forget, size
        self.names: collections.OrderedDict[str, tuple[int, float]] = collections.OrderedDict()

    def name_wait(self, key: str, now: float) -> float:
        """Seconds before a name's next login may be tried (0: now)."""
        failures, last = self.names.get(key, (0, 0.0))
        if failures < self.free or now - last > self.forget:
            return 0.0
        return max(0.0, last + min(self.longest, 2.0 ** (failures - self.free + 1)) - now)

    def wait(self, address: str, key: str, now: float, trusted: bool = False) -> float:
        """Seconds before a login at ``key`` from ``address`` may be tried (counting
        nothing); a ``trusted`` client waits for its address's limit only."""
        return max(self.addresses.wait(address, now), 0.0 if trusted else self.name_wait(key, now))

    def failed(self, address: str, key: str, now: float) -> None:
        """A login failed: it counts against the address and the name."""
        self.addresses.take(address, now)
        failures, last = self.names.pop(key, (0, 0.0))
        if now - last > self.forget:
            failures = 0
        self.names[key] = (failures + 1, now)
        while len(self.names) > self.size:
            self.names.popitem(last=False)


def _text(raw: Any) -> str | None:
    """``raw`` if it is text that UTF-8 can hold (no lone surrogate), else None."""
    if not isinstance(raw, str):
        return None
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return raw


def _password(raw: Any) -> str:
    text = _text(raw)
    if text is None or not SHORTEST_PASSWORD <= len(text) <= LONGEST_PASSWORD:
        raise AccountError(400, f"a password is {SHORTEST_PASSWORD} to {LONGEST_PASSWORD} characters",
                           "password_rules")
    return text


def _device(raw: str | None) -> str | None:
    """A device cookie as a browser sent it, if it can be one of ours."""
    return raw if raw and 20 <= len(raw) <= 64 and raw.isascii() else None


class Sessions:
    """Accounts and their sessions for the web service; ``clock`` is the wall clock (seconds)."""

    def __init__(self, accounts: Accounts, session_days: float = 30.0, time_cost: int | None = None,
                 memory_cost: int | None = None, clock: Callable[[], float] = time.time) -> None:
        self.accounts = accounts
        self.idle = session_days * 86400
        self.passwords = Passwords(time_cost, memory_cost)
        self.limits = LoginLimits()
        self.registrations = Buckets(10 / 3600, 5.0)
        self.clock = clock

    async def current(self, request: Request) -> Account | None:
        """The request's logged-in account, if its cookie is a live session."""
        found = await self.session_of(request.cookies.get(COOKIE))
        return None if found is None else found[0]

    async def session_of(self, cookie: str | None) -> tuple[Account, str] | None:
        """The account and CSRF token of a session cookie."""
        if not cookie or len(cookie) > 128:
            return None
        return await asyncio.to_thread(self.accounts.session, token_hash(cookie), self.clock(), self.idle)

    async def start(self, account: Account) -> tuple[str, str]:
        """A new session of ``account``: its cookie and its CSRF token."""
        cookie, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        await asyncio.to_thread(self.accounts.add_session, token_hash(cookie), account.id, csrf, self.clock())
        return cookie, csrf

    async def register(self, body: dict[str, Any], address: str, device: str | None = None) -> LoggedIn:
        """A new account, logged in from this client; raise :class:`AccountError`."""
        try:
            name, key = check_name(body.get("name"))
        except NameRefused as e:
            raise AccountError(400, str(e), e.code, e.values) from None
        password = _password(body.get("password"))
        if password.casefold() == name.casefold():
            raise AccountError(400, "a password is not the name", "password_rules")
        now = self.clock()
        if not self.registrations.ready(address, now):
            raise AccountError(429, "too many accounts made from your address: try again later",
                               "register_limit", retry=300)
        digest = await self.passwords.hash(password)
        try:
            account = await asyncio.to_thread(self.accounts.create, name, key, digest, now)
        except NameTaken:
            raise AccountError(409, "this name, or one that looks like it, is taken", "name_taken") from None
        self.registrations.take(address, now)
        return dataclasses.replace(await self._logged_in(account, address, device), failed=None)

    def _clients(self, account: int, address: str, device: str | None) -> dict[str, str]:
        """The digests a client is known by to an account: its device cookie, its address."""
        clients = {"address": token_hash(f"{account} {address}")}
        if device is not None:
            clients["device"] = token_hash(device)
        return clients

    async def _logged_in(self, account: Account, address: str, device: str | None) -> LoggedIn:
        device = device or secrets.token_urlsafe(32)
        failed = await asyncio.to_thread(self.accounts.logged_in, account.id,
                                         self._clients(account.id, address, device), self.clock())
        return LoggedIn(account, failed, device)

    async def login(self, body: dict[str, Any], address: str, device: str | None = None) -> LoggedIn:
        """The account whose name and password these are; raise :class:`AccountError`: the
        same refusal for a name no account has and for a wrong password. ``device`` is the
        browser's device cookie, if it sent one."""
        raw, password = _text(body.get("name")), _text(body.get("password"))
        if raw is None or password is None or len(raw) > 200 or len(password) > LONGEST_PASSWORD:
            raise AccountError(400, "give 'name' and 'password'", "login_fields")
        from .names import lookalike_key

        key, device, now = lookalike_key(raw), _device(device), self.clock()
        account = await asyncio.to_thread(self.accounts.by_skeleton, key)
        trusted = account is not None and await asyncio.to_thread(
            self.accounts.knows, account.id, self._clients(account.id, address, device).values())
        wait = self.limits.wait(address, key, now, trusted)
        if wait > 0:
            raise AccountError(429, f"too many failed logins: try again in {_minutes(wait)} "
                               "(or from a device you have logged in on before)", "login_limit",
                               {"count": _minutes(wait, words=False)}, retry=wait)
        right = await self.passwords.verify(account.password if account else None, password)
        if not right or account is None:
            self.limits.failed(address, key, self.clock())
            if account is not None:
                await asyncio.to_thread(self.accounts.login_failed, account.id)
            raise AccountError(401, "this name and password do not match an account", "login")
        return await self._logged_in(account, address, device)

    async def _check(self, account: Account, cookie: str, address: str, given: Any) -> None:
        """The account's password, given through a live session: a wrong one counts as a
        failed login at the account's name and address, and the session's
        :data:`WRONG_PASSWORDS`-th ends it."""
        now = self.clock()
        wait = self.limits.addresses.wait(address, now)
        if wait > 0:
            raise AccountError(429, f"too many wrong passwords: try again in {_minutes(wait)}",
                               "password_limit", {"count": _minutes(wait, words=False)}, retry=wait)
        if await self.passwords.verify(account.password, _text(given) or ""):
            return
        self.limits.failed(address, account.skeleton, self.clock())
        await asyncio.to_thread(self.accounts.login_failed, account.id)
        wrong = await asyncio.to_thread(self.accounts.wrong_password, token_hash(cookie))
        if wrong >= WRONG_PASSWORDS:
            await asyncio.to_thread(self.accounts.end_session, token_hash(cookie))
            raise AccountError(401, f"{WRONG_PASSWORDS} wrong passwords: you are logged out; log in again",
                               "password_logged_out", {"most": WRONG_PASSWORDS})
        raise AccountError(403, "the password is not right", "password_wrong")

    async def change_password(self, account: Account, cookie: str, body: dict[str, Any],
                              address: str) -> None:
        """A new password (the old one given); every other session ends."""
        await self._check(account, cookie, address, body.get("old"))
        new = _password(body.get("new"))
        digest = await self.passwords.hash(new)
        await asyncio.to_thread(self.accounts.set_password, account.id, digest, token_hash(cookie))

    async def delete(self, account: Account, cookie: str, body: dict[str, Any], address: str) -> None:
        """Delete the account (its password given); its name is held from everyone for
        :data:`NAME_HELD_DAYS` days."""
        await self._check(account, cookie, address, body.get("password"))
        await asyncio.to_thread(self.accounts.delete, account.id, self.clock() + NAME_HELD_DAYS * 86400)


def _minutes(seconds: float, words: bool = True) -> Any:
    """A wait in whole minutes, at least one (``words``: as a phrase)."""
    whole = max(1, math.ceil(seconds / 60))
    if not words:
        return whole
    return "a minute" if whole == 1 else f"{whole} minutes"


def set_cookie(response: Response, request: Request, cookie: str | None, device: str | None = None) -> None:
    """Give the page its session cookie (None: take it away) and, at a login, the browser's
    device cookie."""
    secure = request.url.scheme == "https"
    if cookie is None:
        response.delete_cookie(COOKIE, path="/", secure=secure, httponly=True, samesite="strict")
    else:
        response.set_cookie(COOKIE, cookie, max_age=30 * 86400, path="/", secure=secure, httponly=True,
                            samesite="strict")
    if device is not None:
        response.set_cookie(DEVICE_COOKIE, device, max_age=365 * 86400, path="/api/account/", secure=secure,
                            httponly=True, samesite="strict")


class SessionGuard:
    """Pure ASGI middleware: a request that changes something (not GET, HEAD, OPTIONS) and
    carries the session cookie must carry the session's CSRF token in ``X-CSRF-Token``;
    otherwise 403 (``csrf``), before the application sees it. The account found is put in
    the request's state (``account``, ``session``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        cookie = _cookie(headers.get("cookie", ""))
        if cookie is None:
            await self.app(scope, receive, send)
            return
        sessions: Sessions = scope["app"].state.sessions  # (the session cookie's value below)
        found = await sessions.session_of(cookie)
        if found is None:  # no live session: no one's authority to borrow
            await self.app(scope, receive, send)
            return
        given = headers.get(CSRF_HEADER, "")
        if not secrets.compare_digest(given.encode("utf-8", "replace"), found[1].encode()):
            await refuse(403, "this request lacks the session's CSRF token: reload the page", "csrf")(
                scope, receive, send)
            return
        scope.setdefault("state", {})
        scope["state"]["account"] = found[0]
        scope["state"]["session"] = cookie
        await self.app(scope, receive, send)


def _cookie(header: str) -> str | None:
    if COOKIE not in header:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header)
    except Exception:
        return None
    morsel = jar.get(COOKIE)
    return None if morsel is None else morsel.value
