import Dispatch

/// The failure of a future whose promise was released while the future was pending.
///
/// Typical cause: a callback API dropped its completion handler without calling it.
/// The future fails with this error instead of staying pending forever, so awaiting
/// tasks resume and nothing leaks; the same event is reported to ``Diagnostics``.
public struct AbandonedPromiseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file (`#fileID`) where the promise or adapter was created.
    ///
    /// A process records the first 1,048,576 distinct creation sites (a file and a
    /// line); far more than a program has. A promise created at a later site, which only
    /// code passing ever new `line:` values at run time reaches, reports
    /// `"(unrecorded: more than 1,048,576 promise creation sites)"` and line 0.
    public let fileID: String
    /// The line where the promise or adapter was created.
    public let line: Int

    /// Creates the error for a promise created at `fileID:line`.
    public init(fileID: String, line: Int) {
        self.fileID = fileID
        self.line = line
    }

    /// Names the creation site, e.g. `promise created at App/Client.swift:42 was released…`.
    public var description: String {
        "promise created at \(fileID):\(line) was released without being completed"
    }
}

/// The failure of a ``Future/timeout(after:clock:)`` or
/// ``Future/timeout(after:timekeeper:)`` future, or of a blocking ``Future/wait(timeout:)``
/// or ``Future/wait(deadline:)``, that ran out of time.
///
/// A `timeout` future also sends a cancel request to the future it was waiting for; a
/// `wait` leaves the future untouched.
public struct TimeoutError: Error, Sendable, Equatable, CustomStringConvertible {
    /// How long the caller waited, in nanoseconds (`UInt64.max`: without end).
    public let nanoseconds: UInt64

    /// Creates the error for a wait of `nanoseconds`.
    ///
    /// - Parameter nanoseconds: How long the wait lasted.
    public init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    /// Creates the error for a wait of `interval`.
    ///
    /// - Parameter interval: How long the wait lasted.
    public init(interval: DispatchTimeInterval) {
        self.init(nanoseconds: interval.nanoseconds)
    }

    /// Creates the error for a wait of `timeout`.
    ///
    /// - Parameter timeout: How long the wait lasted.
    @available(ClockAPI, *)
    public init(timeout: Duration) {
        self.init(nanoseconds: timeout.nanoseconds)
    }

    /// How long the caller waited.
    @available(ClockAPI, *)
    public var timeout: Duration { Duration(nanoseconds: nanoseconds) }

    /// How long the caller waited, as a Dispatch interval.
    public var interval: DispatchTimeInterval { DispatchTimeInterval(nanoseconds: nanoseconds) }

    /// Says how long the wait lasted, in seconds.
    public var description: String {
        "timed out after \(Double(nanoseconds) / 1e9) seconds"
    }
}

/// The failure of a future whose callback reported neither a value nor an error, such
/// as a `(Value?, Error?)` completion handler called with `(nil, nil)`.
public struct InvalidCallbackError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The calling convention that was broken, for example `(Value?, Error?)`.
    public let convention: String

    /// Creates the error for a callback of `convention`.
    public init(convention: String) {
        self.convention = convention
    }

    /// Names the convention, e.g. `a (Value?, Error?) completion handler was called with
    /// neither a value nor an error`.
    public var description: String {
        "a \(convention) completion handler was called with neither a value nor an error"
    }
}
