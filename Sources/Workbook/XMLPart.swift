/// Reads one part of the archive through a handler, start to end.
enum XMLPart {
    /// false when the archive has no such part.
    @discardableResult
    static func read(_ name: String, from archive: ZipArchive, into handler: any XMLEventHandler) throws(WorkbookFailure) -> Bool {
        let reader = XMLEventReader(part: name, handler: handler)
        let found = try archive.read(name) { (piece) throws(WorkbookFailure) in try reader.feed(piece) }
        if found { try reader.feed(UnsafeRawBufferPointer(start: nil, count: 0), last: true) }
        return found
    }
}
