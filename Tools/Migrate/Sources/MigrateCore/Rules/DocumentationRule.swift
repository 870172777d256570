/// What a form's documentation keeps of the original's: nothing about the parameters it
/// drops (a handler documented under another name included), and no advice to cancel what
/// the original returns, which the form discards.
///
/// The text itself is written by `composeDocumentation`; this unit carries the examples.
struct DocumentationRule: DocumentedRule {
    static let summary =
        "A form's documentation drops the handler's lines (under any name) and the advice to cancel the handle it discards."

    static let examples: [RuleExample] = [
        RuleExample(
            "a stream form's block comment: its nested parameter list keeps its header without the handlers, and a note that advises cancelling the returned value goes",
            before: """
                public protocol CancellableRequest: Sendable { func cancelRequest() }
                public final class Client: Sendable {
                    /**
                     Streams a chat.

                     - Parameters:
                        - query: The query.
                        - onResult: Receives each chunk.
                        - completion: Called when all chunks are delivered.

                     - Returns: An object that references the streaming session.

                     - Note: This method makes a session for streaming. You should hold a reference to the returned value, and when you're done - call cancel() on it.
                     */
                    public func chatsStream(
                        query: String, onResult: @escaping @Sendable (Result<Int, any Error>) -> Void,
                        completion: (@Sendable ((any Error)?) -> Void)?
                    ) -> any CancellableRequest { fatalError() }
                }
                """,
            function: "Client.chatsStream(query:onResult:completion:)",
            after: .generated(
                [
                    "/// - Parameters:\n    ///    - query: The query.",
                    "/// - Note: This method makes a session for streaming.\n",
                ],
                absent: ["- onResult:", "- completion:", "hold a reference", "references the streaming session"])),
        RuleExample(
            "a handler documented as `completion` though named `completionHandler` loses its line",
            before: """
                public final class API: Sendable {
                    /// Loads.
                    ///
                    /// - Parameters:
                    ///   - key: The key.
                    ///   - completion: Receives the value.
                    public func load(key: String, completionHandler: @escaping @Sendable (Int?, (any Error)?) -> Void) {}
                }
                """,
            function: "API.load(key:completionHandler:)",
            after: .generated(["///   - key: The key."], absent: ["completion: Receives"])),
        RuleExample(
            "a sentence that advises cancelling the returned task goes; the rest of its paragraph stays",
            before: """
                public final class Task: Sendable { public func cancel() {} }
                public final class API: Sendable {
                    /// Fetches a user.
                    ///
                    /// Call `cancel()` on the returned task to stop the request. The user is cached.
                    public func fetch(id: Int, completion: @escaping @Sendable (Result<Int, any Error>) -> Void) -> Task {
                        Task()
                    }
                }
                """,
            function: "API.fetch(id:completion:)",
            after: .generated(["/// The user is cached."], absent: ["on the returned task"])),
        RuleExample(
            "a clause about the returned handle goes; the rest of its sentence stays",
            before: """
                public final class Operation: Sendable { public func cancel() {} }
                public final class API: Sendable {
                    /// Downloads a blob; returns the operation, which cancels the download.
                    public func download(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) -> Operation {
                        Operation()
                    }
                }
                """,
            function: "API.download(completion:)",
            after: .generated(["/// Downloads a blob.\n"], absent: ["returns the operation"])),
        RuleExample(
            "a block comment's handler line and its continuation go, with a blank line before the note",
            before: """
                public final class Ticket: Sendable { public func cancel() {} }
                public final class API: Sendable {
                    /**
                     Saves.
                     - parameter name: The name.
                     - parameter completion: The block to execute.
                     It should have the following argument signature: `(Result<Void, Error>)`.
                     */
                    public func save(name: String, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) -> Ticket {
                        Ticket()
                    }
                }
                """,
            function: "API.save(name:completion:)",
            after: .generated(
                ["/// Saves.\n    ///\n    /// Cancelling", "/// - parameter name: The name."],
                absent: ["completion: The block", "argument signature"])),
    ]
}
