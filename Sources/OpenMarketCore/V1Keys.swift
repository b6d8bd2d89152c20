/// The member names of the 2021 API's answers (one spelling each: v1 had a single server).
enum V1Keys {
    static let page = ["page"]
    static let items = ["items"]
    static let id = ["id"]
    static let title = ["title"]
    static let descriptions = ["descriptions"]
    static let price = ["price"]
    static let currency = ["currency"]
    static let stock = ["stock"]
    static let discountedPrice = ["discounted_price"]
    static let thumbnails = ["thumbnails"]
    static let images = ["images"]
    static let registrationDate = ["registration_date"]
}
