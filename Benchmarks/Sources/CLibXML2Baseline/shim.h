// libxml2 alone, for the loading baseline: xmlReadMemory on the large chart's bytes.
// pkg-config adds -I/usr/include/libxml2. As in the library's own CLibXML2 module, the ICU part
// of encoding.h is hidden: its UErrorCode clashes with Foundation's _FoundationICU copy.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
