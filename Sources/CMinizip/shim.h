// minizip (libminizip-dev): the zip container of an .xlsx workbook. minizip reads through a table
// of file functions; these few read from bytes already in memory (an upload), so no temporary file
// is written and nothing is ever opened by name.
#include <stdlib.h>
#include <string.h>
#include <minizip/unzip.h>

struct om_zip_memory {
    const unsigned char *bytes;
    ZPOS64_T size;
    ZPOS64_T position;
};

static voidpf om_zip_memory_open(voidpf opaque, const void *source, int mode) {
    (void)opaque;
    if ((mode & ZLIB_FILEFUNC_MODE_READWRITEFILTER) != ZLIB_FILEFUNC_MODE_READ) return NULL;
    struct om_zip_memory *memory = malloc(sizeof(struct om_zip_memory));
    if (memory == NULL) return NULL;
    *memory = *(const struct om_zip_memory *)source;
    memory->position = 0;
    return memory;
}

static uLong om_zip_memory_read(voidpf opaque, voidpf stream, void *buffer, uLong size) {
    (void)opaque;
    struct om_zip_memory *memory = stream;
    ZPOS64_T left = memory->position < memory->size ? memory->size - memory->position : 0;
    uLong count = size < left ? size : (uLong)left;
    memcpy(buffer, memory->bytes + memory->position, count);
    memory->position += count;
    return count;
}

static uLong om_zip_memory_write(voidpf opaque, voidpf stream, const void *buffer, uLong size) {
    (void)opaque; (void)stream; (void)buffer; (void)size;
    return 0;
}

static ZPOS64_T om_zip_memory_tell(voidpf opaque, voidpf stream) {
    (void)opaque;
    return ((struct om_zip_memory *)stream)->position;
}

static long om_zip_memory_seek(voidpf opaque, voidpf stream, ZPOS64_T offset, int origin) {
    (void)opaque;
    struct om_zip_memory *memory = stream;
    ZPOS64_T base;
    switch (origin) {
    case ZLIB_FILEFUNC_SEEK_SET: base = 0; break;
    case ZLIB_FILEFUNC_SEEK_CUR: base = memory->position; break;
    case ZLIB_FILEFUNC_SEEK_END: base = memory->size; break;
    default: return -1;
    }
    // Offsets are unsigned: anything that would land past the end (or wrap around) is refused.
    if (offset > memory->size - base) return -1;
    ZPOS64_T target = base + offset;
    memory->position = target;
    return 0;
}

static int om_zip_memory_close(voidpf opaque, voidpf stream) {
    (void)opaque;
    free(stream);
    return 0;
}

static int om_zip_memory_error(voidpf opaque, voidpf stream) {
    (void)opaque; (void)stream;
    return 0;
}

/// Opens a zip archive held in memory (`bytes` must outlive the returned handle). NULL when the
/// bytes are no zip archive minizip can read.
static inline unzFile om_unzip_open_memory(const unsigned char *bytes, unsigned long long size) {
    struct om_zip_memory source = { bytes, size, 0 };
    zlib_filefunc64_def functions;
    functions.zopen64_file = om_zip_memory_open;
    functions.zread_file = om_zip_memory_read;
    functions.zwrite_file = om_zip_memory_write;
    functions.ztell64_file = om_zip_memory_tell;
    functions.zseek64_file = om_zip_memory_seek;
    functions.zclose_file = om_zip_memory_close;
    functions.zerror_file = om_zip_memory_error;
    functions.opaque = NULL;
    return unzOpen2_64(&source, &functions);
}
