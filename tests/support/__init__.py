"""Test support: servers on loopback that speak real protocols, and the network guard."""
