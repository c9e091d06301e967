"""What an upgrade leaves behind: a tenant's committed graph file written with an older layout."""

from __future__ import annotations

import json

from core import config
from core.graph.store import close_graph_stores


def replace_with_an_older_layout(tenant: str) -> None:
    """Replace the committed generation's LadybugDB file by one whose 项目 table has fewer columns
    (the spreadsheets kept with the generation stay as they are)."""
    import ladybug

    close_graph_stores()
    folder = config.get_settings().home / "graph" / "ladybug" / tenant
    gen = json.loads((folder / "CURRENT").read_text())["generation"]
    path = folder / f"gen-{gen:06d}" / "graph.lbug"
    for leftover in path.parent.glob("graph.lbug*"):
        leftover.unlink()
    db = ladybug.Database(str(path))
    ladybug.Connection(db).execute("CREATE NODE TABLE `项目`(`项目编号` STRING, `名称` STRING, PRIMARY KEY (`项目编号`))")
    db.close()
