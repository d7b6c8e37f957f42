/* result.c: being written. */
#include <jansson.h>
