"""The room WebSocket: the route and each connection's bounded outbox (``room_socket``), the
messages a client may send (``messages``), timing a line (``latency``) and the uvicorn protocol
that lets the kernel time it (``uvicorn_protocol``)."""
