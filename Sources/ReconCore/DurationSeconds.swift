extension Duration {
    /// The duration in seconds, with its fraction: for logs, reports and timings.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
