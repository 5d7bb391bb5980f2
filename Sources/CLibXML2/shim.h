// The libxml2 headers the SCXML importer needs; pkg-config adds -I/usr/include/libxml2.
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, so encoding.h would include the system <unicode/ucnv.h>,
// whose UErrorCode clashes with the copy in Foundation's _FoundationICU module ("has different
// definitions in different modules") in any module that imports both. Hiding the ICU part only
// drops two pointer fields at the end of xmlCharEncodingHandler, a struct Swift never touches.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
