import Foundation

/// An error type that can say it stands for a cancellation.
///
/// Wherever FutureBridge builds an ``Outcome`` from an error (failing a promise,
/// a throwing closure, a callback's error, an `async` operation), an error whose
/// ``isCancellation`` is `true` becomes ``Outcome/cancelled`` instead of a failure.
///
/// ```swift
/// enum DownloadError: Error, CancellationIndicating {
///     case userAborted, badStatus(Int)
///     var isCancellation: Bool { if case .userAborted = self { true } else { false } }
/// }
/// ```
public protocol CancellationIndicating: Error {
    /// Whether this error means the operation was cancelled rather than failed.
    var isCancellation: Bool { get }
}

extension CancellationError: CancellationIndicating {
    /// Always `true`.
    public var isCancellation: Bool { true }
}

extension URLError: CancellationIndicating {
    /// `true` for `URLError.cancelled`.
    public var isCancellation: Bool { code == .cancelled }
}

extension CocoaError: CancellationIndicating {
    /// `true` for `CocoaError.userCancelled`.
    public var isCancellation: Bool { code == .userCancelled }
}

/// Whether `error` stands for a cancellation: `CancellationError`, `URLError.cancelled`
/// (also as an `NSError` in `NSURLErrorDomain`), `CocoaError.userCancelled`, or any
/// ``CancellationIndicating`` error that says so.
///
/// - Parameter error: The error to classify.
/// - Returns: `true` if the error should become ``Outcome/cancelled``.
public func isCancellation(_ error: any Error) -> Bool {
    if let indicating = error as? any CancellationIndicating {
        return indicating.isCancellation
    }
    if type(of: error) is NSError.Type {
        let nsError = error as NSError
        return (nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorCancelled)
            || (nsError.domain == NSCocoaErrorDomain && nsError.code == NSUserCancelledError)
    }
    return false
}
