"""The live table: one table and its driver, what each page is told of it, its
connections, its journal of writes, its chat, a new table's request, and the coach's work
at it (hints, the lesson, the review and the replay of a finished deal).

It stands on :mod:`lald.web`'s base (settings, ops, wire) and on nothing else of the web.
"""
