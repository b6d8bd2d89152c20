import COpenSSL
import Foundation

/// The certificate a server uses when the operator gives none: ECDSA P-256, self-signed, made
/// with OpenSSL in a folder of its own (`DATA/tls/`), reused on later starts so browsers that
/// accepted it keep accepting it. It is made again only when it no longer covers every name the
/// server answers to, or is about to expire.
public enum SelfSignedCertificate {
    public static let certificateFileName = "cert.pem"
    public static let keyFileName = "key.pem"
    /// Under 398 days, which some clients require even of certificates a person trusted by hand.
    public static let validityDays = 397
    static let renewalDays = 30

    public struct Files: Sendable, Equatable {
        public var certificateFile: String
        public var keyFile: String
        /// Made on this call (false when an existing one was reused).
        public var created: Bool
    }

    /// The certificate and key in `folder`, made when missing, expiring within 30 days, or not
    /// covering every entry of `names` (host names and IP addresses).
    public static func ensure(in folder: URL, names: [String]) throws(TLSError) -> Files {
        let certificateFile = folder.appendingPathComponent(certificateFileName).path
        let keyFile = folder.appendingPathComponent(keyFileName).path
        let wanted = usableNames(names)
        if FileManager.default.fileExists(atPath: certificateFile), FileManager.default.fileExists(atPath: keyFile) {
            // A key others could read may have leaked: say so rather than quietly replace it.
            try KeyFilePermissions.check(keyFile)
            if try covers(certificateFile: certificateFile, names: wanted) {
                return Files(certificateFile: certificateFile, keyFile: keyFile, created: false)
            }
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw TLSError("cannot create the TLS folder \(folder.path): \(error.localizedDescription)")
        }
        let (certificatePEM, keyPEM) = try generate(names: wanted)
        // The key first, then the certificate; each written whole and renamed into place.
        try write(keyPEM, to: keyFile, mode: 0o600)
        try write(certificatePEM, to: certificateFile, mode: 0o644)
        return Files(certificateFile: certificateFile, keyFile: keyFile, created: true)
    }

