"""cgtalg.viz."""
