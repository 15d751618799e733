"""The documented deal function: a permutation, deterministic, unbiased, and recomputable from the
algorithm as written in games/engine/dealing.py's doc (reimplemented here independently)."""

from __future__ import annotations

import hashlib
import hmac
import itertools
from collections import Counter

import pytest

from games.engine.dealing import shuffled


def by_the_doc(cards: list[str], seed: bytes, context: bytes) -> list[str]:
    """The module doc's four steps, written out again without sharing its code."""
    stream = b"".join(
        hmac.new(seed, context + b":" + i.to_bytes(8, "big"), hashlib.sha256).digest() for i in range(64)
    )
    numbers = (int.from_bytes(stream[k : k + 8], "big") for k in range(0, len(stream), 8))
    out = cards[:]
    for i in range(len(out) - 1, 0, -1):
        x = next(numbers)
        while x >= 2**64 - (2**64 % (i + 1)):
            x = next(numbers)
        j = x % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def test_a_deal_is_a_permutation_and_the_documented_function_of_its_seed() -> None:
    cards = [f"c{i}" for i in range(52)]
    for n in range(20):
        seed = f"seed {n}".encode()
        deal = shuffled(cards, seed, b"hand:1")
        assert sorted(deal) == sorted(cards)
        assert list(deal) == by_the_doc(cards, seed, b"hand:1")
        assert shuffled(cards, seed, b"hand:1") == deal  # deterministic
        assert shuffled(cards, seed, b"hand:2") != deal  # the context deals each hand anew


def test_every_order_of_a_small_pack_is_about_equally_likely() -> None:
    counts = Counter(shuffled("abc", n.to_bytes(4, "big")) for n in range(6000))
    assert set(counts) == {tuple(p) for p in itertools.permutations("abc")}
    assert all(900 < c < 1100 for c in counts.values()), counts  # 1000 expected; 6 sigma is ~150


def test_a_deal_needs_a_seed() -> None:
    with pytest.raises(ValueError, match="seed"):
        shuffled("abc", b"")
