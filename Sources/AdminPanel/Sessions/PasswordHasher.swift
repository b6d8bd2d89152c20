import CSodium
import Foundation
import NetworkIO

/// Argon2id password hashes through libsodium's `crypto_pwhash_str` (salt and parameters are
/// inside the stored string). Hashing is deliberately slow and memory-hard, so it runs one at a
/// time on a thread of its own: a burst of sign-ins neither starves the Swift concurrency pool
/// nor multiplies the memory use (64 MiB per hash at the interactive strength).
actor PasswordHasher {
    enum Strength: Sendable {
        /// libsodium's INTERACTIVE limits: the production setting.
        case interactive
        /// libsodium's MIN limits: for tests only, where hundreds of hashes would take minutes.
        case minimum

        var limits: (ops: UInt64, memory: Int) {
            switch self {
            case .interactive: (UInt64(crypto_pwhash_OPSLIMIT_INTERACTIVE), Int(crypto_pwhash_MEMLIMIT_INTERACTIVE))
            case .minimum: (UInt64(crypto_pwhash_OPSLIMIT_MIN), Int(crypto_pwhash_MEMLIMIT_MIN))
            }
        }
    }

    private let executor = BlockingThread()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private let strength: Strength
    /// A hash of a random password: verifying an unknown name against it costs the same as a real check.
    private var decoy: String?

    init(strength: Strength) {
        precondition(PanelCrypto.ready, "libsodium failed to initialise")
        self.strength = strength
    }

    func hash(_ password: String) throws -> String {
        var output = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        let (ops, memory) = strength.limits
        // The length is passed, so a password is hashed whole (an embedded NUL does not cut it).
        let status = crypto_pwhash_str(&output, password, UInt64(password.utf8.count), ops, memory)
        guard status == 0 else { throw PasswordHashError() }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Checks `password` against `stored`; with no stored hash (unknown name, not yet set up) it
    /// verifies against the decoy and answers false, taking as long as a real check.
    func verify(_ password: String, against stored: String?) -> Bool {
        let target: String
        if let stored { target = stored } else {
            if decoy == nil { decoy = try? hash(SecureToken.make()) }
            target = decoy ?? ""
        }
        let ok = crypto_pwhash_str_verify(target, password, UInt64(password.utf8.count)) == 0
        return ok && stored != nil
    }
}

struct PasswordHashError: Error, CustomStringConvertible {
    var description: String { "the password could not be hashed (out of memory?)" }
}
