"""Several ``asobiba serve`` processes on one database: who owns each room (``leases``) and how
a socket on one process plays a room owned by another (``relay``)."""
