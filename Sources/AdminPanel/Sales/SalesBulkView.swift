import HTMLTemplates

/// The list's bulk `schedule-discount` fields (`sales_bulk_fields.html`); the typed values
/// come from the bulk form around it.
struct SalesBulkView: TemplateView {
    var timeHint: String
    static let templateFields: ViewFields<SalesBulkView> = [.text("time_hint") { $0.timeHint }]
}
