"""Generated contracts of the GITM land module (gitm.v1)."""
