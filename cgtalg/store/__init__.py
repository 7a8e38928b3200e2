"""cgtalg.store."""
