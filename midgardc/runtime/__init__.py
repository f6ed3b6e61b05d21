"""Back ends and the one engine API over them."""
