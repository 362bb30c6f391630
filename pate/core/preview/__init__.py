"""Previews: a player's draft orders played against his own picture of the world."""
