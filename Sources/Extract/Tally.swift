import History

/// Running totals of an extraction, shared by the workers.
actor Tally {
    struct Snapshot: Sendable {
        var objects: [String: Int] = [:]
        var outcome = WriteOutcome()
        var pages = 0
        var missing = 0
    }

    private(set) var snapshot = Snapshot()

    func count(resource: String, objects: Int) -> Int {
        snapshot.objects[resource, default: 0] += objects
        return snapshot.objects[resource, default: 0]
    }

    func record(_ outcome: WriteOutcome, pages: Int) {
        snapshot.outcome = snapshot.outcome + outcome
        snapshot.pages += pages
    }

    func missing() { snapshot.missing += 1 }
}
