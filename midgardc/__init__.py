"""midgardc: a compiler for tabletop-game rules (YAML + conditions -> Cython engines)."""

__version__ = "0.1.0"
