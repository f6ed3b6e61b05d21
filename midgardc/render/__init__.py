"""Pictures of positions (SVG, every board topology) and self-contained HTML match reports."""

from .svg import render_svg

__all__ = ["render_svg"]
