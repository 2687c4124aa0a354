"""The built-in knowledge base: one YAML file per failure signature (see correlator.analysis.rulebook)."""
