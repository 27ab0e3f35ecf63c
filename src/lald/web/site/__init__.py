"""A site of several servers: one server of several over one PostgreSQL database
(:mod:`.cluster`), its writes committed under the tables' leases (:mod:`.leased`), the
other servers' tables and the lobby across them (:mod:`.remote`), the servers' channel
(:mod:`.events`), and the proxy in front of them (:mod:`.proxy`).

It stands on the people (:mod:`lald.web.people`), the live table and the web's base.
"""
