import Foundation

/// Whole buffers written to a file descriptor: the one loop over `write(2)` that every file
/// writer shares (staged files, the trash, the backup, the access log).
public enum FileOutput {
    /// Writes all of `bytes`, retrying partial writes and EINTR. Nil when every byte was written;
    /// otherwise the failed call's errno (EIO when a write wrote nothing, which a file never does).
    public static func writeAll(_ fd: Int32, _ bytes: some ContiguousBytes) -> Int32? {
        // write(2) takes a pointer: the buffer is lent for the calls only.
        bytes.withUnsafeBytes { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return written < 0 ? errno : EIO
                }
            }
            return nil
        }
    }
}
