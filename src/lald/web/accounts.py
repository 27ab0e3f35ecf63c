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
  borrow no one's authority; the guard of :mod:`.app` refuses other sites' pages and any
  body but JSON besides.)
- **Logging in** answers the same (401, ``login``) for a name no account has and for a
  wrong password, after the same work (a wrong name is checked against a dummy hash).
  Failures are limited per address and per name (its lookalike key, whether an account
  has it or not): :class:`LoginLimits`, 429 ``login_limit``.
- **Your data**: ``GET /api/account/data`` is everything kept about the account, as JSON;
  ``POST /api/account/delete`` (with the password) deletes the account, its sessions,
  ratings and chat lines; its seats keep their records, under "deleted player".
"""

from __future__ import annotations

import asyncio
import secrets
import time
from http.cookies import SimpleCookie
from typing import TYPE_CHECKING, Any

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from ..store import token_hash
from ..store.accounts import Account, Accounts, NameTaken
from .names import NameRefused, check_name
from .settings import Buckets

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

COOKIE = "lald_session"
"""The session cookie's name."""
CSRF_HEADER = "x-csrf-token"
HASHING_AT_ONCE = 2
"""Password hashes being made at once in the whole server (each takes 64 MiB for a moment)."""
SHORTEST_PASSWORD = 8
LONGEST_PASSWORD = 256
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class AccountError(ValueError):
    """A request about an account refused: ``status``, ``code``, and the words."""

    def __init__(self, status: int, message: str, code: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


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
    """Failed logins, limited per client address and per name (its lookalike key)."""

    def __init__(self, per_address: tuple[float, float] = (1 / 60, 10.0),
                 per_name: tuple[float, float] = (1 / 300, 5.0)) -> None:
        self.addresses = Buckets(*per_address)
        self.names = Buckets(*per_name)

    def allowed(self, address: str, key: str, now: float | None = None) -> bool:
        """Whether a login may be tried (counting nothing)."""
        return self.addresses.ready(address, now) and self.names.ready(key, now)

    def failed(self, address: str, key: str, now: float | None = None) -> None:
        """A login failed: it counts against the address and the name."""
        self.addresses.take(address, now)
        self.names.take(key, now)


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


class Sessions:
    """Accounts and their sessions for the web service."""

    def __init__(self, accounts: Accounts, session_days: float = 30.0, time_cost: int | None = None,
                 memory_cost: int | None = None) -> None:
        self.accounts = accounts
        self.idle = session_days * 86400
        self.passwords = Passwords(time_cost, memory_cost)
        self.limits = LoginLimits()
        self.registrations = Buckets(10 / 3600, 5.0)

    async def current(self, request: Request) -> Account | None:
        """The request's logged-in account, if its cookie is a live session."""
        found = await self.session_of(request.cookies.get(COOKIE))
        return None if found is None else found[0]

    async def session_of(self, cookie: str | None) -> tuple[Account, str] | None:
        """The account and CSRF token of a session cookie."""
        if not cookie or len(cookie) > 128:
            return None
        return await asyncio.to_thread(self.accounts.session, token_hash(cookie), time.time(), self.idle)

    async def start(self, account: Account) -> tuple[str, str]:
        """A new session of ``account``: its cookie and its CSRF token."""
        cookie, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        await asyncio.to_thread(self.accounts.add_session, token_hash(cookie), account.id, csrf, time.time())
        return cookie, csrf

    async def register(self, body: dict[str, Any], address: str) -> Account:
        """A new account; raise :class:`AccountError`."""
        try:
            name, key = check_name(body.get("name"))
        except NameRefused as e:
            raise AccountError(400, str(e), e.code) from None
        password = _password(body.get("password"))
        if password.casefold() == name.casefold():
            raise AccountError(400, "a password is not the name", "password_rules")
        if not self.registrations.ready(address):
            raise AccountError(429, "too many accounts made from your address: try again later",
                               "register_limit")
        digest = await self.passwords.hash(password)
        try:
            account = await asyncio.to_thread(self.accounts.create, name, key, digest, time.time())
        except NameTaken:
            raise AccountError(409, "this name, or one that looks like it, is taken", "name_taken") from None
        self.registrations.take(address)
        return account

    async def login(self, body: dict[str, Any], address: str) -> Account:
        """The account whose name and password these are; raise :class:`AccountError`: the
        same refusal for a name no account has and for a wrong password."""
        raw, password = _text(body.get("name")), _text(body.get("password"))
        if raw is None or password is None or len(raw) > 200 or len(password) > LONGEST_PASSWORD:
            raise AccountError(400, "give 'name' and 'password'", "login_fields")
        from .names import lookalike_key

        key = lookalike_key(raw)
        if not self.limits.allowed(address, key):
            raise AccountError(429, "too many failed logins: try again in a few minutes", "login_limit")
        account = await asyncio.to_thread(self.accounts.by_skeleton, key)
        right = await self.passwords.verify(account.password if account else None, password)
        if not right or account is None:
            self.limits.failed(address, key)
            raise AccountError(401, "this name and password do not match an account", "login")
        return account

    async def change_password(self, account: Account, cookie: str, body: dict[str, Any]) -> None:
        """A new password (the old one given); every other session ends."""
        if not await self.passwords.verify(account.password, _text(body.get("old")) or ""):
            raise AccountError(403, "the old password is not right", "password_wrong")
        new = _password(body.get("new"))
        digest = await self.passwords.hash(new)
        await asyncio.to_thread(self.accounts.set_password, account.id, digest, token_hash(cookie))

    async def delete(self, account: Account, body: dict[str, Any]) -> None:
        """Delete the account (its password given)."""
        if not await self.passwords.verify(account.password, _text(body.get("password")) or ""):
            raise AccountError(403, "the password is not right", "password_wrong")
        await asyncio.to_thread(self.accounts.delete, account.id)


def set_cookie(response: Response, request: Request, cookie: str | None) -> None:
    """Give the page its session cookie (None: take it away)."""
    secure = request.url.scheme == "https"
    if cookie is None:
        response.delete_cookie(COOKIE, path="/", secure=secure, httponly=True, samesite="strict")
    else:
        response.set_cookie(COOKIE, cookie, max_age=30 * 86400, path="/", secure=secure, httponly=True,
                            samesite="strict")


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
            from .http import refuse

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
