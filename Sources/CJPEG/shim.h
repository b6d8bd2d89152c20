// libjpeg-turbo (libjpeg62-turbo-dev) for the panel's photo shrinker. libjpeg reports errors by
// calling error_exit, which must not return; Swift cannot setjmp, so the decode and encode that
// need it are these two small C functions, each with its own setjmp, returning a status instead.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>

struct om_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
};

static void om_jpeg_error_exit(j_common_ptr info) {
    struct om_jpeg_error *error = (struct om_jpeg_error *)info->err;
    longjmp(error->jump, 1);
}

static void om_jpeg_silent(j_common_ptr info, int level) { (void)info; (void)level; }

/// Decodes to 8-bit RGB, scaled by 1/`denominator` (1, 2, 4 or 8: libjpeg's fast DCT scaling).
/// 0 on success: `*pixels` (free with free()) holds width × height × 3 bytes.
static inline int om_jpeg_decode(const unsigned char *data, unsigned long size, int denominator,
                                 unsigned char **pixels, int *width, int *height) {
    struct jpeg_decompress_struct info;
    struct om_jpeg_error error;
    unsigned char *volatile buffer = NULL;
    *pixels = NULL;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = om_jpeg_error_exit;
    error.manager.emit_message = om_jpeg_silent;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&info);
        free(buffer);
        return 1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, size);
    jpeg_read_header(&info, TRUE);
    info.out_color_space = JCS_RGB;
    info.scale_num = 1;
    info.scale_denom = (unsigned int)denominator;
    jpeg_start_decompress(&info);
    if (info.output_components != 3) longjmp(error.jump, 1);
    size_t stride = (size_t)info.output_width * 3;
    buffer = malloc(stride * info.output_height);
    if (buffer == NULL) longjmp(error.jump, 1);
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = buffer + stride * info.output_scanline;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    *width = (int)info.output_width;
    *height = (int)info.output_height;
    jpeg_destroy_decompress(&info);
    *pixels = buffer;
    return 0;
}

/// The image's size without decoding it (for choosing the DCT scale). 0 on success.
static inline int om_jpeg_size(const unsigned char *data, unsigned long size, int *width, int *height) {
    struct jpeg_decompress_struct info;
    struct om_jpeg_error error;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = om_jpeg_error_exit;
    error.manager.emit_message = om_jpeg_silent;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&info);
        return 1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, size);
    jpeg_read_header(&info, TRUE);
    *width = (int)info.image_width;
    *height = (int)info.image_height;
    jpeg_destroy_decompress(&info);
    return 0;
}

/// Encodes 8-bit RGB as a baseline JPEG. 0 on success: `*output` (free with free()) holds `*length` bytes.
static inline int om_jpeg_encode(const unsigned char *pixels, int width, int height, int quality,
                                 unsigned char **output, unsigned long *length) {
    struct jpeg_compress_struct info;
    struct om_jpeg_error error;
    *output = NULL;
    *length = 0;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = om_jpeg_error_exit;
    error.manager.emit_message = om_jpeg_silent;
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
    info.input_components = 3;
    info.in_color_space = JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    size_t stride = (size_t)width * 3;
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + stride * info.next_scanline);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    return 0;
}
