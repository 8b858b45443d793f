"""The reader's widgets."""
