"""cgtalg.normal."""
