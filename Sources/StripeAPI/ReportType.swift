import ReconCore

/// A report type of Stripe's Reporting API (`balance.summary.1`, …): which data it has published so far:
/// https://docs.stripe.com/api/reporting/report_type/object.
public struct ReportType: StripeObject {
    /// `"reporting.report_type"`.
    public static let objectType = "reporting.report_type"

    /// The `object` member, checked against ``objectType`` before any other member is read.
    private let object: ObjectTypeCheck<ReportType>
    /// The report type's id, for example `balance.summary.1`.
    public let id: String
    /// The earliest time a run of this type may start its interval at, in Unix seconds.
    public let dataAvailableStart: Int64
    /// The latest time a run of this type may end its interval at, in Unix seconds: data after it is not published.
    public let dataAvailableEnd: Int64
    /// The columns a run gets when it names none.
    public let defaultColumns: [String]?
    /// Stripe's name for it, for example `Balance summary`.
    public let name: String?
    /// Whether it is a live-mode report type.
    public let livemode: Bool?

    private enum CodingKeys: String, CodingKey {
        case object
        case id
        case dataAvailableStart = "data_available_start"
        case dataAvailableEnd = "data_available_end"
        case defaultColumns = "default_columns"
        case name
        case livemode
    }
}
