"""On PYTHONPATH for a run whose server should log its event loop's stalls
(jokeapp/bench/stalls.py)."""

import os

if os.environ.get("STALL_LOG"):
    from jokeapp.bench.stalls import install

    install()
