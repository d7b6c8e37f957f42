# tests of the suites module: policy (owned by one change at a time)
