"""PATE: Placed Alongside The Enemy, the naval module of Napoleonic Wars OnLine."""
