package io.ramjet.server.broker;

import io.netty.buffer.Unpooled;
import io.ramjet.model.DestinationKind;
import io.ramjet.model.MessagePosition;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.model.SubscriptionType;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.protocol.command.AckRequest;
import io.ramjet.protocol.command.AuthenticateRequest;
import io.ramjet.protocol.command.ClaimClientIdRequest;
import io.ramjet.protocol.command.CloseConsumerRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.PullRequest;
import io.ramjet.protocol.command.PullResponse;
import io.ramjet.protocol.command.PulledMessage;
import io.ramjet.protocol.command.ReleaseBatchRequest;
import io.ramjet.protocol.command.SendRequest;
import io.ramjet.protocol.command.SendResponse;
import io.ramjet.protocol.command.SubscribeRequest;
import io.ramjet.protocol.command.SubscribeResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.message.MessageHeaders;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/** A bare-bones broker client over real sockets, speaking the commands as the JMS client will. */
final class BrokerTestClient implements AutoCloseable {

    static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** A pulled message: its position, count and body as text. */
    record Received(long consumer, int queueId, long offset, int deliveryCount, String body) {
        MessagePosition position() {
            return new MessagePosition(queueId, offset);
        }
    }

    private final RemotingClient client = new RemotingClient(RemotingClientConfig.defaults());
    private final String address;

    BrokerTestClient(String address) {
        this.address = address;
    }

    /** A client of the broker at {@code address} logged in as {@code user}, anonymous when it is null. */
    static BrokerTestClient loggedIn(String address, String user, String password) throws Exception {
        BrokerTestClient client = new BrokerTestClient(address);
        if (user != null) {
            try {
                client.invoke(CommandCode.AUTHENTICATE, new AuthenticateRequest(user, password));
            } catch (Exception refused) {
                client.close();
                throw refused;
            }
        }
        return client;
    }

    SendResponse send(String destination, DestinationKind kind, int queueId, String text) throws Exception {
        return send(destination, kind, queueId, true, 0, text);
    }

    SendResponse send(String destination, DestinationKind kind, int queueId, boolean persistent, long deliveryTime,
                      String text) throws Exception {
        byte[] properties = MessagePropertiesCodec.encode(new MessageHeaders().property("p", text));
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[properties.length + body.length];
        System.arraycopy(properties, 0, all, 0, properties.length);
        System.arraycopy(body, 0, all, properties.length, body.length);
        SendRequest header = new SendRequest(destination, kind, queueId, persistent, deliveryTime, 0,
                properties.length);
        return client.invokeSync(address, Frame.request(CommandCode.SEND, header, Unpooled.wrappedBuffer(all)), TIMEOUT)
                .header(SendResponse.class);
    }

    /** Sends a message with the given header section (properties bytes) and JMSExpiration in the command header. */
    SendResponse sendRaw(String destination, DestinationKind kind, int queueId, byte[] properties, String text,
                         long expiration) throws Exception {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[properties.length + body.length];
        System.arraycopy(properties, 0, all, 0, properties.length);
        System.arraycopy(body, 0, all, properties.length, body.length);
        SendRequest header = new SendRequest(destination, kind, queueId, true, 0, expiration, properties.length);
        return client.invokeSync(address, Frame.request(CommandCode.SEND, header, Unpooled.wrappedBuffer(all)), TIMEOUT)
                .header(SendResponse.class);
    }

    int subscribe(SubscriptionRef ref, long consumer) throws Exception {
        return subscribe(ref, consumer, null);
    }

    /**
     * Attaches a consumer with a message selector, null for none. A subscription under a client id
     * is attached over the connection holding it, so the id is claimed first, as the JMS client does.
     */
    int subscribe(SubscriptionRef ref, long consumer, String selector) throws Exception {
        if (ref.clientId() != null && ref.type() != SubscriptionType.QUEUE && ref.type() != SubscriptionType.TOPIC) {
            invoke(CommandCode.CLAIM_CLIENT_ID, ClaimClientIdRequest.claim(ref.clientId()));
        }
        return client.invokeSync(address, Frame.request(CommandCode.SUBSCRIBE,
                new SubscribeRequest(ref, selector, false, consumer)), TIMEOUT)
                .header(SubscribeResponse.class).queueCount();
    }

