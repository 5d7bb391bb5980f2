// The libxml2 headers the SCXML importer needs; pkg-config adds -I/usr/include/libxml2.
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
