import HTMLTemplates

/// `activity.html`: the log, newest first, its filters and the newer / older links. Built by
/// `activityPage`.
struct ActivityPageView: PageView {
    static let template = "activity"
    var items: [ActivityItemView] = []
    var person = ""
    var product = ""
    var people: [ActivityPersonOptionView] = []
    var actions: [ListOptionView] = []
    var newer: LinkView?
    var older: LinkView?
    var access = PageAccess()

    static let templateFields = ViewFields<ActivityPageView>([
        .list("items") { $0.items },
        .flag("empty") { $0.items.isEmpty },
        .text("person") { $0.person },
        .text("product") { $0.product },
        .list("people") { $0.people },
        .list("actions") { $0.actions },
        .optionalView("newer") { $0.newer },
        .optionalView("older") { $0.older },
    ] + PageAccess.fields())
}
