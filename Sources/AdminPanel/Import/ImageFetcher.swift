import Foundation
import HTTPClient
import OpenMarketCore

/// Fetches one photo an import row names by URL, through the panel's `HTTPClient` (the one door
/// to the outside): the name is looked up once, every address it has is judged by
/// `ImageAddress`, and the request connects to the judged address itself, so DNS answering
/// differently a moment later changes nothing. One deadline covers the lookup, connect, TLS,
/// head and body; the body may not pass the upload limit; nothing compressed, no redirects.
struct ImageFetcher: Sendable {
    /// Why a photo could not be fetched: `key` (and `arguments`) name the catalog text the results
    /// page shows in the reader's language; `message` is the same in English for logs and tests.
    struct Failure: Error, Equatable {
        var key: String
        var arguments: [String: String] = [:]
        var message: String

        init(_ key: String, _ arguments: [String: String] = [:], message: String) {
            self.key = "import_fetch_" + key
            self.arguments = arguments
            self.message = message
        }
    }

    var client: HTTPClient
    var trustedOrigins: [URL]
    var maxBytes: Int
    var timeout: TimeInterval = 10

    func fetch(_ url: URL) async throws -> (filename: String, data: Data) {
        guard let host = url.host, let scheme = url.scheme?.lowercased() else { throw Failure("not_address", message: "not an address") }
        let started = ContinuousClock.now
        let total = Duration.milliseconds(WholeNumber.milliseconds(max(timeout, 0.1)))
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        let name = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        let addresses = await HTTPClient.addresses(of: name, port: port, timeout: total)
        guard let target = addresses.first else {
            if ContinuousClock.now - started >= total { throw deadlinePassed }
            throw Failure("unresolved", message: "the host name could not be resolved")
        }
        for address in addresses where !ImageAddress.isAllowed(address.bytes, url: url, trustedOrigins: trustedOrigins) {
            throw Failure("private", message: "the address is on a private, loopback, link-local or reserved network")
        }
        let answer: (status: Int, headers: [(String, String)], body: Data)
        do {
            answer = try await client.send(method: "GET", url: Self.withoutFragment(url), headers: [("Accept", "image/*")],
                                           timeout: total - (ContinuousClock.now - started), maxBodyBytes: maxBytes,
                                           connectingTo: target)
        } catch let error as HTTPClientError {
            throw failure(error)
        } catch {
            throw Failure("unreachable", message: "the server could not be reached")
        }
        if (300...399).contains(answer.status) {
            throw Failure("redirect", ["status": String(answer.status)],
                          message: "the address redirects elsewhere (\(answer.status)); give the photo's own address")
        }
        guard answer.status == 200 else {
            throw Failure("status", ["status": String(answer.status)], message: "the server answered \(answer.status)")
        }
        return (Self.filename(url), answer.body)
    }

    /// The client's refusal in the words of the results page.
    private func failure(_ error: HTTPClientError) -> Failure {
        switch error {
        case .timeout:
            return deadlinePassed
        case .bodyTooLarge:
            return Failure("too_large", ["mib": String(maxBytes >> 20)], message: "the photo is larger than \(maxBytes >> 20) MiB")
        case .encodedBody(let coding):
            return Failure("compressed", ["coding": coding], message: "the server sent it \(coding)-compressed, which was not asked for")
        case .incompleteResponse:
            return Failure("cut_short", message: "the server closed the connection before the photo was complete")
        case .malformedResponse:
            return Failure("bad_answer", message: "the server's answer was not valid HTTP")
        case .invalidRequest:
            return Failure("bad_characters", message: "the address has characters that cannot be sent")
        case .connectionFailed(let reason) where reason.contains(HTTPClientError.certificateRefused):
            return Failure("certificate", message: "the server's TLS certificate was refused")
        case .connectionFailed:
            return Failure("unreachable", message: "the server could not be reached")
        }
    }

    private var deadlinePassed: Failure {
        let seconds = WholeNumber.plainDigits(timeout) ?? String(timeout)
        return Failure("deadline", ["seconds": seconds], message: "the photo did not arrive within \(seconds) seconds")
    }

    /// The URL's last path component, or `photo.jpg`.
    static func filename(_ url: URL) -> String {
        let last = url.lastPathComponent
        return last.isEmpty || last == "/" ? "photo.jpg" : ImageStager.safeFilename(last)
    }

    /// A fragment is the browser's, never sent.
    private static func withoutFragment(_ url: URL) -> URL {
        guard url.fragment != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.fragment = nil
        return components.url ?? url
    }
}
