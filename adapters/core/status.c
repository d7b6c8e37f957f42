/* gc_strerror: a short text per status (the message buffer says the specifics). */
#include "adapter.h"

const char *gc_strerror(enum gc_status st)
{
    switch (st) {
    case GC_OK:
        return "ok";
    case GC_E_SPEC:
        return "bad adapter spec";
    case GC_E_LOAD:
        return "adapter could not be loaded";
    case GC_E_INVALID:
        return "adapter breaks the contract";
    case GC_E_EVAL:
        return "evaluation failed";
    case GC_E_TIMEOUT:
        return "adapter timed out";
    case GC_E_DIED:
        return "adapter process died";
    case GC_E_NOMEM:
        return "out of memory";
    case GC_E_FAULT:
        return "kernel wrote out of bounds";
    }
    return "unknown status";
}
