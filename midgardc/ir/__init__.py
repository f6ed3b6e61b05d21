"""The game-agnostic intermediate representation shared by both back ends."""
