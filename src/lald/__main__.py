"""``python -m lald``: the same as the ``lald`` command."""

from .cli import main

main()
