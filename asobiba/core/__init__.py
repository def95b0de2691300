"""Game-independent building blocks: the game protocol, options, bots, arena and Elo."""
