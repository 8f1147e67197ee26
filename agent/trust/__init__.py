"""What makes an answer trustworthy: confidence, beliefs, quotas, the ledger of effects."""
