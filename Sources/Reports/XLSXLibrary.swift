import CXlsxWriter

/// Facts about the libxlsxwriter this program is linked against.
public enum XLSXLibrary {
    /// libxlsxwriter's version, for example `1.1.4`.
    public static var version: String {
        guard let text = lxw_version() else { return "unknown" }
        return String(cString: text)
    }
}
