package io.ramjet.protocol.remoting;

import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.NotSslRecordException;

import javax.net.ssl.SSLException;
import java.nio.channels.ClosedChannelException;

/**
 * One line for a connection's failure that an operator can act on: a TLS failure without Netty's
 * wrappers and without the hex dump of a record that was not TLS; any other failure as it is.
 */
final class TlsFailures {

    private TlsFailures() {
    }

    static String describe(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof DecoderException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof NotSslRecordException) {
            return "TLS: what arrived is not TLS (a plain-text client on a TLS port?)";
        }
        if (cause instanceof ClosedChannelException) {
            return "the peer closed the connection during the TLS handshake (a plain-text port?)";
        }
        if (cause instanceof SSLException) {
            return "TLS: " + cause.getMessage();
        }
        return failure.toString();
    }
}
