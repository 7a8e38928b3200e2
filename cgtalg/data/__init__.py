"""cgtalg.data."""
