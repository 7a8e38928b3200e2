"""cgtalg.cli."""
