package io.ramjet.server.broker.security;

import io.ramjet.protocol.command.AuthenticateRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.frame.FrameDescriptor;
import io.ramjet.protocol.frame.HeaderCodec;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.security.GeneralSecurityException;

/**
 * A TLS socket to a broker written frame by frame, or byte by byte: what a client that does not
 * follow the protocol sends (a frame too long, half a frame held open).
 */
final class RawTlsConnection implements AutoCloseable {

    private static final HeaderCodec HEADERS = new HeaderCodec();

    private final SSLSocket socket;
    private final DataOutputStream out;
    private final DataInputStream in;
    private int nextRequestId = 1;

    RawTlsConnection(int port) throws IOException, GeneralSecurityException {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {new TrustingAnyCertificate()}, null);
        socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port);
        socket.setSoTimeout(5_000);
        out = new DataOutputStream(socket.getOutputStream());
        in = new DataInputStream(socket.getInputStream());
    }

    /** Whether the broker closes the connection (in the handshake or after) within five seconds. */
    boolean closedByTheBroker() {
        return closedWithin(5_000);
    }

    /** Whether the connection is still open half a second on (the broker would have closed it by then). */
    boolean stillOpen() {
        return !closedWithin(500);
    }

    private boolean closedWithin(int millis) {
        try {
            socket.setSoTimeout(millis);
            socket.startHandshake();
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /** Sends AUTHENTICATE and reads its answer; throws when refused. */
    void authenticate(String user) throws IOException {
        socket.setSoTimeout(10_000);
        byte[] header = HEADERS.encode(new AuthenticateRequest(user, SecuredDeployment.PASSWORD));
        writeStart(FrameDescriptor.frameLength(header.length, 0), CommandCode.AUTHENTICATE, header);
        out.flush();
        int length = in.readInt();
        byte[] rest = new byte[length];
        in.readFully(rest);
        byte flags = rest[FrameDescriptor.FLAGS_OFFSET - FrameDescriptor.LENGTH_FIELD_LENGTH];
        if ((flags & FrameDescriptor.FLAG_ERROR) != 0) {
            throw new IOException("AUTHENTICATE refused");
        }
    }

    /**
     * Sends the start of a SEND frame whose length field says {@code frameLength}, and up to
     * {@code bodyBytes} of it: less when the broker closes the connection meanwhile.
     */
    void sendPartialFrame(int frameLength, int bodyBytes) {
        try {
            writeStart(frameLength, CommandCode.SEND, new byte[0]);
            byte[] chunk = new byte[64 * 1024];
            for (int sent = 0; sent < bodyBytes; sent += chunk.length) {
                out.write(chunk, 0, Math.min(chunk.length, bodyBytes - sent));
            }
            out.flush();
        } catch (IOException closed) {
            // the broker refused the frame: closedByTheBroker() tells
        }
    }

    private void writeStart(int frameLength, short code, byte[] header) throws IOException {
        out.writeInt(frameLength);
        out.writeByte(FrameDescriptor.VERSION);
        out.writeInt(nextRequestId++);
        out.writeShort(code);
        out.writeByte(FrameDescriptor.FLAG_REQUEST);
        out.writeInt(header.length);
        out.write(header);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
