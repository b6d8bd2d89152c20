import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback "server" that answers every connection with the same raw bytes, however broken,
/// once it has read a request head. For what a real server never sends.
final class CannedUpstream: Sendable {
    let port: Int
    private let fd: Int32

    init(answer: String) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && Glibc.listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw CocoaError(.fileWriteUnknown)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let (listener, bytes) = (fd, Array(answer.utf8))
        // Blocking accepts on a thread of its own; it ends when `stop` shuts the socket down.
        Thread.detachNewThread {
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                var head: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
                while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
                    let n = recv(client, &chunk, chunk.count, 0)
                    guard n > 0 else { break }
                    head += chunk[0..<n]
                }
                _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(client)
            }
        }
    }

    func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}
