// libpng (libpng-dev) for the panel's photo shrinker, through its "simplified" API
// (png_image_*), which reports errors as return values (no setjmp needed).
#include <png.h>

// The format macros are expressions Swift does not import.
static const unsigned int OM_PNG_FORMAT_RGB = PNG_FORMAT_RGB;
static const unsigned int OM_PNG_FORMAT_RGBA = PNG_FORMAT_RGBA;
