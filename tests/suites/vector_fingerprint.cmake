# tests of the suites module: vector_fingerprint (owned by one change at a time)
