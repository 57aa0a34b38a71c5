// Compiled with -parse-stdlib so it builds for iOS without an SDK: only Builtin types.
precedencegroup AssignmentPrecedence { assignment: true }

struct Counter {
    var value: Builtin.Int64

    @inline(__always) func doubled() -> Builtin.Int64 {
        return Builtin.add_Int64(value, value)
    }

    @inline(__always) mutating func bump(by amount: Builtin.Int64) {
        value = Builtin.add_Int64(value, amount)
    }
}

@inline(never) public func compute(_ x: Builtin.Int64, label y: Builtin.Int64) -> Builtin.Int64 {
    var counter = Counter(value: x)
    counter.bump(by: y)
    return counter.doubled()
}

@inline(never) func apply<T>(_ body: (T) -> T, _ value: T) -> T {
    return body(value)
}

public func useClosure(_ x: Builtin.Int64) -> Builtin.Int64 {
    return apply({ (a: Builtin.Int64) -> Builtin.Int64 in Builtin.mul_Int64(a, x) }, x)
}
