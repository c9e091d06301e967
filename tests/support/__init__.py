"""Test support: fixtures that start or attach to real servers (Neo4j 5, PostgreSQL).

When ``ZHICE_TEST_NEO4J=1`` / ``ZHICE_TEST_POSTGRES=1`` is set, a server that cannot be reached
or started FAILS the tests that need it; without the flag those tests are skipped.
"""
