"""``python -m midgardc.cli``."""

from .group import main

if __name__ == "__main__":  # pragma: no cover
    main()
