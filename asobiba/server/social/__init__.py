"""Play between people: tables and their seats, names, chat and the lobby."""
