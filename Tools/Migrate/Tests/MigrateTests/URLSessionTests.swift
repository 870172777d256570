import Fixtures
import Foundation
import LoopbackServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The async forms of a URLSession-style API (Fixtures/HTTPClient+Async.swift), against
/// a real URLSession and an HTTP server on 127.0.0.1.
@Suite("URLSession", .timeLimit(.minutes(1)))
struct URLSessionTests {
    let client = HTTPClient()

    @Test("A data task's data and response")
    func data() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let (data, response) = try await client.dataTask(with: server.url("/hello"))
        #expect(data.map { String(decoding: $0, as: UTF8.self) } == "/hello")
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test("An upload task's response")
    func upload() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        var request = URLRequest(url: server.url("/upload"))
        request.httpMethod = "POST"
        let (uploaded, _) = try await client.uploadTask(with: request, from: Data("body".utf8))
        #expect(uploaded.map { String(decoding: $0, as: UTF8.self) } == "/upload")
    }

    @Test("Task cancellation cancels the URLSessionDataTask: the server sees the client go")
    func cancellation() async throws {
        let server = try LoopbackServer(holding: ["/slow"])
        defer { server.stop() }
        let task = Task { try await client.dataTask(with: server.url("/slow")) }
        for await path in server.requests where path == "/slow" { break }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        var disconnects = server.disconnects.makeAsyncIterator()
        #expect(await disconnects.next() == "/slow")
    }

    @Test(
        "Every URLSession form cancels its task: the server sees the client go",
        arguments: ["request", "upload"])
    func cancellationOfEachForm(_ form: String) async throws {
        let server = try LoopbackServer(holding: ["/held"])
        defer { server.stop() }
        var request = URLRequest(url: server.url("/held"))
        let task: Task<Void, any Error>
        if form == "request" {
            task = Task { [client] in _ = try await client.dataTask(with: request) }
        } else {
            request.httpMethod = "POST"
            task = Task { [client, request] in _ = try await client.uploadTask(with: request, from: Data("body".utf8)) }
        }
        for await path in server.requests where path == "/held" { break }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        var disconnects = server.disconnects.makeAsyncIterator()
        #expect(await disconnects.next() == "/held")
    }

    @Test("A refused connection is URLSession's error")
    func refused() async throws {
        let server = try LoopbackServer()
        let url = server.url("/gone")
        server.stop()
        await #expect(throws: URLError.self) { try await client.dataTask(with: url) }
    }
}
