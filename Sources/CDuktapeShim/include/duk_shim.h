// Placeholder: the ECMAScript datamodel issue fills this shim.
#ifndef DUK_SHIM_H
#define DUK_SHIM_H
int sc_duk_shim_version(void);
#endif
