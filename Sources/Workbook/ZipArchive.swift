import CMinizip

/// The zip container of a workbook, read by minizip from bytes in memory. Opening it walks the
/// central directory once: more entries than the limit, a declared total beyond the byte limit,
/// or an encrypted entry refuse the file before anything is inflated. Reading an entry then
/// counts what inflating really produces, against the same limit shared by every entry read, so
/// an archive that understates its sizes is stopped too.
final class ZipArchive {
    private let handle: unzFile
    private let storage: UnsafeMutableRawBufferPointer
    /// Entries by name, lower-cased (part names in a package are case-insensitive).
    private var entries: [String: unz64_file_pos] = [:]
    /// Every entry's name as the archive spells it, in its order.
    private(set) var names: [String] = []
    private let maxBytes: Int
    private var inflated = 0

    init(_ bytes: some Collection<UInt8>, limits: WorkbookLimits) throws(WorkbookFailure) {
        maxBytes = limits.maxUncompressedBytes
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        _ = storage.initializeMemory(as: UInt8.self, from: bytes)
        guard let opened = om_unzip_open_memory(storage.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count)) else {
            storage.deallocate()
            throw .notAWorkbook
        }
        handle = opened
        // From here deinit closes the archive, whatever is thrown below.
        try readDirectory(limits)
    }

    deinit {
        unzClose(handle)
        storage.deallocate()
    }

    private func readDirectory(_ limits: WorkbookLimits) throws(WorkbookFailure) {
        var global = unz_global_info64()
        guard unzGetGlobalInfo64(handle, &global) == UNZ_OK else { throw .notAWorkbook }
        guard global.number_entry <= UInt64(limits.maxEntries) else { throw .tooManyEntries(max: limits.maxEntries) }
        var declared: UInt64 = 0
        var count = 0
        var name = [CChar](repeating: 0, count: 1024)
        var status = unzGoToFirstFile(handle)
        while status == UNZ_OK {
            count += 1
            guard count <= limits.maxEntries else { throw .tooManyEntries(max: limits.maxEntries) }
            var info = unz_file_info64()
            guard unzGetCurrentFileInfo64(handle, &info, &name, UInt(name.count - 1), nil, 0, nil, 0) == UNZ_OK else {
                throw .notAWorkbook
            }
            // Bit 0 of the flags: the entry is encrypted (a password-protected zip).
            if info.flag & 1 != 0 { throw .encrypted }
            declared += info.uncompressed_size
            guard declared <= UInt64(maxBytes) else { throw .tooLarge(maxBytes: maxBytes) }
            var position = unz64_file_pos()
            guard unzGetFilePos64(handle, &position) == UNZ_OK else { throw .notAWorkbook }
            let entryName = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            names.append(entryName)
            if entries[entryName.lowercased()] == nil { entries[entryName.lowercased()] = position }
            status = unzGoToNextFile(handle)
        }
        guard status == UNZ_END_OF_LIST_OF_FILE else { throw .notAWorkbook }
    }

    func contains(_ name: String) -> Bool { entries[name.lowercased()] != nil }

    /// Inflates the entry piece by piece into `body`; false when there is no such entry.
    @discardableResult
    func read(_ name: String, into body: (UnsafeRawBufferPointer) throws(WorkbookFailure) -> Void) throws(WorkbookFailure) -> Bool {
        guard var position = entries[name.lowercased()] else { return false }
        guard unzGoToFilePos64(handle, &position) == UNZ_OK, unzOpenCurrentFile(handle) == UNZ_OK else {
            throw .damaged(part: name)
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        var closed = false
        defer { if !closed { unzCloseCurrentFile(handle) } }
        while true {
            let count = unzReadCurrentFile(handle, buffer.baseAddress, UInt32(buffer.count))
            if count < 0 { throw .damaged(part: name) }
            if count == 0 { break }
            inflated += Int(count)
            guard inflated <= maxBytes else { throw .tooLarge(maxBytes: maxBytes) }
            try body(UnsafeRawBufferPointer(rebasing: buffer[..<Int(count)]))
        }
        closed = true
        // The checksum is compared here, once the whole entry has been read.
        guard unzCloseCurrentFile(handle) == UNZ_OK else { throw .damaged(part: name) }
        return true
    }
}
