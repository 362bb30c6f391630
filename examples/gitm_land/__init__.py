"""An independent GITM land service for the ``gitm.v1`` contract (docs/gitm.md).

Written from the contract's document and proto alone, as a land team would, to
show that the document is enough: see README.md here, and GUESSES.md for the
places where it was not.
"""
