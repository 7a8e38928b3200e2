"""cgtalg.nimbers."""
