/* The CPUs this process may run on: the default of `gelucheck run --threads`. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <sched.h>
#include <unistd.h>

#include "cli.h"

/* The CPUs in this process's affinity mask (what taskset, a cpuset or a container's cpuset
 * leaves it, as nproc(1) counts them); the CPUs online when the mask cannot be read (a
 * kernel with more CPUs than a cpu_set_t holds); at least 1. */
unsigned cli_cpus_usable(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : (unsigned)n;
}