    /// Names a certificate can carry: IP addresses, and DNS names of letters, digits, dots and
    /// hyphens (anything else could not be matched anyway, and must not reach the SAN text).
    static func usableNames(_ names: [String]) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for raw in names {
            let name = raw.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            let isDNS = !name.isEmpty && name.count <= 253
                && name.unicodeScalars.allSatisfy { ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || $0 == "." || $0 == "-" }
            guard IPAddressText.isAddress(name) || isDNS, seen.insert(name).inserted else { continue }
            result.append(name)
        }
        return result
    }

    static func covers(certificateFile: String, names: [String]) throws(TLSError) -> Bool {
        guard let certificate = readCertificate(certificateFile) else { return false }
        defer { X509_free(certificate) }
        var days: Int32 = 0
        var seconds: Int32 = 0
        guard ASN1_TIME_diff(&days, &seconds, nil, X509_get0_notAfter(certificate)) == 1, days >= renewalDays else {
            return false
        }
        for name in names {
            let matched = IPAddressText.isAddress(name)
                ? X509_check_ip_asc(certificate, name, 0) == 1
                : X509_check_host(certificate, name, name.utf8.count, 0, nil) == 1
            if !matched { return false }
        }
        return true
    }

    /// The SHA-256 fingerprint of the PEM certificate in `file` (`AB:CD:…`).
    public static func fingerprint(ofCertificateFile file: String) -> String? {
        guard let certificate = readCertificate(file) else { return nil }
        defer { X509_free(certificate) }
        return CertificateFingerprint.sha256(certificate)
    }

    private static func readCertificate(_ file: String) -> OpaquePointer? {
        guard let bio = BIO_new_file(file, "r") else { ERR_clear_error(); return nil }
        defer { BIO_free(bio) }
        let certificate = PEM_read_bio_X509(bio, nil, nil, nil)
        ERR_clear_error()
        return certificate
    }

    /// A fresh key pair and a certificate for `names`, both PEM, valid from an hour ago for
    /// `validSeconds` (tests pass a negative span to make one that has already expired).
    public static func generate(names: [String], validSeconds: Int = validityDays * 86_400) throws(TLSError) -> (certificate: Data, key: Data) {
        guard let keyContext = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw TLSError.openSSL("cannot make a key") }
        defer { EVP_PKEY_CTX_free(keyContext) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(keyContext) == 1, EVP_PKEY_CTX_set_group_name(keyContext, "P-256") == 1,
              EVP_PKEY_generate(keyContext, &key) == 1, let key else {
            throw TLSError.openSSL("cannot make a P-256 key")
        }
        defer { EVP_PKEY_free(key) }

        guard let certificate = X509_new() else { throw TLSError.openSSL("cannot make a certificate") }
        defer { X509_free(certificate) }
        var serial = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&serial, Int32(serial.count)) == 1 else { throw TLSError.openSSL("no random bytes") }
        serial[0] &= 0x7F   // a positive serial number
        let number = BN_bin2bn(serial, Int32(serial.count), nil)
        defer { BN_free(number) }
        guard X509_set_version(certificate, 2) == 1,
              BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate)) != nil,
              X509_gmtime_adj(X509_getm_notBefore(certificate), -3600) != nil,
              X509_gmtime_adj(X509_getm_notAfter(certificate), validSeconds) != nil,
              X509_set_pubkey(certificate, key) == 1 else {
            throw TLSError.openSSL("cannot fill in the certificate")
        }
        let subject = X509_get_subject_name(certificate)
        let commonName = names.first { !IPAddressText.isAddress($0) } ?? "OpenMarket Admin"
        guard X509_NAME_add_entry_by_txt(subject, "O", om_mbstring_asc, "OpenMarket Admin (self-signed)", -1, -1, 0) == 1,
              X509_NAME_add_entry_by_txt(subject, "CN", om_mbstring_asc, commonName, -1, -1, 0) == 1,
              X509_set_issuer_name(certificate, subject) == 1 else {
            throw TLSError.openSSL("cannot name the certificate")
        }
        var v3 = X509V3_CTX()
        X509V3_set_ctx(&v3, certificate, certificate, nil, nil, 0)
        let alternativeNames = names.map { IPAddressText.isAddress($0) ? "IP:\($0)" : "DNS:\($0)" }.joined(separator: ",")
        var extensions: [(Int32, String)] = [
            (NID_basic_constraints, "critical,CA:FALSE"),
            (NID_key_usage, "critical,digitalSignature"),
            (NID_ext_key_usage, "serverAuth"),
            (NID_subject_key_identifier, "hash"),
        ]
        if !alternativeNames.isEmpty { extensions.append((NID_subject_alt_name, alternativeNames)) }
        for (nid, value) in extensions {
            guard let ext = X509V3_EXT_conf_nid(nil, &v3, nid, value) else {
                throw TLSError.openSSL("cannot add the certificate extension \(value)")
            }
            defer { X509_EXTENSION_free(ext) }
            guard X509_add_ext(certificate, ext, -1) == 1 else { throw TLSError.openSSL("cannot add a certificate extension") }
        }
        guard X509_sign(certificate, key, EVP_sha256()) > 0 else { throw TLSError.openSSL("cannot sign the certificate") }

        let certificatePEM = try pem { PEM_write_bio_X509($0, certificate) }
        let keyPEM = try pem { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }
        return (certificatePEM, keyPEM)
    }

    private static func pem(_ write: (OpaquePointer) -> Int32) throws(TLSError) -> Data {
        guard let bio = BIO_new(BIO_s_mem()) else { throw TLSError.openSSL("cannot encode PEM") }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw TLSError.openSSL("cannot encode PEM") }
        var pointer: UnsafeMutablePointer<CChar>?
        let length = om_bio_get_mem_data(bio, &pointer)
        guard let pointer, length > 0 else { throw TLSError.openSSL("cannot encode PEM") }
        return Data(bytes: pointer, count: length)
    }

    /// Writes a new file with `mode` from the start (the key is never readable by others, not
    /// even for a moment), then renames it over `path`.
    private static func write(_ data: Data, to path: String, mode: mode_t) throws(TLSError) {
        let temporary = path + ".new"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw TLSError("cannot write \(path): \(String(cString: strerror(errno)))") }
        fchmod(fd, mode)   // regardless of the umask
        let written = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == data.count, synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw TLSError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}
