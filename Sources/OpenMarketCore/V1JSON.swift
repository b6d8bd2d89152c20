import Foundation

/// Reading the 2021 API's answers (`--dialect v1`).
extension OpenMarketJSON {
    public static func decodeV1ListPage(_ data: Data) throws(OpenMarketError) -> V1ListPage {
        try V1ListPage(reading: document(data))
    }

    public static func decodeV1Detail(_ data: Data) throws(OpenMarketError) -> V1ItemDetail {
        try V1ItemDetail(reading: document(data))
    }
}
