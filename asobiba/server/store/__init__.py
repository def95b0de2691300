"""What lasts: the tables and their Alembic migrations (``db``), the store every other part reads
and writes through (``store``), and the records pages' sums (``records``)."""
