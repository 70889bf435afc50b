package io.ramjet.server.broker.security;

import io.netty.buffer.Unpooled;
import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.protocol.command.AuthenticateRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.PullRequest;
import io.ramjet.protocol.command.PullResponse;
import io.ramjet.protocol.command.PulledMessage;
import io.ramjet.protocol.command.SendRequest;
import io.ramjet.protocol.command.SendResponse;
import io.ramjet.protocol.command.SubscribeRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.message.MessageHeaders;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.tls.ClientTls;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;

/**
 * One user's connection to a {@link SecuredDeployment} broker over TLS, speaking raw frames: what
 * an attacker sends where the JMS client would refuse on its own side.
 */
final class AttackClient implements AutoCloseable {

    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final RemotingClient client;
    private final String address;

    /** Connected and authenticated as {@code user}. */
    AttackClient(SecuredDeployment deployment, String address, String user) throws Exception {
        // a broker just started in a cold JVM may take more than the default to complete its first handshakes
        this.client = new RemotingClient(RemotingClientConfig.defaults().withConnectTimeout(TIMEOUT)
                .withTls(ClientTls.defaults().withTrust(deployment.trust())));
        this.address = address;
        invoke(CommandCode.AUTHENTICATE, new AuthenticateRequest(user, SecuredDeployment.PASSWORD));
    }

    Frame invoke(short code, Object header) throws Exception {
        return client.invokeSync(address, Frame.request(code, header), TIMEOUT);
    }

    /** The refusal of a request that must be refused; fails when it is served. */
    RemotingCommandException refused(short code, Object header) throws Exception {
        try {
            invoke(code, header);
        } catch (RemotingCommandException e) {
            return e;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RemotingCommandException refusal) {
                return refusal;
            }
            throw e;
        }
        throw new AssertionError(CommandCode.name(code) + " was served");
    }

    /** A send that must be refused: nothing is stored. */
    void refusedSend(String queue, String text) throws Exception {
        refusedSend(queue, text, 0);
    }

    /** The refusal of a send in transaction {@code transactionId} (0: none) that must be refused: nothing is stored. */
    RemotingCommandException refusedSend(String queue, String text, long transactionId) throws Exception {
        try {
            send(queue, text, transactionId);
        } catch (RemotingCommandException e) {
            return e;
        }
        throw new AssertionError("a send to " + queue + " was stored");
    }

    SendResponse send(String queue, String text, long transactionId) throws Exception {
        return send(queue, DestinationKind.QUEUE, text, transactionId);
    }

    SendResponse send(String destination, DestinationKind kind, String text, long transactionId) throws Exception {
        byte[] properties = MessagePropertiesCodec.encode(new MessageHeaders());
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[properties.length + body.length];
        System.arraycopy(properties, 0, all, 0, properties.length);
        System.arraycopy(body, 0, all, properties.length, body.length);
        SendRequest header = new SendRequest(destination, kind, 0, true, 0, 0, properties.length, transactionId);
        return client.invokeSync(address, Frame.request(CommandCode.SEND, header, Unpooled.wrappedBuffer(all)),
                TIMEOUT).header(SendResponse.class);
    }

    void subscribe(SubscriptionRef subscription, long consumer) throws Exception {
        invoke(CommandCode.SUBSCRIBE, new SubscribeRequest(subscription, null, false, consumer));
    }

    /** The bodies of what one pull, held up to {@code holdMillis}, brings. */
    List<String> pull(SubscriptionRef subscription, long consumer, long holdMillis) throws Exception {
        Frame response = client.invokeSync(address, Frame.request(CommandCode.PULL,
                new PullRequest(consumer, subscription, 16, holdMillis)), TIMEOUT.plusMillis(holdMillis));
        byte[] bytes = response.bodyBytes();
        List<String> bodies = new ArrayList<>();
        int at = 0;
        for (PulledMessage m : response.header(PullResponse.class).messages()) {
            ByteBuffer body = MessageRecordView.wrap(ByteBuffer.wrap(bytes, at, m.recordSize()).slice()).body();
            byte[] text = new byte[body.remaining()];
            body.get(text);
            bodies.add(new String(text, StandardCharsets.UTF_8));
            at += m.recordSize();
        }
        return bodies;
    }

    @Override
    public void close() {
        client.close();
    }
}
