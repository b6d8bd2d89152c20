import Foundation

/// Reading the 2021 API's answers (`--dialect v1`).
extension OpenMarketJSON {
    public static func decodeV1ListPage(_ data: Data) throws(OpenMarketError) -> V1ListPage {
        try read(data) { (json) throws(OpenMarketError) in try V1ListPage(reading: json) }
    }

    public static func decodeV1Detail(_ data: Data) throws(OpenMarketError) -> V1ItemDetail {
        try read(data) { (json) throws(OpenMarketError) in try V1ItemDetail(reading: json) }
    }
}
