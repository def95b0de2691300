"""Golden playthroughs: fixed-seed games dumped as text and compared line by line."""
