/* svg.c: being written (see reports.h). */
#include "reports.h"
