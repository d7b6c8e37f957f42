# tests of the suites module: core (owned by one change at a time)
