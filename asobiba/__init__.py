"""asobiba (遊び場): a place on the web to play four tabletop games."""

__version__ = "0.1.0"
