// Duktape as built by scripts/build-duktape.sh (pkg-config "statechart-duktape2"): Debian's
// source with DUK_USE_EXEC_TIMEOUT_CHECK, so CDuktapeShim can stop runaway scripts.
#include <duktape.h>
#if !defined(DUK_USE_EXEC_TIMEOUT_CHECK) || !defined(DUK_USE_INTERRUPT_COUNTER)
#error "this duktape.h is not the one of scripts/build-duktape.sh (no DUK_USE_EXEC_TIMEOUT_CHECK): run scripts/setup.sh"
#endif
