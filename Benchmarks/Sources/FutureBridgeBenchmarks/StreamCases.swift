import AsyncAlgorithms
import Dispatch

/// `AsyncStream`, `AsyncChannel` and raw continuations.
enum StreamCases {
    static func b4UnsafeContinuation(_ n: Int, on queue: DispatchQueue) async {
        for index in 0..<n {
            let value = await withUnsafeContinuation { continuation in
                queue.async { continuation.resume(returning: index) }
            }
            blackHole(value)
        }
    }

    /// The raw continuation of B4 from the main actor (it resumes there).
    @MainActor
    static func b4mUnsafeContinuationOnTheMainActor(_ n: Int, on queue: DispatchQueue) async {
        for index in 0..<n {
            let value = await withUnsafeContinuation { continuation in
                queue.async { continuation.resume(returning: index) }
            }
            blackHole(value)
        }
    }

    static func b4CheckedContinuation(_ n: Int, on queue: DispatchQueue) async {
        for index in 0..<n {
            let value = await withCheckedContinuation { continuation in
                queue.async { continuation.resume(returning: index) }
            }
            blackHole(value)
        }
    }

    static func b6AsyncStream(_ n: Int) async {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
        let producer = Task {
            for value in 0..<n { continuation.yield(value) }
            continuation.finish()
        }
        var sum = 0
        for await value in stream.map({ $0 &* 2 }).filter({ $0 % 3 != 0 }) { sum &+= value }
        await producer.value
        blackHole(sum)
    }

    static func b6AsyncChannel(_ n: Int) async {
        let channel = AsyncChannel<Int>()
        let producer = Task {
            for value in 0..<n { await channel.send(value) }
            channel.finish()
        }
        var sum = 0
        for await value in channel.map({ $0 &* 2 }).filter({ $0 % 3 != 0 }) { sum &+= value }
        await producer.value
        blackHole(sum)
    }
}
