import OpenMarketCore

/// Which product form was submitted. Register and edit answer an API refusal or failure the same
/// way, through `show(_:on:)`: the form comes back with the seller's input kept.
enum ProductFormSubmission: Sendable {
    case register, edit

    /// Puts why the API did not take the submission on the form and answers the status to
    /// re-show it with: field issues beside their fields (422), other refusals and failures as
    /// the form's alert. Editing a product that is gone is the 404 page instead.
    func show(_ error: OpenMarketError, on state: inout ProductFormState) throws(PageFailure) -> Int {
        switch error {
        case .validation(let issues):
            state.issues = issues
            return 422
        case .badRequest(let message):
            state.alert = "The store refused the \(self == .register ? "product" : "changes"): \(message)"
            return 422
        case .notFound where self == .edit:
            throw PageFailure(.notFound(message: ""), retryURL: nil)
        default:
            let failure = PageFailure(error, retryURL: nil)
            state.alert = "\(failure.heading). \(failure.message)" + keptNote(status: failure.status)
            return failure.status
        }
    }

    /// Tells the seller nothing is lost, unless saving again cannot help (another vendor's product).
    private func keptNote(status: Int) -> String {
        switch self {
        case .register: " Your input and images are kept below; submit again when ready."
        case .edit: status == 403 ? "" : " Your changes are kept below; save again when ready."
        }
    }
}
