package io.ramjet.server.broker.error;

/**
 * The broker cannot do what it needs of the network: listen on its port (the address is taken,
 * TLS does not start) or have its master answer (down, unreachable, silent past the timeout, or
 * refusing this slave). Checked, so that whoever starts a broker or asks a master decides what
 * such an outage means; the message names the address and the reason, the cause is the
 * transport's failure. The packages that speak the wire throw it in place of their own.
 */
public final class NetworkException extends Exception {

    public NetworkException(String message, Throwable cause) {
        super(message, cause);
    }
}
