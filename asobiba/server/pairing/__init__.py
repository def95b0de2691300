"""Play someone now: the pools of people waiting for a game (in memory, or shared by every
process through Redis: ``pools``, ``redis_pools``), the matchmaker that makes their tables
(``matchmaker``) and what it asks of the ratings (``ratings``). Knows no HTTP and no socket."""
