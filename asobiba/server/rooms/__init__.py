"""Live games: a room's one writer (``room``), its game clock, the hub of the rooms this process
owns, rebuilding from the log, and the bots' worker processes. Knows no HTTP and no socket."""
