import Foundation
import HTTPServer
import OpenMarketCore
import TLS
import TestSupport
@testable import AdminPanel

extension StubAPI {
    /// A real HTTPS upstream for the panel: the sandbox at `sandbox` behind TLS with a
    /// self-signed certificate (`certificate`, or a new one). Each request is passed on over
    /// plain HTTP, and the sandbox's own address in its JSON (image URLs) becomes the HTTPS one,
    /// so images come over TLS too.
    static func proxying(to sandbox: URL, certificate: SelfSignedTestCertificate? = nil) throws -> StubAPI {
        let transport = PooledTransport(maxConnectionsPerHost: 8)
        let plainBase = sandbox.absoluteString.hasSuffix("/") ? String(sandbox.absoluteString.dropLast()) : sandbox.absoluteString
        let ownPort = PortBox()
        let upstream = try StubAPI(tls: certificate ?? SelfSignedTestCertificate.make()) { request in
            let body = try await request.body.collect()
            let headers = request.headers
                .filter { !["host", "content-length", "connection", "transfer-encoding"].contains($0.name.lowercased()) }
                .map { HeaderField(name: $0.name, value: $0.value) }
            let answer = try await transport.send(TransportRequest(method: request.method, url: URL(string: plainBase + request.target)!,
                                                                   headers: headers, body: body.isEmpty ? nil : body, timeout: 60))
            var data = answer.body
            if answer.headers.value(for: "Content-Type")?.contains("json") == true {
                data = Data(String(decoding: data, as: UTF8.self)
                    .replacingOccurrences(of: plainBase, with: "https://127.0.0.1:\(ownPort.value)").utf8)
            }
            var response = HTTPResponse(status: answer.status, body: .data(data))
            for field in answer.headers where !["content-length", "transfer-encoding", "connection"].contains(field.name.lowercased()) {
                response.headers.add(field.name, field.value)
            }
            return response
        }
        ownPort.value = upstream.port
        return upstream
    }
}

final class RequestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// A port known only after the listener started, read by its own handler.
final class PortBox: @unchecked Sendable {
    private let lock = NSLock()
    private var port = 0
    var value: Int {
        get { lock.withLock { port } }
        set { lock.withLock { port = newValue } }
    }
}
