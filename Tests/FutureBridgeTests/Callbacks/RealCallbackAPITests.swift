import Dispatch
import Foundation
import LoopbackHTTP
import TestSupport
import Testing

@testable import FutureBridge

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Real Linux callback APIs migrated with the adapters: each wrapper is the one or two
/// lines a user would write. Nothing here sleeps; a test that never gets its callback
/// fails by its time limit.
///
/// Sessions end with `finishTasksAndInvalidate()`, never `invalidateAndCancel()`: on
/// Linux, cancelling a task whose completion handler has just returned races with
/// Foundation removing the task from its session ("Trying to access a behaviour for a
/// task that in not in the registry"), and every test here has seen its tasks end.
@Suite(.timeLimit(.minutes(1)))
struct RealCallbackAPITests {
    // MARK: URLSession against a server on 127.0.0.1

    /// A data task as a future: the completion handler is the promise's adapter, and a
    /// cancel request cancels the task.
    static func fetch(
        _ url: URL, in session: URLSession,
        rawError: Promise<(any Error)?>? = nil
    ) -> Future<(Data?, URLResponse?)> {
        Future { promise in
            let task = session.dataTask(with: url) { data, response, error in
                rawError?.succeed(error)
                promise.resolve(data, response, error)
            }
            promise.cancelOnRequest(task.cancel)
            task.resume()
        }
    }

    /// A server that never answers: it holds each connection open, and says when a
    /// request arrived and when the client closed the connection.
    static func holdingServer() throws -> (LoopbackHTTPServer, arrived: Promise<Void>, disconnected: Promise<String>) {
        let arrived = Promise<Void>()
        let disconnected = Promise<String>()
        let server = try LoopbackHTTPServer(
            handler: { _ in
                arrived.succeed()
                return nil  // hold the connection: the request never finishes by itself
            },
            onDisconnect: { path in disconnected.succeed(path) })
        return (server, arrived, disconnected)
    }

    static func statusAndBody(_ reply: (Data?, URLResponse?)) -> (Int?, String) {
        ((reply.1 as? HTTPURLResponse)?.statusCode, String(decoding: reply.0 ?? Data(), as: UTF8.self))
    }

    @Test func urlSessionSuccess() async throws {
        let server = try LoopbackHTTPServer { path in .init(body: "hello from \(path)") }
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let reply = try await Self.fetch(server.url("/greeting"), in: session).value
        let (status, body) = Self.statusAndBody(reply)
        #expect(status == 200)
        #expect(body == "hello from /greeting")
    }

    @Test func urlSessionHTTPErrorStatusArrivesAsAResponseAndCanBeValidated() async throws {
        let server = try LoopbackHTTPServer { _ in .init(status: 404, body: "no such page") }
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let reply = Self.fetch(server.url("/missing"), in: session)
        let (status, body) = Self.statusAndBody(try await reply.value)
        #expect(status == 404)
        #expect(body == "no such page")
        let validated = reply.map { reply in
            let (status, _) = Self.statusAndBody(reply)
            guard status == 200 else { throw TestError(code: status ?? 0) }
            return reply
        }
        #expect(await validated.outcome.error as? TestError == TestError(code: 404))
    }

    @Test func urlSessionConnectionRefusedFails() async throws {
        let port = try LoopbackHTTPServer.unusedPort()
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let outcome = await Self.fetch(URL(string: "http://127.0.0.1:\(port)/")!, in: session).outcome
        let error = try #require(outcome.error as? URLError)
        #expect(error.code == .cannotConnectToHost)
    }

    @Test func cancelRequestCancelsTheURLSessionTask() async throws {
        let (server, arrived, disconnected) = try Self.holdingServer()
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let rawError = Promise<(any Error)?>()
        let request = Self.fetch(server.url("/slow"), in: session, rawError: rawError)

        try await arrived.future.value
        request.requestCancellation()

        #expect(request.peek()?.isCancelled == true)
        let error = try await rawError.future.value
        #expect((error as? URLError)?.code == .cancelled)  // URLSessionTask.cancel() ran
        #expect(try await disconnected.future.value == "/slow")  // and closed the connection
    }

    @Test func cancellingTheAwaitingTaskCancelsTheURLSessionTask() async throws {
        let (server, arrived, disconnected) = try Self.holdingServer()
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let download = Task { try await Self.fetch(server.url("/slow"), in: session).value }
        try await arrived.future.value
        download.cancel()
        await #expect(throws: CancellationError.self) { try await download.value }
        #expect(try await disconnected.future.value == "/slow")
    }

    // MARK: DispatchIO

