/// The history's SQL marks parameters with `?`, as SQLite does; PostgreSQL numbers them (`$1`, `$2`, …).
enum PostgreSQLPlaceholders {
    /// `sql` with each `?` outside quotes numbered in order.
    static func numbered(_ sql: String) -> String {
        var result = ""
        result.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                result.append(character)
                continue
            }
            switch character {
            case "'", "\"":
                quote = character
                result.append(character)
            case "?":
                number += 1
                result += "$\(number)"
            default:
                result.append(character)
            }
        }
        return result
    }
}
