"""One test file per attack on sign-in and accounts (issue 11)."""
