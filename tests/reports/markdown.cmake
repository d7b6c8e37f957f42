# tests of the reports module: markdown (owned by one change at a time)
