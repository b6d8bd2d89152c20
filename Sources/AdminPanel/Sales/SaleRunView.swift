import Foundation
import HTMLTemplates

/// One bulk 즉시할인 run on `/sales` (`data-sale-run`): who booked how many, how many are still
/// open, a link to its sales, and its "cancel all".
struct SaleRunView: TemplateView {
    var id: String
    var label: String
    var meta: String
    var url: String
    var open: Int
    var cancel: SaleRunCancelView?

    static let templateFields = ViewFields<SaleRunView>([
        .text("id") { $0.id },
        .text("label") { $0.label },
        .text("meta") { $0.meta },
        .text("url") { $0.url },
        .int("open") { $0.open },
        .optionalView("cancel") { $0.cancel },
    ])

    /// The run as `text`'s reader sees it; `canWrite` people get its cancel form while a sale is open.
    init(_ run: SaleRuns.Summary, text: SaleText, canWrite: Bool, csrfToken: String, back: String) {
        let l = text.l
        id = run.id
        label = l("sale_run_label", ["person": run.createdBy, "time": text.time(run.createdAt), "total": l.number(run.total)])
        meta = l("sale_run_open", ["open": l.number(run.open)])
        url = "/sales?run=" + run.id
        open = run.open
        cancel = canWrite && run.open > 0 ? Self.cancelForm(run, l: l, csrfToken: csrfToken, back: back) : nil
    }

    static func cancelForm(_ run: SaleRuns.Summary, l: Localizer, csrfToken: String, back: String) -> SaleRunCancelView {
        let count = l.number(run.open)
        return SaleRunCancelView(run: run.id, csrfToken: csrfToken, back: back, open: run.open,
                                 label: l("sale_run_cancel", ["open": count]),
                                 confirm: l("sale_run_confirm", ["open": count]))
    }
}
