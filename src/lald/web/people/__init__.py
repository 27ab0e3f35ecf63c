"""Where strangers meet: the registry of live tables and their hosts, the public lobby and
Play now, accounts, names and ratings.

It stands on the live table (:mod:`lald.web.table`) and the web's base.
"""
