// Cancellation, end to end: `swift run Cancellation`.
//
// 1. A task cancelled mid-request cancels the URLSessionTask underneath (the server
//    sees the connection close).
// 2. A future shared by two awaiting tasks: cancelling one leaves the other alone (the
//    producer hears of a request only once every consumer has withdrawn; the Tour shows
//    that part with tokens).
import Dispatch
import Foundation
import FutureBridge
import LoopbackHTTP

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

func step(_ title: String) { print("\n## \(title)") }

// MARK: - 1. A cancelled task cancels the request
step("1. Cancelling the awaiting task cancels the URLSessionTask")

let arrived = Promise<Void>()
let closed = Promise<String>()
let server = try LoopbackHTTPServer(
    handler: { _ in
        arrived.succeed()
        return nil  // a slow endpoint: never answers
    },
    onDisconnect: { path in closed.succeed(path) })
let session = URLSession(configuration: .ephemeral)

func download(_ path: String) -> Future<(Data?, URLResponse?)> {
    Future { promise in
        let task = session.dataTask(with: server.url(path), completionHandler: promise.resolve)
        promise.cancelOnRequest(task.cancel)  // a cancel request becomes URLSessionTask.cancel()
        task.resume()
    }
}

let downloading = Task { try await download("/report.pdf").value }
try await arrived.future.value
print("the request reached the server; cancelling the task")
downloading.cancel()
print("the task ended with:", await downloading.result.map { _ in "a reply" })
print("the server saw the client close", try await closed.future.value)

// MARK: - 2. One future, two awaiters
step("2. A shared future: one awaiter cancels, the other still gets the value")

let avatar = Promise<String>()
avatar.onCancellationRequest { promise in
    print("producer: every consumer has gone, stopping the work")
    promise.cancel()
}
let shared = avatar.future
// An awaiting task holds an interest in the future while it waits. The patient consumer
// takes its interest explicitly first (a token), so this story does not depend on which
// task happens to start waiting first.
let patientInterest = shared.cancellationToken()
let impatient = Task { try await shared.value }
let patient = Task { try await shared.value }
impatient.cancel()
print("impatient awaiter:", await impatient.result.map { $0 })
print("producer got a request after one cancelled?", avatar.isCancellationRequested)
avatar.succeed("avatar.png")
print("patient awaiter:", await patient.result.map { $0 })
withExtendedLifetime(patientInterest) {}

session.finishTasksAndInvalidate()  // every task has ended; nothing to cancel
server.stop()
print("\nDone.")
