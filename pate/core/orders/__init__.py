"""Orders: the order form of rule section 4, validation and effective orders."""
