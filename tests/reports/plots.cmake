# tests of the reports module: plots (owned by one change at a time)
