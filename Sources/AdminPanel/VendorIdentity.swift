/// The vendor this panel acts for, when known: configured, from the sandbox, or learned from the
/// API's answer to this panel's first register (the new product's `vendor_id`).
actor VendorIdentity {
    private(set) var id: Int?

    init(id: Int?) { self.id = id }

    func learn(_ vendorID: Int) {
        if id == nil { id = vendorID }
    }

    /// Edit and delete controls show for the vendor's own products, and for every product while
    /// the vendor is unknown (the API then refuses what is not ours, and the panel says so).
    func mayManage(productVendorID: Int) -> Bool {
        id == nil || id == productVendorID
    }
}
