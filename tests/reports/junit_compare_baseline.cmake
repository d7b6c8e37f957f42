# tests of the reports module: junit_compare_baseline (owned by one change at a time)
