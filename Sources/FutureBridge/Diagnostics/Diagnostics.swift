import FutureBridgeInternals

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A report of misuse that FutureBridge recovered from without losing anything.
///
/// Misuse of a promise at run time never crashes a program: the library does the safe
/// thing (ignores a second completion, fails an abandoned future) and sends a
/// ``Diagnostic`` to ``Diagnostics``, which by default prints one line, starting with
/// `FUTUREBRIDGE MISUSE:`, to standard error. Programmer errors in arguments, which no
/// run of the program can make right (``FutureLimiter/init(maxConcurrent:)`` with less
/// than 1), are preconditions instead: they trap with a message that names the value.
public struct Diagnostic: Sendable, CustomStringConvertible, Equatable {
    /// What went wrong.
    public enum Kind: String, Sendable, Equatable {
        /// A promise (or a completion handler made from one) was released while its
        /// future was still pending; the future failed with ``AbandonedPromiseError``.
        case promiseAbandoned
        /// A completion handler was called after it had already completed its future;
        /// the later call was ignored.
        case completedTwice
        /// A future failed, but the completion handler it was delivered to cannot
        /// receive an error (a `(Value) -> Void` or `() -> Void` shape), so it was not
        /// called.
        case failureNotDelivered
    }

    /// What went wrong.
    public let kind: Kind
    /// A sentence that says what happened and what the library did about it.
    public let message: String
    /// The file (`#fileID`) where the promise or adapter involved was created (for
    /// ``Kind/failureNotDelivered``, where the future was delivered).
    public let fileID: String
    /// The line that goes with ``fileID``.
    public let line: Int

    /// Creates a diagnostic.
    public init(kind: Kind, message: String, fileID: String, line: Int) {
        self.kind = kind
        self.message = message
        self.fileID = fileID
        self.line = line
    }

    /// One greppable line: `FUTUREBRIDGE MISUSE: <kind>: <message> (<file>:<line>)`.
    public var description: String {
        "FUTUREBRIDGE MISUSE: \(kind.rawValue): \(message) (\(fileID):\(line))"
    }
}

/// The one hook through which FutureBridge reports misuse.
///
/// The handler runs synchronously on the thread where the misuse was noticed (for an
/// abandoned promise, the thread that released its last reference), never under a
/// lock of the library. Keep it short and thread-safe.
///
/// <!-- fragment: app -->
/// ```swift
/// Diagnostics.setHandler { diagnostic in logger.warning("\(diagnostic)") }
/// ```
public enum Diagnostics {
    /// The signature of a diagnostics handler.
    public typealias Handler = @Sendable (Diagnostic) -> Void

    /// The default handler: writes ``Diagnostic/description`` and a newline to standard
    /// error.
    public static let standardError: Handler = { diagnostic in
        let line = diagnostic.description + "\n"
        _ = line.utf8CString.withUnsafeBufferPointer { buffer in
            write(2, buffer.baseAddress, buffer.count - 1)
        }
    }

    /// The handler, wrapped in a struct. Kept bare as the `Locked` state, it would be
    /// stored at the generic abstraction level of `Locked<State>`: every `withLock` would
    /// then reabstract it on the way into the `(inout State) -> R` closure and write it
    /// back wrapped in two more thunks, so each report made the next one slower, and after
    /// some 50,000 reports calling the handler overflowed the stack. A struct field keeps
    /// the closure as it was stored.
    private struct Installed: Sendable {
        let handler: Handler
    }

    private static let current = Locked(Installed(handler: standardError))

    /// Replaces the handler that receives every ``Diagnostic``.
    ///
    /// - Parameter handler: Called on the thread that noticed the misuse.
    public static func setHandler(_ handler: @escaping Handler) {
        let replaced = current.withLock { installed in
            defer { installed = Installed(handler: handler) }
            return installed
        }
        withExtendedLifetime(replaced) {}  // the old handler's captures are released outside the lock
    }

    /// Restores the default handler, ``standardError``.
    public static func resetHandler() {
        setHandler(standardError)
    }

    /// A sink that takes the reports raised where this task-local is bound, before the
    /// handler (FutureBridgeTesting's `withDiagnosticsCapture`).
    ///
    /// An object, not a closure: a task-local holding an optional `@Sendable` closure
    /// crashed in `swift_task_localValuePush` when bound from another module in an
    /// optimized build (Swift 6.3.1, Linux).
    @TaskLocal package static var captureSink: (any DiagnosticsCaptureSink)? = nil

    /// Sends `diagnostic` to the capture sink bound here, if any takes it, else to the
    /// current handler (outside the handler's lock).
    package static func report(_ diagnostic: Diagnostic) {
        if let sink = captureSink, sink.take(diagnostic) { return }
        let installed = current.withLock { $0 }
        installed.handler(diagnostic)
    }
}

/// Takes the reports raised where ``Diagnostics/captureSink`` binds it.
package protocol DiagnosticsCaptureSink: AnyObject, Sendable {
    /// Keeps `diagnostic` and returns `true` while the sink's scope is open; returns
    /// `false` once it has ended, and the report then goes to the handler.
    func take(_ diagnostic: Diagnostic) -> Bool
}
