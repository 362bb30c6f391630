"""The codec's written functions can be read without running it: the examples in the docstrings
of ``encoder_source`` and ``decoder_source`` are the very text the codec runs for those classes."""

from __future__ import annotations

import inspect
import textwrap

from pate.core import codec
from pate.core.codec import _decoder, _fields, _hints, decoder_source, encoder_source, from_plain, to_plain
from pate.core.world.ships import AtSea, InPort


def _example(fn: object) -> str:
    """The indented block after the docstring's ``::``."""
    doc = inspect.getdoc(fn) or ""
    block = doc.split("::", 1)[1].split("\n\n", 2)[1]
    return textwrap.dedent(block) + "\n"


def test_the_encoder_documented_is_the_encoder_run() -> None:
    assert encoder_source(AtSea) == _example(encoder_source)
    assert to_plain(AtSea("BIS", 2)) == {"area": "BIS", "tactical": 2, "kind": "AtSea"}


def test_the_decoder_documented_is_the_decoder_run() -> None:
    hints = _hints(InPort)
    fields = [(f.name, _decoder(hints[f.name])) for f in _fields(InPort)]
    assert decoder_source(fields) == _example(decoder_source)
    assert from_plain(InPort, {"port": "Brest", "harbor": True}) == InPort("Brest", True)


def test_a_class_with_a_nested_value_calls_the_codec_for_it() -> None:
    from pate.core.world.ships import Ship

    text = encoder_source(Ship)
    assert "'location': to_plain(value.location)" in text and "'id': value.id" in text
    assert (
        codec.canonical_json(to_plain(InPort("Brest", False)))
        == '{"harbor":false,"kind":"InPort","port":"Brest"}'
    )
