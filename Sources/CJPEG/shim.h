// libjpeg-turbo (libjpeg62-turbo-dev) for the panel's photo shrinker. libjpeg reports errors by
// calling error_exit, which must not return; Swift cannot setjmp, so every call into libjpeg goes
// through one of these small C functions, each with its own setjmp, returning a status instead.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>
#include <jerror.h>

/// What a reader's calls answer: OM_JPEG_OK; OM_JPEG_UNREADABLE, not a JPEG libjpeg can decode;
/// OM_JPEG_INCOMPLETE, the file ends early or its data is damaged, so part of the picture would be
/// missing; OM_JPEG_OVER_MEMORY, decoding needs more memory than the reader was given (a large
/// progressive JPEG keeps all of its DCT coefficients until the last scan).
#define OM_JPEG_OK 0
#define OM_JPEG_UNREADABLE 1
#define OM_JPEG_INCOMPLETE 2
#define OM_JPEG_OVER_MEMORY 3

/// More scans than any encoder makes: each progressive scan walks the whole coefficient buffer
/// again, so a file of thousands of tiny scans would cost seconds of CPU.
#define OM_JPEG_MAX_SCANS 256

struct om_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    int saw_end_of_file;
    int saw_damage;
};

typedef struct om_jpeg_reader {
    struct jpeg_decompress_struct info;
    struct om_jpeg_error error;
    struct jpeg_progress_mgr progress;
    /// Four bytes a pixel of one row, for CMYK files (converted to RGB here).
    unsigned char *cmyk_row;
    /// The header was read: a later failure means damaged or missing picture data.
    int header_read;
    /// The first failure; every later call answers it without touching libjpeg again.
    int failed;
} om_jpeg_reader;

static void om_jpeg_error_exit(j_common_ptr info) {
    struct om_jpeg_error *error = (struct om_jpeg_error *)info->err;
    longjmp(error->jump, 1);
}

/// Warnings are kept, not printed: the ones that mean missing or damaged picture data decide
/// whether the photo decoded completely. A JPEG that only lacks its end marker is complete.
static void om_jpeg_warning(j_common_ptr info, int level) {
    if (level >= 0) return;  // trace messages
    struct om_jpeg_error *error = (struct om_jpeg_error *)info->err;
    switch (info->err->msg_code) {
    case JWRN_JPEG_EOF: error->saw_end_of_file = 1; break;
    case JWRN_HIT_MARKER: case JWRN_MUST_RESYNC: case JWRN_HUFF_BAD_CODE: error->saw_damage = 1; break;
    default: break;
    }
}

static void om_jpeg_count_scans(j_common_ptr info) {
    if (info->is_decompressor && ((j_decompress_ptr)info)->input_scan_number > OM_JPEG_MAX_SCANS) {
        info->err->msg_code = JERR_NOTIMPL;
        longjmp(((struct om_jpeg_error *)info->err)->jump, 1);
    }
}

/// The status after libjpeg gave up (reached through longjmp).
static inline int om_jpeg_fail(om_jpeg_reader *reader) {
    int code = reader->error.manager.msg_code;
    if (code == JERR_NO_BACKING_STORE || code == JERR_OUT_OF_MEMORY) reader->failed = OM_JPEG_OVER_MEMORY;
    else if (reader->header_read && (reader->error.saw_end_of_file || reader->error.saw_damage)) reader->failed = OM_JPEG_INCOMPLETE;
    else reader->failed = OM_JPEG_UNREADABLE;
    return reader->failed;
}

/// Reads the header of the JPEG in `data` (which must stay valid until `om_jpeg_close`). NULL only
/// when out of memory; otherwise close the reader whatever `*status` says.
static inline om_jpeg_reader *om_jpeg_open(const unsigned char *data, unsigned long size,
                                           int *width, int *height, int *status) {
    om_jpeg_reader *reader = calloc(1, sizeof(om_jpeg_reader));
    *width = 0;
    *height = 0;
    if (reader == NULL) return NULL;
    reader->info.err = jpeg_std_error(&reader->error.manager);
    reader->error.manager.error_exit = om_jpeg_error_exit;
    reader->error.manager.emit_message = om_jpeg_warning;
    if (setjmp(reader->error.jump)) {
        *status = om_jpeg_fail(reader);
        return reader;
    }
    jpeg_create_decompress(&reader->info);
    reader->progress.progress_monitor = om_jpeg_count_scans;
    reader->info.progress = &reader->progress;
    jpeg_mem_src(&reader->info, data, size);
    jpeg_read_header(&reader->info, TRUE);
    reader->header_read = 1;
    *width = (int)reader->info.image_width;
    *height = (int)reader->info.image_height;
    *status = OM_JPEG_OK;
    return reader;
}

