"""The condition language: Lark grammar, parser and type checker."""
