import SwiftSyntax

/// The call, and what the form does with what it returns.
extension AsyncFormPlanner {
    struct HandleNote {
        var documentation: String
        var report: String
        /// Whether cancelling the task stops the operation.
        var cancels: Bool
        /// The returned type this tool could not resolve, if that is why it does not cancel.
        var unresolved: String?
    }

    /// What a form's documentation says when nothing stops the operation (completed with
    /// the reason, or a period).
    static let notStopped =
        "Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then dropped"

    /// The call, and what to do with what it returns: wire a cancel handle to the
    /// promise's cancel requests, or discard a value.
    ///
    /// A handle that is not `Sendable` is still cancelled when `sendsArguments` is true:
    /// every argument of the call is `Sendable`, so the handle the call returns belongs to
    /// no one else, and `cancelOnRequest` (which takes a `sending` closure and runs it in
    /// the caller's isolation) can have it, in an `UncheckedCancelHandle`: the compiler puts
    /// the handle in the region of a receiver that is not `Sendable`, and nothing else
    /// touches it after the call.
    func callWithHandle(
        _ site: FunctionSite, call: CallText, promise: String, sendsArguments: Bool = false
    ) -> ([String], HandleNote?, Bool) {
        let indent = site.memberIndent + 8
        func rendered(_ prefix: String) -> [String] {
            var call = call
            call.prefix = prefix
            return call.lines(indent: indent)
        }
        guard let stop = stopper(site) else { return (rendered(""), nil, false) }
        let optional = site.returnType.map { TypeText.optionalWrapped($0) != nil } ?? false
        let chain = optional ? "?" : ""
        let returned = "`\(site.selectorText)` returns"
        func assigned(_ name: String, unchecked: Bool = false) -> [String] {
            guard unchecked else { return rendered("let \(name) = ") }
            let cancellable = site.freshName("cancellable", avoiding: [promise, name])
            return rendered("let \(cancellable) = ") + ["let \(name) = UncheckedCancelHandle(\(cancellable))"]
        }
        func discarded(_ comment: String) -> [String] {
            // (A paired `stop…()` that cannot be called leaves a call that returns nothing.)
            ["// " + comment] + rendered(site.returnType != nil ? "_ = " : "")
        }
        /// The call with its result discarded, and notes that say why it does not cancel.
        func notCancelled(comment: String, why: String, report: String, unresolved: String? = nil)
            -> ([String], HandleNote?, Bool)
        {
            (
                discarded("Not cancelled: " + comment),
                HandleNote(
                    documentation: Self.notStopped + why,
                    report: report + ": not cancelled", cancels: false, unresolved: unresolved),
                false
            )
        }
        switch stop {
        case .success(let stopper) where stopper.onSelf:
            var lines = rendered(site.returnType != nil ? "_ = " : "")
            lines.append("\(promise).cancelOnRequest { \(stopper.call("", chain: "")) }")
            return (
                lines,
                HandleNote(
                    documentation: "Cancelling the awaiting task calls `\(stopper.method)()`.",
                    report: "\(stopper.method)() on `\(stopper.typeName)`", cancels: true),
                false
            )
        case .success(let stopper):
            let handle = site.freshName(stopper.resumes ? "task" : "handle", avoiding: [promise])
            var lines = assigned(handle, unchecked: stopper.unchecked)
            lines.append("\(promise).cancelOnRequest { \(stopper.call(handle, chain: chain)) }")
            if stopper.resumes { lines.append("\(handle)\(chain).resume()  // URLSession tasks start suspended.") }
            let what =
                stopper.resumes
                ? "cancels the `\(stopper.typeName)`" : "calls `\(stopper.method)()` on the `\(stopper.typeName)`"
            return (
                lines,
                HandleNote(
                    documentation: "Cancelling the awaiting task \(what) that \(returned)"
                        + (stopper.resumes ? ", which is resumed here." : "."),
                    report: stopper.resumes
                        ? "cancels and resumes `\(stopper.typeName)`"
                        : stopper.method == "cancel"
                            ? "cancels `\(stopper.typeName)`" : "\(stopper.method)() on `\(stopper.typeName)`",
                    cancels: true),
                stopper.unchecked
            )
        case .failure(.workItem):
            let handle = site.freshName("workItem", avoiding: [promise])
            let wiring =
                optional
                ? ["if let \(handle) { \(promise).cancelOnRequest(\(handle)) }"]
                : ["\(promise).cancelOnRequest(\(handle))"]
            return (
                assigned(handle) + wiring,
                HandleNote(
                    documentation: "Cancelling the awaiting task cancels the `DispatchWorkItem` that \(returned).",
                    report: "cancels `DispatchWorkItem`", cancels: true),
                false
            )
        case .failure(.notSendable(let name, let method)) where sendsArguments:
            // The handle shares the region of the receiver it came from, which the compiler
            // cannot see through: the box carries it into the `sending` cancel handler, the only
            // code that touches it after the call.
            let handle = site.freshName("handle", avoiding: [promise])
            let call = (method.returnsValue ? "_ = " : "") + "\(handle).value\(chain).\(method.name)()"
            return (
                assigned(handle, unchecked: true) + ["\(promise).cancelOnRequest { \(call) }"],
                HandleNote(
                    documentation:
                        "Cancelling the awaiting task calls `\(method.name)()` on the `\(name)` that \(returned), in the caller's isolation (the `\(name)` is not `Sendable`: nothing else touches it after the call).",
                    report: "\(method.name)() on `\(name)` (not Sendable: in the caller's isolation)", cancels: true),
                true
            )
        case .failure(.notSendable(let name, let method)):
            return notCancelled(
                comment: "`\(name)` has \(method.name)() but is not Sendable.",
                why: ": the `\(name)` that \(returned) is not `Sendable`.", report: "`\(name)` not Sendable")
        case .failure(.isolated(let method, let isolation)):
            let explained = isolation.explained(method, from: "the cancel handler")
            return notCancelled(
                comment: explained + ".", why: ": " + explained + ".", report: "`\(method)` \(isolation.short)")
        case .failure(.unknown(let name)):
            return notCancelled(
                comment: "`\(name)` is not known to have cancel().",
                why: " (the `\(name)` that \(returned) is not known to be a cancel handle).",
                report: "returns `\(name)`, not known to have cancel()", unresolved: name)
        case .failure(.noCancel(let name)):
            return notCancelled(
                comment: "`\(name)` has no cancel(), invalidate() or stop().",
                why: ": the `\(name)` that \(returned) has no `cancel()`.",
                report: "returns `\(name)`, which has no cancel()")
        case .failure(.value(let spelled)):
            return (discarded("`\(spelled)` is not a cancel handle."), nil, false)
        }
    }

    /// The bridge around the call. `withPromise` runs its body in the caller's
    /// isolation, so the same spelling serves functions on an actor and off one.
    func bridge(_ site: FunctionSite, value: String, promise: String, lines: inout [String]) -> [String] {
        ["try await withPromise(of: \(TypeText.metatypeExpression(value))) { \(promise) in"]
            + lines.map { "    " + $0 } + ["}"]
    }
}
