"""Naval intelligence: the dice of section 5 (gathering) and what each player
knows after a turn (knowledge), for the reports of rule 3.11."""
