"""Naval intelligence: what each player knows after a turn (knowledge), for the
reports of rule 3.11.  The dice of section 5 are drawn in the intelligence
phase (:mod:`pate.core.rules.gathering`); knowledge reads their events."""
