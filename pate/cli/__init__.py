"""The ``pate`` command line."""
