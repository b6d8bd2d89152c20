import OpenMarketCore

/// What the scheduler asks of the Open Market API: read a product, set its discount. The panel's
/// `ProductWriter` does both (the copy shows the change at once); tests put a fake in its place to
/// crash, fail or count calls.
protocol SaleProductAPI: Sendable {
    func product(id: Int) async throws(OpenMarketError) -> ProductDetail
    /// PATCHes `discounted_price` only: sent twice with the same value, it changes nothing more.
    func setDiscount(_ amount: Double, productID: Int) async throws(OpenMarketError) -> ProductDetail
}

extension OpenMarketError {
    /// Whether trying again later can help: the API down, slow or broken, or the vendor's
    /// credentials refused (fixed by restarting with the right ones). A deleted or foreign
    /// product, or a refused value, stays so.
    var worthRetryingLater: Bool {
        switch self {
        case .timeout, .unreachable, .server, .undecodable, .unauthorized: true
        case .validation, .badRequest, .forbidden, .notFound, .payloadTooLarge: false
        }
    }
}

extension OpenMarketError {
    var meansProductGone: Bool {
        if case .notFound = self { return true }
        return false
    }
}
