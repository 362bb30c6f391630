"""The world model: geography (static), nations and states, ships, world state."""
