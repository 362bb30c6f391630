"""An edition-4 land service for gitm.v1.LandBridge, written from docs/gitm.md and land.proto.

It has no land game of its own: the land changes only through PATE's calls, so it
never emits a land event and never resolves a land turn (its land_turn is PATE's).
"""
