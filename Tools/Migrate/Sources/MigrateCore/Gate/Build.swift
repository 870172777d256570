import Foundation

/// A shell command that builds (or tests) the package the tool edits, and where it runs:
/// `swift build --build-tests` in the package's directory by default, or what the user
/// names (`xcodebuild -scheme App build` for an Xcode project).
public struct BuildCommand: Sendable, Equatable, CustomStringConvertible {
    /// The command, run by `/bin/sh -c`.
    public var shell: String
    /// The directory it runs in.
    public var directory: URL

    public init(shell: String, directory: URL) {
        self.shell = shell
        self.directory = directory.standardizedFileURL
    }

    /// `` `swift build --build-tests` in Sources/.. ``, as the report names the build.
    public var description: String { "`\(shell)` in \(directory.path)" }

    /// The package directory above `sources`: the nearest one with a `Package.swift`.
    public static func packageDirectory(above sources: URL) -> URL? {
        var directory = sources.standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { return nil }
            directory = parent
        }
    }
}

/// One error the compiler printed: `path:line:column: error: message`.
public struct CompilerError: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The file, as an absolute path with symbolic links resolved.
    public var path: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(path: String, line: Int, column: Int, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(path):\(line):\(column): error: \(message)" }

    /// Every distinct error in a build's output, in order. Lines of other shapes (notes,
    /// warnings, the build system's progress) are not errors of a file.
    public static func parse(_ output: String) -> [CompilerError] {
        var seen: Set<CompilerError> = []
        var errors: [CompilerError] = []
        for line in output.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let marker = line.range(of: ": error: ") else { continue }
            // `path:line:column` before the marker; the path may itself hold colons.
            let place = line[..<marker.lowerBound].split(separator: ":", omittingEmptySubsequences: false)
            guard place.count >= 3, let row = Int(place[place.count - 2]), let column = Int(place[place.count - 1])
            else { continue }
            let path = place.dropLast(2).joined(separator: ":")
            guard path.hasPrefix("/") else { continue }
            let error = CompilerError(
                path: canonicalPath(path), line: row, column: column,
                message: line[marker.upperBound...].trimmingCharacters(in: .whitespaces))
            if seen.insert(error).inserted { errors.append(error) }
        }
        return errors
    }
}

/// What a build printed, and whether it succeeded.
public struct BuildResult: Sendable, Equatable {
    /// Exit status 0.
    public var succeeded: Bool
    /// Standard output and standard error together.
    public var output: String

    public init(succeeded: Bool, output: String) {
        self.succeeded = succeeded
        self.output = output
    }

    /// The errors of files in the output.
    public var errors: [CompilerError] { CompilerError.parse(output) }
}

/// Runs a build or test command; the gates take it as a parameter so that their tests can
/// stand in for the compiler.
public typealias BuildRunner = @Sendable (BuildCommand) throws -> BuildResult

/// Runs `command` with `/bin/sh -c` and waits for it, output and errors in one stream.
public let runShellCommand: BuildRunner = { command in
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command.shell]
    process.currentDirectoryURL = command.directory
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Read to the end before waiting: a full pipe would stop the build.
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return BuildResult(succeeded: process.terminationStatus == 0, output: String(decoding: data, as: UTF8.self))
}

/// `path` made absolute and standardized, with symbolic links resolved (the compiler may
/// print either form).
func canonicalPath(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
}
