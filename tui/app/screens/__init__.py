"""The reader's screens."""
