"""The kernel's state layout: one row of uint64 words whose first words are the position's key.

A position (`rules.State`) is a row `s` of `state_words(n)` uint64 words; the turn reads
and writes its bytes through the int8 view `b = s.view(np.int8)` of the same memory, and
the transposition table hashes and compares its first `key_words(n)` words directly, so
nothing is packed per position. N = number of cards, KW = key_words(N), HB = 8 * KW.

Key bytes (rules.State.key(), in a form where equal keys mean equal bytes):

    b[0:N]      the DECK from the front (top first, b[0] the top card) and the DISCARD
                PILE from the back (its bottom card at b[N-1], the i-th from the bottom at
                b[N-1-i]); they hold at most N cards together, and the gap between them is
                always PAD
    b[N:2N]     one byte per card: zone (bits 0-2: 0 deck, 1/2 equipped by player 1/2,
                3 discard, 4 out, 5 play), side (bit 3: SIDE, ignited), play mark (bit 4:
                PLAYED, only for the cards whose play count a win condition reads, the
                `tracked` cards of rules._info; no other card's mark is ever read, so it is
                never set)
    b[2N]       the DESIRED DISH (-1: none yet)
    b[2N+1]     GIFT plays capped at 3 (bits 1-2; only "at least 3" is ever asked) | the
                active player (bit 0) | the effect a `next` step left on the next card
                played (bits 3-6, rules.State.next_card: 0 none, 1 it plays ignited, 2 it
                has no CARD ACTION, 9 + k it draws k more, k in -6..6 but not 0; so the
                byte never reaches the sign bit)
    b[2N+2:HB]  0

The two lengths are not part of the key: the zones already fix how many cards are in the
DECK and in the DISCARD PILE, and with them the bytes of b[0:N] fix both orders. So two
rows have equal key words iff their positions have equal key().

After the key (never hashed):

    b[HB+0]     DECK length          b[HB+1]   DISCARD PILE length
    b[HB+2]     outcome (0 ongoing, 1 win, 2 loss)
    b[HB+3]     ending bits (rules.Ending)
    s[KW] >> 32 turns played
    s[KW+1+z]   the cards in zone z as a bit mask (card c is bit c), z = 0..5: kept equal
                to the zone bytes by every zone change (`kernel._set_zone`), so the equipped
                cards, the DISCARD PILE's cards and the cards out of play are one load away

Base game (N = 18): 5 key words, 12 words in all (96 bytes; the int16 layout it replaces
took 196 bytes and a separate 5-word packed key).
"""

from __future__ import annotations

from bombsolve.solvers.common.numba_jit import njit

#: Digest of the project files this module imports (bombsolve.solvers.common.numba_deps): a change to
#: them changes this file too, so Numba rebuilds its on-disk cache of this module.
NUMBA_DEPENDS_ON = "a0a0cb95d0fe9cd0"

#: The byte between the DECK and the DISCARD PILE in b[0:N].
PAD = -1
#: A card byte's zone bits, side bit and play-mark bit.
ZONE = 7
SIDE = 8
PLAYED = 16
#: Header bytes after the key (offsets from HB) and the words after it (offsets from KW).
H_DECK, H_PILE, H_OUTCOME, H_ENDING = 0, 1, 2, 3
W_MASKS = 1
#: The `next` effect in b[2N+1] (see above): its shift, the bits below it, and its codes.
NEXT_SHIFT = 3
NEXT_KEEP = 7
NEXT_IGNITED, NEXT_NO_ACTION, NEXT_ADD_ZERO = 1, 2, 9
#: The turn counter's place in word KW (bytes 0-3 hold the header bytes above).
TURN_SHIFT = 32


@njit(cache=True, inline="always")
def key_words(n):
    """Words of the key (the first words of a row) for n cards."""
    return (2 * n + 2 + 7) // 8


@njit(cache=True, inline="always")
def state_words(n):
    """Words of a whole row for n cards: the key, the header word and six zone masks."""
    return key_words(n) + 1 + 6
