// Migrating a callback module step by step: `swift run MigratingCallbacks`.
//
// `LegacyStore` is the kind of code a team starts from: completion handlers over
// URLSession, DispatchIO and Process. Step 1 wraps each call in a future, step 2 awaits
// them, step 3 rewrites the module on async/await while its old callback API stays, on
// top of the new code, for the callers nobody has migrated yet.
import Dispatch
import Foundation
import FutureBridge
import LoopbackHTTP

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

func step(_ title: String) { print("\n## \(title)") }

let server = try LoopbackHTTPServer { path in
    path == "/price/apples" ? .init(body: "3") : .init(status: 404, body: "unknown item")
}
let session = URLSession(configuration: .ephemeral)
let notes = FileManager.default.temporaryDirectory.appendingPathComponent("migrating-\(UUID()).txt")
try Data("delivery on Tuesday".utf8).write(to: notes)

/// The legacy module: three completion-handler APIs.
enum LegacyStore {
    struct StoreError: Error { let status: Int }

    static func price(of item: String, completion: @escaping @Sendable (Int?, (any Error)?) -> Void) {
        session.dataTask(with: server.url("/price/\(item)")) { data, response, error in
            guard let data, let response = response as? HTTPURLResponse else { return completion(nil, error) }
            guard response.statusCode == 200 else { return completion(nil, StoreError(status: response.statusCode)) }
            completion(Int(String(decoding: data, as: UTF8.self)), nil)
        }.resume()
    }

    static func readNotes(completion: @escaping @Sendable (String?, (any Error)?) -> Void) {
        let file = open(notes.path, O_RDONLY)
        DispatchIO.read(fromFileDescriptor: file, maxLength: 1 << 16, runningHandlerOn: .global()) { data, errno in
            close(file)
            completion(
                errno == 0 ? String(decoding: Array(data), as: UTF8.self) : nil, errno == 0 ? nil : POSIXError(.EIO))
        }
    }

    static func runReport(completion: @escaping @Sendable (Int32) -> Void) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exit 0"]
        process.terminationHandler = { completion($0.terminationStatus) }
        try? process.run()
    }
}

// MARK: - Step 1: futures, one line per call site
step("Step 1: each call becomes a future; the completion handler is the promise's adapter")

let apples = Future<Int> { LegacyStore.price(of: "apples", completion: $0.resolve) }
let pears = Future<Int> { LegacyStore.price(of: "pears", completion: $0.resolve) }
let report = Future<Int32> { LegacyStore.runReport(completion: $0.resolve) }
print("apples:", await apples.outcome)
print("pears:", await pears.outcome)
print("report exit status:", await report.outcome)

// MARK: - Step 2: async/await at the call sites
step("Step 2: callers await, with no future in sight")

let (price, deliveryNotes) = try await whenAll(
    Future<Int> { LegacyStore.price(of: "apples", completion: $0.resolve) },
    Future<String> { LegacyStore.readNotes(completion: $0.resolve) }
).value
print("apples cost \(price); notes say: \(deliveryNotes)")
let direct = try await withPromise(of: Int.self) { LegacyStore.price(of: "apples", completion: $0.resolve) }
print("withPromise, straight to a value:", direct)

// MARK: - Step 3: the module moves to async/await; its callback API stays
step("Step 3: the new async module, and the old callback API kept on top of it")

/// The rewritten module: plain async functions.
enum Store {
    static func price(of item: String) async throws -> Int {
        let (data, response) = try await Future<(Data?, URLResponse?)> { promise in
            let task = session.dataTask(with: server.url("/price/\(item)"), completionHandler: promise.resolve)
            promise.cancelOnRequest(task.cancel)
            task.resume()
        }.value
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200, let data, let price = Int(String(decoding: data, as: UTF8.self)) else {
            throw LegacyStore.StoreError(status: status)
        }
        return price
    }
}

/// The old entry point, one line on top of the new code, for callers not migrated yet.
/// They keep their `(Int?, Error?)` handler on their queue, and get a handle to cancel.
@discardableResult
func legacyPrice(of item: String, completion: @escaping @Sendable (Int?, (any Error)?) -> Void) -> CancellationToken {
    Future { try await Store.price(of: item) }.deliver(on: .global(), to: completion)
}

let answered = Promise<String>()
legacyPrice(of: "apples") { price, error in
    answered.succeed("legacy caller got \(price.map(String.init) ?? "nil"), \(error.map { "\($0)" } ?? "no error")")
}
print(try await answered.future.value)
print("new callers:", try await Store.price(of: "apples"))

session.finishTasksAndInvalidate()  // every task has ended; nothing to cancel
server.stop()
try? FileManager.default.removeItem(at: notes)
print("\nDone.")
