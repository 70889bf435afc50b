package io.ramjet.server.broker.transaction;

import io.netty.buffer.Unpooled;
import io.ramjet.model.DestinationKind;
import io.ramjet.model.MessagePosition;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.model.TxState;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.protocol.command.AckRequest;
import io.ramjet.protocol.command.AuthenticateRequest;
import io.ramjet.protocol.command.CloseConsumerRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.PullRequest;
import io.ramjet.protocol.command.PullResponse;
import io.ramjet.protocol.command.PulledMessage;
import io.ramjet.protocol.command.SendRequest;
import io.ramjet.protocol.command.SendResponse;
import io.ramjet.protocol.command.SubscribeRequest;
import io.ramjet.protocol.command.TxAcksRequest;
import io.ramjet.protocol.command.TxCheckRequest;
import io.ramjet.protocol.command.TxCommitCountedRequest;
import io.ramjet.protocol.command.TxEndRequest;
import io.ramjet.protocol.command.TxPrepareRequest;
import io.ramjet.protocol.command.TxQueryRequest;
import io.ramjet.protocol.command.TxStateResponse;
import io.ramjet.protocol.command.XaRecoverResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.message.MessageHeaders;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.server.cluster.ClusterIntroduction;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.function.LongFunction;

/**
 * A bare client of one broker over real sockets, speaking the transaction commands as the JMS
 * client will. It answers TX_CHECK with what {@code checkAnswer} says, and records the ids asked.
 */
final class TxClient implements AutoCloseable {

    static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** A pulled message. */
    record Received(long consumer, int queueId, long offset, int deliveryCount, String body) {
        MessagePosition position() {
            return new MessagePosition(queueId, offset);
        }
    }

    private final RemotingClient client = new RemotingClient(RemotingClientConfig.defaults());
    private final String address;
    final Queue<Long> checked = new ConcurrentLinkedQueue<>();

    TxClient(String address) {
        this(address, id -> TxState.OPEN);
    }

