"""Drawing the world for reports and tools (pure functions returning text)."""
