"""cgtalg.rulesets."""
