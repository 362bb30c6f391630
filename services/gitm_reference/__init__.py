"""PATE's reference GITM land service (docs/gitm.md): a real, small land side
implementing gitm.v1 for development, tests, the demo and the GITM team's
conformance suite.  Not part of PATE's own services: it has its own store and
talks to PATE only over gitm.v1."""
