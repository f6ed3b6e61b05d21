"""Tools that check midgardc against hostile and broken input (the fuzzer)."""
