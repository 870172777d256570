import SwiftSyntax

/// The completion-handler shapes FutureBridge's `Promise.resolve` adapters take.
enum HandlerShape {
    /// `(Result<T, E>) -> Void`
    case result(success: TypeSyntax, failure: TypeSyntax)
    /// `(T?, Error?) -> Void`
    case optionalValueAndError(TypeSyntax)
    /// `(Error?, T?) -> Void` (Node style)
    case errorAndOptionalValue(TypeSyntax)
    /// `(T, Error?) -> Void`
    case valueAndError(TypeSyntax)
    /// `(Error?) -> Void`
    case errorOnly
    /// `(T) -> Void`
    case value(TypeSyntax)
    /// `() -> Void`
    case none
    /// `(A?, B?, Error?) -> Void`: the value is the pair `(A?, B?)`.
    case optionalPair(TypeSyntax, TypeSyntax)
    /// `success: (T) -> Void, failure: (Error) -> Void` as the last two parameters.
    case successAndFailure(TypeSyntax?)
    /// `(Response) -> Void` where `Response` has `result: Result<T, E>`: the value is `T`,
    /// the error is thrown.
    case carriedResult(whole: TypeSyntax, success: TypeSyntax)
    /// `(Response) -> Void` where `Response` has `error: Error?`: the value is the response,
    /// unless its `error` is set, which is thrown.
    case carriedError(TypeSyntax)

    /// Recognizes a single handler's shape. `isError` says which types are errors: by
    /// spelling alone, or (``SourceIndex/isError(_:)``) by conformance too.
    init?(_ closure: ClosureType, isError: @escaping (TypeSyntax) -> Bool = TypeText.isError) {
        let parameters = closure.parameters
        let isOptionalError = { (type: TypeSyntax) in TypeText.optionalWrapped(type).map(isError) ?? false }
        // A handler that receives a closure (`(@escaping () -> Void) -> Void`, a `done`
        // to call) is the inverse of a completion handler.
        if parameters.contains(where: { TypeText.containsFunctionType($0) }) { return nil }
        switch parameters.count {
        case 0:
            self = .none
        case 1:
            let only = parameters[0]
            if let (success, failure) = TypeText.resultArguments(only) {
                self = .result(success: success, failure: failure)
            } else if isOptionalError(only) {
                self = .errorOnly
            } else if isError(only) || TypeText.isVoid(only) {
                return nil
            } else {
                self = .value(only)
            }
        case 2:
            let (first, second) = (parameters[0], parameters[1])
            if isOptionalError(second), let wrapped = TypeText.optionalWrapped(first),
                !isError(wrapped)
            {
                self = .optionalValueAndError(wrapped)
            } else if isOptionalError(first), let wrapped = TypeText.optionalWrapped(second),
                !isError(wrapped)
            {
                self = .errorAndOptionalValue(wrapped)
            } else if isOptionalError(second), !isError(first), !TypeText.isVoid(first),
                TypeText.resultArguments(first) == nil
            {
                self = .valueAndError(first)
            } else {
                return nil
            }
        case 3:
            let (first, second, third) = (parameters[0], parameters[1], parameters[2])
            guard isOptionalError(third),
                let firstWrapped = TypeText.optionalWrapped(first), !isError(firstWrapped),
                let secondWrapped = TypeText.optionalWrapped(second), !isError(secondWrapped)
            else { return nil }
            self = .optionalPair(first, second)
        default:
            return nil
        }
    }

    /// A completion that reports the end and nothing else: `(Error?)`, `()`, `(Result<Void, E>)`.
    var endsWithoutValue: Bool {
        switch self {
        case .errorOnly, .none: true
        case .result(let success, _): TypeText.isVoid(success)
        default: false
        }
    }

    /// The type a stream of this handler's values yields, if the shape has a stream form.
    var streamElement: TypeSyntax? {
        switch self {
        case .value(let type), .optionalValueAndError(let type), .carriedError(let type): type
        case .result(let success, _), .carriedResult(_, let success): TypeText.isVoid(success) ? nil : success
        default: nil
        }
    }

    /// The shape with the error a `(T) -> Void` handler's value carries, if it carries one.
    func carryingError(_ index: SourceIndex) -> HandlerShape {
        guard case .value(let type) = self, let carried = index.carriedError(in: type) else { return self }
        switch carried {
        case .resultMember(let success, _): return .carriedResult(whole: type, success: success)
        case .errorMember: return .carriedError(type)
        }
    }

    /// Whether the handler can report a failure.
    var carriesError: Bool {
        switch self {
        case .value, .none: false
        default: true
        }
    }

    /// How the report names the shape.
    var name: String {
        switch self {
        case .result: "(Result<T, E>) -> Void"
        case .optionalValueAndError: "(T?, Error?) -> Void"
        case .errorAndOptionalValue: "(Error?, T?) -> Void"
        case .valueAndError: "(T, Error?) -> Void"
        case .errorOnly: "(Error?) -> Void"
        case .value: "(T) -> Void"
        case .none: "() -> Void"
        case .optionalPair: "(A?, B?, Error?) -> Void"
        case .successAndFailure: "success: (T) -> Void, failure: (Error) -> Void"
        case .carriedResult: "(Response) -> Void, Response.result: Result<T, E>"
        case .carriedError: "(Response) -> Void, Response.error: Error?"
        }
    }

    /// The types that make up the async form's value (empty for `Void`).
    var valueTypes: [TypeSyntax] {
        switch self {
        case .result(let success, _): TypeText.isVoid(success) ? [] : [success]
        case .optionalValueAndError(let type), .errorAndOptionalValue(let type), .valueAndError(let type),
            .value(let type):
            [type]
        case .errorOnly, .none: []
        case .optionalPair(let first, let second): [first, second]
        case .successAndFailure(let type): type.map { TypeText.isVoid($0) ? [] : [$0] } ?? []
        case .carriedResult(_, let success): TypeText.isVoid(success) ? [] : [success]
        case .carriedError(let type): [type]
        }
    }

    /// The async form's return type, or nil for `Void`.
    var valueText: String? {
        switch self {
        case .optionalPair(let first, let second): "(\(text(first)), \(text(second)))"
        default: valueTypes.first.map { text($0) }
        }
    }

    /// Whether a value that is not `Sendable` can come back as `sending`: FutureBridge's
    /// `SendingPromise` has an adapter for the shape (all but the pair of optionals).
    var canSendValue: Bool {
        switch self {
        case .optionalPair: false
        default: true
        }
    }

    /// The value a scoped form hands to its body, for the shapes that have a scoped
    /// form: the success of a `Result`, the argument of `(T) -> Void`, nothing for
    /// `() -> Void`.
    var scopedArgument: TypeSyntax?? {
        switch self {
        case .result(let success, _), .carriedResult(_, let success): .some(TypeText.isVoid(success) ? nil : success)
        case .value(let type), .carriedError(let type): .some(type)
        case .none: .some(nil)
        default: nil
        }
    }
}
