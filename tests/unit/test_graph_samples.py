"""The committed sample spreadsheets are exactly what the seeded generator writes."""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def test_samples_are_reproducible(tmp_path):
    spec = importlib.util.spec_from_file_location("make_sample_business", REPO / "scripts" / "make_sample_business.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main(["--out", str(tmp_path)]) == 0
    for sub in ("business", "broken"):
        assert _digests(tmp_path / sub) == _digests(REPO / "data" / "samples" / sub), sub
