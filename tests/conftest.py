"""Settings for the whole test run."""

import os

# Bots act as soon as they decide: whole games against them take seconds, not minutes. The tests
# of the pace itself (tests/server/test_bot_pace.py) turn it on for their own rooms. Servers the
# tests start in other processes inherit this.
os.environ["ASOBIBA_BOT_PACE"] = "0"
