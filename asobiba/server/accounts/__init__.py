"""Accounts, below the HTTP routes: passwords (Argon2id), the sign-in attempts' limits (in
memory, or in Redis across processes) and what a signed-in browser is called. Knows no HTTP."""
