// libpng (libpng-dev) for the panel's photo shrinker. Reading uses the row-by-row API, so a PNG is
// never held whole at full size: libpng reports errors by longjmp, which Swift cannot catch, so
// every call into it goes through one of these small C functions, each with its own setjmp,
// returning a status instead. Writing uses the "simplified" API (png_image_*), which returns errors.
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <png.h>

// The format macros are expressions Swift does not import.
static const unsigned int OM_PNG_FORMAT_RGB = PNG_FORMAT_RGB;
static const unsigned int OM_PNG_FORMAT_RGBA = PNG_FORMAT_RGBA;

/// What a reader's calls answer: OM_PNG_OK; OM_PNG_UNREADABLE, not a PNG libpng can decode;
/// OM_PNG_INCOMPLETE, the file ends early or its image data is damaged, so part of the picture
/// would be missing.
#define OM_PNG_OK 0
#define OM_PNG_UNREADABLE 1
#define OM_PNG_INCOMPLETE 2

typedef struct om_png_reader {
    png_structp png;
    png_infop info;
    const unsigned char *data;
    size_t size;
    size_t offset;
    /// The header was read: a later failure means damaged or missing picture data.
    int header_read;
    /// The first failure; every later call answers it without touching libpng again.
    int failed;
} om_png_reader;

static void om_png_read_bytes(png_structp png, png_bytep out, size_t count) {
    om_png_reader *reader = (om_png_reader *)png_get_io_ptr(png);
    if (count > reader->size - reader->offset) png_error(png, "the file ends early");
    memcpy(out, reader->data + reader->offset, count);
    reader->offset += count;
}

static void om_png_error(png_structp png, png_const_charp message) {
    (void)message;
    png_longjmp(png, 1);
}

static void om_png_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

static inline int om_png_fail(om_png_reader *reader) {
    reader->failed = reader->header_read ? OM_PNG_INCOMPLETE : OM_PNG_UNREADABLE;
    return reader->failed;
}

/// Reads the header of the PNG in `data` (which must stay valid until `om_png_close`; at most
/// `max_side` pixels a side) and sets up
/// decoding to 8-bit RGB, or RGBA when the file can hold transparency (an alpha channel or a tRNS
/// chunk): palettes, gray and 16-bit samples are converted by libpng. `*interlaced` is 1 for Adam7
/// files, whose rows arrive as seven smaller pass images (see `om_png_pass`). NULL only when out of
/// memory; otherwise close the reader whatever `*status` says.
static inline om_png_reader *om_png_open(const unsigned char *data, size_t size, int max_side, int *width,
                                         int *height, int *channels, int *interlaced, int *status) {
    om_png_reader *reader = calloc(1, sizeof(om_png_reader));
    *width = 0;
    *height = 0;
    *channels = 0;
    *interlaced = 0;
    if (reader == NULL) return NULL;
    reader->data = data;
    reader->size = size;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, om_png_error, om_png_warning);
    if (reader->png == NULL) {
        reader->failed = *status = OM_PNG_UNREADABLE;
        return reader;
    }
    reader->info = png_create_info_struct(reader->png);
    if (reader->info == NULL) {
        reader->failed = *status = OM_PNG_UNREADABLE;
        return reader;
    }
    if (setjmp(png_jmpbuf(reader->png))) {
        *status = om_png_fail(reader);
        return reader;
    }
    png_set_read_fn(reader->png, reader, om_png_read_bytes);
    // Larger headers are refused before libpng sizes its row buffers by them.
    png_set_user_limits(reader->png, (png_uint_32)max_side, (png_uint_32)max_side);
    png_read_info(reader->png, reader->info);
    png_set_expand(reader->png);  // palette → RGB, gray below 8 bits → 8, tRNS → alpha
    png_set_scale_16(reader->png);
    png_set_gray_to_rgb(reader->png);
    png_read_update_info(reader->png, reader->info);
    *width = (int)png_get_image_width(reader->png, reader->info);
    *height = (int)png_get_image_height(reader->png, reader->info);
    *channels = (int)png_get_channels(reader->png, reader->info);
    *interlaced = png_get_interlace_type(reader->png, reader->info) == PNG_INTERLACE_ADAM7;
    reader->header_read = 1;
    *status = (*channels == 3 || *channels == 4) ? OM_PNG_OK : (reader->failed = OM_PNG_UNREADABLE);
    return reader;
}

/// Where the pixels of Adam7 pass `pass` (0…6) sit in the image: column `start_x + i × step_x` and
/// row `start_y + j × step_y` for `columns` × `rows` pixels (0 × 0 when the image is too small
/// for that pass, and libpng skips it).
static inline void om_png_pass(int pass, int width, int height, int *start_x, int *step_x,
                               int *start_y, int *step_y, int *columns, int *rows) {
    *start_x = PNG_PASS_START_COL(pass);
    *step_x = PNG_PASS_COL_OFFSET(pass);
    *start_y = PNG_PASS_START_ROW(pass);
    *step_y = PNG_PASS_ROW_OFFSET(pass);
    *columns = (int)PNG_PASS_COLS((png_uint_32)width, pass);
    *rows = (int)PNG_PASS_ROWS((png_uint_32)height, pass);
    if (*columns == 0 || *rows == 0) *columns = *rows = 0;
}

/// The next row of the image (of the current pass when interlaced). `row` must hold a whole
/// image row (width × channels bytes) even for a pass's shorter rows: libpng copies that many.
static inline int om_png_read_row(om_png_reader *reader, unsigned char *row) {
    if (reader->failed) return reader->failed;
    if (setjmp(png_jmpbuf(reader->png))) return om_png_fail(reader);
    png_read_row(reader->png, row, NULL);
    return OM_PNG_OK;
}

static inline void om_png_close(om_png_reader *reader) {
    if (reader == NULL) return;
    if (reader->png != NULL) png_destroy_read_struct(&reader->png, reader->info ? &reader->info : NULL, NULL);
    free(reader);
}
