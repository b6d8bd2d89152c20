import HTMLTemplates

/// `import.html`: the file and photos to import, with the reason the last try was refused.
struct ImportFormView: PageView {
    static let template = "import"
    var csrfToken: String
    var alert: MessageView?
    var limits: String
    /// A file with the column names in the page's language and one example row (`Public/`).
    var templateURL: String
    var access = PageAccess()

    static let templateFields = ViewFields<ImportFormView>([
        .text("csrf_token") { $0.csrfToken },
        .optionalView("alert") { $0.alert },
        .text("limits") { $0.limits },
        .text("template_url") { $0.templateURL },
    ] + PageAccess.fields())
}
