"""The headless engine: the pipeline of one turn over plain values.

Used by the service workers (one stage each) and by ``pate campaign
simulate`` (all stages in one process), so both run the same code.
"""