    static func read(fileDescriptor: Int32) -> Future<Data> {
        Future { promise in
            DispatchIO.read(fromFileDescriptor: fileDescriptor, maxLength: 1 << 20, runningHandlerOn: .global()) {
                data, errorNumber in
                if errorNumber == 0 {
                    promise.resolve(Data(data))
                } else {
                    promise.reject(POSIXError(POSIXErrorCode(rawValue: errorNumber) ?? .EIO))
                }
            }
        }
    }

    @Test func dispatchIOReadsAFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("futurebridge-\(UUID()).txt").path
        try Data("read with DispatchIO".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let data = try await Self.read(fileDescriptor: descriptor).value
        #expect(String(decoding: data, as: UTF8.self) == "read with DispatchIO")
    }

    @Test func dispatchIOErrorFailsTheFuture() async throws {
        let descriptor = open("/dev/null", O_WRONLY)  // open, but not for reading
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let outcome = await Self.read(fileDescriptor: descriptor).outcome
        #expect((outcome.error as? POSIXError)?.code == .EBADF)
    }

    // MARK: Process

    /// A process's termination status as a future; a cancel request kills it.
    ///
    /// SIGKILL rather than `terminate()` (SIGTERM): Foundation's `Process` on Linux hands
    /// the spawning thread's signal mask to the child, and the test runner's threads
    /// block SIGTERM, so a child spawned here would ignore `terminate()` (seen with
    /// `/proc/<pid>/status`: SIGTERM blocked and pending).
    static func run(
        _ arguments: [String], reason: Promise<Process.TerminationReason>? = nil
    ) -> Future<Int32> {
        Future { promise in
            let process = Process()
            process.executableURL = shell
            process.arguments = arguments
            process.terminationHandler = { process in
                reason?.succeed(process.terminationReason)
                promise.resolve(process.terminationStatus)
                process.terminationHandler = nil  // Foundation never frees a Process: let go of ours
            }
            try process.run()
            promise.cancelOnRequest { kill(process.processIdentifier, SIGKILL) }
        }
    }

    // Static, because Foundation never frees a `Process` that has run, nor what it holds
    // (see `.ci/lsan-suppressions.txt`).
    static let shell = URL(fileURLWithPath: "/bin/sh")
    static let exitThree = ["-c", "exit 3"]
    static let sleepOneMinute = ["-c", "exec sleep 60"]

    @Test func processTerminationStatus() async throws {
        #expect(try await Self.run(Self.exitThree).value == 3)
    }

    @Test func processThatCannotStartFailsTheFuture() async {
        let outcome = await Future<Int32> { promise in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/nonexistent/futurebridge")
            process.terminationHandler = { promise.resolve($0.terminationStatus) }
            try process.run()
        }.outcome
        #expect((outcome.error as? CocoaError)?.code == .fileReadNoSuchFile)
    }

    @Test func cancelRequestKillsTheProcess() async throws {
        let reason = Promise<Process.TerminationReason>()
        let sleeping = Self.run(Self.sleepOneMinute, reason: reason)
        sleeping.requestCancellation()
        #expect(sleeping.peek()?.isCancelled == true)
        #expect(try await reason.future.value == .uncaughtSignal)
    }

    // MARK: DispatchSource timer

    /// A one-shot timer as a future; a cancel request cancels the source.
    static func fire(_ timer: any DispatchSourceTimer, after delay: DispatchTimeInterval) -> Future<Void> {
        Future { promise in
            timer.setEventHandler(handler: promise.resolve)
            promise.cancelOnRequest(timer)
            timer.schedule(deadline: .now() + delay)
            timer.resume()
        }
    }

    @Test func dispatchSourceTimerFires() async throws {
        try await Self.fire(DispatchSource.makeTimerSource(queue: .global()), after: .milliseconds(1)).value
    }

    @Test func cancelRequestCancelsTheTimerSource() {
        let source = DispatchSource.makeTimerSource(queue: .global())
        let timer = Self.fire(source, after: .seconds(3_600))
        timer.requestCancellation()
        #expect(timer.peek()?.isCancelled == true)
        #expect(source.isCancelled)
    }

    // MARK: DispatchWorkItem

    @Test func cancelRequestCancelsAWorkItemThatHasNotStarted() {
        let queue = DispatchQueue(label: "tests.work-item")
        queue.suspend()
        let ran = Counter()
        let item = DispatchWorkItem { ran.increment() }
        let future = Future<Int> { promise in
            let work = DispatchWorkItem {
                item.perform()
                promise.resolve(1)
            }
            promise.cancelOnRequest(work)
            queue.async(execute: work)
        }
        future.requestCancellation()
        queue.resume()
        queue.sync {}
        #expect(future.peek()?.isCancelled == true)
        #expect(ran.count == 0)
    }
}
