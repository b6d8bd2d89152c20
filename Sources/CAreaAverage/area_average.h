// Area averaging for the panel's photo shrinker: an image made smaller as its rows arrive from a
// decoder, each target pixel the average of the source pixels in its box, so the full-size image
// is never held. In C (not Swift) because it touches every source pixel, up to 40 million of
// them, and must stay fast in debug builds too.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct om_area {
    int source_width, source_height, target_width, target_height, channels;
    /// Sums for the whole target (rows arrive in any order: interlaced PNG passes) rather than
    /// for one target row at a time (rows arrive top to bottom).
    int whole;
    /// The target column of each source column, and how many source columns and rows fall in
    /// each target column and row.
    int *column;
    uint32_t *columns_in;
    uint32_t *rows_in;
    uint32_t *sums;
    /// The target row whose sums are held (one-row mode); -1 before the first row.
    int held_row;
    uint8_t *pixels;
    /// A source pixel was not fully opaque (four channels only).
    int translucent;
} om_area;

static inline void om_area_free(om_area *area) {
    if (area == NULL) return;
    free(area->column);
    free(area->columns_in);
    free(area->rows_in);
    free(area->sums);
    free(area->pixels);
    free(area);
}

static inline int om_area_target_row(const om_area *area, int y) {
    int row = (int)((int64_t)y * area->target_height / area->source_height);
    return row < area->target_height - 1 ? row : area->target_height - 1;
}

/// Sizes are positive and the target no larger than the source on either side; each target pixel
/// may cover at most 2^24 source pixels (its sums are 32 bits). NULL when out of memory.
static inline om_area *om_area_create(int source_width, int source_height, int target_width, int target_height,
                                      int channels, int whole) {
    om_area *area = calloc(1, sizeof(om_area));
    if (area == NULL) return NULL;
    area->source_width = source_width;
    area->source_height = source_height;
    area->target_width = target_width;
    area->target_height = target_height;
    area->channels = channels;
    area->whole = whole;
    area->held_row = -1;
    size_t target_row = (size_t)target_width * (size_t)channels;
    area->column = malloc(sizeof(int) * (size_t)source_width);
    area->columns_in = calloc((size_t)target_width, sizeof(uint32_t));
    area->rows_in = calloc((size_t)target_height, sizeof(uint32_t));
    area->sums = calloc(whole ? target_row * (size_t)target_height : target_row, sizeof(uint32_t));
    area->pixels = malloc(target_row * (size_t)target_height);
    if (!area->column || !area->columns_in || !area->rows_in || !area->sums || !area->pixels) {
        om_area_free(area);
        return NULL;
    }
    for (int x = 0; x < source_width; x++) {
        int column = (int)((int64_t)x * target_width / source_width);
        if (column > target_width - 1) column = target_width - 1;
        area->column[x] = column;
        area->columns_in[column] += 1;
    }
    for (int y = 0; y < source_height; y++) area->rows_in[om_area_target_row(area, y)] += 1;
    return area;
}

/// Writes target row `row` from its sums (`sums` points at that row's first sum).
static inline void om_area_emit(om_area *area, int row, const uint32_t *sums) {
    int channels = area->channels;
    uint8_t *out = area->pixels + (size_t)row * (size_t)area->target_width * (size_t)channels;
    for (int x = 0; x < area->target_width; x++) {
        uint32_t count = area->columns_in[x] * area->rows_in[row];
        if (count == 0) count = 1;
        for (int k = 0; k < channels; k++) {
            out[x * channels + k] = (uint8_t)((sums[x * channels + k] + count / 2) / count);
        }
    }
}

/// Adds `count` pixels of source row `y`, found at columns first_x, first_x + step_x, … (a whole
/// row is 0 and 1). In one-row mode rows must come top to bottom.
static inline void om_area_add(om_area *area, const uint8_t *pixels, int count, int y, int first_x, int step_x) {
    int channels = area->channels;
    int row = om_area_target_row(area, y);
    uint32_t *sums;
    if (area->whole) {
        sums = area->sums + (size_t)row * (size_t)area->target_width * (size_t)channels;
    } else {
        if (row != area->held_row) {
            if (area->held_row >= 0) om_area_emit(area, area->held_row, area->sums);
            memset(area->sums, 0, sizeof(uint32_t) * (size_t)area->target_width * (size_t)channels);
            area->held_row = row;
        }
        sums = area->sums;
    }
    const int *column = area->column;
    int x = first_x;
    if (channels == 4) {
        uint8_t opacity = 255;
        for (int i = 0; i < count; i++, x += step_x, pixels += 4) {
            uint32_t *sum = sums + column[x] * 4;
            sum[0] += pixels[0];
            sum[1] += pixels[1];
            sum[2] += pixels[2];
            sum[3] += pixels[3];
            opacity &= pixels[3];
        }
        if (opacity != 255) area->translucent = 1;
    } else {
        for (int i = 0; i < count; i++, x += step_x, pixels += 3) {
            uint32_t *sum = sums + column[x] * 3;
            sum[0] += pixels[0];
            sum[1] += pixels[1];
            sum[2] += pixels[2];
        }
    }
}

/// The target's pixels (target_width × target_height × channels bytes, owned by the area) once
/// every source row was added. Four channels become three (RGB) when every source pixel was
/// opaque: `channels` says which.
static inline const uint8_t *om_area_finish(om_area *area) {
    if (area->whole) {
        for (int row = 0; row < area->target_height; row++) {
            om_area_emit(area, row, area->sums + (size_t)row * (size_t)area->target_width * (size_t)area->channels);
        }
    } else if (area->held_row >= 0) {
        om_area_emit(area, area->held_row, area->sums);
        area->held_row = -1;
    }
    if (area->channels == 4 && !area->translucent) {
        size_t count = (size_t)area->target_width * (size_t)area->target_height;
        for (size_t index = 0; index < count; index++) {
            area->pixels[index * 3] = area->pixels[index * 4];
            area->pixels[index * 3 + 1] = area->pixels[index * 4 + 1];
            area->pixels[index * 3 + 2] = area->pixels[index * 4 + 2];
        }
        area->channels = 3;
    }
    return area->pixels;
}