    TxClient(String address, LongFunction<TxState> checkAnswer) {
        this.address = address;
        client.registerProcessor(CommandCode.TX_CHECK, (connection, request) -> {
            long id = request.header(TxCheckRequest.class).transactionId();
            checked.add(id);
            return request.reply(new TxStateResponse(id, checkAnswer.apply(id)));
        }, Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tx-check-answer");
            t.setDaemon(true);
            return t;
        }));
    }

    SendResponse send(String queue, int queueId, String text, long transactionId) throws Exception {
        return send(queue, queueId, text, transactionId, 0, 0);
    }

    SendResponse send(String queue, int queueId, String text, long transactionId, long deliveryTime,
                      long expiration) throws Exception {
        return client.invokeSync(address, sendFrame(queue, queueId, text, transactionId, deliveryTime, expiration),
                TIMEOUT).header(SendResponse.class);
    }

    private static Frame sendFrame(String queue, int queueId, String text, long transactionId, long deliveryTime,
                                   long expiration) {
        byte[] properties = MessagePropertiesCodec.encode(new MessageHeaders().expiration(expiration));
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[properties.length + body.length];
        System.arraycopy(properties, 0, all, 0, properties.length);
        System.arraycopy(body, 0, all, properties.length, body.length);
        SendRequest header = new SendRequest(queue, DestinationKind.QUEUE, queueId, true, deliveryTime, expiration,
                properties.length, transactionId);
        return Frame.request(CommandCode.SEND, header, Unpooled.wrappedBuffer(all));
    }

    /** Sends without waiting for the answer: a request written after this one goes behind it. */
    CompletableFuture<Frame> sendBehind(String queue, int queueId, String text, long transactionId, long expiration) {
        return client.invoke(address, sendFrame(queue, queueId, text, transactionId, 0, expiration), TIMEOUT);
    }

    void commitCounted(long transactionId, int halves) throws Exception {
        client.invokeSync(address, Frame.request(CommandCode.TX_COMMIT_COUNTED,
                new TxCommitCountedRequest(transactionId, halves, List.of())), TIMEOUT);
    }

    void authenticate(String user, String password) throws Exception {
        client.invokeSync(address, Frame.request(CommandCode.AUTHENTICATE, new AuthenticateRequest(user, password)),
                TIMEOUT);
    }

    void subscribe(String queue, long consumer) throws Exception {
        client.invokeSync(address, Frame.request(CommandCode.SUBSCRIBE,
                new SubscribeRequest(SubscriptionRef.queue(queue), null, false, consumer)), TIMEOUT);
    }

    void closeConsumer(String queue, long consumer) throws Exception {
        client.invokeSync(address, Frame.request(CommandCode.CLOSE_CONSUMER,
                new CloseConsumerRequest(consumer, SubscriptionRef.queue(queue), List.of())), TIMEOUT);
    }

    List<Received> pull(String queue, long consumer, int max, long holdMillis) throws Exception {
        Frame response = client.invokeSync(address, Frame.request(CommandCode.PULL,
                new PullRequest(consumer, SubscriptionRef.queue(queue), max, holdMillis)),
                TIMEOUT.plusMillis(holdMillis));
        PullResponse header = response.header(PullResponse.class);
        byte[] bytes = response.bodyBytes();
        List<Received> out = new ArrayList<>();
        int at = 0;
        for (PulledMessage m : header.messages()) {
            MessageRecordView record = MessageRecordView.wrap(ByteBuffer.wrap(bytes, at, m.recordSize()).slice());
            ByteBuffer body = record.body();
            byte[] text = new byte[body.remaining()];
            body.get(text);
            out.add(new Received(consumer, m.queueId(), m.queueOffset(), m.deliveryCount(),
                    new String(text, StandardCharsets.UTF_8)));
            at += m.recordSize();
        }
        return out;
    }

    /** Pulls and acknowledges until a pull held for {@code holdMillis} brings nothing. */
    List<Received> drain(String queue, long consumer, long holdMillis) throws Exception {
        List<Received> all = new ArrayList<>();
        List<Received> got;
        while (!(got = pull(queue, consumer, 16, holdMillis)).isEmpty()) {
            all.addAll(got);
            ack(queue, got);
        }
        return all;
    }

    void ack(String queue, List<Received> messages) throws Exception {
        client.invokeSync(address, Frame.request(CommandCode.ACK, acks(queue, messages).get(0)), TIMEOUT);
    }

    static List<AckRequest> acks(String queue, List<Received> messages) {
        if (messages.isEmpty()) {
            return List.of();
        }
        return List.of(new AckRequest(messages.get(0).consumer(), SubscriptionRef.queue(queue),
                messages.stream().map(Received::position).toList()));
    }

    void prepare(long transactionId, String xid, String coordinator, List<AckRequest> acks) throws Exception {
        client.invokeSync(address, Frame.request(CommandCode.TX_PREPARE,
                new TxPrepareRequest(transactionId, xid, coordinator, acks)), TIMEOUT);
    }

    /** TX_ACKS: part of what transaction {@code transactionId} consumed, sent ahead of its prepare or end. */
    void consumedAhead(long transactionId, List<AckRequest> acks) throws Exception {
        client.invokeSync(address, Frame.request(CommandCode.TX_ACKS, new TxAcksRequest(transactionId, acks)),
                TIMEOUT);
    }

    void end(long transactionId, String xid, boolean commit, List<AckRequest> acks) throws Exception {
        client.invokeSync(address, Frame.request(CommandCode.TX_END,
                new TxEndRequest(transactionId, xid, commit, acks)), TIMEOUT);
    }

    void commit(long transactionId) throws Exception {
        end(transactionId, "", true, List.of());
    }

    List<String> recover() throws Exception {
        return client.invokeSync(address, Frame.request(CommandCode.XA_RECOVER, null), TIMEOUT)
                .header(XaRecoverResponse.class).xids();
    }

    /** TX_QUERY as a participant broker asks it: proven a member of the cluster first. */
    TxState query(long transactionId) throws Exception {
        new ClusterIntroduction(TxBrokers.CLUSTER_SECRET, "participant", 9).to(client, address, TIMEOUT)
                .get(TIMEOUT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        return client.invokeSync(address, Frame.request(CommandCode.TX_QUERY, new TxQueryRequest(transactionId)),
                TIMEOUT).header(TxStateResponse.class).state();
    }

    @Override
    public void close() {
        client.close();
    }
}
