// A tiny HTTP/1.1 server on 127.0.0.1 for the tests and playgrounds, so that they can
// drive a real URLSession without any network. One request per connection; blocking
// sockets, one Dispatch thread per connection. Not for production use.
import Dispatch
import Foundation
import FutureBridge
import FutureBridgeInternals

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP server on a free port of 127.0.0.1 that answers each request with what its
/// handler returns, or holds the connection open when the handler returns `nil`.
public final class LoopbackHTTPServer: Sendable {
    /// An HTTP response with a text body.
    public struct Response: Sendable {
        /// The HTTP status code.
        public var status: Int
        /// The body, sent as `text/plain`.
        public var body: String

        /// A response with `status` (200 by default) and `body`.
        public init(status: Int = 200, body: String) {
            self.status = status
            self.body = body
        }
    }

    private struct Connections: Sendable {
        var held: Set<Int32> = []
        var stopped = false
    }

    /// The port the server listens on.
    public let port: Int
    private let listener: Int32
    private let handler: @Sendable (String) -> Response?
    private let onDisconnect: @Sendable (String) -> Void
    // Connections held open, and whether `stop()` ran; the accept thread and the
    // connection threads share them. `Locked` is FutureBridge's own lock around a value,
    // `package` in scope: the playgrounds belong to its package.
    private let state = Locked(Connections())
    private let acceptLoopEnded = DispatchSemaphore(value: 0)

    /// Starts listening.
    ///
    /// - Parameters:
    ///   - handler: Called with each request's path; returns the response, or `nil` to
    ///     hold the connection open until the client closes it or the server stops.
    ///   - onDisconnect: Called with the path of a held request whose client closed the
    ///     connection (for example a cancelled `URLSessionTask`).
    public init(
        handler: @escaping @Sendable (String) -> Response?,
        onDisconnect: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        self.handler = handler
        self.onDisconnect = onDisconnect
        let (listener, port) = try Self.openListener()
        self.listener = listener
        self.port = port
        // Blocking loops run on serial queues of their own, which Dispatch gives threads of
        // their own: on the global queue's few shared threads, a server's blocked accept()
        // would hold a thread that other work (another server, a test) waits for.
        DispatchQueue(label: "LoopbackHTTP.accept").async { [self] in acceptLoop() }
    }

    /// `http://127.0.0.1:<port><path>`.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Stops accepting, closes held connections, and waits for the accept loop to end.
    public func stop() {
        let connections = state.withLock {
            $0.stopped = true
            return $0.held
        }
        _ = shutdown(listener, Int32(SHUT_RDWR))
        for connection in connections { _ = shutdown(connection, Int32(SHUT_RDWR)) }
        acceptLoopEnded.wait()
    }

    /// A port on 127.0.0.1 that nothing listens on (it was free a moment ago): a request
    /// to it is refused.
    public static func unusedPort() throws -> Int {
        let (socket, port) = try openListener()
        close(socket)
        return port
    }

    private static func openListener() throws -> (Int32, Int) {
        #if canImport(Glibc)
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var reuse: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && listen(socket, 64) == 0
                    && getsockname(socket, address, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(socket)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                break
            }
            DispatchQueue(label: "LoopbackHTTP.connection").async { [self] in serve(connection) }
        }
        close(listener)
        acceptLoopEnded.signal()
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        guard let path = readRequestPath(connection) else { return }
        if let response = handler(path) {
            write(response, to: connection)
            return
        }
        let isHeld = state.withLock {
            if $0.stopped { return false }
            $0.held.insert(connection)
            return true
        }
        guard isHeld else { return }
        // Blocks until the client closes the connection or `stop()` shuts it down.
        var byte: UInt8 = 0
        while recv(connection, &byte, 1, 0) > 0 {}
        let byClient = state.withLock {
            $0.held.remove(connection)
            return !$0.stopped
        }
        if byClient { onDisconnect(path) }
    }

    /// Reads the request head and returns the path of its request line.
    private func readRequestPath(_ connection: Int32) -> String? {
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !head.ends(with: Array("\r\n\r\n".utf8)) {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0, head.count < 65_536 else { return nil }
            head += buffer[0..<count]
        }
        let requestLine = String(decoding: head, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = requestLine.split(separator: " ")
        return parts.count >= 2 ? String(parts[1]) : nil
    }

    private func write(_ response: Response, to connection: Int32) {
        let body = Array(response.body.utf8)
        let head =
            "HTTP/1.1 \(response.status) \(response.status < 400 ? "OK" : "Error")\r\n"
            + "Content-Type: text/plain\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + body
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return }
            sent += count
        }
    }
}

extension Array where Element: Equatable {
    fileprivate func ends(with suffix: [Element]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
