"""The bot admiral: a player's orders from that player's own report.

Pure and deterministic like the rules core (an import-linter contract forbids
it I/O): its input is one player's knowledge, the report JSON a human reads
(docs/formats/reports.md), with the map, the rules data and the level; its
output is the orders the order desk takes from that player.  How it decides:
docs/bots.md.
"""
