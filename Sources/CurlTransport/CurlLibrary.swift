import CCurl

/// Facts about the libcurl this program is linked against.
public enum CurlLibrary {
    /// libcurl's version, for example `7.88.1`.
    public static var version: String {
        guard let info = ccurl_version_info(), let text = info.pointee.version else { return "unknown" }
        return String(cString: text)
    }
}
