import Foundation

public struct MultipartLimits: Sendable {
    public var maxParts: Int
    public var maxHeaderBytesPerPart: Int
    /// Largest text field.
    public var maxFieldBytes: Int
    /// Largest single file.
    public var maxFileBytes: Int
    /// Files larger than this go to a private temporary file instead of memory.
    public var spoolThreshold: Int

    public init(maxParts: Int = 64, maxHeaderBytesPerPart: Int = 8 * 1024, maxFieldBytes: Int = 64 * 1024,
                maxFileBytes: Int = 16 * 1024 * 1024, spoolThreshold: Int = 256 * 1024) {
        self.maxParts = maxParts
        self.maxHeaderBytesPerPart = maxHeaderBytesPerPart
        self.maxFieldBytes = maxFieldBytes
        self.maxFileBytes = maxFileBytes
        self.spoolThreshold = spoolThreshold
    }
}

/// A file part of a multipart form.
public struct UploadedFile: Sendable {
    enum Storage: Sendable {
        case memory(Data)
        /// A 0600 temporary file, deleted by the server once the response is produced.
        case spooled(path: String)
    }

    public var fieldName: String
    /// The client's file name, reduced to its last path component. Never trust it for the type.
    public var filename: String
    /// The part's Content-Type as sent by the client. Never trust it either.
    public var contentType: String?
    public var size: Int
    let storage: Storage

    public init(fieldName: String, filename: String, contentType: String?, data: Data) {
        self.fieldName = fieldName
        self.filename = filename
        self.contentType = contentType
        self.size = data.count
        self.storage = .memory(data)
    }

    init(fieldName: String, filename: String, contentType: String?, size: Int, storage: Storage) {
        self.fieldName = fieldName
        self.filename = filename
        self.contentType = contentType
        self.size = size
        self.storage = storage
    }

    public func data() throws -> Data {
        switch storage {
        case .memory(let data): return data
        case .spooled(let path): return try Data(contentsOf: URL(fileURLWithPath: path))
        }
    }
}

public struct MultipartForm: Sendable {
    public var fields: FormFields
    /// File parts, in order. File inputs left empty (no name, no bytes) are not included.
    public var files: [UploadedFile]

    public init(fields: FormFields = FormFields(), files: [UploadedFile] = []) {
        self.fields = fields
        self.files = files
    }

    public func files(named name: String) -> [UploadedFile] { files.filter { $0.fieldName == name } }
}

extension HTTPRequest {
    /// Parses a `multipart/form-data` body while it arrives. Throws `HTTPError` 415 (other
    /// content type), 400 (malformed, missing final boundary) or 413 (limits).
    /// `typedPartsAreFiles`: a part with a `Content-Type` but no `filename` is a file too (some
    /// API clients send images that way); otherwise only a `filename` makes a file.
    /// Files past `limits.spoolThreshold` are spooled to `spoolDirectory` (a `ScratchFolder`'s,
    /// so a crash leaves nothing behind for long); nil = the system's temporary directory.
    public func multipartForm(limits: MultipartLimits = MultipartLimits(), typedPartsAreFiles: Bool = false,
                              spoolDirectory: URL? = nil) async throws -> MultipartForm {
        guard let header = headers["Content-Type"] else { throw HTTPError(status: 415, message: "Expected a multipart form") }
        let type = MediaType(header)
        guard type.essence == "multipart/form-data" else { throw HTTPError(status: 415, message: "Expected a multipart form") }
        guard let boundary = type.parameters["boundary"], MultipartParser.isValidBoundary(boundary) else {
            throw HTTPError(status: 400, message: "Missing or invalid multipart boundary")
        }
        var assembler = MultipartAssembler(boundary: boundary, limits: limits, body: body,
                                           typedPartsAreFiles: typedPartsAreFiles,
                                           spoolDirectory: spoolDirectory?.path ?? NSTemporaryDirectory())
        for try await piece in body.chunks() {
            try assembler.consume(piece)
        }
        return try assembler.finish()
    }
}

/// Turns parser events into fields and files, enforcing the limits and spooling big files.
struct MultipartAssembler {
    private var parser: MultipartParser
    private let limits: MultipartLimits
    private let body: RequestBody
    private var form = MultipartForm()
    private var parts = 0
    private var current: MultipartParser.PartHeaders?
    private var buffer = Data()
    private var size = 0
    private var spool: (handle: FileHandle, path: String)?
    private let typedPartsAreFiles: Bool
    /// The current part is a file only by its Content-Type (kept even when empty).
    private var fileWithoutName = false
    private let spoolDirectory: String

