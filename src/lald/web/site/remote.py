"""What a server knows of the others' tables and how its lobby reaches theirs: another
server's table as its events tell it (:class:`RemoteTable`, from :func:`table_event`), and
the lobby's channel over the servers' events (:class:`SiteChannel`).
"""

from __future__ import annotations

from typing import Any

from ...store import SeatData
from ..people.lobby import LocalChannel, Subscription
from ..table.tables import Table
from ..wire import Status
from .events import MAX_PAYLOAD, Channel, encoded


class RemoteTable:
    """Another server's table as its events tell it: enough for the lobby and the host's
    view (:func:`lald.web.people.hub.host_answer`)."""

    def __init__(self, body: dict[str, Any]) -> None:
        self.id: str = body["id"]
        self.created: float = body["created"]
        self.host_hash: str | None = body["host"]
        self._summary: dict[str, Any] = body["summary"]
        self.seats = [SeatData(s["seat"], digest, s["human"], s["level"], s["name"], s["joined"], generation)
                      for s, (generation, digest) in zip(self._summary["seats"], body["seats"], strict=True)]

    def summary(self) -> dict[str, Any]:
        """The table's summary, as its server last told it."""
        return self._summary

    @property
    def open_seats(self) -> frozenset[int]:
        """The seats open to strangers from the lobby."""
        return frozenset(s["seat"] for s in self._summary["seats"] if s.get("open"))

    def online(self, seat: int) -> bool:
        """Whether a page was connected on ``seat`` (at its server, as last told)."""
        return bool(self._summary["seats"][seat]["online"])

    @property
    def open(self) -> bool:
        """Whether the table is still to be played."""
        return Status(self._summary["status"]).open


def table_event(table: Table) -> dict[str, Any]:
    """What the other servers are told of ``table`` (the ``table`` event), which they read
    as a :class:`RemoteTable`: its summary, its host's hash, its seats' generations and
    tokens' hashes."""
    return {"id": table.id, "created": table.created, "host": table.host_hash,
            "summary": table.summary(), "seats": [[s.generation, s.token_hash] for s in table.seats]}


class SiteChannel:
    """The lobby's channel (:class:`lald.web.people.lobby.Channel`) over the servers' events: a
    message published here is delivered to this server's lobby pages at once and sent to
    the other servers, which deliver it to theirs; so every lobby page lists every
    server's public tables, live. A message too long for one event is sent a row at a time."""

    KIND = "lobby"

    def __init__(self, events: Channel) -> None:
        self.local = LocalChannel()
        self.events = events
        events.on(self.KIND, self._heard)

    def publish(self, topic: str, message: Any) -> None:
        """Deliver ``message`` here and send it to the other servers."""
        self.local.publish(topic, message)
        for part in self.parts(topic, message):
            self.events.publish(self.KIND, {"topic": topic, "message": part})

    def parts(self, topic: str, message: dict[str, Any]) -> list[dict[str, Any]]:
        """``message`` as events of the channel's size: whole if it fits in one, else its
        rows (``put``) and the ids it drops (``drop``) packed in order into as few parts as
        fit, each with the message's other fields."""
        if len(self.events.payload(self.KIND, {"topic": topic, "message": message})) <= MAX_PAYLOAD:
            return [message]
        rest = {k: v for k, v in message.items() if k not in ("put", "drop")}

        def fresh() -> dict[str, Any]:
            return rest | {"put": [], "drop": []}
        room = MAX_PAYLOAD - len(self.events.payload(self.KIND, {"topic": topic, "message": fresh()}))
        parts: list[dict[str, Any]] = []
        part, used = fresh(), 0
        for key in ("put", "drop"):
            for item in message.get(key, ()):
                size = len(encoded(item)) + 1  # and the comma before it
                if used + size > room and (part["put"] or part["drop"]):
                    parts.append(part)
                    part, used = fresh(), 0
                part[key].append(item)
                used += size
        if part["put"] or part["drop"]:
            parts.append(part)
        return parts

    def subscribe(self, topic: str) -> Subscription:
        """A subscriber of ``topic`` on this server."""
        return self.local.subscribe(topic)

    def _heard(self, sender: str, body: dict[str, Any]) -> None:
        topic, message = body.get("topic"), body.get("message")
        if isinstance(topic, str) and isinstance(message, dict):
            self.local.publish(topic, message)
