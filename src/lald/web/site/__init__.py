"""A site of several servers: one server of several over one PostgreSQL database, the
servers' channel, and the proxy in front of them.

It stands on the people (:mod:`lald.web.people`), the live table and the web's base.
"""
