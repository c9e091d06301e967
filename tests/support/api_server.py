"""A real API process for tests: ``python -m tests.support.api_server PORT`` serves core.api on
127.0.0.1:PORT with uvicorn, its business graph being the fake store of
tests/unit/test_kg_graph.py (so no graph database file is shared between processes); app state
and checkpoints go wherever the environment says (``ZHICE_HOME`` / ``ZHICE_DATABASE_URL``)."""

from __future__ import annotations

import sys


def main(port: int) -> None:
    import uvicorn

    from core.api import app
    from core.services.ask_kg import set_store_override
    from tests.unit.test_kg_graph import FakeStore

    set_store_override(FakeStore())
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(int(sys.argv[1]))
