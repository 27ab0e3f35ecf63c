"""Playing deals: the turn loop every table, tournament and laboratory runs, the bot specs
of the command line, and the batches that spread many deals over processes or Ray.

Serves everyone who plays deals with bots: the tournaments (:mod:`lald.tournament`), the
readings laboratory (:mod:`lald.lab`), the research adapters (:mod:`lald.rl`) and the
command. It may import the core, the bots, records and the catalogs; nothing above.

- :mod:`.loop`: :func:`play_deal` and :func:`play_session`, the turn loop;
- :mod:`.spec`: a bot's name on the command line (``expert:worlds=32``) made a bot;
- :mod:`.batch`: batches of work on many processes or a Ray cluster, resumable.
"""

from .loop import play_deal, play_session

__all__ = ["play_deal", "play_session"]