    /** Sends a message to queue 0 whose header section holds these properties (name, value, name, value ...). */
    SendResponse sendWithProperties(String destination, DestinationKind kind, String text, Object... properties)
            throws Exception {
        MessageHeaders headers = new MessageHeaders();
        for (int i = 0; i < properties.length; i += 2) {
            headers.property((String) properties[i], properties[i + 1]);
        }
        return sendRaw(destination, kind, 0, MessagePropertiesCodec.encode(headers), text, 0);
    }

    CompletableFuture<List<Received>> pullAsync(SubscriptionRef ref, long consumer, int max, long holdMillis) {
        Duration timeout = TIMEOUT.plusMillis(holdMillis);
        return client.invoke(address, Frame.request(CommandCode.PULL, new PullRequest(consumer, ref, max, holdMillis)),
                timeout).thenApply(response -> decode(consumer, response));
    }

    List<Received> pull(SubscriptionRef ref, long consumer, int max, long holdMillis) throws Exception {
        return pullAsync(ref, consumer, max, holdMillis).get();
    }

    void ack(SubscriptionRef ref, List<Received> messages) throws Exception {
        ack(CommandCode.ACK, ref, messages);
    }

    /**
     * Pulls and acknowledges until a pull held 300 ms finds nothing; returns what it took, each
     * body with the delivery count it came with.
     */
    Map<String, Integer> drainCounts(SubscriptionRef ref, long consumer) throws Exception {
        Map<String, Integer> out = new TreeMap<>();
        List<Received> got;
        while (!(got = pull(ref, consumer, 10, 300)).isEmpty()) {
            for (Received r : got) {
                out.put(r.body(), r.deliveryCount());
            }
            ack(ref, got);
        }
        return out;
    }

    /** As an AUTO or DUPS_OK session acknowledges: answered before the acknowledgement is durable. */
    void lazyAck(SubscriptionRef ref, List<Received> messages) throws Exception {
        ack(CommandCode.LAZY_ACK, ref, messages);
    }

    private void ack(short code, SubscriptionRef ref, List<Received> messages) throws Exception {
        client.invokeSync(address, Frame.request(code,
                new AckRequest(messages.get(0).consumer(), ref, messages.stream().map(Received::position).toList())),
                TIMEOUT);
    }

    void release(SubscriptionRef ref, long consumer, Received message, boolean countDelivery) throws Exception {
        release(ref, consumer, List.of(message), countDelivery);
    }

    /** One RELEASE_BATCH naming {@code messages} in their order. */
    void release(SubscriptionRef ref, long consumer, List<Received> messages, boolean countDelivery) throws Exception {
        client.invokeSync(address, Frame.request(CommandCode.RELEASE_BATCH, new ReleaseBatchRequest(consumer, ref,
                messages.stream().map(Received::position).toList(), countDelivery)), TIMEOUT);
    }

    void closeConsumer(SubscriptionRef ref, long consumer) throws Exception {
        client.invokeSync(address, Frame.request(CommandCode.CLOSE_CONSUMER, new CloseConsumerRequest(consumer, ref, List.of())),
                TIMEOUT);
    }

    Frame invoke(short code, Object header) throws Exception {
        return client.invokeSync(address, Frame.request(code, header), TIMEOUT);
    }

    Frame invoke(short code, Object header, byte[] body) throws Exception {
        return client.invokeSync(address, Frame.request(code, header, Unpooled.wrappedBuffer(body)), TIMEOUT);
    }

    private static List<Received> decode(long consumer, Frame response) {
        PullResponse header = response.header(PullResponse.class);
        byte[] body = response.bodyBytes();
        List<Received> out = new ArrayList<>();
        int at = 0;
        for (PulledMessage m : header.messages()) {
            MessageRecordView record = MessageRecordView.wrap(ByteBuffer.wrap(body, at, m.recordSize()).slice());
            ByteBuffer bytes = record.body();
            byte[] text = new byte[bytes.remaining()];
            bytes.get(text);
            out.add(new Received(consumer, m.queueId(), m.queueOffset(), m.deliveryCount(),
                    new String(text, StandardCharsets.UTF_8)));
            at += m.recordSize();
        }
        return out;
    }

    @Override
    public void close() {
        client.close();
    }
}
