# tests of the suites module: ulp_tail (owned by one change at a time)
