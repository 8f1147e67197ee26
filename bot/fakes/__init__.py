"""Fake outside services on loopback, speaking the real protocols (used by tests and `lembra replay`)."""
