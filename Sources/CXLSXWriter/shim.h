// libxlsxwriter (libxlsxwriter-dev): writes the catalog export as an .xlsx workbook.
#include <xlsxwriter.h>
