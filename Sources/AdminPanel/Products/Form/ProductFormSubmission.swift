import OpenMarketCore

/// Which product form was submitted. Register and edit answer an API refusal or failure the same
/// way, through `show(_:on:)`: the form comes back with the seller's input kept.
enum ProductFormSubmission: Sendable {
    case register, edit

    /// Puts why the API did not take the submission on the form and answers the status to
    /// re-show it with: field issues beside their fields (422), other refusals and failures as
    /// the form's alert. Editing a product that is gone is the 404 page instead.
    func show(_ error: OpenMarketError, on state: inout ProductFormState, _ l: Localizer) throws(PageFailure) -> Int {
        switch error {
        case .validation(let issues):
            state.issues = issues
            return 422
        case .badRequest(let message):
            state.alert = l(self == .register ? "alert_store_refused_product" : "alert_store_refused_changes", ["reason": message])
            return 422
        case .notFound where self == .edit:
            throw PageFailure(.notFound(message: ""), retryURL: nil)
        default:
            let failure = PageFailure(error, retryURL: nil)
            state.alert = failure.sentence(l) + keptNote(status: failure.status, l)
            return failure.status
        }
    }

    /// Tells the seller nothing is lost, unless saving again cannot help (another vendor's product).
    /// A register that timed out may still have been carried out by a slow API: submitting again
    /// would make a second product, so the seller is told to look first. (An edit saved again
    /// after such a timeout meets its own change as a conflict, which shows it.)
    private func keptNote(status: Int, _ l: Localizer) -> String {
        switch self {
        case .register: " " + l(status == 504 ? "register_kept_below_timeout" : "register_kept_below")
        case .edit: status == 403 ? "" : " " + l("edit_kept_below")
        }
    }
}