/// Starts decoding to 8-bit RGB at `scale_eighths`/8 of the size (1…8: libjpeg's DCT scaling, so
/// a smaller result costs less work and memory). CMYK and YCCK files are turned into RGB as
/// Adobe writes them (inverted ink values), which is how browsers show them. libjpeg may use at
/// most `max_memory` bytes for the image's buffers.
static inline int om_jpeg_start(om_jpeg_reader *reader, int scale_eighths, long max_memory,
                                int *out_width, int *out_height) {
    if (reader->failed) return reader->failed;
    if (setjmp(reader->error.jump)) return om_jpeg_fail(reader);
    reader->info.mem->max_memory_to_use = max_memory;
    J_COLOR_SPACE stored = reader->info.jpeg_color_space;
    reader->info.out_color_space = (stored == JCS_CMYK || stored == JCS_YCCK) ? JCS_CMYK : JCS_RGB;
    reader->info.scale_num = (unsigned int)scale_eighths;
    reader->info.scale_denom = 8;
    jpeg_start_decompress(&reader->info);
    int components = reader->info.out_color_space == JCS_CMYK ? 4 : 3;
    if (reader->info.output_components != components) longjmp(reader->error.jump, 1);
    if (components == 4) {
        reader->cmyk_row = malloc((size_t)reader->info.output_width * 4);
        if (reader->cmyk_row == NULL) {
            reader->error.manager.msg_code = JERR_OUT_OF_MEMORY;
            longjmp(reader->error.jump, 1);
        }
    }
    *out_width = (int)reader->info.output_width;
    *out_height = (int)reader->info.output_height;
    return OM_JPEG_OK;
}

/// The next row, output_width × 3 bytes of RGB.
static inline int om_jpeg_read_row(om_jpeg_reader *reader, unsigned char *rgb) {
    if (reader->failed) return reader->failed;
    if (setjmp(reader->error.jump)) return om_jpeg_fail(reader);
    if (reader->info.output_scanline >= reader->info.output_height) longjmp(reader->error.jump, 1);
    if (reader->cmyk_row == NULL) {
        JSAMPROW row = rgb;
        jpeg_read_scanlines(&reader->info, &row, 1);
        return OM_JPEG_OK;
    }
    JSAMPROW row = reader->cmyk_row;
    jpeg_read_scanlines(&reader->info, &row, 1);
    for (JDIMENSION x = 0; x < reader->info.output_width; x++) {
        const unsigned char *ink = reader->cmyk_row + (size_t)x * 4;
        unsigned int k = ink[3];
        rgb[x * 3] = (unsigned char)((ink[0] * k + 127) / 255);
        rgb[x * 3 + 1] = (unsigned char)((ink[1] * k + 127) / 255);
        rgb[x * 3 + 2] = (unsigned char)((ink[2] * k + 127) / 255);
    }
    return OM_JPEG_OK;
}

/// After the last row: OM_JPEG_OK only when every part of the picture was in the file. A
/// progressive file that ends early has coefficients whose last bits never came.
static inline int om_jpeg_finish(om_jpeg_reader *reader) {
    if (reader->failed) return reader->failed;
    if (setjmp(reader->error.jump)) return om_jpeg_fail(reader);
    jpeg_finish_decompress(&reader->info);
    if (reader->error.saw_damage) return reader->failed = OM_JPEG_INCOMPLETE;
    if (reader->error.saw_end_of_file && reader->info.progressive_mode && reader->info.coef_bits != NULL) {
        for (int component = 0; component < reader->info.num_components; component++) {
            for (int k = 0; k < DCTSIZE2; k++) {
                if (reader->info.coef_bits[component][k] != 0) return reader->failed = OM_JPEG_INCOMPLETE;
            }
        }
    }
    return OM_JPEG_OK;
}

static inline void om_jpeg_close(om_jpeg_reader *reader) {
    if (reader == NULL) return;
    jpeg_destroy_decompress(&reader->info);
    free(reader->cmyk_row);
    free(reader);
}

/// Encodes 8-bit pixels as a JPEG: `components` 3 (RGB, what the panel sends), 1 (gray) or 4
/// (CMYK); `progressive` 0 for a baseline file. 0 on success: `*output` (free with free()) holds
/// `*length` bytes.
static inline int om_jpeg_encode(const unsigned char *pixels, int width, int height, int components,
                                 int quality, int progressive, unsigned char **output, unsigned long *length) {
    struct jpeg_compress_struct info;
    struct om_jpeg_error error;
    *output = NULL;
    *length = 0;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = om_jpeg_error_exit;
    error.manager.emit_message = om_jpeg_warning;
    if (setjmp(error.jump)) {
        jpeg_destroy_compress(&info);
        free(*output);
        *output = NULL;
        return 1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, output, length);
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    info.input_components = components;
    info.in_color_space = components == 1 ? JCS_GRAYSCALE : components == 4 ? JCS_CMYK : JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    if (progressive) jpeg_simple_progression(&info);
    jpeg_start_compress(&info, TRUE);
    size_t stride = (size_t)width * (size_t)components;
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + stride * info.next_scanline);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    return 0;
}
