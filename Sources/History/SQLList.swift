/// Constant text values written into a query as a parenthesised list, `('pending', 'failed')`: Stripe's enum values
/// and the catalogue's own names, never input (input travels as arguments).
enum SQLList {
    /// `values` quoted and parenthesised, in order.
    static func of<Values: Sequence<String>>(_ values: Values) -> String {
        "(" + values.map { "'\($0)'" }.joined(separator: ", ") + ")"
    }
}
