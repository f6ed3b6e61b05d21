"""Loading specs: YAML with positions, variants, validation and lowering to IR."""
