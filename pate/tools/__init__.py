"""Developer and operator tools run with ``python -m``."""
