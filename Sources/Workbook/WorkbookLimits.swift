/// Every bound the reader keeps. Reading stops at the first one crossed, so neither memory nor
/// time grows with what a hostile file declares.
public struct WorkbookLimits: Sendable, Equatable {
    /// Bytes inflated from the archive, every entry read counted together; the sum of the sizes
    /// the archive declares is held to it as well, before anything is inflated.
    public var maxUncompressedBytes = 50 << 20
    public var maxEntries = 10_000
    /// Rows holding at least one value (a header row counts too).
    public var maxRows = 1_001
    public var maxColumns = 100
    /// Text kept from the chosen sheet's cells, all together.
    public var maxCellTextBytes = 8 << 20

    public init() {}

    public init(maxRows: Int, maxColumns: Int) {
        self.maxRows = maxRows
        self.maxColumns = maxColumns
    }
}
