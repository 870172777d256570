// A tiny HTTP/1.1 server on 127.0.0.1 for the tests, so that they drive a real
// URLSession without any network: one request per connection, blocking sockets, one
// Dispatch thread per connection. Not for production use.
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP server on a free port of 127.0.0.1. A path in `held` is answered only when
/// the client goes away (the connection is held open); any other path gets `200` and
/// the path as its body.
public final class LoopbackServer: @unchecked Sendable {
    public let port: Int
    /// Each request's path, as it arrives.
    public let requests: AsyncStream<String>
    /// The path of each held request whose client closed the connection (a cancelled
    /// `URLSessionTask`).
    public let disconnects: AsyncStream<String>

    private let held: Set<String>
    private let listener: Int32
    private let requestsContinuation: AsyncStream<String>.Continuation
    private let disconnectsContinuation: AsyncStream<String>.Continuation
    private let lock = NSLock()
    private var openConnections: Set<Int32> = []
    private var stopped = false
    private let acceptLoopEnded = DispatchSemaphore(value: 0)

    public init(holding held: Set<String> = []) throws {
        self.held = held
        (requests, requestsContinuation) = AsyncStream.makeStream()
        (disconnects, disconnectsContinuation) = AsyncStream.makeStream()
        #if canImport(Glibc)
            let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let socket = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && listen(socket, 64) == 0
                    && getsockname(socket, address, &length) == 0
            }
        }
        guard bound else {
            close(socket)
            throw POSIXError(.EADDRINUSE)
        }
        listener = socket
        port = Int(UInt16(bigEndian: address.sin_port))
        DispatchQueue.global().async { [self] in acceptLoop() }
    }

    /// `http://127.0.0.1:<port><path>`.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Stops accepting, closes held connections, and waits for the accept loop to end.
    public func stop() {
        let connections = lock.withLock {
            stopped = true
            return openConnections
        }
        _ = shutdown(listener, Int32(SHUT_RDWR))
        for connection in connections { _ = shutdown(connection, Int32(SHUT_RDWR)) }
        acceptLoopEnded.wait()
        requestsContinuation.finish()
        disconnectsContinuation.finish()
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                break
            }
            DispatchQueue.global().async { [self] in serve(connection) }
        }
        close(listener)
        acceptLoopEnded.signal()
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        guard let path = readRequestPath(connection) else { return }
        guard held.contains(path) else {
            requestsContinuation.yield(path)
            respond(body: path, to: connection)
            return
        }
        let isOpen = lock.withLock {
            if stopped { return false }
            openConnections.insert(connection)
            return true
        }
        guard isOpen else { return }
        requestsContinuation.yield(path)
        // Blocks until the client closes the connection or `stop()` shuts it down.
        var byte: UInt8 = 0
        while recv(connection, &byte, 1, 0) > 0 {}
        let byClient = lock.withLock {
            openConnections.remove(connection)
            return !stopped
        }
        if byClient { disconnectsContinuation.yield(path) }
    }

    /// Reads the request head and body (by its `Content-Length`) and returns the path
    /// of its request line. Reading the whole body matters: closing a socket with unread
    /// data resets the connection, which a client may see before the response.
    private func readRequestPath(_ connection: Int32) -> String? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Array("\r\n\r\n".utf8)
        func receive() -> Bool {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0, data.count < 1 << 20 else { return false }
            data += buffer[0..<count]
            return true
        }
        var headEnd: Int?
        while headEnd == nil {
            guard receive() else { return nil }
            headEnd = data.indices.dropLast(end.count - 1).first { Array(data[$0..<$0 + end.count]) == end }
        }
        let head = String(decoding: data[..<headEnd!], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        let contentLength =
            lines.lazy.compactMap { line -> Int? in
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                return Int(parts[1].trimmingCharacters(in: .whitespaces))
            }.first ?? 0
        while data.count < headEnd! + end.count + contentLength {
            guard receive() else { return nil }
        }
        let parts = (lines.first ?? "").split(separator: " ")
        return parts.count >= 2 ? String(parts[1]) : nil
    }

    private func respond(body: String, to connection: Int32) {
        let bodyBytes = Array(body.utf8)
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(bodyBytes.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + bodyBytes
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, flags) }
            guard count > 0 else { return }
            sent += count
        }
    }
}
