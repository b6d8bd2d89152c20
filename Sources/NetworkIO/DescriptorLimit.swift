import Foundation

/// The process's open-file limit (RLIMIT_NOFILE): every connection is a descriptor.
public enum DescriptorLimit {
    /// The soft limit now.
    public static var current: Int {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        return Int(clamping: limit.rlim_cur)
    }

    /// Raises the soft limit toward `wanted`, as far as the hard limit allows (it is never
    /// lowered). Returns the soft limit in force afterwards.
    @discardableResult
    public static func raise(toward wanted: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return current }
        let target = min(rlim_t(max(0, wanted)), limit.rlim_max)
        if limit.rlim_cur < target {
            limit.rlim_cur = target
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return current
    }
}
