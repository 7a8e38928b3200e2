"""cgtalg.misere."""
