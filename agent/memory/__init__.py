"""Conversation memory: native tool messages, tiers, the context frame, handovers, consolidation."""
