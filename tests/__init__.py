"""asobiba's test suite; a package so `python -m tests.golden.regenerate` runs."""
