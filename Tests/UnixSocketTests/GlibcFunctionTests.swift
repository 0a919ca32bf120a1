import Glibc
import Testing
import UnixSocket

@Suite("glibc functions looked up by name")
struct GlibcFunctionTests {
    @Test("a function glibc has is found and called; a name it lacks gives nil")
    func lookup() throws {
        typealias Abs = @convention(c) (Int32) -> Int32
        let abs = try #require(GlibcFunction.named("abs", as: Abs.self))
        #expect(abs(-7) == 7)
        #expect(GlibcFunction.named("todod_no_such_function", as: Abs.self) == nil)
    }
}
