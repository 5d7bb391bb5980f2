// Duktape from Debian's duktape-dev (pkg-config "duktape").
#include <duktape.h>
