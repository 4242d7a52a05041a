import CXlsxWriter
import ReconCore

/// A number's text as libxlsxwriter writes a number cell (C's `%.16G`: rounded to 16 significant digits, trailing
/// zeros dropped), for the rows ``SheetRowXML`` writes: the same bytes as `snprintf`, without glibc's
/// multiple-precision printing, which took a tenth of the report writer's time on the date-time cells (an Excel
/// serial such as `46296.00362268518`).
///
/// Exact for the numbers in `[1, 10^15)` (every date-time since 1900, every duration of a second or more): the
/// `Double` is `m × 2^e` exactly, so `m × 10^d`, shifted right by `-e` bits and rounded half to even (as glibc rounds
/// in the default rounding mode), is the value's first 16 digits. Everything else goes to `snprintf` itself.
enum SixteenDigits {
    /// Appends `value`'s `%.16G` text to `bytes`.
    static func append<Sink: ByteSink & ~Copyable>(_ value: Double, to bytes: inout Sink) {
        if value < 0, value > -1e15, value <= -1 {
            bytes.append(UInt8(ascii: "-"))
            appendPositive(-value, to: &bytes)
        } else if value >= 1, value < 1e15 {
            appendPositive(value, to: &bytes)
        } else {
            appendByC(value, to: &bytes)
        }
    }

    /// `value` in `[1, 10^15)`.
    private static func appendPositive<Sink: ByteSink & ~Copyable>(_ value: Double, to bytes: inout Sink) {
        let whole = UInt64(value)
        if Double(whole) == value {
            whole.appendDecimalDigits(to: &bytes)
            return
        }
        // Digits before the point (1…15), and so after it (15…1): 16 in all.
        var integerDigits = 1
        var bound: UInt64 = 10
        while whole >= bound {
            integerDigits += 1
            bound *= 10
        }
        let decimals = 16 - integerDigits
        // A value that is not whole, below 2^50, has an exponent below 0: `m × 2^-shift`, `m` with 53 bits.
        let significand = UInt128(value.significandBitPattern | (1 << 52))
        let shift = 52 - Int(value.exponent)
        let scaled = significand * UInt128(UInt64.powersOfTen[decimals])
        var digits = scaled >> shift
        let remainder = scaled & ((1 << shift) - 1)
        let half = UInt128(1) << (shift - 1)
        if remainder > half || (remainder == half && digits & 1 == 1) { digits += 1 }
        let scale = UInt128(UInt64.powersOfTen[decimals])
        let integerPart = UInt64(digits / scale)
        var fraction = UInt64(digits % scale)
        integerPart.appendDecimalDigits(to: &bytes)
        guard fraction != 0 else { return }
        // The fraction's digits, zero-padded to `decimals`, its trailing zeros dropped.
        var width = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        bytes.append(UInt8(ascii: "."))
        fraction.appendDecimalDigits(minimumWidth: width, to: &bytes)
    }

    /// `snprintf(…, "%.16G", value)`.
    static func appendByC<Sink: ByteSink & ~Copyable>(_ value: Double, to bytes: inout Sink) {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 40) { buffer in
            guard let base = buffer.baseAddress else { return }
            let count = Int(connect_recon_format_cell_double(base, buffer.count, value))
            base.withMemoryRebound(to: UInt8.self, capacity: buffer.count) {
                bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: min(max(count, 0), buffer.count - 1)))
            }
        }
    }
}