    init(boundary: String, limits: MultipartLimits, body: RequestBody, typedPartsAreFiles: Bool = false,
         spoolDirectory: String = NSTemporaryDirectory()) {
        parser = MultipartParser(boundary: boundary, maxHeaderBytes: limits.maxHeaderBytesPerPart)
        self.limits = limits
        self.body = body
        self.typedPartsAreFiles = typedPartsAreFiles
        self.spoolDirectory = spoolDirectory
    }

    mutating func consume(_ piece: Data) throws {
        parser.feed(piece)
        try drain()
    }

    mutating func finish() throws -> MultipartForm {
        try drain()
        guard parser.isFinished else { throw HTTPError(status: 400, message: "Multipart body ends without its final boundary") }
        return form
    }

    private mutating func drain() throws {
        while true {
            switch parser.next() {
            case .needMore, .end:
                return
            case .error(let error):
                throw error
            case .partHeaders(let headers):
                parts += 1
                guard parts <= limits.maxParts else { throw HTTPError(status: 413, message: "Too many parts in the form (at most \(limits.maxParts))",
                                    limit: .parts(max: limits.maxParts)) }
                current = headers
                if typedPartsAreFiles, headers.filename == nil, headers.contentType != nil {
                    current?.filename = ""
                    fileWithoutName = true
                } else {
                    fileWithoutName = false
                }
                buffer = Data()
                size = 0
            case .data(let bytes):
                guard let part = current else { continue }
                size += bytes.count
                if part.filename == nil {
                    guard size <= limits.maxFieldBytes else {
                        throw HTTPError(status: 413, message: "Form field \(Self.quotedName(part.name)) is too large (at most \(limits.maxFieldBytes) bytes)",
                                        limit: .field(name: part.name, maxBytes: limits.maxFieldBytes))
                    }
                    buffer.append(contentsOf: bytes)
                } else {
                    guard size <= limits.maxFileBytes else {
                        throw HTTPError(status: 413, message: "File in \(Self.quotedName(part.name)) is too large (at most \(limits.maxFileBytes) bytes)",
                                        limit: .file(name: part.name, maxBytes: limits.maxFileBytes))
                    }
                    try appendFileBytes(bytes)
                }
            case .partEnd:
                try endPart()
            }
        }
    }

    private mutating func appendFileBytes(_ bytes: ArraySlice<UInt8>) throws {
        if spool == nil && buffer.count + bytes.count > limits.spoolThreshold {
            let (handle, path) = try Self.makeSpoolFile(in: spoolDirectory)
            body.registerSpoolFile(path)
            spool = (handle, path)
            try handle.write(contentsOf: buffer)
            buffer = Data()
        }
        if let spool {
            try spool.handle.write(contentsOf: Data(bytes))
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    private mutating func endPart() throws {
        guard let part = current else { return }
        current = nil
        if let filename = part.filename {
            let storage: UploadedFile.Storage
            if let spool {
                try spool.handle.close()
                storage = .spooled(path: spool.path)
                self.spool = nil
            } else {
                storage = .memory(buffer)
            }
            // An empty file input: the browser sends filename="" and no bytes. Not a file.
            if filename.isEmpty && size == 0 && !fileWithoutName { return }
            form.files.append(UploadedFile(fieldName: part.name, filename: filename, contentType: part.contentType,
                                           size: size, storage: storage))
        } else {
            guard let text = String(data: buffer, encoding: .utf8) else {
                throw HTTPError(status: 400, message: "Form field \(Self.quotedName(part.name)) is not UTF-8")
            }
            form.fields.append(part.name, text)
        }
        buffer = Data()
    }

    /// A field name for a message: quoted, at most 40 characters, control characters dropped.
    static func quotedName(_ name: String) -> String {
        let visible = String(name.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(40))
        return "\"" + visible + "\""
    }

    /// A new file only this process can read (mkstemp creates it with mode 0600).
    static func makeSpoolFile(in directory: String) throws -> (FileHandle, String) {
        var template = Array((directory + "/httpserver-upload-XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw HTTPError(status: 500, message: "Cannot store the upload") }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (FileHandle(fileDescriptor: fd, closeOnDealloc: true), path)
    }
}
