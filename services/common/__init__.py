"""PATE service package."""
