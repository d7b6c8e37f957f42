# tests of the suites module: run (owned by one change at a time)
