"""Orders: the order form of rule section 4 (its model, text and limits) and the
effective orders.  Checking orders against the world is part of the rules
(:mod:`pate.core.rules.validation`), since it reads contact (5.1) and the
operations rules."""
