// Compiled into every module that hosts a fuzz entry point (scripts/fuzz adds Fuzz/Support/).
#if canImport(Glibc)
import Glibc
#endif

/// Like `precondition`, but prints its message in optimized builds too, so a fuzz finding
/// says what broke before libFuzzer saves the input.
func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    guard !condition() else { return }
    let line = Array("fuzz check failed: \(message())\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
}
