"""The web server over the pure game modules, one package per concern: ``rooms`` (live games),
``store`` (what lasts), ``http`` (pages and the JSON API), ``sockets`` (the room WebSocket) and
``analysis`` (hints and reviews); ``app`` wires them, ``settings`` configures them and ``main``
serves them. docs/ARCHITECTURE.md draws the same picture."""
