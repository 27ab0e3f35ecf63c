"""Cards, ranks and the 52-bit card sets the engine works with.

A card is a small integer ``rank * 4 + suit`` (ace = rank 0, king = rank 12;
suits S H D C = 0..3), wrapped in :class:`Card` so it prints and parses in the
notation of docs/rules.md#1-cards-seats-and-words.  A set of cards is a 52-bit mask: bit ``card`` is set
when the card is in the set, and the four cards of rank ``r`` are the nibble at
bit ``4 * r``.

>>> Card.parse("qs")
Card.parse('QS')
>>> str(Card.parse("10♦"))
'TD'
>>> Card.parse("QS").rank_name
'queen'
>>> format_cards(cards_of(mask_of(parse_cards("QS QH 2C"))))
'2C QS QH'
"""

from __future__ import annotations

from collections.abc import Iterable

RANK_SYMBOLS = "A23456789TJQK"
SUIT_SYMBOLS = "SHDC"
SUIT_GLYPHS = "♠♥♦♣"
RANK_NAMES = (
    "ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king",
)
RANK_PLURALS = (
    "aces", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "jacks", "queens", "kings",
)
NUM_RANKS = 13
NUM_CARDS = 52
FULL_DECK = (1 << NUM_CARDS) - 1
#: Number of set bits in each 4-bit value: the cards of one rank in a nibble.
NIBBLE_COUNT = tuple(bin(i).count("1") for i in range(16))


class CardError(ValueError):
    """A card string or a list of cards that cannot be read."""


class Card(int):
    """One card of the 52; an ``int`` so it is as cheap as one.

    >>> c = Card.parse("AH")
    >>> (c.rank, c.suit, int(c))
    (0, 1, 1)
    """

    __slots__ = ()

    @property
    def rank(self) -> int:
        """Rank index 0..12 (ace low); the rank's value is ``rank + 1``."""
        return self >> 2

    @property
    def suit(self) -> int:
        """Suit index 0..3 for S H D C."""
        return self & 3

    @property
    def rank_name(self) -> str:
        """The rank in words: ``ace``, ``2`` .. ``10``, ``jack``, ``queen``, ``king``."""
        return RANK_NAMES[self >> 2]

    @property
    def glyph(self) -> str:
        """The card with its suit symbol, e.g. ``Q♠`` (for people, not records)."""
        r = RANK_SYMBOLS[self >> 2]
        return ("10" if r == "T" else r) + SUIT_GLYPHS[self & 3]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``QS``, ``qs``, ``10D``, ``TD``, ``Q♠``; raise :class:`CardError` otherwise."""
        s = text.strip().upper()
        if len(s) < 2:
            raise CardError(f"bad card {text!r}: write rank then suit, like QS or 10D")
        rank_text, suit_text = s[:-1], s[-1]
        if rank_text == "10":
            rank_text = "T"
        suit = SUIT_SYMBOLS.find(suit_text)
        if suit < 0:
            suit = SUIT_GLYPHS.find(suit_text)
        rank = RANK_SYMBOLS.find(rank_text) if len(rank_text) == 1 else -1
        if rank < 0 or suit < 0:
            raise CardError(f"bad card {text!r}: write rank then suit, like QS or 10D")
        return CARDS[rank * 4 + suit]

    def __str__(self) -> str:
        return RANK_SYMBOLS[self >> 2] + SUIT_SYMBOLS[self & 3]

    def __repr__(self) -> str:
        return f"Card.parse('{self}')"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


#: The 52 cards, indexed by their integer value.
CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(NUM_CARDS))


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Read cards from a space/comma separated string or from a list of strings."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(Card.parse(item) for item in items)


def mask_of(cards: Iterable[int]) -> int:
    """The card set holding ``cards``."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


#: For each byte of a card set, the cards of each of its 256 values (``cards_of`` reads a
#: set a byte at a time: views and frames read every pile on every move).
_BYTE_CARDS: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(tuple(CARDS[8 * k + i] for i in range(8) if b >> i & 1 and 8 * k + i < NUM_CARDS)
          for b in range(256))
    for k in range((NUM_CARDS + 7) // 8))


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a set, lowest first (by rank, then suit S H D C)."""
    out: tuple[Card, ...] = ()
    for byte in _BYTE_CARDS:
        if not mask:
            break
        low = mask & 255
        if low:
            out += byte[low]
        mask >>= 8
    return out


def rank_mask(rank: int) -> int:
    """The set of the four cards of ``rank``."""
    return 15 << (4 * rank)


def count(mask: int) -> int:
    """How many cards a set holds."""
    return mask.bit_count()


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in canonical notation, space separated."""
    return " ".join(str(c) for c in cards)
