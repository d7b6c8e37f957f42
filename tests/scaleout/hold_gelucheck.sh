#!/bin/sh
# hold_gelucheck.sh ARGS: scripts/publish's gelucheck in publish_resume.py
# (GELUCHECK_PUBLISH_GELUCHECK): runs $GELUCHECK_TEST_REAL ARGS, with hold_adapter.py's
# GELUCHECK_TEST_HOLD set to $GELUCHECK_TEST_HOLD_DIR in shard 1's first run alone
# (`run ... --shard 1/2` without --resume), and `run` given --threads 2 (two requests held,
# whatever the CPUs: shard 1's other items are left when it stops) and --timeout 3600 (a
# held batch is not an exec adapter's hang, however long the machine makes the test wait).
hold=
case " $* " in *" --shard 1/2 "*) hold=$GELUCHECK_TEST_HOLD_DIR ;; esac
case " $* " in *" --resume "*) hold= ;; esac
export GELUCHECK_TEST_HOLD="$hold"
if [ "$1" = run ]; then
    shift
    exec "$GELUCHECK_TEST_REAL" run --threads 2 --timeout 3600 "$@"
fi
exec "$GELUCHECK_TEST_REAL" "$@"
