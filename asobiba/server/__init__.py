"""The web server: rooms, sockets, records and identity over the pure game modules."""
