package io.ramjet.provider.client;

import io.ramjet.model.TxState;
import io.ramjet.protocol.command.AckRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.TxCheckRequest;
import io.ramjet.protocol.command.TxAcksRequest;
import io.ramjet.protocol.command.TxCommitCountedRequest;
import io.ramjet.protocol.command.TxEndRequest;
import io.ramjet.protocol.command.TxPrepareRequest;
import io.ramjet.protocol.command.TxStateResponse;
import io.ramjet.protocol.command.XaRecoverResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;

/**
 * A transaction's requests to the brokers it touched (prepare, end, commit by count, with what it
 * consumed sent ahead where one frame cannot hold it), the recovery of prepared XA branches, and
 * the answers to the brokers' check-backs (TX_CHECK) about this client's transactions.
 */
final class TransactionRequests {

    private final RemotingClient remoting;
    private final Duration timeout;
    private volatile LongFunction<TxState> transactionStates = id -> TxState.UNKNOWN;

    /** Answers TX_CHECK on {@code remoting}'s connections from now on. */
    TransactionRequests(RemotingClient remoting, Duration timeout) {
        this.remoting = remoting;
        this.timeout = timeout;
        remoting.registerProcessor(CommandCode.TX_CHECK, (channel, request) -> {
            long id = request.header(TxCheckRequest.class).transactionId();
            return request.reply(new TxStateResponse(id, transactionStates.apply(id)));
        }, Runnable::run);
    }

    CompletableFuture<Void> prepareTransaction(String brokerAddress, long transactionId, String xid,
                                               String coordinator, List<ConsumedMessages> consumed) {
        return RemotingFailures.translated(sendAhead(brokerAddress, transactionId, consumed).thenCompose(rest ->
                Frames.invoke(remoting, brokerAddress, CommandCode.TX_PREPARE,
                        new TxPrepareRequest(transactionId, xid, coordinator, rest), timeout)));
    }

    CompletableFuture<Void> endTransaction(String brokerAddress, long transactionId, String xid, boolean commit,
                                           List<ConsumedMessages> consumed) {
        return RemotingFailures.translated(sendAhead(brokerAddress, transactionId, consumed).thenCompose(rest ->
                Frames.invoke(remoting, brokerAddress, CommandCode.TX_END,
                        new TxEndRequest(transactionId, xid, commit, rest), timeout)));
    }

    CompletableFuture<Void> commitCounted(String brokerAddress, long transactionId, int halves,
                                          List<ConsumedMessages> consumed) {
        return RemotingFailures.translated(sendAhead(brokerAddress, transactionId, consumed).thenCompose(rest ->
                Frames.invoke(remoting, brokerAddress, CommandCode.TX_COMMIT_COUNTED,
                        new TxCommitCountedRequest(transactionId, halves, rest), timeout)));
    }

    /**
     * Sends in TX_ACKS frames, held by the broker with the open transaction, what the transaction
     * consumed beyond what its deciding request's frame holds; completes, once the broker holds
     * them, with what that request is to name itself.
     */
    private CompletableFuture<List<AckRequest>> sendAhead(String address, long transactionId,
                                                          List<ConsumedMessages> consumed) {
        ConsumedAhead split = ConsumedAhead.split(acks(consumed), remoting.config().maxFrameLength());
        List<CompletableFuture<Void>> held = new ArrayList<>();
        for (List<AckRequest> batch : split.ahead()) {
            held.add(Frames.invoke(remoting, address, CommandCode.TX_ACKS, new TxAcksRequest(transactionId, batch),
                    timeout));
        }
        return CompletableFuture.allOf(held.toArray(CompletableFuture[]::new)).thenApply(all -> split.rest());
    }

    private static List<AckRequest> acks(List<ConsumedMessages> consumed) {
        return consumed.stream().map(c -> new AckRequest(c.attachment().consumerId(), c.attachment().subscription(),
                c.positions())).toList();
    }

    CompletableFuture<List<String>> recoverXids(CompletableFuture<List<String>> masterAddresses) {
        return RemotingFailures.translated(masterAddresses.thenCompose(addresses -> {
            List<CompletableFuture<List<String>>> answers = new ArrayList<>();
            for (String address : addresses) {
                answers.add(remoting.invoke(address, Frame.request(CommandCode.XA_RECOVER, null), timeout)
                        .thenApply(response -> {
                            Frames.release(response);
                            return response.header(XaRecoverResponse.class).xids();
                        }));
            }
            return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(all -> {
                Set<String> xids = new LinkedHashSet<>();
                answers.forEach(answer -> xids.addAll(answer.join()));
                return List.copyOf(xids);
            });
        }));
    }

    void answerTransactionChecks(LongFunction<TxState> states) {
        transactionStates = Objects.requireNonNull(states, "states");
    }
}
