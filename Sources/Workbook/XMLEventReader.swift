import CExpat

/// What a part's reader does with the events of its XML.
protocol XMLEventHandler: AnyObject {
    func start(_ name: String, _ attributes: XMLAttributes) throws(WorkbookFailure)
    func end(_ name: String) throws(WorkbookFailure)
    func text(_ bytes: UnsafeBufferPointer<UInt8>) throws(WorkbookFailure)
}

/// The attributes of the element being started, valid only during `start`. Looked up by local
/// name: `r:id` is `id`, whatever prefix the writer chose for its namespace.
struct XMLAttributes {
    fileprivate let pairs: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?

    subscript(_ localName: String) -> String? {
        guard var pair = pairs else { return nil }
        while let name = pair[0], let value = pair[1] {
            if XMLNames.localName(name, equals: localName) { return String(cString: value) }
            pair += 2
        }
        return nil
    }
}

enum XMLNames {
    /// The part of a qualified name after its prefix (`x:row` → `row`).
    static func local(_ name: UnsafePointer<XML_Char>) -> String {
        var start = name
        var cursor = name
        while cursor.pointee != 0 {
            if cursor.pointee == 0x3A { start = cursor + 1 }
            cursor += 1
        }
        return String(cString: start)
    }

    static func localName(_ name: UnsafePointer<XML_Char>, equals expected: String) -> Bool {
        var start = name
        var cursor = name
        while cursor.pointee != 0 {
            if cursor.pointee == 0x3A { start = cursor + 1 }
            cursor += 1
        }
        var index = 0
        for byte in expected.utf8 {
            guard start[index] != 0, UInt8(bitPattern: start[index]) == byte else { return false }
            index += 1
        }
        return start[index] == 0
    }
}

/// expat, fed a part piece by piece as it is inflated. It never reads a DTD: a document type
/// declaration (where billion-laughs entities and external entities live) stops the part at once
/// as `.documentType`, parameter entities are never parsed, and no external entity handler is
/// set, so expat never opens a file or URL. An entity a document uses without declaring it is a
/// well-formedness error (`.damaged`).
final class XMLEventReader {
    private let parser: XML_Parser
    private let handler: any XMLEventHandler
    private let part: String
    /// The first failure a handler raised; expat is stopped at it.
    private var failure: WorkbookFailure?

    init(part: String, handler: any XMLEventHandler) {
        self.part = part
        self.handler = handler
        // UTF-8 out whatever the part's declared encoding (expat knows UTF-8/16, ASCII, Latin-1).
        parser = XML_ParserCreate(nil)
        XML_SetUserData(parser, Unmanaged.passUnretained(self).toOpaque())
        XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)
        XML_SetStartDoctypeDeclHandler(parser) { context, _, _, _, _ in
            XMLEventReader.from(context).stop(.documentType)
        }
        XML_SetEntityDeclHandler(parser) { context, _, _, _, _, _, _, _, _ in
            XMLEventReader.from(context).stop(.documentType)
        }
        XML_SetElementHandler(parser, { context, name, attributes in
            let reader = XMLEventReader.from(context)
            guard reader.failure == nil, let name else { return }
            do throws(WorkbookFailure) {
                try reader.handler.start(XMLNames.local(name), XMLAttributes(pairs: attributes))
            } catch {
                reader.stop(error)
            }
        }, { context, name in
            let reader = XMLEventReader.from(context)
            guard reader.failure == nil, let name else { return }
            do throws(WorkbookFailure) { try reader.handler.end(XMLNames.local(name)) } catch { reader.stop(error) }
        })
        XML_SetCharacterDataHandler(parser) { context, text, length in
            let reader = XMLEventReader.from(context)
            guard reader.failure == nil, let text, length > 0 else { return }
            let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
            do throws(WorkbookFailure) {
                try reader.handler.text(UnsafeBufferPointer(start: bytes, count: Int(length)))
            } catch {
                reader.stop(error)
            }
        }
    }

    deinit { XML_ParserFree(parser) }

    private static func from(_ context: UnsafeMutableRawPointer?) -> XMLEventReader {
        Unmanaged<XMLEventReader>.fromOpaque(context!).takeUnretainedValue()
    }

    private func stop(_ reason: WorkbookFailure) {
        guard failure == nil else { return }
        failure = reason
        XML_StopParser(parser, XML_FALSE)
    }

    /// Parses the next piece; `last` ends the document (an unclosed element is then an error).
    func feed(_ bytes: UnsafeRawBufferPointer, last: Bool = false) throws(WorkbookFailure) {
        if let failure { throw failure }
        let count = Int32(clamping: bytes.count)
        let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
        let status = XML_Parse(parser, base, bytes.count > 0 ? count : 0, last ? 1 : 0)
        if let failure { throw failure }
        if status != XML_STATUS_OK { throw .damaged(part: part) }
    }
}
