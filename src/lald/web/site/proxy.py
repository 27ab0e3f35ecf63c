"""The proxy in front of several servers: nginx's configuration, as lald writes it
(``lald serve --print-proxy-config``; ``lald serve --workers N`` runs nginx with it).

Every request that names a table (``/ws/{id}``, ``/api/tables/{id}/...``) goes to the
server that holds the table: nginx asks a server first (``auth_request`` to
``/_lald/route``, :meth:`lald.web.site.cluster.Cluster.route`), which answers with the holder's name in
``X-Lald-Route``; nginx then passes the request (a websocket too) to the upstream of that
name, ``lald_NAME``. Logins and seats taken (``/api/account/...``, ``/api/sit``) go to the
server the client's address hashes to, so that the limits each server keeps per address
count all of that address's attempts. Any other request goes to the server with the
fewest open connections (``least_conn``), which is where a new table is made. A server that answers
503 (it is stopping) is passed over for the next. ``/_lald/`` and ``/metrics`` are not
served to the outside: scrape each server's own ``/metrics``.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["nginx_site", "nginx_standalone"]


def nginx_site(servers: Sequence[tuple[str, str]], listen: str) -> str:
    """The ``http`` part of nginx's configuration (for ``/etc/nginx/conf.d/lald.conf``):
    ``servers`` are each server's name and address (``("w1", "127.0.0.1:8001")``);
    nginx listens on ``listen`` (``127.0.0.1:8000``, or ``80``)."""
    names = ", ".join(name for name, _ in servers)
    lines = [
        f"# lald: nginx in front of {len(servers)} lald servers ({names}) over one PostgreSQL database.",
        "# Written by `lald serve --print-proxy-config`; docs/deploy.md says how to use it.",
        "",
        "map $http_upgrade $lald_connection {",
        "    default upgrade;",
        "    ''      '';",
        "}",
        "",
        "upstream lald_any {",
        "    least_conn;",
        *[f"    server {address} max_fails=0;" for _, address in servers],
        "    keepalive 32;",
        "}",
    ]
    lines += [
        "",
        "# The limits on logins and seats taken kept per client address are each server's own:",
        "# an address's logins and seats all go to one server, so each limit holds whole.",
        "upstream lald_by_address {",
        "    hash $binary_remote_addr consistent;",
        *[f"    server {address} max_fails=0;" for _, address in servers],
        "    keepalive 32;",
        "}",
    ]
    for name, address in servers:
        lines += ["", f"upstream lald_{name} {{", f"    server {address} max_fails=0;",
                  "    keepalive 16;", "}"]
    lines += [
        "",
        "server {",
        f"    listen {listen};",
        "    # lald refuses a body over 64 KiB itself, in words",
        "    client_max_body_size 1m;",
        "    proxy_http_version 1.1;",
        "    proxy_set_header Host $http_host;",
        "    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
        "    proxy_set_header X-Forwarded-Proto $scheme;",
        "    proxy_set_header Upgrade $http_upgrade;",
        "    proxy_set_header Connection $lald_connection;",
        "    # a page's websocket stays open for hours; it pings every 10 s",
        "    proxy_read_timeout 1h;",
        "    proxy_send_timeout 1h;",
        "",
        "    location ^~ /_lald/ { return 404; }",
        "    location = /metrics { return 404; }",
        "",
        "    # The lobby's live list: any server (each hears the others' tables).",
        "    location = /ws/lobby {",
        "        proxy_pass http://lald_any;",
        "    }",
        "",
        "    # A table's websocket and requests: to the server that holds the table.",
        "    location ~ ^/(ws|api/tables)/[A-Za-z0-9_-]+ {",
        "        auth_request /_lald_route;",
        "        auth_request_set $lald_route $upstream_http_x_lald_route;",
        "        proxy_pass http://lald_$lald_route;",
        "    }",
        "",
        "    # Which server holds it: asked of any server (the next if one is stopping).",
        "    location = /_lald_route {",
        "        internal;",
        "        proxy_method GET;",
        "        proxy_pass http://lald_any/_lald/route;",
        "        proxy_pass_request_body off;",
        "        proxy_set_header Content-Length \"\";",
        "        proxy_set_header Upgrade \"\";",
        "        proxy_set_header Connection \"\";",
        "        proxy_set_header X-Lald-Path $request_uri;",
        "        proxy_next_upstream error timeout http_502 http_503;",
        "    }",
        "",
        "    # Logins, seats and the readings laboratory's comparisons, which count against an",
        "    # address's limits: that address's server (which keeps its comparisons, too).",
        "    location ~ ^/api/(account/|sit$|readings) {",
        "        proxy_pass http://lald_by_address;",
        "        proxy_next_upstream error timeout http_503 non_idempotent;",
        "    }",
        "",
        "    # Everything else (new tables, the lobby, the pages): the least busy server.",
        "    location / {",
        "        proxy_pass http://lald_any;",
        "        proxy_next_upstream error timeout http_503 non_idempotent;",
        "    }",
        "}",
    ]
    return "\n".join(lines) + "\n"


def nginx_standalone(servers: Sequence[tuple[str, str]], listen: str, prefix: str) -> str:
    """A whole nginx configuration that runs in the foreground from the folder ``prefix``
    (its pid file and temporary files there, its errors on standard error): what
    ``lald serve --workers N`` runs."""
    site = nginx_site(servers, listen)
    return "\n".join([
        "daemon off;",
        "worker_processes 1;",
        f"pid {prefix}/nginx.pid;",
        "error_log stderr warn;",
        "events { worker_connections 8192; }",
        "http {",
        "    access_log off;",
        f"    client_body_temp_path {prefix}/tmp/body;",
        f"    proxy_temp_path {prefix}/tmp/proxy;",
        f"    fastcgi_temp_path {prefix}/tmp/fastcgi;",
        f"    uwsgi_temp_path {prefix}/tmp/uwsgi;",
        f"    scgi_temp_path {prefix}/tmp/scgi;",
        *["    " + line if line else "" for line in site.splitlines()],
        "}",
    ]) + "\n"
