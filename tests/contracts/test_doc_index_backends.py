"""The document index contract (tests/contracts/doc_index_contract.py) on both backends: the
embedded index always, the Neo4j index on a real Neo4j 5 (tests/support/neo4j_server.py
attaches to ``ZHICE_TEST_NEO4J_URI`` or starts one; skipped without either). Both keep their
metadata in the workspace's app DB, so each test starts from an empty index."""

from __future__ import annotations

import os

import pytest

from core import config
from core.retrieval.index import EmbeddedIndex
from core.retrieval.neo4j_index import Neo4jIndex
from tests.contracts.doc_index_contract import DocIndexContract
from tests.support.neo4j_server import neo4j_server, neo4j_uri  # noqa: F401 - fixtures


@pytest.fixture
def patient_dense(monkeypatch):
    """A busy shared CPU must not turn the contract into a degradation test."""
    monkeypatch.setenv("ZHICE_DENSE_TIMEOUT_MS", "120000")
    config.set_settings(None)


class TestEmbeddedDocIndex(DocIndexContract):
    @pytest.fixture
    def doc_index(self, patient_dense):
        return EmbeddedIndex(config.get_settings())


class TestNeo4jDocIndex(DocIndexContract):
    @pytest.fixture
    def doc_index(self, patient_dense, neo4j_uri, monkeypatch):
        monkeypatch.setenv("ZHICE_NEO4J_URI", neo4j_uri)
        monkeypatch.setenv("ZHICE_NEO4J_PASSWORD", os.environ.get("ZHICE_TEST_NEO4J_PASSWORD", ""))
        monkeypatch.setenv("ZHICE_DOC_INDEX", "neo4j")
        config.set_settings(None)
        idx = Neo4jIndex(config.get_settings())
        yield idx
        idx.close()
