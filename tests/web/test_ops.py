"""Operations of one server: /healthz, /readyz and /metrics; logs as JSON lines with every
token redacted; fail points read from the environment; nginx's configuration."""

from __future__ import annotations

import json
import logging
import sys

from starlette.testclient import TestClient

from lald.store import NewAction
from lald.web import ops
from lald.web.site.proxy import nginx_site, nginx_standalone

from .conftest import create


def test_health_ready_and_metrics_of_one_server(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ready"}
    create(client, [False] * 5)
    text = client.get("/metrics").text
    assert 'lald_tables{state="open"}' in text and "lald_connections" in text
    assert "lald_db_commit_seconds_count" in text


def test_metrics_count_actions_and_their_latency() -> None:
    class Hub:
        tables: dict[str, object] = {}

    metrics = ops.Metrics(Hub())
    metrics.observe([NewAction("t", 0, 0, {}, "human", 1.0), NewAction("t", 0, 1, {}, "bot", 0.0)], 0.004)
    text = metrics.text().decode()
    assert 'lald_actions_total{source="human"} 1.0' in text and 'lald_actions_total{source="bot"} 1.0' in text
    assert "lald_action_seconds_count 1.0" in text  # the bot's action had no acceptance time
    assert "lald_db_commit_seconds_count 1.0" in text


def test_json_logs_redact_tokens() -> None:
    token = "Zx9_" + "a" * 28
    record = logging.LogRecord("lald.web", logging.WARNING, __file__, 1, "seat %s joined table %s",
                               (token, "t1"), None)
    record.event = {"token": token, "tables": 3}
    line = ops.JsonFormatter("w1").format(record)
    event = json.loads(line)
    assert token not in line and event["message"] == "seat [redacted] joined table t1"
    assert event["worker"] == "w1" and event["level"] == "warning" and event["tables"] == 3
    try:
        raise ValueError(f"bad {token}")
    except ValueError:
        record = logging.LogRecord("lald.web", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    assert token not in ops.JsonFormatter().format(record)
    assert ops.redact("a short-word and table_id-12 stay") == "a short-word and table_id-12 stay"


def test_fail_points_are_read_from_the_environment() -> None:
    assert ops._read_points("after_commit:3, bot_move") == {"after_commit": 3, "bot_move": 1}
    assert ops._read_points("") == {}
    ops.failpoint("nowhere")  # not set: nothing happens


def test_nginx_configuration_routes_tables_to_their_holder() -> None:
    site = nginx_site([("w1", "127.0.0.1:8001"), ("w2", "127.0.0.1:8002")], "8000")
    assert "upstream lald_w1 {\n    server 127.0.0.1:8001" in site and "least_conn;" in site
    assert "auth_request /_lald_route;" in site and "proxy_pass http://lald_$lald_route;" in site
    assert "location ^~ /_lald/ { return 404; }" in site
    whole = nginx_standalone([("w1", "127.0.0.1:8001")], "127.0.0.1:8000", "/tmp/x")
    assert whole.startswith("daemon off;") and "pid /tmp/x/nginx.pid;" in whole
