"""A land service of gitm.v1, edition 4, written from docs/gitm.md and land.proto alone."""
