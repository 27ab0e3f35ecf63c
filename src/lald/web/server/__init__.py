"""The one server's HTTP face: the ASGI application, its endpoints and their guard, the
websocket messages a page may send, and the OpenAPI document.

The top of :mod:`lald.web`: it may import every other part of it.
"""
