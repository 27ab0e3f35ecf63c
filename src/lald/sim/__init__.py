"""Playing deals and sessions with bots; tournaments and statistics build on :func:`play_deal`."""

from .play import play_deal, play_session

__all__ = ["play_deal", "play_session"]
