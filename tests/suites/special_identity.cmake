# tests of the suites module: special_identity (owned by one change at a time)
