"""The runtime (the one decision point) and everything it decides with."""
