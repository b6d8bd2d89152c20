// A Swift 6.3.1 miscompile at -O (x86_64 Linux), reduced from the panel's import preview.
//
//   swiftc -O -parse-as-library tuple-return-before-await.swift && ./a.out
//
// prints `affected form: index 0` (the index is lost) and `panel's form: index 5`; at -Onone, or
// with `-Xfrontend -disable-llvm-optzns`, both print 5. `-Xllvm -opt-bisect-limit` puts it in
// LLVM's DSEPass on the specialised `run<(Int, Big?)>`: the store of the tuple's first element into
// the indirect result, made before the `try await`, is deleted. It needs all of: a generic caller
// that returns the closure's result indirectly, a `do`/`catch` whose both branches return a tuple,
// and a non-trivial struct awaited inside the tuple. Binding the awaited value to a local first
// (the panel's `BoundedConcurrency`) or `try?` compile correctly.
//
// scripts/test compiles this file and its companion at -O: the panel's form must keep its index.

struct Big { var a: Int; var s: String; var t: String; var u: [Int] }

@inline(never) func fetch(_ id: Int) async throws -> Big {
    await Task.yield()
    if id < 0 { throw CancellationError() }
    return Big(a: id, s: "x", t: "y", u: [])
}

@inline(never) func run<T>(_ body: () async -> T) async -> T { await body() }

@main struct Reproduction {
    static func main() async {
        let id = CommandLine.arguments.count + 4   // 5, and not a constant the optimiser can fold
        let affected = await run { () async -> (Int, Big?) in
            do { return (id, try await fetch(id)) } catch { return (id, nil) }
        }
        print("affected form: index \(affected.0)")
        let panels = await run { () async -> (Int, Big?) in
            let value = try? await fetch(id)
            return (id, value)
        }
        print("panel's form: index \(panels.0)")
    }
}
