"""What a browser asks over HTTP: the pages, the JSON API, lessons, the guest cookie, the guards
every request passes (``middleware``) and the per-guest rate limits."""
