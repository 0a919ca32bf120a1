import Foundation
import TestHarness

/// One request, written by hand, and how to recognise the end of its answer: the same
/// loop times todod and Redis (`RawConnection`, one request in flight), so that
/// their ratio compares the servers, not two clients.
struct RoundTrip: Sendable {
    let name: String
    let request: [UInt8]
    /// Reads up to the end of this request's answer and returns its bytes' range.
    let awaitAnswer: @Sendable (RawConnection) throws -> Range<Int>

    /// A todod request line (`{"event":…,"id":"bench","data":…}`). With one request in
    /// flight the id can stay the same; the answer is the next line carrying it. A change is
    /// broadcast to every other client in the asker's own frame, id included, so connections
    /// writing side by side each need an id of their own.
    static func todod(_ event: String, data: String, id: String = "bench") -> RoundTrip {
        let line = #"{"event":"\#(event)","id":"\#(id)","data":\#(data)}"# + "\n"
        let marker = Array(#""id":"\#(id)""#.utf8)
        return RoundTrip(name: event, request: Array(line.utf8)) { connection in
            while true {
                let answer = try connection.nextLine()
                // A frame's keys come sorted, so its id is at its end (`…,"id":"bench"}`): looked for there
                // first. Searched for through a list of 100's 37 kB, each of its 3,000 quotes a candidate,
                // it cost this client about as much as todod's answer, a cost the Redis loop, which reads a
                // length, does not pay. The whole line is still searched when the end does not match.
                let tail = max(answer.lowerBound, answer.upperBound - marker.count - 1)..<answer.upperBound
                if connection.contains(marker, in: tail) || connection.contains(marker, in: answer) { return answer }
            }
        }
    }

    /// A Redis command in RESP (`*2\r\n$3\r\nGET\r\n$1\r\nk\r\n` for `GET k`); the answer is
    /// one reply: a bulk string (`$300\r\n` and 300 bytes), or a one-line status.
    static func redis(_ arguments: String...) -> RoundTrip {
        var command = "*\(arguments.count)\r\n"
        for argument in arguments { command += "$\(argument.utf8.count)\r\n\(argument)\r\n" }
        return RoundTrip(name: arguments.first ?? "", request: Array(command.utf8)) { connection in
            let header = try connection.bytes(in: connection.nextLine())
            switch header.first {
            case UInt8(ascii: "$"):
                guard let length = Int(String(decoding: header.dropFirst().dropLast(), as: UTF8.self)) else {
                    throw BenchError("Redis answered with a bad bulk header: \(String(decoding: header, as: UTF8.self))")
                }
                if length < 0 { throw BenchError("Redis has no such key") }
                let value = try connection.next(exactly: length + 2)
                return value.lowerBound..<(value.upperBound - 2)
            case UInt8(ascii: "-"):
                throw BenchError("Redis refused the command: \(String(decoding: header, as: UTF8.self))")
            default:
                return 0..<0
            }
        }
    }

    /// Sends the request once and returns its answer's bytes, to check what the timed loop reads.
    func answer(on connection: RawConnection) throws -> [UInt8] {
        try connection.send(request)
        return try connection.bytes(in: awaitAnswer(connection))
    }

    /// One client, one request in flight, for `duration` seconds: one sample.
    func run(on connection: RawConnection, duration: Double) throws -> Sample {
        var sample = Sample()
        sample.latencies.reserveCapacity(1 << 16)
        let start = now()
        let deadline = start + UInt64(duration * 1e9)
        var t = start
        repeat {
            try connection.send(request)
            _ = try awaitAnswer(connection)
            let done = now()
            sample.latencies.append(done - t)
            t = done
        } while t < deadline
        sample.elapsed = t - start
        return sample
    }
}
