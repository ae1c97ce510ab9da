/// Why the SR28 files could not be read. Every malformed line is reported with its file and line number,
/// because a silently dropped food would show up much later as a wrong calorie count.
public enum SR28Error: Error, Hashable, Sendable, CustomStringConvertible {
    /// Files that are not in the directory at all.
    case missingFiles([String], directory: String)
    case unreadableFile(String, reason: String)
    /// `line` counts from 1, as an editor shows it.
    case malformedLine(file: String, line: Int, problem: SR28LineProblem)

    public var description: String {
        switch self {
        case .missingFiles(let names, let directory):
            "SR28 files missing in \(directory): \(names.joined(separator: ", "))"
        case .unreadableFile(let name, let reason):
            "cannot read \(name): \(reason)"
        case .malformedLine(let file, let line, let problem):
            "\(file) line \(line): \(problem)"
        }
    }

    /// The file and line of a malformed line, for callers that point at it.
    public var location: (file: String, line: Int)? {
        if case .malformedLine(let file, let line, _) = self { return (file, line) }
        return nil
    }
}
