import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` with `100 Continue` as soon as the request's head is read.
///
/// A client that sends it (curl for any body over 1 MB, some native HTTP libraries) holds the body back until the
/// server says to go on, or until its own timer runs out: without this answer every such photo upload or import
/// waited a second before its first byte (docs/benchmarks.md "Media"). Hummingbird does not answer it itself. Limits
/// still hold: a body too large is refused by the route as it is read, as without `Expect`.
final class ExpectContinueHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let request) = unwrapInboundIn(data), Self.expectsContinue(request) {
            // An informational head: NIO's encoder frames it without a body, and the final answer follows as usual.
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        }
        context.fireChannelRead(data)
    }

    /// RFC 9110 §10.1.1: the only expectation defined is "100-continue", compared without regard to case.
    static func expectsContinue(_ request: HTTPRequest) -> Bool {
        request.headerFields[values: .expect].contains { $0.lowercased() == "100-continue" }
    }
}
