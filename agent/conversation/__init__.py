"""The conversation: one turn from an incoming message to a reply, pending actions, slash commands, background jobs."""
