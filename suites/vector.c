/* vector.c: being written (see suites.h). */
#include "suites.h"
