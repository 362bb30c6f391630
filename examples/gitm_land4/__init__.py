"""A land service of gitm.v1 at edition 4, written from docs/gitm.md and the proto alone."""
