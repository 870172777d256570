// A URLSession-style callback API, written for the tests: it declares its task
// functions the way URLSession does (`dataTask(with:completionHandler:)` returning a
// suspended `URLSessionDataTask`) and forwards to a real URLSession. The tests call the
// async forms futurebridge-migrate generated in HTTPClient+Async.swift against a
// loopback server.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client over a real `URLSession`, with URLSession's completion-handler API.
public final class HTTPClient: Sendable {
    public let session: URLSession

    public init(session: URLSession = URLSession(configuration: .ephemeral)) {
        self.session = session
    }

    /// Creates a task that retrieves the contents of a URL, then calls a handler upon
    /// completion. The task starts suspended: call `resume()`.
    ///
    /// - Parameters:
    ///   - url: The URL to retrieve.
    ///   - completionHandler: Called with the data, the response, and the error.
    /// - Returns: The new session data task.
    public func dataTask(
        with url: URL, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDataTask {
        session.dataTask(with: url, completionHandler: completionHandler)
    }

    /// Creates a task that retrieves the contents of a request, then calls a handler
    /// upon completion. The task starts suspended: call `resume()`.
    public func dataTask(
        with request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDataTask {
        session.dataTask(with: request, completionHandler: completionHandler)
    }

    /// Creates a task that uploads data, then calls a handler upon completion.
    public func uploadTask(
        with request: URLRequest, from bodyData: Data?,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionUploadTask {
        session.uploadTask(with: request, from: bodyData, completionHandler: completionHandler)
    }
}
