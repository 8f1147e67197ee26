"""The planner: the model (or the offline rule-based planner) proposes one step at a time."""
