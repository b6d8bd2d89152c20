// expat (libexpat1-dev): the XML reader under the workbook reader. It is a push parser (bytes in,
// events out), so a sheet is read while it is inflated, never held whole.
#include <expat.h>
