import HTMLTemplates

/// The one-time link of an invitation or a reset, shown once on the answer page (only its hash
/// is stored), with the sentence saying whom it is for.
struct InvitationLinkView: TemplateView {
    var url: String
    var message: String

    static let templateFields: ViewFields<InvitationLinkView> = [
        .text("url") { $0.url },
        .text("message") { $0.message },
    ]
}
