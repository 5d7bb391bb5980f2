#include "duk_shim.h"
#include <duktape.h>
int sc_duk_shim_version(void) { return (int)DUK_VERSION; }
