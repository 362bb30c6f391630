"""The GITM conformance kit, a product command (``pate gitm check --addr HOST:PORT``): runs the
numbered obligations of the gitm.v1 land contract (docs/gitm.md) against a land service and
tells its team exactly what to fix."""
