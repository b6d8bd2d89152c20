/// The vendor this panel acts for, when known: configured, from the sandbox, or learned from the
/// API's answer to this panel's first register (the new product's `vendor_id`).
actor VendorIdentity {
    private(set) var id: Int?
    /// v1: no vendors, ownership is per product password, so every product shows its controls.
    private let everyProduct: Bool

    init(id: Int?, everyProduct: Bool = false) {
        self.id = everyProduct ? nil : id
        self.everyProduct = everyProduct
    }

    func learn(_ vendorID: Int) {
        if id == nil && !everyProduct { id = vendorID }
    }

    /// Edit and delete controls show for the vendor's own products, and for every product while
    /// the vendor is unknown (the API then refuses what is not ours, and the panel says so).
    func mayManage(productVendorID: Int) -> Bool {
        id == nil || id == productVendorID
    }
}
